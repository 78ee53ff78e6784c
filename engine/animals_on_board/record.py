"""The record's ``config``: the seats, the species in play and the whole draw
order, read, written and dealt from the game's committed seed."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from ..errors import RecordError
from ..fairness import shuffle
from ..protocol import JSON, JSONObject
from .tiles import SEAT_COUNTS, SPECIES, Tile, is_tile, species_in_play, tiles_of

FORMAT: Final = "animals-on-board-game-record"
VERSION: Final = 1


@dataclass(frozen=True, slots=True)
class Config:
    players: tuple[str, ...]
    species: tuple[str, ...]
    """Sorted: which species are in play is public, their order means nothing."""
    deck: tuple[Tile, ...]
    """The whole draw order of the tiles in play: the stack, top first."""

    @property
    def seats(self) -> int:
        return len(self.players)


def deal(players: Sequence[str], seed: str) -> Config:
    """The species and the draw order the seed gives: each its own shuffle, the
    species from the box's order, the deck from the chosen species' tiles in
    letter and number order."""
    count = species_in_play(len(players))
    species = tuple(sorted(shuffle(seed, list(SPECIES), "species")[:count]))
    deck = shuffle(seed, [t for s in species for t in tiles_of(s)], "deck")
    return Config(tuple(players), species, tuple(deck))


def config_to_json(config: Config) -> JSONObject:
    return {"players": list(config.players), "species": list(config.species),
            "deck": list(config.deck)}


def config_from_json(raw: Mapping[str, JSON]) -> Config:
    """A record's config, checked; RecordError in one line for what is wrong."""
    players = raw.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError("'players' must be a list of names")
    if len(players) not in SEAT_COUNTS:
        raise RecordError(f"Animals on Board is for 2 to 4 players, not {len(players)}")
    species = raw.get("species")
    count = species_in_play(len(players))
    if not isinstance(species, list) or not all(isinstance(s, str) and len(s) == 1
                                                and s in SPECIES for s in species):
        raise RecordError(f"'species' must be a list of letters from A to L, got {species!r}")
    if len(set(species)) != len(species) or len(species) != count:
        raise RecordError(f"{len(players)} players play with {count} different species, "
                          f"not {species!r}")
    letters = [str(s) for s in species]
    deck = raw.get("deck")
    if not isinstance(deck, list):
        raise RecordError("'deck' must be the list of every tile in play, in draw order")
    wanted = {t for s in letters for t in tiles_of(s)}
    seen: set[str] = set()
    for tile in deck:
        if not is_tile(tile) or tile not in wanted:
            raise RecordError(f"the deck holds {tile!r}, not a tile of the species in play")
        assert isinstance(tile, str)
        if tile in seen:
            raise RecordError(f"the deck holds {tile} twice")
        seen.add(tile)
    if seen != wanted:
        raise RecordError("the deck lacks " + ", ".join(sorted(wanted - seen)))
    return Config(tuple(str(p) for p in players), tuple(sorted(letters)),
                  tuple(str(t) for t in deck))
