"""What people see of a game of Pond. Pond hides nothing (no deck, no chance):
the seat's view and the spectator's are the same picture, and neither holds the
game's fairness seed, which the engine never sees.

The views' shapes are TypedDicts of JSON values (``Summary``, ``PlayerView``,
``LastTurn``, ``Preview``), which the pages and the mail (``ui/pond``) are
checked against."""
from __future__ import annotations

from typing import TypedDict

from ..protocol import JSON, Seat
from .board import Pos
from .pieces import COLOURS
from .ponds import pond_to_json
from .state import End, GameState

# ---------------------------------------------------------------- the views' shapes


class Summary(TypedDict):
    """``summary``: the note's replay summary (shared/spec/pond.md)."""

    finished: bool
    winners: list[int]
    current_player: int | None
    scores: list[int]
    """Each pile."""
    spawn: list[int]
    """The eggs left in each spawn."""
    board: list[str]
    """The pond row by row, north first, a letter a position (``.`` empty)."""
    end: End | None


class Scored(TypedDict):
    """A piece a turn carried off to its player's pile."""

    at: list[int]
    colour: str
    face: str


class LastTurn(TypedDict):
    """``last_turn``: the last egg or move."""

    player: int
    at: list[int]
    """Where the egg or the moved piece went."""
    developed: list[list[int]]
    scored: list[Scored]


class PlayerView(Summary):
    """``player_view``: what a seat (or a spectator) sees."""

    you: int | None
    players: list[str]
    colours: list[str]
    options: JSON
    """The option set: its name, or the set spelled out (``ponds.pond_to_json``)."""
    size: int
    target: int
    resigned: int | None
    repetitions: int
    """How many times the position has come up."""
    last: LastTurn | None


class Preview(TypedDict):
    """What an egg or a move would do (the ``preview`` query): the board after
    it, its turn, what each pile gains, and whether and how the game would end."""

    board: list[str]
    last: LastTurn | None
    gains: list[int]
    finished: bool
    winners: list[int]
    end: End | None


# ---------------------------------------------------------------- making them


def _pos(pos: Pos) -> list[int]:
    return [pos[0], pos[1]]


def summary(state: GameState) -> Summary:
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


def last_turn(state: GameState) -> LastTurn | None:
    """The last egg or move: where it went, what developed, what scored."""
    turn = state.last
    if turn is None:
        return None
    return {"player": turn.player, "at": _pos(turn.moved_to),
            "developed": [_pos(p) for p in turn.developed],
            "scored": [{"at": _pos(p), "colour": COLOURS[piece.colour],
                        "face": piece.face.word} for p, piece in turn.scored]}


def player_view(state: GameState, seat: Seat | None) -> PlayerView:
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


def preview(before: GameState, after: GameState) -> Preview:
    """What the turn that led from ``before`` to ``after`` did (the ``preview`` query)."""
    return {"board": list(after.board.rows()), "last": last_turn(after),
            "gains": [a - b for a, b in zip(after.piles, before.piles, strict=True)],
            "finished": after.finished, "winners": list(after.winners), "end": after.end}
