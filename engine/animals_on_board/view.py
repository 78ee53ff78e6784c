"""What people see: the replay summary (everything, for the command line and
finished games), a seat's view and a spectator's, and the event list as each
of them may read it.

Until the game ends a seat sees its own ark (and its three tiles at the
setup), the others' arks only as counts, the face-down tile as ``"?"``, the
stack as a count, and nobody's secret keep; a spectator sees no ark at all."""
from __future__ import annotations

from typing import cast

from ..protocol import JSON, JSONObject
from .events import Event
from .moves import awaited, price
from .rounds import final_winners
from .scoring import ArkScore, score_ark
from .state import State
from .tiles import Seat, shown


def score_json(score: ArkScore) -> JSONObject:
    return {"points": score.points, "tile_points": score.tile_points,
            "crate_points": score.crate_points, "species": score.species,
            "kept": list(score.kept), "pairs": list(score.pairs),
            "reduced": list(score.reduced)}


def middle(state: State) -> list[JSON]:
    return [cast(JSON, shown(group, state.face_down)) for group in state.middle]


def _scores(state: State) -> list[ArkScore]:
    return [score_ark(state.arks[s], state.crates[s]) for s in range(state.seats)]


def _public(state: State) -> JSONObject:
    """What everybody sees, at any time."""
    return {
        "finished": state.finished,
        "winners": cast(JSON, final_winners(state)),
        "current_player": state.current,
        "awaiting": cast(JSON, awaited(state) if state.setup else []),
        "round": state.round,
        "start_player": state.start_player,
        "crates": cast(JSON, state.crates[:]),
        "middle": middle(state),
        "in_round": cast(JSON, state.in_round[:]),
        "final_turn": state.final_turn,
        "stack": state.stack(),
        "resigned": cast(JSON, sorted(state.resigned)),
        "end": state.end,
    }


def summary(state: State) -> JSONObject:
    """``python -m engine replay``'s summary (the note's fields and a few more):
    the arks in full, ``scores`` as the arks and crates would score now."""
    scores = _scores(state)
    out = {**_public(state),
           "scores": cast(JSON, [s.points for s in scores]),
           "arks": cast(JSON, [sorted(ark) for ark in state.arks])}
    if state.finished:
        out["scored"] = cast(JSON, [list(s.kept) for s in scores])
    return out


def seat_view(state: State, seat: Seat | None) -> JSONObject:
    """What ``seat`` may see (``None``: a spectator). Everything once the game is over."""
    out = {**_public(state),
           "species": cast(JSON, list(state.config.species)),
           "ark_sizes": cast(JSON, [len(ark) for ark in state.arks]),
           "kept": cast(JSON, [s for s in range(state.seats) if state.kept[s] is not None]
                        if state.setup else []),
           "prices": cast(JSON, [price(group) for group in state.middle]),
           "you": seat}
    if seat is not None:
        out["ark"] = cast(JSON, sorted(state.arks[seat]))
        out["drawn"] = cast(JSON, state.drawn[seat][:])
        out["score"] = score_json(score_ark(state.arks[seat], state.crates[seat]))
    if state.finished:
        out["arks"] = cast(JSON, [sorted(ark) for ark in state.arks])
        out["scoring"] = cast(JSON, [score_json(s) for s in _scores(state)])
        out["scores"] = cast(JSON, [s.points for s in _scores(state)])
        out["face_down"] = state.face_down
        out["deck"] = cast(JSON, list(state.config.deck))
    return out


def revealed_view(state: State, seat: Seat | None) -> JSONObject:
    """``seat_view`` with every secret of the moment shown, for a finished game's
    replay: each ark (``arks``), the face-down tile (``face_down``), the tiles each
    seat drew at the setup and the one each kept (``drawn_by``, ``kept_tiles``) and
    the stack in the order it is drawn (``stack_order``); ``revealed`` says so."""
    out = seat_view(state, seat)
    out.update({
        "revealed": True,
        "arks": cast(JSON, [sorted(ark) for ark in state.arks]),
        "face_down": state.face_down,
        "drawn_by": cast(JSON, [d[:] for d in state.drawn]),
        "kept_tiles": cast(JSON, state.kept[:]),
        "stack_order": cast(JSON, list(state.config.deck[state.next_draw:])),
    })
    return out


def event_view(state: State, event: Event, seat: Seat | None) -> JSONObject:
    """An event of the log as ``seat`` may read it: another seat's ``keep``
    without its tile until the game is over. No other event names a secret (a
    split writes the face-down tile as ``"?"``, a take names only the group)."""
    if event["type"] == "keep" and event["player"] != seat and not state.finished:
        return {"type": "keep", "player": event["player"]}
    return cast(JSONObject, dict(event))
