"""The pieces of Make-a-snake as data (shared/spec/make-a-snake.md, "Pieces"):
the colours, the eight tile shapes, the head and the tail.

A shape is a list of parts laid one after another: a straight ``Line`` of some
length or a circular ``Bend`` of some radius turning some degrees (to the left
when the tile lies up, to the right when it lies down). Lengths are whole
centimetres and turns multiples of 45 degrees, which keeps every point of a
snake exact (``exact``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Literal

Colour = Literal["red", "green", "blue", "yellow"]
Side = Literal["up", "down"]
Mode = Literal["competitive", "lollipop"]

COLOURS: tuple[Colour, ...] = ("red", "green", "blue", "yellow")
"""In seat order too: seat i plays the head and tail of colour i."""
SIDES: tuple[Side, ...] = ("up", "down")
MODES: tuple[Mode, ...] = ("competitive", "lollipop")

WIDTH = 4
"""A piece's body: the points closer than WIDTH / 2 to its centre line."""


@dataclass(frozen=True, slots=True)
class Line:
    length: int


@dataclass(frozen=True, slots=True)
class Bend:
    """A circular arc of ``radius`` turning ``turn`` degrees, left when positive
    (as the tile lies up)."""

    radius: int
    turn: int


Part = Line | Bend

SHAPES: dict[int, tuple[Part, ...]] = {
    1: (Line(8),),
    2: (Line(4),),
    3: (Bend(8, 45),),
    4: (Bend(6, 90),),
    5: (Bend(10, 90),),
    6: (Bend(4, 180),),
    7: (Bend(8, 45), Bend(8, -45)),  # an S: left then right when up
    8: (Line(4), Bend(5, 90)),
}

HEAD_LENGTH = 5
"""The head's centre line runs from the neck [0, 0] north to [0, 5]."""
TONGUE_TIP = (0, 7)
START_HEADING = 270
"""A snake grows from the neck heading south."""
TAIL = (Line(5),)

TILES: tuple[str, ...] = tuple(f"{c}-{n}" for c in COLOURS for n in SHAPES)
"""Every tile id, colour by colour, shape by shape: the order stacks are shuffled from."""

_TILE_ID = re.compile(r"^(red|green|blue|yellow)-([1-8])$")


def is_tile(tile: object) -> bool:
    return isinstance(tile, str) and _TILE_ID.match(tile) is not None


@cache
def colour_of(tile: str) -> Colour:
    colour = tile.rsplit("-", 1)[0]
    assert colour in COLOURS, tile
    return colour


def shape_of(tile: str) -> tuple[Part, ...]:
    return SHAPES[int(tile.rsplit("-", 1)[1])]


def stack_tiles(colour: Colour) -> list[str]:
    """The tiles of one colour in their fixed order (shape 1 to 8)."""
    return [f"{colour}-{n}" for n in SHAPES]
