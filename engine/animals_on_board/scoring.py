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


_PACK = 1024
"""``Key`` packed in one int (species <= 12 and number sums <= 300 stay below it),
which orders the same way: the knapsack compares ints, not tuples."""


def _best_reduction(herds: dict[str, list[Tile]]) -> list[Tile]:
    """The tiles to keep so that exactly 10 stay (fewer only if 10 cannot), by
    the order of ``Key``. A knapsack over species: how many of each stay, the
    highest-numbered ones always, since the numbers only count for a lone tile."""
    best: dict[int, int] = {0: 0}
    """Tiles kept so far -> the best packed key for that many."""
    choices: list[dict[int, tuple[int, int]]] = []
    """Per species: tiles kept after it -> (how many of it stay, tiles kept before it)."""
    for tiles in herds.values():
        options = []
        for k in _KEEPABLE:
            if k > len(tiles):
                break
            stay = tiles[:k]
            options.append((k, (species_points(stay) * _PACK + (1 if k else 0)) * _PACK
                            + sum(number_of(t) for t in stay)))
        grown: dict[int, int] = {}
        chose: dict[int, tuple[int, int]] = {}
        for total, key in best.items():
            for k, gain in options:
                if total + k > TARGET_ARK:
                    break
                new_key = key + gain
                held = grown.get(total + k)
                if held is None or new_key > held:
                    grown[total + k] = new_key
                    chose[total + k] = (k, total)
        best = grown
        choices.append(chose)
    total = max(best)
    kept: list[Tile] = []
    for tiles, chose in zip(reversed(list(herds.values())), reversed(choices), strict=True):
        k, total = chose[total]
        kept.extend(tiles[:k])
    return kept


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
