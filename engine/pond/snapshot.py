"""A Pond state as JSON and back, for the server's snapshots (``engine.snapshot``).

The board, spawns, piles and turn, and the repetition count of every position
met so far (a threefold repetition may need a position of the first moves).
The players and the pond come from the record's config."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from ..protocol import JSON, JSONObject
from .board import Pos
from .pieces import Face, Piece
from .state import GameState, PositionKey, Turn

VERSION = 1
"""The version of this JSON (the game's ``snapshot_version``)."""


def _piece(p: Piece | None) -> JSON:
    return None if p is None else [p.colour, int(p.face)]


def _piece_in(raw: Any) -> Piece | None:
    return None if raw is None else Piece(int(raw[0]), Face(int(raw[1])))


def _pos(raw: Any) -> Pos:
    return (int(raw[0]), int(raw[1]))


def _turn(t: Turn | None) -> JSON:
    if t is None:
        return None
    return {"player": t.player, "moved_to": list(t.moved_to),
            "developed": [list(p) for p in t.developed],
            "scored": [[list(p), _piece(piece)] for p, piece in t.scored]}


def _turn_in(raw: Any) -> Turn | None:
    if raw is None:
        return None
    scored = []
    for p, piece in raw["scored"]:
        got = _piece_in(piece)
        if got is None:
            raise ValueError("a scored piece is a piece")
        scored.append((_pos(p), got))
    return Turn(int(raw["player"]), _pos(raw["moved_to"]),
                tuple(_pos(p) for p in raw["developed"]), tuple(scored))


def dump(state: GameState) -> JSONObject:
    return {
        "cells": [_piece(p) for p in state.board.cells],
        "spawns": list(state.spawns), "piles": list(state.piles), "current": state.current,
        "finished": state.finished, "winners": list(state.winners), "end": state.end,
        "resigned": state.resigned,
        "seen": [[[_piece(p) for p in cells], list(spawns), list(piles), current, count]
                 for (cells, spawns, piles, current), count in state.seen.items()],
        "last": _turn(state.last),
    }


def load(start: GameState, data: Mapping[str, JSON]) -> GameState:
    """The state ``dump`` wrote, on the players and pond of ``start``."""
    raw = cast(Mapping[str, Any], data)
    state = start
    cells = [_piece_in(p) for p in raw["cells"]]
    if len(cells) != len(state.board.cells):
        raise ValueError(f"a board of {len(cells)} cells for a pond of "
                         f"{len(state.board.cells)}")
    state.board.cells = cells
    state.spawns = [int(n) for n in raw["spawns"]]
    state.piles = [int(n) for n in raw["piles"]]
    state.current = int(raw["current"])
    state.finished = bool(raw["finished"])
    state.winners = [int(s) for s in raw["winners"]]
    state.end = raw["end"]
    state.resigned = None if raw["resigned"] is None else int(raw["resigned"])
    seen: dict[PositionKey, int] = {}
    for key_cells, spawns, piles, current, count in raw["seen"]:
        key = (tuple(_piece_in(p) for p in key_cells), tuple(int(n) for n in spawns),
               tuple(int(n) for n in piles), int(current))
        seen[key] = int(count)
    state.seen = seen
    state.last = _turn_in(raw["last"])
    return state
