"""A seat's candidate actions ranked by the value of the state each leads to
(``ranked``), or of the state after the other seat's best reply (``replied``):
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


def replied(game: Game[S, E], state: S, seat: Seat, rng: random.Random) -> list[tuple[float, E]]:
    """The seat's candidates ranked as ``ranked`` does, each valued by the
    state after the other seat's best reply to it (the reply worst for the seat
    by ``Game.evaluate``); an action after which the seat moves again, or the
    game is over or waits for chance, is valued as it stands."""
    scored: list[tuple[float, float, E]] = []
    for action in game.bot_candidates(state, seat):
        after = apply(game, state, action)
        wait = game.awaiting(after)
        value = game.evaluate(after, seat)
        if (not wait.finished and wait.chance is None and game.automatic(after) is None
                and seat not in wait.players and len(wait.players) == 1):
            replies = game.bot_candidates(after, wait.players[0])
            value = min((game.evaluate(apply(game, after, reply), seat) for reply in replies),
                        default=value)
        scored.append((value, rng.random(), action))
    scored.sort(key=lambda t: (-t[0], t[1]))
    return [(value, action) for value, _, action in scored]
