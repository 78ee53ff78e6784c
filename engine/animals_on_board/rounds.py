"""The flow of the game around the players' actions: the reveal that ends the
setup, the deal of each round, the order of turns, the last player's one more
turn, the end of a round and the end of the game."""
from __future__ import annotations

from .scoring import score_ark, winners
from .state import State
from .tiles import TARGET_ARK, Seat, face_up_target


def reveal_setup(state: State) -> None:
    """Once every seat has kept a tile, the others go face up into the middle
    and the first round starts. A seat that resigned before keeping kept
    nothing: its three tiles go into the middle too."""
    state.middle = [[t for s in range(state.seats) for t in state.drawn[s]
                     if t != state.kept[s]]]
    state.drawn = [[] for _ in range(state.seats)]
    state.setup = False
    start_round(state)


def start_round(state: State) -> None:
    """Everything in the middle becomes one group, the face-down tile of the
    last round face up; the stack tops it up to 8 / 10 / 12 face-up tiles (by
    the seats the game started with) and adds one face down, while it lasts."""
    tiles = [t for group in state.middle for t in group]
    state.face_down = None
    while len(tiles) < face_up_target(state.seats) and state.stack():
        tiles.append(state.draw())
    if state.stack():
        state.face_down = state.draw()
        tiles.append(state.face_down)
    state.middle = [sorted(tiles)] if tiles else []
    state.in_round = state.active()
    state.current = state.start_player
    state.final_turn = False
    state.flag_taken = False


def next_turn(state: State, mover: Seat) -> None:
    """After ``mover``'s turn: the next seat in the round moves; when exactly
    one is left it makes one more turn, after which (or when nobody is left)
    the round ends."""
    if state.final_turn or not state.in_round:
        end_round(state)
    elif len(state.in_round) == 1:
        state.final_turn = True
        state.current = state.in_round[0]
    else:
        after = [s for s in state.in_round if s > mover]
        state.current = after[0] if after else state.in_round[0]


def end_round(state: State) -> None:
    state.in_round = []
    state.current = None
    state.final_turn = False
    end = _game_end(state)
    if end is not None:
        finish(state, end)
    else:
        state.round += 1
        start_round(state)


def _game_end(state: State) -> str | None:
    if any(len(state.arks[s]) >= TARGET_ARK for s in state.active()):
        return "ark"
    if not state.stack() and not any(state.middle):
        return "empty"
    return None


def finish(state: State, end: str) -> None:
    state.finished = True
    state.end = end
    state.in_round = []
    state.current = None
    state.final_turn = False


def final_winners(state: State) -> list[Seat]:
    """Nobody before the end; the last seat standing after resignations; else
    the best score of the seats still in the game."""
    if not state.finished:
        return []
    active = state.active()
    if state.end == "resign":
        return active
    return winners({s: score_ark(state.arks[s], state.crates[s]) for s in active})


def pass_flag(state: State, leaving: Seat) -> None:
    """A resigning flag holder hands the starting flag to the next seat in order."""
    if state.start_player != leaving:
        return
    active = state.active()
    after = [s for s in active if s > leaving]
    state.start_player = after[0] if after else active[0]
