"""What the player to move may do (place an egg, move a tadpole one step, move a
frog one or two steps in a straight line), checked field by field as events
arrive from the network, and listed for pages, mail and bots."""
from __future__ import annotations

from collections.abc import Mapping

from ..errors import IllegalAction
from .board import STEPS, Board, Pos
from .events import Egg, Move, PondEvent
from .pieces import COLOURS, Colour, Face, Piece
from .state import GameState


def fmt(pos: Pos) -> str:
    return f"[{pos[0]}, {pos[1]}]"


def read_seat(raw: object) -> Colour:
    if isinstance(raw, bool) or not isinstance(raw, int) or raw not in (0, 1):
        raise IllegalAction("bad_event", f"'player' must be seat 0 or 1, got {raw!r}")
    return raw


def read_position(board: Board, event: Mapping[str, object], key: str) -> Pos:
    raw = event.get(key)
    if not (isinstance(raw, list) and len(raw) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in raw)):
        raise IllegalAction("bad_event", f"'{key}' must be a position [x, y], got {raw!r}")
    pos = (int(raw[0]), int(raw[1]))
    if not board.contains(pos):
        last = board.size - 1
        raise IllegalAction("off_board", f"{fmt(pos)} is off the {board.size}x{board.size} "
                            f"pond: x and y go from 0 to {last}")
    return pos


# ---------------------------------------------------------------- where pieces go

# Both walk the board's cells directly: they run for every piece of every
# position that asks for its legal actions.

def tadpole_steps(board: Board, pos: Pos) -> list[Pos]:
    """A tadpole moves to an orthogonally adjacent empty position."""
    x, y = pos
    n, cells = board.size, board.cells
    return [(tx, ty) for dx, dy in STEPS
            if 0 <= (tx := x + dx) < n and 0 <= (ty := y + dy) < n and cells[ty * n + tx] is None]


def frog_jumps(board: Board, pos: Pos) -> list[Pos]:
    """A frog moves 1 or 2 positions in a straight orthogonal line to an empty
    position; on 2 it passes over whatever is in between, a piece or nothing."""
    x, y = pos
    n, cells = board.size, board.cells
    out = []
    for dx, dy in STEPS:
        for reach in (1, 2):
            tx, ty = x + dx * reach, y + dy * reach
            if 0 <= tx < n and 0 <= ty < n and cells[ty * n + tx] is None:
                out.append((tx, ty))
    return out


def destinations(board: Board, pos: Pos) -> list[Pos]:
    """Where the piece at ``pos`` may move (eggs never move)."""
    piece = board[pos]
    if piece is None or piece.face == Face.EGG:
        return []
    return tadpole_steps(board, pos) if piece.face == Face.TADPOLE else frog_jumps(board, pos)


# ---------------------------------------------------------------- the list

def legal_actions(state: GameState, seat: Colour) -> list[PondEvent]:
    """Every egg and move the seat may make now: eggs position by position (north
    first), then moves piece by piece. Empty unless it is the seat's turn."""
    if state.finished or seat != state.current:
        return []
    board = state.board
    n = board.size
    cells = board.cells
    actions: list[PondEvent] = []
    if state.spawns[seat] > 0:  # cells run row by row: the same order as board.empties()
        actions += [Egg(type="egg", player=seat, at=[i % n, i // n])
                    for i, piece in enumerate(cells) if piece is None]
    for i, piece in enumerate(cells):
        if piece is not None and piece.colour == seat and piece.face != Face.EGG:
            pos = (i % n, i // n)
            actions += [Move({"type": "move", "player": seat, "from": [pos[0], pos[1]],
                              "to": [to[0], to[1]]})
                        for to in destinations(board, pos)]
    return actions


def can_act(state: GameState, seat: Colour) -> bool:
    """Whether the seat has any legal action; stops at the first it finds."""
    board = state.board
    if state.spawns[seat] > 0 and None in board.cells:
        return True
    return any(piece.colour == seat and destinations(board, pos)
               for pos, piece in board.pieces())


# ---------------------------------------------------------------- the checks

def check_egg(state: GameState, seat: Colour, event: Mapping[str, object]) -> Pos:
    """Where an egg goes: an empty position, from a spawn that has one."""
    at = read_position(state.board, event, "at")
    if state.spawns[seat] == 0:
        raise IllegalAction("no_eggs_left", f"{state.name(seat)} has no egg left in the spawn: "
                            "move a tadpole or a frog")
    if (piece := state.board[at]) is not None:
        raise IllegalAction("occupied", f"an egg goes on an empty position: {fmt(at)} holds "
                            f"a {piece}")
    return at


def _moving_piece(state: GameState, seat: Colour, origin: Pos) -> Piece:
    piece = state.board[origin]
    if piece is None:
        raise IllegalAction("no_piece", f"there is no piece at {fmt(origin)} to move")
    if piece.colour != seat:
        raise IllegalAction("not_your_piece", f"{state.name(seat)} plays the "
                            f"{COLOURS[seat]} pieces and may not move the {piece} at "
                            f"{fmt(origin)}")
    if piece.face == Face.EGG:
        raise IllegalAction("egg_cannot_move", f"eggs never move: the piece at {fmt(origin)} "
                            "is an egg")
    return piece


def check_move(state: GameState, seat: Colour, event: Mapping[str, object]) -> tuple[Pos, Pos]:
    """Where a move goes from and to: one of the seat's own tadpoles one step, or
    one of its frogs one or two steps in a straight line, onto an empty position."""
    board = state.board
    origin, to = read_position(board, event, "from"), read_position(board, event, "to")
    piece = _moving_piece(state, seat, origin)
    dx, dy = to[0] - origin[0], to[1] - origin[1]
    steps = abs(dx) + abs(dy)
    if piece.face == Face.TADPOLE and (steps != 1):
        raise IllegalAction("tadpole_one_step", "a tadpole moves one step to an orthogonally "
                            f"adjacent position: {fmt(origin)} to {fmt(to)} is not one")
    if piece.face == Face.FROG and (dx != 0 and dy != 0 or steps not in (1, 2)):
        raise IllegalAction("frog_one_or_two", "a frog moves 1 or 2 steps in a straight "
                            f"orthogonal line: {fmt(origin)} to {fmt(to)} is not one")
    if (there := board[to]) is not None:
        raise IllegalAction("occupied", f"a {piece.face.word} lands on an empty position: "
                            f"{fmt(to)} holds a {there}")
    return origin, to
