"""A snake as it lies: its head, its tiles in order each up or down, its tail.

Laying is a fold over the tiles: each tile starts at the open end (a point and
a heading) the one before it left. Tiles are kept laid (``Laid``), so a new
tile costs only its own parts, and turning the last tiles over re-lays only
those.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from .exact import Q2
from .geometry import MARGIN, Placed, Segment, Vec, closer, lay, point
from .pieces import (
    HEAD_LENGTH,
    START_HEADING,
    TAIL,
    TONGUE_TIP,
    WIDTH,
    Colour,
    Part,
    Side,
    colour_of,
    shape_of,
)

OVERLAP_LIMIT = Fraction(WIDTH) - Fraction(1, 1000)
"""Two pieces overlap when their centre lines come closer than W - 0.001: pieces
exactly W apart (a tile and the one two before it across a ``line 4``) do not."""

NECK: Vec = point(0, 0)
HEAD = Segment(NECK, point(0, HEAD_LENGTH))
TONGUE: Vec = point(*TONGUE_TIP)


@dataclass(frozen=True, slots=True)
class Laid:
    """A tile (or the tail) as it lies: its parts and the open end it leaves."""

    tile: str
    side: Side
    parts: tuple[Placed, ...]
    end: Vec
    heading: int
    box: tuple[float, float, float, float] = field(init=False, repr=False, compare=False)
    """The bounding box of its parts' centre lines (each part's own, joined)."""

    def __post_init__(self) -> None:
        boxes = [p.box for p in self.parts]
        object.__setattr__(self, "box", (min(b[0] for b in boxes), min(b[1] for b in boxes),
                                         max(b[2] for b in boxes), max(b[3] for b in boxes)))

    @property
    def colour(self) -> Colour:
        return colour_of(self.tile)


def lay_shape(shape: Sequence[Part], side: Side, at: Vec,
              heading: int) -> tuple[tuple[Placed, ...], Vec, int]:
    parts = []
    for part in shape:
        placed, at, heading = lay(part, at, heading, mirrored=side == "down")
        parts.append(placed)
    return tuple(parts), at, heading


def lay_tile(tile: str, side: Side, at: Vec, heading: int) -> Laid:
    parts, end, out = lay_shape(shape_of(tile), side, at, heading)
    return Laid(tile, side, parts, end, out)


def lay_tail(at: Vec, heading: int) -> Laid:
    parts, end, out = lay_shape(TAIL, "up", at, heading)
    return Laid("tail", "up", parts, end, out)


def flipped(side: Side) -> Side:
    return "down" if side == "up" else "up"


@dataclass(slots=True)
class Snake:
    """One snake: its tiles from the head on, and its tail once the game ends."""

    tiles: list[Laid]
    tail: Laid | None = None

    def copy(self) -> Snake:
        return Snake(self.tiles[:], self.tail)

    def open_end(self, upto: int | None = None) -> tuple[Vec, int]:
        """The point and heading the next tile starts from (after the first
        ``upto`` tiles; all of them by default). The tail does not count."""
        n = len(self.tiles) if upto is None else upto
        if n == 0:
            return NECK, START_HEADING
        last = self.tiles[n - 1]
        return last.end, last.heading

    def with_tile(self, tile: str, side: Side) -> Laid:
        """``tile`` laid at the open end (not added)."""
        return lay_tile(tile, side, *self.open_end())

    def turned(self, k: int) -> list[Laid]:
        """The tiles with the last ``k`` turned over and laid again."""
        n = len(self.tiles)
        out = self.tiles[:n - k]
        at, heading = self.open_end(n - k)
        for old in self.tiles[n - k:]:
            laid = lay_tile(old.tile, flipped(old.side), at, heading)
            out.append(laid)
            at, heading = laid.end, laid.heading
        return out

    def tail_tip(self) -> Vec | None:
        return None if self.tail is None else self.tail.end

    def distance_square(self) -> Q2 | None:
        """The square of the distance from the tongue tip to the tail tip, exactly."""
        tip = self.tail_tip()
        if tip is None:
            return None
        dx, dy = tip[0] - TONGUE[0], tip[1] - TONGUE[1]
        return dx * dx + dy * dy


_APART = float(OVERLAP_LIMIT) + MARGIN
"""Pieces whose boxes are further apart than this cannot overlap (no part of one
is within the limit of a part of the other): the test every pair of parts makes
first, once for the pieces."""


def overlap(a: Laid, b: Laid) -> bool:
    """Whether two pieces overlap (``OVERLAP_LIMIT``)."""
    p, q = a.box, b.box
    if p[0] - q[2] > _APART or q[0] - p[2] > _APART or p[1] - q[3] > _APART \
            or q[1] - p[3] > _APART:
        return False
    return any(closer(p, q, OVERLAP_LIMIT) for p in a.parts for q in b.parts)


def overlapped(tile: Laid, before: Sequence[Laid]) -> list[int]:
    """The indices of the tiles in ``before`` that ``tile`` overlaps; ``before``
    is every tile laid before it, the one it is connected to last (which never
    counts). The head never counts either: it is not in ``before``."""
    return [i for i, other in enumerate(before[:-1]) if overlap(tile, other)]
