"""What a seat may do now: who is awaited, and the legal actions as events.

Splits are listed in full (every non-empty part short of the whole group: a
part and its complement leave different group numbers), the face-down tile as
``"?"``, so a list never names it."""
from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from .events import Event, Keep, Pass, Split, Take
from .state import State
from .tiles import Seat, Tile, shown


def awaited(state: State) -> list[Seat]:
    """The seats that must act now: every seat still choosing its secret keep
    during the setup, else the seat whose turn it is."""
    if state.finished:
        return []
    if state.setup:
        return [s for s in state.active() if state.kept[s] is None]
    return [] if state.current is None else [state.current]


def keep_unaffected(state: State, since: Sequence[Event], seat: Seat) -> bool:
    """Whether the seat's keep is as it was before ``since``: the game is still
    in its setup and waits for this seat's keep, and every event since was another
    seat's keep (or its timeout, which keeps its first tile). The keeps are made at
    the same time and in secret; one changes nothing of another's three tiles."""
    return (state.setup and seat in awaited(state)
            and all(e["type"] in ("keep", "timeout") and e.get("player") != seat
                    for e in since))


def price(group: list[Tile]) -> int:
    """What taking a group costs: a crate a tile."""
    return len(group)


def can_split(state: State) -> bool:
    return any(len(group) >= 2 for group in state.middle)


def can_take(state: State, seat: Seat) -> bool:
    return any(price(group) <= state.crates[seat] for group in state.middle)


def stuck(state: State, seat: Seat) -> bool:
    """Neither a split nor a take is possible: the only turn is a pass."""
    return not can_split(state) and not can_take(state, seat)


def splits(state: State, seat: Seat, group: int) -> list[Split]:
    """Every split of the group, smaller parts first (8190 for 13 tiles)."""
    tiles = shown(state.middle[group], state.face_down)
    out: list[Split] = [{"type": "split", "player": seat, "group": group, "part": list(part)}
                        for size in range(1, len(tiles))
                        for part in combinations(tiles, size)]
    return out


def legal_actions(state: State, seat: Seat) -> list[Event]:
    if seat not in awaited(state):
        return []
    if state.setup:
        return [Keep(type="keep", player=seat, tile=t) for t in state.drawn[seat]]
    actions: list[Event] = []
    for g, group in enumerate(state.middle):
        if price(group) <= state.crates[seat]:
            actions.append(Take(type="take", player=seat, group=g))
        if len(group) >= 2:
            actions.extend(splits(state, seat, g))
    return actions or [Pass(type="pass", player=seat)]
