"""Bots for self-play and absent players. Listing every split of a group of 13
tiles makes 8190 events, so the random bot picks without listing: first the
kind of action (keep; take or split, evenly, among those possible; else pass),
then one of that kind uniformly."""
from __future__ import annotations

import random
from typing import Final

from .events import Event, Keep, Pass, Split, Take
from .moves import awaited
from .state import State
from .tiles import Seat, shown

POLICIES: Final = ("random",)


def random_action(state: State, seat: Seat, rng: random.Random) -> Event:
    if seat not in awaited(state):
        raise ValueError(f"nothing is awaited of player {seat}")
    if state.setup:
        return Keep(type="keep", player=seat, tile=rng.choice(state.drawn[seat]))
    takes = [g for g, group in enumerate(state.middle) if len(group) <= state.crates[seat]]
    splittable = [g for g, group in enumerate(state.middle) if len(group) >= 2]
    kinds = [k for k, options in (("take", takes), ("split", splittable)) if options]
    if not kinds:
        return Pass(type="pass", player=seat)
    if rng.choice(kinds) == "take":
        return Take(type="take", player=seat, group=rng.choice(takes))
    g = rng.choice(splittable)
    tiles = shown(state.middle[g], state.face_down)
    mask = rng.randrange(1, (1 << len(tiles)) - 1)
    return Split(type="split", player=seat, group=g,
                 part=[t for i, t in enumerate(tiles) if mask >> i & 1])
