"""The bots' levels, each a policy over the Game protocol: ``choose`` returns the
action a bot of a level plays for an awaited seat.

Every level starts from ``Game.determinize(state, seat, rng)``: a state built
from what the seat may see, its secrets redrawn. Given the same seed a bot
therefore plays the same move in two states that differ only in what the seat
cannot see, which is what keeps it honest."""
from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

from ..protocol import Game, SearchSettings, Seat
from ..replay import apply
from .mcts import search
from .ranking import ranked, replied

S = TypeVar("S")
E = TypeVar("E", bound=Mapping[str, object])

LEVELS = ("easy", "medium", "strong")


@dataclass(frozen=True, slots=True)
class BotMove(Generic[E]):
    """A bot's choice, with what it cost (for the arena's figures)."""

    action: E
    playouts: int = 0
    """Determinized playouts the strong bot ran (0 for the other levels)."""
    cut: bool = False
    """Whether the strong bot's CPU-time guard cut its search short."""


EASY_SAMPLE = 2
"""How many actions the easy bot draws before keeping the better one."""


def easy(game: Game[S, E], state: S, seat: Seat, rng: random.Random) -> E:
    """The better by ``Game.evaluate`` of ``EASY_SAMPLE`` actions drawn at random
    by the game's own random bot: it plays loosely, but not blindly."""
    seen = game.determinize(state, seat, rng)
    drawn = [game.bot_action(seen, seat, rng, "random") for _ in range(EASY_SAMPLE)]
    return max(drawn, key=lambda action: game.evaluate(apply(game, seen, action), seat))


def medium(game: Game[S, E], state: S, seat: Seat, rng: random.Random) -> E:
    """The action with the best value for the seat (``Game.evaluate``) right
    after it, as BGA's "simple zombie" plays, or after the best reply when the
    game's ``medium_replies`` asks for it."""
    seen = game.determinize(state, seat, rng)
    if game.medium_replies:
        return replied(game, seen, seat, rng)[0][1]
    return ranked(game, seen, seat, rng)[0][1]


def choose(game: Game[S, E], state: S, seat: Seat, level: str, rng: random.Random,
           settings: SearchSettings | None = None) -> BotMove[E]:
    """The move a bot of ``level`` plays for ``seat``, an awaited seat of ``state``;
    ``settings`` overrides the game's ``search`` for the strong level."""
    if level == "easy":
        return BotMove(easy(game, state, seat, rng))
    if level == "medium":
        return BotMove(medium(game, state, seat, rng))
    if level == "strong":
        result = search(game, state, seat, rng, settings or game.search)
        return BotMove(result.action, result.playouts, result.cut)
    raise ValueError(f"no bot level {level!r}: the levels are " + ", ".join(LEVELS))
