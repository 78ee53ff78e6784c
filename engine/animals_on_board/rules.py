"""The fold: each event checked against the rules and applied to the state in
place (``IllegalAction`` with a stable code, the state then thrown away).

The messages never name a secret: a tile that is not face up in a group is
refused the same way whether it lies face down there or elsewhere."""
from __future__ import annotations

from typing import Final

from ..errors import IllegalAction
from .events import Event
from .moves import awaited, stuck
from .rounds import finish, next_turn, pass_flag, reveal_setup
from .state import State
from .tiles import FACE_DOWN, MAX_CRATES, Seat, Tile, shown

RULES_VERSION: Final = "1"


def _int(event: Event, name: str) -> int:
    raw = event.get(name)
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise IllegalAction("bad_event", f"'{name}' must be a whole number, got {raw!r}")
    return raw


def _seat(state: State, event: Event) -> Seat:
    seat = _int(event, "player")
    if not 0 <= seat < state.seats:
        raise IllegalAction("bad_event", f"'player' must be a seat from 0 to "
                            f"{state.seats - 1}, got {seat}")
    return seat


def _group(state: State, event: Event) -> int:
    g = _int(event, "group")
    if not 0 <= g < len(state.middle):
        listed = (f"groups 0 to {len(state.middle) - 1}" if state.middle
                  else "no group")
        raise IllegalAction("no_such_group", f"there is no group {g}: the middle holds "
                            + listed)
    return g


def step(state: State, event: Event) -> State:
    """Check ``event`` and apply it to ``state`` (in place); return the state."""
    if state.finished:
        raise IllegalAction("game_finished", "the game is over")
    seat = _seat(state, event)
    kind = event["type"]
    if kind == "resign":
        _resign(state, seat)
        return state
    if seat not in awaited(state):
        why = (f"player {seat} has resigned" if seat in state.resigned
               else f"player {seat} has kept a tile and waits for the others" if state.setup
               else f"it is player {state.current}'s turn, not player {seat}'s")
        raise IllegalAction("not_your_turn", why)
    if kind == "timeout":
        _timeout(state, seat)
    elif state.setup and kind != "keep":
        raise IllegalAction("wrong_action", "first every player keeps one of their three "
                            "tiles: write keep and the tile")
    elif kind == "keep":
        if not state.setup:
            raise IllegalAction("wrong_action", "tiles are kept only at the setup: now "
                                "split a group, take one, or pass")
        _keep(state, seat, event.get("tile"))
    elif kind == "split":
        _split(state, seat, _group(state, event), event.get("part"))
    elif kind == "take":
        _take(state, seat, _group(state, event))
    else:
        if not stuck(state, seat):
            raise IllegalAction("not_stuck", "a player passes only when they can neither "
                                "split a group nor pay for one")
        _leave_round(state, seat)
    return state


def _keep(state: State, seat: Seat, tile: object) -> None:
    if not isinstance(tile, str) or tile not in state.drawn[seat]:
        # the message does not list the seat's tiles: it may be read by whoever sent it
        raise IllegalAction("not_your_tile", f"{tile!r} is not one of the three tiles you "
                            "drew: keep one of those your view shows")
    state.kept[seat] = tile
    state.arks[seat].append(tile)
    state.unseen[seat].append(tile)
    if not awaited(state):
        reveal_setup(state)


def _timeout(state: State, seat: Seat) -> None:
    """At the setup the seat keeps the first of its three tiles; in a round it
    passes, whatever it could have done."""
    if state.setup:
        _keep(state, seat, state.drawn[seat][0])
    else:
        _leave_round(state, seat)


def _part(state: State, g: int, raw: object) -> list[Tile]:
    """The real tiles of a split's ``part``, every one face up in the group or
    the group's face-down tile written ``"?"``."""
    if not isinstance(raw, list) or not raw or not all(isinstance(t, str) for t in raw):
        raise IllegalAction("bad_part", "'part' must list the tiles that leave the group "
                            "(the face-down tile as \"?\"), at least one")
    if len(set(raw)) != len(raw):
        raise IllegalAction("bad_part", f"'part' names a tile twice: {raw!r}")
    group = state.middle[g]
    face_up = shown(group, state.face_down)
    part: list[Tile] = []
    for name in raw:
        if name not in face_up:
            where = " face down" if name == FACE_DOWN else " face up"
            raise IllegalAction("not_in_group", f"{name!r} is not a tile lying{where} in "
                                f"group {g}: it holds " + ", ".join(face_up))
        part.append(state.face_down if name == FACE_DOWN and state.face_down else name)
    if len(part) == len(group):
        raise IllegalAction("whole_group", "a split leaves at least one tile in each group: "
                            "the part cannot be the whole group")
    return part


def _split(state: State, seat: Seat, g: int, raw: object) -> None:
    if len(state.middle[g]) < 2:
        raise IllegalAction("too_small", f"group {g} holds one tile: only a group of two "
                            "or more can be split")
    part = _part(state, g, raw)
    state.middle[g] = [t for t in state.middle[g] if t not in part]
    state.middle.append(sorted(part))
    # a sixth crate is never held: gaining it returns one instead
    state.crates[seat] = MAX_CRATES - 1 if state.crates[seat] >= MAX_CRATES \
        else state.crates[seat] + 1
    next_turn(state, seat)


def _take(state: State, seat: Seat, g: int) -> None:
    group = state.middle[g]
    if len(group) > state.crates[seat]:
        raise IllegalAction("cannot_pay", f"group {g} holds {len(group)} tiles and costs "
                            f"{len(group)} crates; you hold {state.crates[seat]}")
    state.crates[seat] -= len(group)
    state.arks[seat].extend(group)
    if state.face_down in group:
        state.unseen[seat].append(state.face_down)
        state.face_down = None  # seen by the taker alone, on their ark
    del state.middle[g]
    if not state.flag_taken:
        state.flag_taken = True
        state.start_player = seat
    _leave_round(state, seat)


def _leave_round(state: State, seat: Seat) -> None:
    state.in_round.remove(seat)
    next_turn(state, seat)


def _resign(state: State, seat: Seat) -> None:
    """The seat leaves for good, at any time: out of the round and of every
    later one, its ark no longer counting towards the end, unable to win."""
    if seat in state.resigned:
        raise IllegalAction("resigned", f"player {seat} has resigned already")
    state.resigned.append(seat)
    pass_flag(state, seat)
    if len(state.active()) == 1:
        finish(state, "resign")
    elif state.setup:
        if not awaited(state):
            reveal_setup(state)
    elif seat in state.in_round:
        state.in_round.remove(seat)
        if state.current == seat:
            next_turn(state, seat)
        elif len(state.in_round) == 1:
            state.final_turn = True  # the seat to move is the last one left
