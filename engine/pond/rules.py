"""The fold: a turn is action, develop, score; then the end checks (the target,
repetition, elimination). ``step`` checks an event against the rules and applies
it in place; ``IllegalAction`` leaves the state to be thrown away."""
from __future__ import annotations

from collections.abc import Mapping

from ..errors import IllegalAction
from .actions import can_act, check_egg, check_move, read_seat
from .board import STEPS, Pos
from .pieces import PIECES, Colour, Face
from .scoring import score
from .state import End, GameState, Turn

RULES_VERSION = "1"
"""Bumped whenever a fix could change the outcome of a stored game."""

REPETITIONS = 3
"""The same position for the third time draws the game."""


def step(state: GameState, event: Mapping[str, object]) -> GameState:
    """Check ``event`` and apply it to ``state`` (in place); return the state."""
    if state.finished:
        raise IllegalAction("game_finished", f"the game is over ({state.end}): no event "
                            "may follow its end")
    kind = event.get("type")
    seat = read_seat(event.get("player"))
    if kind == "resign":
        # either player, at any time, even on the other's turn
        state.resigned = seat
        _finish(state, "resign", [1 - seat])
        return state
    if kind not in ("egg", "move", "timeout"):
        raise IllegalAction("bad_event", f"unknown event type {kind!r}: expected egg, move, "
                            "timeout or resign")
    if seat != state.current:
        raise IllegalAction("not_your_turn", f"it is {state.name(state.current)}'s turn "
                            f"(seat {state.current}), not seat {seat}'s")
    if kind == "egg":
        at = check_egg(state, seat, event)
        state.spawns[seat] -= 1
        state.board[at] = PIECES[seat][Face.EGG]
        _develop_and_score(state, seat, at)
    elif kind == "move":
        origin, to = check_move(state, seat, event)
        state.board[to], state.board[origin] = state.board[origin], None
        _develop_and_score(state, seat, to)
    else:  # a timeout gives up the turn: nothing is placed or moved, nothing develops
        state.last = None
    if not _target_reached(state):
        _next_turn(state)
    return state


def _develop_and_score(state: GameState, seat: Colour, moved_to: Pos) -> None:
    """Every piece orthogonally adjacent to the placed or moved piece, of either
    colour, advances one face (not the piece itself); then every set leaves the
    board for the pile of each piece's colour, whoever made it."""
    board = state.board
    cells, n = board.cells, board.size
    developed = []
    x, y = moved_to
    for dx, dy in STEPS:  # on the cells themselves: this runs at every turn of every replay
        nx, ny = x + dx, y + dy
        if 0 <= nx < n and 0 <= ny < n and (piece := cells[ny * n + nx]) is not None:
            cells[ny * n + nx] = piece.developed()
            developed.append((nx, ny))
    scored = score(board, [moved_to, *developed])
    for _, piece in scored:
        state.piles[piece.colour] += 1
    state.last = Turn(seat, moved_to, tuple(developed), tuple(scored))


def _target_reached(state: GameState) -> bool:
    """A pile at the target ends the game: the bigger pile wins, equal piles draw."""
    if max(state.piles) < state.pond.target:
        return False
    best = max(state.piles)
    _finish(state, "target", [s for s in (0, 1) if state.piles[s] == best])
    return True


def _next_turn(state: GameState) -> None:
    state.current = 1 - state.current
    key = state.key()
    state.seen[key] = times = state.seen.get(key, 0) + 1
    if times >= REPETITIONS:
        _finish(state, "repetition", [0, 1])
    elif not can_act(state, state.current):
        # a player who cannot take their turn loses at once
        _finish(state, "elimination", [1 - state.current])


def _finish(state: GameState, end: End, winners: list[Colour]) -> None:
    state.finished, state.end, state.winners = True, end, winners
