"""What Pond's computer players need beyond the rules: how good a position is
for a seat (``evaluate``). Pond has no secret, so a bot needs no
determinization; ``engine.bots`` plays it through the protocol."""
from __future__ import annotations

from .pieces import Colour
from .scoring import SET_LENGTH
from .state import GameState

PILE = 10.0
"""A piece in a pile: what the game is won with."""
ON_BOARD = 1.0
"""A piece on the board: it may still score for its owner (any set scores)."""
THREAT = 2.0
"""A piece of the seat in a line of three that one more piece of the same face
would make a set of: what the next turn may score."""
DECIDED = 1e6


def _threats(state: GameState) -> list[float]:
    """Each colour's pieces in near-sets: two pieces of one face and an empty
    position within three positions in a row or a column."""
    board = state.board
    n = board.size
    cells = board.cells
    out = [0.0, 0.0]
    lines = [[y * n + x for x in range(n)] for y in range(n)]
    lines += [[y * n + x for y in range(n)] for x in range(n)]
    for line in lines:
        for i in range(len(line) - SET_LENGTH + 1):
            window = [cells[j] for j in line[i:i + SET_LENGTH]]
            pieces = [p for p in window if p is not None]
            if len(pieces) == SET_LENGTH - 1 and pieces[0].face == pieces[1].face:
                for p in pieces:
                    out[p.colour] += 1.0
    return out


def evaluate(state: GameState, seat: Colour) -> float:
    """The seat's pile, pieces on the board and near-sets against the other's;
    plus or minus ``DECIDED`` once the game is won or lost (a draw is even)."""
    other = 1 - seat
    if state.finished:
        margin = PILE * (state.piles[seat] - state.piles[other])
        if len(state.winners) == 1:
            return margin + (DECIDED if state.winners[0] == seat else -DECIDED)
        return margin
    on_board = [0.0, 0.0]
    for piece in state.board.cells:
        if piece is not None:
            on_board[piece.colour] += 1.0
    threats = _threats(state)
    return (PILE * (state.piles[seat] - state.piles[other])
            + ON_BOARD * (on_board[seat] - on_board[other])
            + THREAT * (threats[seat] - threats[other]))
