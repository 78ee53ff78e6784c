"""A seat's candidate actions ranked by the value of the state each leads to:
the medium level's choice, and the strong level's widening of its tree."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TypeVar

from ..protocol import Game, Seat
from ..replay import apply

S = TypeVar("S")
E = TypeVar("E", bound=Mapping[str, object])


def ranked(game: Game[S, E], state: S, seat: Seat, rng: random.Random) -> list[tuple[float, E]]:
    """The seat's candidates with the value of the state each leads to, best
    first; ties in a random order (drawn from ``rng``)."""
    scored: list[tuple[float, float, E]] = []
    for action in game.bot_candidates(state, seat):
        after = apply(game, state, action)
        scored.append((game.evaluate(after, seat), rng.random(), action))
    scored.sort(key=lambda t: (-t[0], t[1]))
    return [(value, action) for value, _, action in scored]
