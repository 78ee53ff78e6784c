"""The score step: sets of three or more pieces of the same face in a row or a
column, whatever their colours, leave the board for their owners' piles."""
from __future__ import annotations

from .board import Board, Pos
from .pieces import Piece

SET_LENGTH = 3


def _runs(board: Board, line: list[Pos]) -> list[list[Pos]]:
    """The maximal unbroken runs of one face along a line, of 3 or more."""
    runs: list[list[Pos]] = []
    run: list[Pos] = []
    face = None
    for pos in line:
        piece = board[pos]
        if piece is not None and run and piece.face == face:
            run.append(pos)
            continue
        if len(run) >= SET_LENGTH:
            runs.append(run)
        run, face = ([pos], piece.face) if piece is not None else ([], None)
    if len(run) >= SET_LENGTH:
        runs.append(run)
    return runs


def sets(board: Board) -> list[list[Pos]]:
    """Every set on the board: each row's runs, north first, then each column's."""
    n = board.size
    rows = [[(x, y) for x in range(n)] for y in range(n)]
    columns = [[(x, y) for y in range(n)] for x in range(n)]
    return [run for line in rows + columns for run in _runs(board, line)]


def score(board: Board) -> list[tuple[Pos, Piece]]:
    """Take every piece in a set off ``board`` and return them, in board order.

    All sets leave together, after every development: a piece in two sets (a
    "+" or an "L") is one piece and leaves once."""
    leaving = sorted({pos for run in sets(board) for pos in run}, key=lambda p: (p[1], p[0]))
    taken: list[tuple[Pos, Piece]] = []
    for pos in leaving:
        piece = board[pos]
        assert piece is not None  # a set is made of pieces
        taken.append((pos, piece))
        board[pos] = None
    return taken
