"""Scoring an ark at the end (shared/spec/animals-on-board.md, "Scoring"):

1. every species of which the ark holds exactly two tiles is returned;
2. while more than 10 tiles are left, tiles are returned down to 10, never
   leaving a species at exactly two. The engine chooses for the player: the
   choice that scores most, then leaves more species, then keeps the
   higher-numbered tiles;
3. a lone tile of a species scores its number, each tile of a herd of three,
   four or five scores 5, and each crate held scores 1.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .tiles import TARGET_ARK, Tile, number_of, species_of

HERD_POINTS = 5
"""What each tile of a herd (three to five of a species) scores."""

_KEEPABLE = (0, 1, 3, 4, 5)
"""How many tiles of a species may stay: never exactly two."""

Key = tuple[int, int, int]
"""What the reduction maximises, in order: points, species kept, the sum of the
kept tiles' numbers (keeping the higher-numbered tiles)."""


@dataclass(frozen=True, slots=True)
class ArkScore:
    kept: tuple[Tile, ...]
    """The scored ark, sorted."""
    pairs: tuple[Tile, ...]
    """Returned because their species had exactly two tiles."""
    reduced: tuple[Tile, ...]
    """Returned to bring the ark down to 10 tiles."""
    tile_points: int
    crate_points: int

    @property
    def points(self) -> int:
        return self.tile_points + self.crate_points

    @property
    def species(self) -> int:
        """Different species on the scored ark: the first tie-break."""
        return len({species_of(t) for t in self.kept})


def species_points(tiles: list[Tile]) -> int:
    """The points of the tiles of one species left on a scored ark."""
    if len(tiles) == 1:
        return number_of(tiles[0])
    return HERD_POINTS * len(tiles) if len(tiles) >= 3 else 0


def _by_species(tiles: Iterable[Tile]) -> dict[str, list[Tile]]:
    """Each species' tiles, highest number first."""
    out: dict[str, list[Tile]] = {}
    for t in sorted(tiles, key=lambda t: (species_of(t), -number_of(t))):
        out.setdefault(species_of(t), []).append(t)
    return out


def _best_reduction(herds: dict[str, list[Tile]]) -> list[Tile]:
    """The tiles to keep so that exactly 10 stay (fewer only if 10 cannot), by
    the order of ``Key``. A knapsack over species: how many of each stay, the
    highest-numbered ones always, since the numbers only count for a lone tile."""
    best: dict[int, tuple[Key, list[Tile]]] = {0: ((0, 0, 0), [])}
    for tiles in herds.values():
        grown: dict[int, tuple[Key, list[Tile]]] = {}
        for total, (key, kept) in best.items():
            for k in _KEEPABLE:
                if k > len(tiles) or total + k > TARGET_ARK:
                    continue
                stay = tiles[:k]
                gain = (species_points(stay) if stay else 0, 1 if stay else 0,
                        sum(number_of(t) for t in stay))
                new_key = (key[0] + gain[0], key[1] + gain[1], key[2] + gain[2])
                held = grown.get(total + k)
                if held is None or new_key > held[0]:
                    grown[total + k] = (new_key, kept + stay)
        best = grown
    return best[max(best)][1]


def score_ark(ark: Iterable[Tile], crates: int) -> ArkScore:
    herds = _by_species(ark)
    pairs = [t for tiles in herds.values() if len(tiles) == 2 for t in tiles]
    herds = {s: tiles for s, tiles in herds.items() if len(tiles) != 2}
    left = [t for tiles in herds.values() for t in tiles]
    kept = _best_reduction(herds) if len(left) > TARGET_ARK else left
    reduced = sorted(set(left) - set(kept))
    points = sum(species_points(tiles) for tiles in _by_species(kept).values())
    return ArkScore(tuple(sorted(kept)), tuple(sorted(pairs)), tuple(reduced), points, crates)


def winners(scores: dict[int, ArkScore]) -> list[int]:
    """The seats (of those given) with most points, then most species; a tie
    after that is shared."""
    if not scores:
        return []
    best = max((s.points, s.species) for s in scores.values())
    return sorted(seat for seat, s in scores.items() if (s.points, s.species) == best)
