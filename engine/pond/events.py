"""Pond's events as typed JSON objects (shared/spec/pond.md): what a player
submits, what the server appends, what a record holds. Pond has no chance: a
record holds the players' eggs and moves and the server's timeouts and
resignations. The fold checks every field, since events arrive as JSON."""
from __future__ import annotations

from typing import Literal, TypedDict

from ..protocol import JSONObject

Position = list[int]
"""``[x, y]`` as JSON writes a position."""


class Egg(TypedDict):
    """An egg from the player's spawn placed on an empty position."""

    type: Literal["egg"]
    player: int
    at: Position


# "from" is a Python keyword, so the move is declared in the functional form
Move = TypedDict("Move", {"type": Literal["move"], "player": int, "from": Position,
                          "to": Position})
"""One of the player's own tadpoles or frogs moved from one position to another."""


class Timeout(TypedDict):
    """The player to move ran out of time: the turn passes, nothing else happens."""

    type: Literal["timeout"]
    player: int


class Resign(TypedDict):
    """A player left the game: the other player wins."""

    type: Literal["resign"]
    player: int


PondEvent = Egg | Move | Timeout | Resign
EVENT_TYPES = ("egg", "move", "timeout", "resign")


_POSITION: JSONObject = {"type": "array", "items": {"type": "integer"},
                         "minItems": 2, "maxItems": 2}

ACTION_SCHEMA: JSONObject = {
    "type": "object",
    "title": "Pond",
    "description": 'e.g. {"type": "move", "from": [0, 1], "to": [1, 1]}',
    "properties": {
        "type": {"type": "string", "enum": ["egg", "move", "resign"]},
    "player": {"type": "integer", "minimum": 0,
               "description": "Your seat; may be left out."},
        "at": {**_POSITION, "description": "egg: the empty position [x, y]"},
        "from": {**_POSITION, "description": "move: where your tadpole or frog is"},
        "to": {**_POSITION, "description": "move: where it goes"},
    },
    "required": ["type"],
    "additionalProperties": False,
}
"""A Pond action, for the API's documentation; the rules judge the values."""
