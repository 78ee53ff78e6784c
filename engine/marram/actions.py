"""Legal actions: what the player to act may do, fast enough to ask on every
request (python-chess's ``legal_moves``); and every event read from JSON into
its typed form and written back, so that what is stored holds exactly the
fields the rules define (``normalise_event``)."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, fields
from typing import Any

from ..errors import IllegalAction
from . import board as B
from .game import flip_problem, step
from .rules import CREATURE_MAX_HOPS
from .state import GameState
from .types import Arc, Pos, Rotation, Seat, Side


def placements(state: GameState, seat: Seat) -> list[dict[str, Any]]:
    """Every placement of every tile in the seat's hand: tile, face, position, rotation."""
    return [{"type": "place", "player": seat, "tile": tile_id, "face": face,
             "at": [pos[0], pos[1]], "rotation": rotation}
            for tile_id, face, rotation, pos in B.iter_placements(state, state.hands[seat])]


def flips(state: GameState, seat: Seat) -> list[dict[str, Any]]:
    """Every flip the seat may make: position and rotation."""
    out: list[dict[str, Any]] = []
    if state.spades[seat] <= 0:
        return out
    board, feats = state.board, state.features
    for pos in sorted(p for p, placed in board.items() if placed.spade):
        if flip_problem(state, seat, pos) is not None:
            continue
        placed = board[pos]
        gone = frozenset(i for i, n in enumerate(placed.seg_nodes) if n is None)
        for rotation in range(4):
            if B.fits(board, feats, B.flipped_oriented(placed, rotation), pos, gone):
                out.append({"type": "flip", "player": seat, "at": [pos[0], pos[1]],
                            "rotation": rotation})
    return out


def legal_actions(state: GameState) -> list[dict[str, Any]]:
    """What the player to act may do now (without claims: see ``claim_options``).
    Empty when the game is over or waits for a chance event."""
    if state.finished:
        return []
    if state.pending:
        head = state.pending[0]
        if head[0] != "guess":
            return []
        seat, name = head[2], head[1]
        return [{"type": "guess", "player": seat, "creature": name, "hops": h}
                for h in [*range(1, CREATURE_MAX_HOPS + 1), "escape"]]
    seat = state.current
    places = placements(state, seat)
    actions = places + flips(state, seat)
    if not places:
        actions.append({"type": "pass", "player": seat})
    return actions


def claim_options(state: GameState, action: dict[str, Any]) -> list[dict[str, Any]]:
    """The claims that may go with a place or flip: one per region or segment of
    the moved tile whose feature holds no token, while the player has the token."""
    move = {**action, "claim": None}
    after = state.copy()
    step(after, move)  # raises IllegalAction for an illegal move
    pos: Pos = (action["at"][0], action["at"][1])
    placed = after.board[pos]
    out: list[dict[str, Any]] = []
    for arc0 in sorted(min(r.arcs) for r in placed.o.regions):
        out.append({"arc": arc0})
    for seg in placed.o.segments:
        out.append({"side": min(seg.sides)})
    allowed = []
    for claim in out:
        trial = state.copy()
        try:
            step(trial, {**move, "claim": claim})
        except IllegalAction:
            continue
        allowed.append(claim)
    return allowed


# ---------------------------------------------------------------- events as data


class EventFieldError(IllegalAction):
    """An event with a field its type does not have (``unknown_field``) or lacks,
    or a field of the wrong JSON type. ``field`` names it ("claim.junk")."""

    def __init__(self, code: str, message: str, field: str) -> None:
        super().__init__(code, message)
        self.field = field


@dataclass(frozen=True, slots=True)
class Claim:
    """A token put on the moved tile: on the patch of an arc or the beast across a
    side (exactly one), with the token's name if the player gave it."""

    arc: Arc | None = None
    side: Side | None = None
    token: str | None = None


@dataclass(frozen=True, slots=True)
class Place:
    player: Seat
    tile: str
    face: str
    at: Pos
    rotation: Rotation
    claim: Claim | None = None


@dataclass(frozen=True, slots=True)
class Flip:
    player: Seat
    at: Pos
    rotation: Rotation
    claim: Claim | None = None


@dataclass(frozen=True, slots=True)
class Pass:
    player: Seat


@dataclass(frozen=True, slots=True)
class Timeout:
    player: Seat


@dataclass(frozen=True, slots=True)
class Resign:
    player: Seat


@dataclass(frozen=True, slots=True)
class Guess:
    player: Seat
    creature: str
    hops: int | str


@dataclass(frozen=True, slots=True)
class CreatureAppears:
    creature: str
    at: Pos


@dataclass(frozen=True, slots=True)
class Hop:
    creature: str
    to: Pos


Event = Place | Flip | Pass | Timeout | Resign | Guess | CreatureAppears | Hop
EVENT_CLASSES: dict[str, type[Event]] = {
    "place": Place, "flip": Flip, "pass": Pass, "timeout": Timeout, "resign": Resign,
    "guess": Guess, "creature_appears": CreatureAppears, "hop": Hop,
}
_KINDS = {cls: kind for kind, cls in EVENT_CLASSES.items()}


def _shown(value: Any) -> str:
    """A value quoted in a message, cut short: the input may be huge."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _read_int(code: str, what: str) -> Callable[[Any, str], int]:
    def read(value: Any, name: str) -> int:
        if not _is_int(value):
            raise EventFieldError(code, f"'{name}' must be {what}, got {_shown(value)}", name)
        return int(value)
    return read


MAX_NAME = 64
"""Characters in a tile id, a face, a creature or a token's name: a name, not a text."""


def _read_str(code: str, what: str) -> Callable[[Any, str], str]:
    def read(value: Any, name: str) -> str:
        if not isinstance(value, str) or len(value) > MAX_NAME:
            raise EventFieldError(code, f"'{name}' must be {what} (a name of at most "
                                  f"{MAX_NAME} characters), got {_shown(value)}", name)
        return value
    return read


def _read_pos(value: Any, name: str) -> Pos:
    if not isinstance(value, (list, tuple)) or len(value) != 2 or not all(map(_is_int, value)):
        raise EventFieldError("bad_event", f"'{name}' must be a position [x, y], got "
                              f"{_shown(value)}", name)
    return (int(value[0]), int(value[1]))


def _read_hops(value: Any, name: str) -> int | str:
    if isinstance(value, str) and len(value) <= MAX_NAME:
        return value
    if _is_int(value):
        return int(value)
    raise EventFieldError("bad_guess", f"a guess is a number of hops or \"escape\", got "
                          f"{_shown(value)}", name)


_CLAIM_FIELDS = ("arc", "side", "token")


def _read_claim(value: Any, name: str) -> Claim | None:
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise EventFieldError("bad_claim", "a claim is {\"arc\": 0-7} for a patch or "
                              f"{{\"side\": 0-3}} for a beast, got {_shown(value)}", name)
    unknown = sorted(str(k) for k in value if k not in _CLAIM_FIELDS)
    if unknown:
        raise EventFieldError("unknown_field", f"a claim has arc or side (and token), not "
                              f"{', '.join(_shown(k) for k in unknown)}", f"{name}.{unknown[0]}")
    if ("arc" in value) == ("side" in value):
        raise EventFieldError("bad_claim", "a claim names an arc (a patch) or a side (a "
                              "beast), one of the two", name)
    key = "arc" if "arc" in value else "side"
    number = _read_int("bad_claim", "a number")(value[key], f"{name}.{key}")
    token = value.get("token")
    if token is not None:
        token = _read_str("bad_claim", "boot or pitchfork")(token, f"{name}.token")
    return Claim(**{key: number}, token=token)


_READERS: dict[str, Callable[[Any, str], Any]] = {
    "player": _read_int("bad_event", "a seat number"),
    "tile": _read_str("bad_event", "a tile id"),
    "face": _read_str("bad_face", "'front' or 'back'"),
    "at": _read_pos,
    "to": _read_pos,
    "rotation": _read_int("bad_rotation", "0, 1, 2 or 3"),
    "claim": _read_claim,
    "creature": _read_str("bad_event", "'fly' or 'frog'"),
    "hops": _read_hops,
}


def event_from_json(data: Any) -> Event:
    """The typed event for a JSON event: its type's fields, each of the right JSON
    type (the rules judge the values). EventFieldError for a field the type does
    not have, lacks, or of the wrong type; IllegalAction("bad_event") for what is
    no event at all."""
    if not isinstance(data, Mapping):
        raise IllegalAction("bad_event", f"an event is a JSON object, got {_shown(data)}")
    kind = data.get("type")
    cls = EVENT_CLASSES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise EventFieldError("bad_event", f"unknown event type {_shown(kind)}: expected one "
                              f"of {', '.join(EVENT_CLASSES)}", "type")
    names = [f.name for f in fields(cls)]
    unknown = sorted(str(k) for k in data if k != "type" and k not in names)
    if unknown:
        raise EventFieldError("unknown_field", f"a {kind} has {', '.join(['type', *names])}, "
                              f"not {', '.join(_shown(k) for k in unknown)}", unknown[0])
    values: dict[str, Any] = {}
    for f in fields(cls):
        if f.name in data:
            values[f.name] = _READERS[f.name](data[f.name], f.name)
        elif f.default is MISSING:
            raise EventFieldError("bad_event", f"a {kind} needs '{f.name}'", f.name)
    return cls(**values)


def _json_value(value: Any) -> Any:
    if isinstance(value, Claim):
        claim: dict[str, Any] = {"arc": value.arc} if value.arc is not None else {
            "side": value.side}
        if value.token is not None:
            claim["token"] = value.token
        return claim
    if isinstance(value, tuple):
        return list(value)
    return value


def event_to_json(event: Event) -> dict[str, Any]:
    """The record's form of an event: "type" and every field of its type."""
    out: dict[str, Any] = {"type": _KINDS[type(event)]}
    for f in fields(event):
        out[f.name] = _json_value(getattr(event, f.name))
    return out


def normalise_event(data: Any) -> dict[str, Any]:
    """An event as the store keeps it: read into its typed form and written back,
    so nothing but the fields its rules define is kept ("claim" is null when
    absent)."""
    return event_to_json(event_from_json(data))
