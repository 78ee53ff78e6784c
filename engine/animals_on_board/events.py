"""The events of the game record (shared/spec/animals-on-board.md, "Game
record"): what a player submits is the event appended to the log. The fold
checks every field, since events arrive as JSON."""
from __future__ import annotations

from typing import Final, Literal, TypedDict


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
