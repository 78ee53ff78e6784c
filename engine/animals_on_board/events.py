"""The events of the game record (shared/spec/animals-on-board.md, "Game
record"): what a player submits is the event appended to the log. The fold
checks every field, since events arrive as JSON."""
from __future__ import annotations

from typing import Final, Literal, TypedDict

from ..protocol import JSONObject


class Keep(TypedDict):
    """At the setup, one of the seat's three tiles goes onto its ark, in secret."""

    type: Literal["keep"]
    player: int
    tile: str


class Split(TypedDict):
    """``part`` leaves group ``group`` as a new group at the end of the middle;
    the face-down tile is written ``"?"``."""

    type: Literal["split"]
    player: int
    group: int
    part: list[str]


class Take(TypedDict):
    """Group ``group`` goes onto the seat's ark, a crate a tile."""

    type: Literal["take"]
    player: int
    group: int


class Pass(TypedDict):
    """Only when the seat can neither split nor pay for a group."""

    type: Literal["pass"]
    player: int


class Timeout(TypedDict):
    """The server's: the seat's time ran out (a pass, or keeping its first tile)."""

    type: Literal["timeout"]
    player: int


class Resign(TypedDict):
    """The server's: the seat left the game."""

    type: Literal["resign"]
    player: int


Event = Keep | Split | Take | Pass | Timeout | Resign

EVENT_TYPES: Final = ("keep", "split", "take", "pass", "timeout", "resign")

PLAYER_ACTIONS: Final = ("keep", "split", "take", "pass")
"""The events a player writes; ``timeout`` and ``resign`` are the server's."""


ACTION_SCHEMA: JSONObject = {
    "type": "object",
    "title": "Animals on Board",
    "description": 'e.g. {"type": "split", "group": 0, "part": ["D4", "?"]}',
    "properties": {
        "type": {"type": "string", "enum": [*PLAYER_ACTIONS, "resign"]},
    "player": {"type": "integer", "minimum": 0,
               "description": "Your seat; may be left out."},
        "tile": {"type": "string", "maxLength": 64,
                 "description": "keep: one of your three tiles"},
        "group": {"type": "integer", "minimum": 0, "description": "split, take: a group"},
        "part": {"type": "array", "items": {"type": "string", "maxLength": 64},
                 "description": "split: the tiles leaving the group (the face-down one: ?)"},
    },
    "required": ["type"],
    "additionalProperties": False,
}
"""An Animals on Board action, for the API's documentation; the rules judge the values."""
