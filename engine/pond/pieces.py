"""Pond's pieces: a colour that never changes and a face that develops along the
life cycle egg -> tadpole -> frog -> egg."""
from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

Colour = int
"""A piece's colour is its owner's seat: 0 light (moves first), 1 dark."""

LIGHT: Colour = 0
DARK: Colour = 1
COLOURS = ("light", "dark")


class Face(IntEnum):
    EGG = 0
    TADPOLE = 1
    FROG = 2

    @property
    def word(self) -> str:
        return self.name.lower()

    def developed(self) -> Face:
        """The next face of the life cycle: a frog becomes an egg again."""
        return Face((self + 1) % 3)


class Piece(NamedTuple):
    """A tuple, so that hashing a board's cells (the repetition count, at every
    turn) is done in C rather than by a dataclass's Python ``__hash__``."""

    colour: Colour
    face: Face

    @property
    def letter(self) -> str:
        """The board's letter: ``e t f`` light, ``E T F`` dark (the note's summary)."""
        letter = "etf"[self.face]
        return letter.upper() if self.colour == DARK else letter

    def developed(self) -> Piece:
        # (face + 1) % 3 indexes the shared pieces: Face(...) would cost an enum lookup
        return PIECES[self.colour][(self.face + 1) % 3]

    def __str__(self) -> str:
        return f"{COLOURS[self.colour]} {self.face.word}"


PIECES: tuple[tuple[Piece, ...], ...] = tuple(
    tuple(Piece(colour, face) for face in Face) for colour in (LIGHT, DARK))
"""The six pieces there are, shared: a board holds these, never new ones."""
