"""The material: animal tiles, species and the sizes that depend on the number
of seats (shared/spec/animals-on-board.md, "Material").

A tile is its species letter and its number, ``"C4"``; the face-down tile of the
middle is written ``"?"`` wherever a player refers to it or sees it.
"""
from __future__ import annotations

from typing import Final

Tile = str
"""``"C4"``: species ``C``, number 4."""

Seat = int
"""A player's index in the record's ``config.players``."""

SPECIES: Final = "ABCDEFGHIJKL"
"""The twelve species of the box; a game uses 8, 10 or 12 of them."""

NUMBERS: Final = (1, 2, 3, 4, 5)

FACE_DOWN: Final = "?"
"""How the face-down tile is written: in a split's ``part`` and in every view."""

SEAT_COUNTS: Final = (2, 3, 4)

MAX_CRATES: Final = 5
"""A sixth crate is never held: gaining it returns one instead (5 -> 4)."""

TARGET_ARK: Final = 10
"""An ark of 10 tiles ends the game at the end of the round, and is what
scoring reduces a larger ark to."""


def species_in_play(seats: int) -> int:
    """8 / 10 / 12 species with 2 / 3 / 4 players."""
    return 2 * seats + 4


def face_up_target(seats: int) -> int:
    """The face-up tiles a round starts with: 8 / 10 / 12 for 2 / 3 / 4 players."""
    return 2 * seats + 4


def tiles_of(species: str) -> list[Tile]:
    return [f"{species}{n}" for n in NUMBERS]


def is_tile(raw: object) -> bool:
    return (isinstance(raw, str) and len(raw) == 2 and raw[0] in SPECIES
            and raw[1] in "12345")


def species_of(tile: Tile) -> str:
    return tile[0]


def number_of(tile: Tile) -> int:
    return int(tile[1])


def shown(tiles: list[Tile], face_down: Tile | None) -> list[str]:
    """A group as players see it: sorted, the face-down tile as ``"?"`` and last."""
    face_up = sorted(t for t in tiles if t != face_down)
    return face_up + [FACE_DOWN] if face_down is not None and face_down in tiles else face_up
