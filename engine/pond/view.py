"""What people see of a game of Pond. Pond hides nothing (no deck, no chance):
the seat's view and the spectator's are the same picture, and neither holds the
game's fairness seed, which the engine never sees."""
from __future__ import annotations

from ..protocol import JSON, JSONObject, Seat
from .board import Pos
from .pieces import COLOURS
from .ponds import pond_to_json
from .state import GameState


def _pos(pos: Pos) -> JSON:
    return [pos[0], pos[1]]


def summary(state: GameState) -> JSONObject:
    """The note's replay summary (shared/spec/pond.md)."""
    return {
        "finished": state.finished,
        "winners": list(state.winners),
        "current_player": None if state.finished else state.current,
        "scores": list(state.piles),
        "spawn": list(state.spawns),
        "board": list(state.board.rows()),
        "end": state.end,
    }


def last_turn(state: GameState) -> JSON:
    """The last egg or move: where it went, what developed, what scored."""
    turn = state.last
    if turn is None:
        return None
    return {"player": turn.player, "at": _pos(turn.moved_to),
            "developed": [_pos(p) for p in turn.developed],
            "scored": [{"at": _pos(p), "colour": COLOURS[piece.colour],
                        "face": piece.face.word} for p, piece in turn.scored]}


def player_view(state: GameState, seat: Seat | None) -> JSONObject:
    pond = state.pond
    return {
        **summary(state),
        "you": seat,
        "players": list(state.players),
        "colours": list(COLOURS),
        "options": pond_to_json(pond),
        "size": pond.size,
        "target": pond.target,
        "resigned": state.resigned,
        "repetitions": state.seen.get(state.key(), 0),
        "last": last_turn(state),
    }
