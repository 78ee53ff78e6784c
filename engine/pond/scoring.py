"""The score step: sets of three or more pieces of the same face in a row or a
column, whatever their colours, leave the board for their owners' piles."""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from .board import Board, Pos
from .pieces import Piece

SET_LENGTH = 3


def _runs(cells: list[Piece | None], line: Sequence[int], into: set[int]) -> None:
    """Add to ``into`` the cells of every maximal unbroken run of one face, of 3
    or more, along a line (given as indices into ``cells``)."""
    start = 0
    face = None
    for k, i in enumerate(line):
        piece = cells[i]
        here = None if piece is None else piece.face
        if here is not None and here == face:
            continue
        if face is not None and k - start >= SET_LENGTH:
            into.update(line[start:k])
        start, face = k, here
    if face is not None and len(line) - start >= SET_LENGTH:
        into.update(line[start:])


def sets(board: Board) -> list[list[Pos]]:
    """Every set on the board: each row's runs, north first, then each column's
    (the whole board looked at: what ``score`` finds on the lines it looks at)."""
    n = board.size
    lines = ([[(x, y) for x in range(n)] for y in range(n)]
             + [[(x, y) for y in range(n)] for x in range(n)])
    found: list[list[Pos]] = []
    for line in lines:
        run: list[Pos] = []
        face = None
        for pos in line:
            piece = board[pos]
            if piece is not None and run and piece.face == face:
                run.append(pos)
                continue
            if len(run) >= SET_LENGTH:
                found.append(run)
            run, face = ([pos], piece.face) if piece is not None else ([], None)
        if len(run) >= SET_LENGTH:
            found.append(run)
    return found


def score(board: Board, changed: Iterable[Pos] | None = None) -> list[tuple[Pos, Piece]]:
    """Take every piece in a set off ``board`` and return them, in board order
    (north first, then west first).

    All sets leave together, after every development: a piece in two sets (a
    "+" or an "L") is one piece and leaves once. ``changed``: the positions whose
    piece changed this turn (placed, moved or developed); since every set left
    the board at the end of the turn before, a new set runs through one of them,
    and only their rows and columns are looked at. None: every line."""
    n = board.size
    cells = board.cells
    if changed is None:
        rows: Iterable[int] = range(n)
        columns: Iterable[int] = range(n)
    else:
        spots = list(changed)
        rows, columns = {y for _, y in spots}, {x for x, _ in spots}
    leaving: set[int] = set()
    for y in rows:
        _runs(cells, range(y * n, y * n + n), leaving)
    for x in columns:
        _runs(cells, range(x, n * n, n), leaving)
    taken: list[tuple[Pos, Piece]] = []
    for i in sorted(leaving):
        piece = cells[i]
        assert piece is not None  # a set is made of pieces
        taken.append(((i % n, i // n), piece))
        cells[i] = None
    return taken
