"""The state of a game of Pond: the board, both spawns and piles, whose turn it
is, how many times each position has occurred, and how the game ended."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from .board import Board, Pos
from .pieces import Colour, Piece
from .ponds import Pond

End = Literal["target", "elimination", "repetition", "resign"]
"""Why a game ended, in the note's words."""

PositionKey = tuple[tuple[Piece | None, ...], tuple[int, ...], tuple[int, ...], int]
"""What makes two positions the same for repetition: the board with each piece's
colour and face, both spawns, both piles and the player to move."""


@dataclass(frozen=True, slots=True)
class Turn:
    """What the last egg or move did, for pages that show it."""

    player: Colour
    moved_to: Pos
    developed: tuple[Pos, ...]
    scored: tuple[tuple[Pos, Piece], ...]


@dataclass(slots=True)
class GameState:
    players: tuple[str, ...]
    pond: Pond
    board: Board
    spawns: list[int]
    piles: list[int]
    current: Colour = 0
    finished: bool = False
    winners: list[Colour] = field(default_factory=list)
    end: End | None = None
    resigned: Colour | None = None
    seen: dict[PositionKey, int] = field(default_factory=dict)
    """How many times each position has occurred, counted from the start."""
    last: Turn | None = None

    @classmethod
    def new(cls, players: tuple[str, ...], pond: Pond) -> GameState:
        state = cls(players, pond, Board.empty(pond.size), [pond.eggs] * 2, [0, 0])
        state.seen[state.key()] = 1
        return state

    def copy(self) -> GameState:
        return GameState(self.players, self.pond, self.board.copy(), self.spawns[:],
                         self.piles[:], self.current, self.finished, self.winners[:],
                         self.end, self.resigned, dict(self.seen), self.last)

    def key(self) -> PositionKey:
        return (tuple(self.board.cells), tuple(self.spawns), tuple(self.piles), self.current)

    def name(self, seat: Colour) -> str:
        return self.players[seat]
