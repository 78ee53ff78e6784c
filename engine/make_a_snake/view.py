"""What players and tools see of a state: the replay summary of the spec note,
and the player's view with each piece's geometry for drawing.

The order of the stacks is the game's only secret: both show how many tiles
each stack holds, never which; the revealed view (a finished game's replay)
lists them.
"""
from __future__ import annotations

from typing import NamedTuple, cast

from ..protocol import JSON, JSONObject
from .exact import Q2, round_hundredths
from .geometry import Arc, Placed, Vec, to_float
from .pieces import COLOURS, HEAD_LENGTH, TONGUE_TIP
from .rules import RULES_VERSION, takeable
from .scoring import LOLLIPOP_RADIUS, LOLLIPOPS
from .snake import HEAD, Laid, Snake
from .state import State

DRAWING_DIGITS = 3


def _rounded(x: Q2) -> float:
    """A coordinate to 0.01, rounded exactly (``exact.round_hundredths``)."""
    return round_hundredths(x) / 100


def open_end(snake: Snake) -> list[JSON]:
    """``[x, y, heading]`` of the end of the last tile (the tail not counted)."""
    if not snake.tiles:
        (x, y), heading = snake.open_end()
        return [_rounded(x), _rounded(y), heading]
    return list(_drawn(snake.tiles[-1]).end)


def summary(state: State) -> JSONObject:
    """The replay command's summary (spec: ``python -m engine replay``)."""
    out: JSONObject = {
        "finished": state.finished,
        "winners": list(state.winners),
        "current_player": None if state.finished else state.current,
        "awaiting": None if state.finished else state.phase,
        "die": None if state.die is None else list(state.die),
        "stacks": {c: state.left(c) for c in COLOURS},
        "snakes": [[[t.tile, t.side] for t in s.tiles] for s in state.snakes],
        "open_ends": [open_end(s) for s in state.snakes],
        "distances": [None if d is None else d / 100 for d in state.distances],
        "mode": state.mode,
        "advanced": state.advanced,
        "taken": state.taken,
        "connect": None if state.choice is None else {
            "turn": state.choice.turn, "sides": list(state.choice.sides),
            "blocked": state.choice.blocked},
        "resigned": cast(JSON, sorted(state.resigned)),
        "end": state.end,
        "events": state.events,
    }
    if state.lollipop:
        out["touched"] = list(state.touched)
    return out


def _point(p: Vec) -> list[JSON]:
    x, y = to_float(p)
    return [round(x, DRAWING_DIGITS) + 0.0, round(y, DRAWING_DIGITS) + 0.0]


def part_view(part: Placed) -> JSONObject:
    """A part's centre line for drawing: a line between two points, or an arc
    round a centre from angle ``from`` counter-clockwise through ``sweep`` degrees."""
    if isinstance(part, Arc):
        return {"arc": {"centre": _point(part.centre), "radius": part.radius,
                        "from": part.first, "sweep": part.sweep},
                "start": _point(part.start), "end": _point(part.end)}
    return {"line": [_point(part.start), _point(part.end)],
            "start": _point(part.start), "end": _point(part.end)}


def piece_view(laid: Laid) -> JSONObject:
    """A laid tile for drawing (the same object every time for the same piece:
    read it, never change it)."""
    return _drawn(laid).piece


class _Drawn(NamedTuple):
    laid: Laid
    """Held, so that its id names no other piece while the entry lives."""
    piece: JSONObject
    """``piece_view``."""
    end: tuple[float, float, int]
    """``open_end`` of a snake that ends with it."""


DRAWN_KEPT = 4096
"""Pieces whose drawings are kept (a few games' worth): each view draws every
piece on the table again, and its exact coordinates cost more to round than the
rest of the view to make. A laid piece never changes (``Laid`` is frozen), so its
drawing is made once; the states of a game, one move apart, share their pieces."""
_drawings: dict[int, _Drawn] = {}


def _drawn(laid: Laid) -> _Drawn:
    found = _drawings.get(id(laid))
    if found is not None and found.laid is laid:
        return found
    (x, y) = laid.end
    made = _Drawn(laid, {"tile": laid.tile, "side": laid.side,
                         "colour": None if laid.tile == "tail" else laid.colour,
                         "parts": [part_view(p) for p in laid.parts]},
                  (_rounded(x), _rounded(y), laid.heading))
    if len(_drawings) >= DRAWN_KEPT:
        _drawings.clear()
    _drawings[id(laid)] = made
    return made


_HEAD = part_view(HEAD)


def snake_view(snake: Snake, colour: str) -> JSONObject:
    return {"colour": colour,
            "head": {"parts": [_HEAD], "length": HEAD_LENGTH,
                     "tongue": list(TONGUE_TIP)},
            "tiles": [piece_view(t) for t in snake.tiles],
            "tail": None if snake.tail is None else piece_view(snake.tail),
            "open_end": open_end(snake)}


def player_view(state: State, seat: int | None) -> JSONObject:
    """Everything a seat (or a spectator, seat None) may see, as JSON."""
    heads = ["red"] if state.lollipop else list(COLOURS[:len(state.players)])
    view: JSONObject = {
        "rules_version": RULES_VERSION,
        "players": list(state.players),
        "you": seat,
        "colours": list(COLOURS[:len(state.players)]),
        **summary(state),
        "takeable": list(takeable(state)) if state.phase == "take" else [],
        "drawing": [snake_view(s, c) for s, c in zip(state.snakes, heads, strict=True)],
    }
    if state.lollipop:
        view["lollipops"] = [{"centre": _point(c), "radius": LOLLIPOP_RADIUS}
                             for c in LOLLIPOPS]
    return view


def revealed_view(state: State, seat: int | None) -> JSONObject:
    """``player_view`` with the game's secret shown, for a finished game's replay:
    the tiles of each stack, top first (``stack_tiles``); ``revealed`` says so."""
    out = player_view(state, seat)
    out["revealed"] = True
    out["stack_tiles"] = {c: list(state.stacks[c][state.drawn[c]:]) for c in COLOURS}
    return out
