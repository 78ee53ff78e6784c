"""What people see: the replay summary (everything, for the command line and
finished games), a seat's view and a spectator's, and the event list as each
of them may read it.

Until the game ends a seat sees its own ark (and its three tiles at the
setup), of the others' arks the tiles taken face up and how many more, the
face-down tile as ``"?"``, the stack as a count, and nobody's secret keep; a
spectator sees the arks' face-up tiles alone.

The views' shapes are TypedDicts of JSON values (``Summary``, ``SeatView``),
which the pages and the mail picture (``ui/animals_on_board``) are checked
against."""
from __future__ import annotations

from typing import NotRequired, TypedDict, cast

from ..protocol import JSONObject
from .events import Event
from .moves import awaited, price
from .rounds import final_winners
from .scoring import ArkScore, score_ark
from .state import State
from .tiles import Seat, shown

# ---------------------------------------------------------------- the views' shapes


class ScoreView(TypedDict):
    """An ark scored (``scoring.score_ark``)."""

    points: int
    tile_points: int
    crate_points: int
    species: int
    kept: list[str]
    """The tiles scored, sorted."""
    pairs: list[str]
    """Returned because their species had exactly two tiles."""
    reduced: list[str]
    """Returned to bring the ark down to 10 tiles."""


class Public(TypedDict):
    """What everybody sees, at any time."""

    finished: bool
    winners: list[int]
    current_player: int | None
    awaiting: list[int]
    """The seats still choosing their keep during the setup; else none."""
    round: int
    start_player: int
    crates: list[int]
    middle: list[list[str]]
    """Each group as players see it: sorted, the face-down tile as ``"?"`` and last."""
    in_round: list[int]
    final_turn: bool
    stack: int
    """The tiles left in the stack."""
    resigned: list[int]
    end: str | None


class Summary(Public):
    """``summary``: the replay command's summary."""

    scores: list[int]
    """As the arks and crates would score now."""
    arks: list[list[str]]
    scored: NotRequired[list[list[str]]]
    """Each ark's scored tiles, once the game is over."""


class SeatView(Public):
    """``seat_view``: what a seat (or a spectator) sees; with ``revealed`` and
    what it names, ``revealed_view``."""

    species: list[str]
    ark_sizes: list[int]
    face_up: list[list[str]]
    """Each ark's tiles the whole table saw taken (face up in the middle),
    sorted: every tile but the keep and the face-down tiles taken."""
    kept: list[int]
    """The seats that have chosen their keep (the setup only)."""
    prices: list[int]
    """Each group's price in crates."""
    you: int | None
    ark: NotRequired[list[str]]
    """A seat's own ark, sorted."""
    drawn: NotRequired[list[str]]
    """A seat's three tiles at the setup."""
    score: NotRequired[ScoreView]
    """A seat's own ark as it would score now."""
    arks: NotRequired[list[list[str]]]
    """Every ark, once the game is over (and in the revealed view)."""
    scoring: NotRequired[list[ScoreView]]
    scores: NotRequired[list[int]]
    face_down: NotRequired[str | None]
    deck: NotRequired[list[str]]
    revealed: NotRequired[bool]
    drawn_by: NotRequired[list[list[str]]]
    kept_tiles: NotRequired[list[str | None]]
    stack_order: NotRequired[list[str]]
    """The stack in the order it is drawn."""


# ---------------------------------------------------------------- making them


def score_json(score: ArkScore) -> ScoreView:
    return {"points": score.points, "tile_points": score.tile_points,
            "crate_points": score.crate_points, "species": score.species,
            "kept": list(score.kept), "pairs": list(score.pairs),
            "reduced": list(score.reduced)}


def middle(state: State) -> list[list[str]]:
    return [shown(group, state.face_down) for group in state.middle]


def _scores(state: State) -> list[ArkScore]:
    return [score_ark(state.arks[s], state.crates[s]) for s in range(state.seats)]


def _public(state: State) -> Public:
    """What everybody sees, at any time."""
    return {
        "finished": state.finished,
        "winners": final_winners(state),
        "current_player": state.current,
        "awaiting": awaited(state) if state.setup else [],
        "round": state.round,
        "start_player": state.start_player,
        "crates": state.crates[:],
        "middle": middle(state),
        "in_round": state.in_round[:],
        "final_turn": state.final_turn,
        "stack": state.stack(),
        "resigned": sorted(state.resigned),
        "end": state.end,
    }


def summary(state: State) -> Summary:
    """``python -m engine replay``'s summary (the note's fields and a few more):
    the arks in full, ``scores`` as the arks and crates would score now."""
    scores = _scores(state)
    # mypy asks that a ** item name the optional keys; a Public has none
    out: Summary = {**_public(state),  # type: ignore[typeddict-item]
                    "scores": [s.points for s in scores],
                    "arks": [sorted(ark) for ark in state.arks]}
    if state.finished:
        out["scored"] = [list(s.kept) for s in scores]
    return out


def seat_view(state: State, seat: Seat | None) -> SeatView:
    """What ``seat`` may see (``None``: a spectator). Everything once the game is over."""
    # mypy asks that a ** item name the optional keys; a Public has none
    out: SeatView = {**_public(state),  # type: ignore[typeddict-item]
                     "species": list(state.config.species),
                     "ark_sizes": [len(ark) for ark in state.arks],
                     "face_up": [sorted(t for t in state.arks[s] if t not in state.unseen[s])
                                 for s in range(state.seats)],
                     "kept": [s for s in range(state.seats) if state.kept[s] is not None]
                     if state.setup else [],
                     "prices": [price(group) for group in state.middle],
                     "you": seat}
    if seat is not None:
        out["ark"] = sorted(state.arks[seat])
        out["drawn"] = state.drawn[seat][:]
        out["score"] = score_json(score_ark(state.arks[seat], state.crates[seat]))
    if state.finished:
        out["arks"] = [sorted(ark) for ark in state.arks]
        out["scoring"] = [score_json(s) for s in _scores(state)]
        out["scores"] = [s.points for s in _scores(state)]
        out["face_down"] = state.face_down
        out["deck"] = list(state.config.deck)
    return out


def revealed_view(state: State, seat: Seat | None) -> SeatView:
    """``seat_view`` with every secret of the moment shown, for a finished game's
    replay: each ark (``arks``), the face-down tile (``face_down``), the tiles each
    seat drew at the setup and the one each kept (``drawn_by``, ``kept_tiles``) and
    the stack in the order it is drawn (``stack_order``); ``revealed`` says so."""
    out = seat_view(state, seat)
    out.update({
        "revealed": True,
        "arks": [sorted(ark) for ark in state.arks],
        "face_down": state.face_down,
        "drawn_by": [d[:] for d in state.drawn],
        "kept_tiles": state.kept[:],
        "stack_order": list(state.config.deck[state.next_draw:]),
    })
    return out


def event_view(state: State, event: Event, seat: Seat | None) -> JSONObject:
    """An event of the log as ``seat`` may read it: another seat's ``keep``
    without its tile until the game is over. No other event names a secret (a
    split writes the face-down tile as ``"?"``, a take names only the group)."""
    if event["type"] == "keep" and event["player"] != seat and not state.finished:
        return {"type": "keep", "player": event["player"]}
    return cast(JSONObject, dict(event))
