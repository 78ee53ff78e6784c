"""Marram's events as typed JSON objects (shared/spec/marram-model.md): what a
player submits, what the server appends, what a record holds. The fold
(``game.step``) checks every field, since events arrive as JSON."""
from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from ..protocol import JSONObject
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


def _int(low: int, high: int) -> JSONObject:
    return {"type": "integer", "minimum": low, "maximum": high}


ACTION_SCHEMA: JSONObject = {
    "type": "object",
    "title": "Marram",
    "description": 'e.g. {"type": "place", "tile": "T17", "face": "front", "at": [1, 0], '
    '"rotation": 2, "claim": {"arc": 4}}',
    "properties": {
        "type": {"type": "string", "enum": ["place", "flip", "pass", "guess", "resign"]},
        "player": {**_int(0, 3), "description": "Your seat; may be left out."},
        "tile": {"type": "string", "maxLength": 64, "description": "place: a tile in your hand"},
        "face": {"type": "string", "enum": ["front", "back"]},
        "at": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2,
               "description": "place, flip: the position [x, y]"},
        "rotation": _int(0, 3),
        "claim": {
            "type": "object", "nullable": True, "additionalProperties": False,
            "description": 'place, flip: {"arc": 0-7} for a patch or {"side": 0-3} for a '
            "beast (see the claims query), or null",
            "properties": {"arc": _int(0, 7), "side": _int(0, 3),
                           "token": {"type": "string", "enum": ["boot", "pitchfork"]}},
        },
        "creature": {"type": "string", "enum": ["fly", "frog"]},
        "hops": {"oneOf": [{"type": "integer", "minimum": 1},
                           {"type": "string", "enum": ["escape"]}],
                 "description": "guess: hops, or escape"},
    },
    "required": ["type"],
    "additionalProperties": False,
}
"""A Marram action, for the API's documentation: each type takes some of these
fields (``Marram.action_fields``), and the rules judge the values."""
