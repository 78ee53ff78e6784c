"""The game's vocabulary as small typed aliases (in the manner of python-chess)."""
from __future__ import annotations

from typing import Literal

Pos = tuple[int, int]
"""A board position ``(x, y)``: x grows east, y grows south. The starter is at (0, 0)."""

Side = int
"""0 N, 1 E, 2 S, 3 W."""

Arc = int
"""0 NW corner, 1 N middle, 2 NE corner, 3 E middle, 4 SE corner, 5 S middle, 6 SW, 7 W."""

Rotation = int
"""Quarter turns clockwise, 0-3."""

Seat = int
"""A player's index in the turn order."""

Variant = Literal["classic", "pitchfork", "animals"]
Length = Literal["short", "long"]
Face = Literal["front", "back"]
Terrain = Literal["G", "S"]
BeastType = Literal["blue", "orange", "worm", "any"]
ItemKind = Literal["gold", "silver", "flower"]
Token = Literal["boot", "pitchfork"]
CreatureName = Literal["fly", "frog"]

SIDES: tuple[Side, ...] = (0, 1, 2, 3)
STEP: tuple[Pos, ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))
"""The offset to the neighbour across each side."""


def side_arcs(side: Side) -> tuple[Arc, Arc, Arc]:
    """The arcs along a side, read clockwise."""
    return (2 * side, 2 * side + 1, (2 * side + 2) % 8)
