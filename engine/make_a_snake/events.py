"""Make-a-snake's events as typed JSON objects (shared/spec/make-a-snake.md):
what a player submits, what the server appends, what a record holds. The fold
(``rules.fold``) checks every field, since events arrive as JSON."""
from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from ..protocol import JSONObject
from .pieces import COLOURS, SIDES, Colour, Side


class Roll(TypedDict):
    """Chance: the die's face, two colours, drawn by the server."""

    type: Literal["roll"]
    face: list[Colour]


class Take(TypedDict):
    """The player takes the top tile of a stack."""

    type: Literal["take"]
    player: int
    colour: Colour


class Connect(TypedDict):
    """The player connects the taken tile, ``side`` up, after turning the last
    ``turn`` tiles of the snake over (advanced rules; 0 when left out)."""

    type: Literal["connect"]
    player: int
    side: Side
    turn: NotRequired[int]


class Timeout(TypedDict):
    type: Literal["timeout"]
    player: int


class Resign(TypedDict):
    type: Literal["resign"]
    player: int


SnakeEvent = Roll | Take | Connect | Timeout | Resign

EVENT_TYPES: tuple[str, ...] = ("roll", "take", "connect", "timeout", "resign")


ACTION_SCHEMA: JSONObject = {
    "type": "object",
    "title": "Make-a-snake",
    "description": 'e.g. {"type": "connect", "side": "up", "turn": 0}',
    "properties": {
        "type": {"type": "string", "enum": ["take", "connect", "resign"]},
    "player": {"type": "integer", "minimum": 0,
               "description": "Your seat; may be left out."},
        "colour": {"type": "string", "enum": list(COLOURS),
                   "description": "take: the stack to take from"},
        "side": {"type": "string", "enum": list(SIDES),
                 "description": "connect: the side of the tile that faces up"},
        "turn": {"type": "integer", "minimum": 0,
                 "description": "connect (advanced rules): the last tiles turned over first"},
    },
    "required": ["type"],
    "additionalProperties": False,
}
"""A Make-a-snake action, for the API's documentation; the rules judge the values."""
