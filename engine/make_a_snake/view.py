"""What players and tools see of a state: the replay summary of the spec note,
and the player's view with each piece's geometry for drawing.

The order of the stacks is the game's only secret: both show how many tiles
each stack holds, never which; the revealed view (a finished game's replay)
lists them.
"""
from __future__ import annotations

from typing import NamedTuple, NotRequired, TypedDict, final

from ..protocol import JSON
from .exact import Q2, round_hundredths
from .geometry import Arc, Placed, Vec, to_float
from .pieces import COLOURS, HEAD_LENGTH, TONGUE_TIP
from .rules import RULES_VERSION, takeable
from .scoring import LOLLIPOP_RADIUS, LOLLIPOPS
from .snake import HEAD, Laid, Snake
from .state import State

DRAWING_DIGITS = 3


# ---------------------------------------------------------------- the views' shapes


@final
class LinePart(TypedDict):
    """A straight part of a piece's centre line."""

    line: list[list[float]]
    start: list[float]
    end: list[float]


ArcShape = TypedDict("ArcShape", {"centre": list[float], "radius": int, "from": int,
                                  "sweep": int})
"""A circle's arc round ``centre`` from angle ``from`` counter-clockwise through
``sweep`` degrees."""


@final
class ArcPart(TypedDict):
    """A curved part of a piece's centre line."""

    arc: ArcShape
    start: list[float]
    end: list[float]


PartView = LinePart | ArcPart


class PieceView(TypedDict):
    """A laid tile (or the tail) for drawing."""

    tile: str
    side: str
    colour: str | None
    """None for the tail."""
    parts: list[PartView]


class HeadView(TypedDict):
    parts: list[PartView]
    length: int
    tongue: list[int]


class SnakeDrawing(TypedDict):
    """A snake for drawing: head, tiles, tail and open end."""

    colour: str
    head: HeadView
    tiles: list[PieceView]
    tail: PieceView | None
    open_end: list[float]


class ConnectView(TypedDict):
    turn: int
    sides: list[str]
    blocked: bool


class Summary(TypedDict):
    """``summary``: the replay command's summary."""

    finished: bool
    winners: list[int]
    current_player: int | None
    awaiting: str | None
    die: list[str] | None
    stacks: dict[str, int]
    snakes: list[list[list[str]]]
    """Each snake's tiles as [tile, side]."""
    open_ends: list[list[float]]
    distances: list[float | None]
    mode: str
    advanced: bool
    taken: str | None
    connect: ConnectView | None
    resigned: list[int]
    end: str | None
    events: int
    touched: NotRequired[list[int]]
    """The lollipop hunt only: the lollipops touched."""


class Lollipop(TypedDict):
    centre: list[float]
    radius: int


class PlayerView(Summary):
    """``player_view``: what a seat (or a spectator) sees; with ``revealed`` and
    ``stack_tiles``, ``revealed_view``."""

    rules_version: str
    players: list[str]
    you: int | None
    colours: list[str]
    takeable: list[str]
    drawing: list[SnakeDrawing]
    lollipops: NotRequired[list[Lollipop]]
    """The lollipop hunt only."""
    revealed: NotRequired[bool]
    stack_tiles: NotRequired[dict[str, list[str]]]
    """The tiles of each stack, top first (a finished game's replay only)."""


class Preview(TypedDict):
    """One placement of the tile about to be connected (the ``connect_preview``
    query): the connect that lays it (None when that side may not be chosen),
    whether it may and why, the tiles turned over first as they would then lie,
    its parts and open end, the earlier tiles it would overlap and, in the
    lollipop hunt, the lollipops touched."""

    side: str
    action: JSON
    allowed: bool
    why: str
    turn: int
    turned: list[PieceView]
    open_end: list[float]
    parts: list[PartView]
    overlaps: list[int]
    overlap_tiles: list[str]
    end_point: list[float]
    touched: NotRequired[list[int]]


# ---------------------------------------------------------------- making them


def _rounded(x: Q2) -> float:
    """A coordinate to 0.01, rounded exactly (``exact.round_hundredths``)."""
    return round_hundredths(x) / 100


def open_end(snake: Snake) -> list[float]:
    """``[x, y, heading]`` of the end of the last tile (the tail not counted)."""
    if not snake.tiles:
        (x, y), heading = snake.open_end()
        return [_rounded(x), _rounded(y), heading]
    return list(_drawn(snake.tiles[-1]).end)


def summary(state: State) -> Summary:
    """The replay command's summary (spec: ``python -m engine replay``)."""
    out: Summary = {
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
        "resigned": sorted(state.resigned),
        "end": state.end,
        "events": state.events,
    }
    if state.lollipop:
        out["touched"] = list(state.touched)
    return out


def _point(p: Vec) -> list[float]:
    x, y = to_float(p)
    return [round(x, DRAWING_DIGITS) + 0.0, round(y, DRAWING_DIGITS) + 0.0]


def part_view(part: Placed) -> PartView:
    """A part's centre line for drawing: a line between two points, or an arc
    round a centre from angle ``from`` counter-clockwise through ``sweep`` degrees."""
    if isinstance(part, Arc):
        return {"arc": {"centre": _point(part.centre), "radius": part.radius,
                        "from": part.first, "sweep": part.sweep},
                "start": _point(part.start), "end": _point(part.end)}
    return {"line": [_point(part.start), _point(part.end)],
            "start": _point(part.start), "end": _point(part.end)}


def piece_view(laid: Laid) -> PieceView:
    """A laid tile for drawing (the same object every time for the same piece:
    read it, never change it)."""
    return _drawn(laid).piece


class _Drawn(NamedTuple):
    laid: Laid
    """Held, so that its id names no other piece while the entry lives."""
    piece: PieceView
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


def snake_view(snake: Snake, colour: str) -> SnakeDrawing:
    return {"colour": colour,
            "head": {"parts": [_HEAD], "length": HEAD_LENGTH,
                     "tongue": list(TONGUE_TIP)},
            "tiles": [piece_view(t) for t in snake.tiles],
            "tail": None if snake.tail is None else piece_view(snake.tail),
            "open_end": open_end(snake)}


def player_view(state: State, seat: int | None) -> PlayerView:
    """Everything a seat (or a spectator, seat None) may see, as JSON."""
    heads = ["red"] if state.lollipop else list(COLOURS[:len(state.players)])
    view: PlayerView = {
        "rules_version": RULES_VERSION,
        "players": list(state.players),
        "you": seat,
        "colours": list(COLOURS[:len(state.players)]),
        # mypy asks that a ** item name PlayerView's optional keys; a Summary has none
        **summary(state),  # type: ignore[typeddict-item]
        "takeable": list(takeable(state)) if state.phase == "take" else [],
        "drawing": [snake_view(s, c) for s, c in zip(state.snakes, heads, strict=True)],
    }
    if state.lollipop:
        view["lollipops"] = [{"centre": _point(c), "radius": LOLLIPOP_RADIUS}
                             for c in LOLLIPOPS]
    return view


def revealed_view(state: State, seat: int | None) -> PlayerView:
    """``player_view`` with the game's secret shown, for a finished game's replay:
    the tiles of each stack, top first (``stack_tiles``); ``revealed`` says so."""
    out = player_view(state, seat)
    out["revealed"] = True
    out["stack_tiles"] = {c: list(state.stacks[c][state.drawn[c]:]) for c in COLOURS}
    return out
