"""An Animals on Board state as JSON and back, for the server's snapshots
(``engine.snapshot``): where every tile is, secrets included (the setup's kept
tiles, the face-down tile, each ark's unseen tiles). The deck comes from the
record's config."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from ..protocol import JSON, JSONObject
from .state import State

VERSION = 1
"""The version of this JSON (the game's ``snapshot_version``)."""


def _groups(raw: Any) -> list[list[str]]:
    return [[str(t) for t in group] for group in raw]


def dump(state: State) -> JSONObject:
    return {
        "next_draw": state.next_draw, "drawn": cast(JSON, [d[:] for d in state.drawn]),
        "kept": cast(JSON, state.kept[:]), "setup": state.setup,
        "arks": cast(JSON, [a[:] for a in state.arks]), "crates": cast(JSON, state.crates[:]),
        "middle": cast(JSON, [g[:] for g in state.middle]), "face_down": state.face_down,
        "round": state.round, "start_player": state.start_player,
        "in_round": cast(JSON, state.in_round[:]), "current": state.current,
        "final_turn": state.final_turn, "flag_taken": state.flag_taken,
        "resigned": cast(JSON, state.resigned[:]), "finished": state.finished,
        "end": state.end, "unseen": cast(JSON, [u[:] for u in state.unseen]),
    }


def load(start: State, data: Mapping[str, JSON]) -> State:
    """The state ``dump`` wrote, on the config of ``start``."""
    raw = cast(Mapping[str, Any], data)
    state = start
    state.next_draw = int(raw["next_draw"])
    state.drawn = _groups(raw["drawn"])
    state.kept = [None if t is None else str(t) for t in raw["kept"]]
    state.setup = bool(raw["setup"])
    state.arks = _groups(raw["arks"])
    state.crates = [int(n) for n in raw["crates"]]
    state.middle = _groups(raw["middle"])
    state.face_down = None if raw["face_down"] is None else str(raw["face_down"])
    state.round = int(raw["round"])
    state.start_player = int(raw["start_player"])
    state.in_round = [int(s) for s in raw["in_round"]]
    state.current = None if raw["current"] is None else int(raw["current"])
    state.final_turn = bool(raw["final_turn"])
    state.flag_taken = bool(raw["flag_taken"])
    state.resigned = [int(s) for s in raw["resigned"]]
    state.finished = bool(raw["finished"])
    state.end = None if raw["end"] is None else str(raw["end"])
    state.unseen = _groups(raw["unseen"])
    return state
