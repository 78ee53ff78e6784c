"""The pond: a square grid of positions ``(x, y)``, x growing east and y south,
each empty or holding one piece."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .pieces import Piece

Pos = tuple[int, int]

STEPS: tuple[Pos, ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))
"""The four orthogonal directions: north, east, south, west."""


@dataclass(slots=True)
class Board:
    size: int
    cells: list[Piece | None]
    """Row by row, north first: position ``(x, y)`` is ``cells[y * size + x]``."""

    @classmethod
    def empty(cls, size: int) -> Board:
        return cls(size, [None] * (size * size))

    def copy(self) -> Board:
        return Board(self.size, self.cells[:])

    def contains(self, pos: Pos) -> bool:
        x, y = pos
        return 0 <= x < self.size and 0 <= y < self.size

    def __getitem__(self, pos: Pos) -> Piece | None:
        return self.cells[pos[1] * self.size + pos[0]]

    def __setitem__(self, pos: Pos, piece: Piece | None) -> None:
        self.cells[pos[1] * self.size + pos[0]] = piece

    def positions(self) -> Iterator[Pos]:
        """Every position, row by row from the north-west corner."""
        return ((x, y) for y in range(self.size) for x in range(self.size))

    def pieces(self) -> Iterator[tuple[Pos, Piece]]:
        for pos in self.positions():
            piece = self[pos]
            if piece is not None:
                yield pos, piece

    def empties(self) -> list[Pos]:
        return [pos for pos in self.positions() if self[pos] is None]

    def neighbours(self, pos: Pos) -> list[Pos]:
        """The orthogonally adjacent positions on the board."""
        x, y = pos
        return [n for dx, dy in STEPS if self.contains(n := (x + dx, y + dy))]

    def rows(self) -> list[str]:
        """One string a row, north first: ``.`` empty, else the piece's letter."""
        return ["".join("." if (p := self[(x, y)]) is None else p.letter
                        for x in range(self.size)) for y in range(self.size)]
