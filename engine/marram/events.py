"""Marram's events as typed JSON objects (shared/spec/marram-model.md): what a
player submits, what the server appends, what a record holds. The fold
(``game.step``) checks every field, since events arrive as JSON."""
from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from .types import CreatureName, Face, Token

Position = list[int]
"""``[x, y]`` as JSON writes a position."""


class ArcClaim(TypedDict):
    """A token on the region holding this arc of the moved tile, as it lies."""

    arc: int
    token: NotRequired[Token]


class SideClaim(TypedDict):
    """A token on the beast segment crossing this side of the moved tile."""

    side: int
    token: NotRequired[Token]


Claim = ArcClaim | SideClaim


class Place(TypedDict):
    type: Literal["place"]
    player: int
    tile: str
    face: Face
    at: Position
    rotation: int
    claim: NotRequired[Claim | None]


class Flip(TypedDict):
    type: Literal["flip"]
    player: int
    at: Position
    rotation: int
    claim: NotRequired[Claim | None]


class Pass(TypedDict):
    type: Literal["pass"]
    player: int


class Timeout(TypedDict):
    type: Literal["timeout"]
    player: int


class Resign(TypedDict):
    type: Literal["resign"]
    player: int


class CreatureAppears(TypedDict):
    """Chance: where the fly or the frog appears."""

    type: Literal["creature_appears"]
    creature: CreatureName
    at: Position


class Guess(TypedDict):
    type: Literal["guess"]
    player: int
    creature: CreatureName
    hops: int | Literal["escape"]


class Hop(TypedDict):
    """Chance: where the fly or the frog hops."""

    type: Literal["hop"]
    creature: CreatureName
    to: Position


MarramEvent = Place | Flip | Pass | Timeout | Resign | CreatureAppears | Guess | Hop
