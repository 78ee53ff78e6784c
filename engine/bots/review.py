"""A review of a finished game: the strong bot goes through each move of a seat,
says what it would have played and what the move cost, in the game's own
measure (``ReviewSettings.measure``: points, or the chance of winning).

For each move the review runs the strong bot's search (``mcts.search``, used as
it is) on the position before the move, from the seat's side: the search
works on ``Game.determinize``, so the move is judged on what the seat could
know then, never on the draws that came after. When the search would have
played another action, both are judged by the same paired samples: each
sample a determinization of the position, the action, then
``ReviewSettings.horizon`` actions of every seat's best immediate reply
(``ranking.ranked``, the medium bot's choice) and chance drawn with its odds,
valued by ``measure``; the two actions share each sample's determinization and
draws, so their difference is not blurred by luck. The suggestion stands when
it is judged better; otherwise the move played held up and costs nothing. So a
move's cost is never below 0, and the move recommended costs 0.

Everything follows from the generator given for each move (``review_rng``: the
game's seed, the event's index and the seat), so a review repeats exactly
within the search's CPU-time cap."""
from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Generic, TypeVar

from ..errors import IllegalAction
from ..protocol import Game, ReviewSettings, Seat
from .mcts import action_key, play_out, rewards, search
from .ranking import ranked

S = TypeVar("S")
E = TypeVar("E", bound=Mapping[str, object])

MARKED = 3
"""How many of a seat's costliest moves a review marks."""


@dataclass(frozen=True, slots=True)
class Budget:
    """What a review may spend on a move: the search's playouts (None: the
    game's own ``SearchSettings.playouts``, as the strong bot plays) and the
    paired samples that judge a move against the suggestion (None: the game's
    ``ReviewSettings.samples``)."""

    playouts: int | None = None
    samples: int | None = None


@dataclass(frozen=True, slots=True)
class MoveReview(Generic[E]):
    """One move of a seat, judged."""

    index: int
    """The move's index in the game's events (its seq)."""
    seat: Seat
    played: E
    best: E
    """What the strong bot recommends: its search's choice, or the move played
    when that held up against it."""
    suggested: E
    """The search's choice."""
    value_played: float
    value_best: float
    cost: float
    """``value_best - value_played``: never below 0, 0 for the recommended move."""
    choices: int
    """How many actions the search weighed (1: the move was forced)."""
    playouts: int
    cpu_seconds: float = field(compare=False)
    """What the review of the move took (not part of what it says)."""


def review_rng(seed: str, index: int, seat: Seat) -> random.Random:
    """The generator of one move's review: from the game's seed, the move's index
    and the seat, so a review of a game repeats exactly."""
    digest = hashlib.sha256(f"marram-review:{seed}:{index}:{seat}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def measure(game: Game[S, E], state: S, seat: Seat, settings: ReviewSettings) -> float:
    """How good ``state`` is for ``seat`` in the review's measure. ``points``: the
    seat's score less the best other score once the game is over (the other way
    round where lower scores win; the seat's own in a co-operative game), else
    ``Game.evaluate``, which is in points. ``win``: the search's own reward, in
    percent (a share of 100 for a win, or the logistic of the evaluation)."""
    if settings.measure == "win":
        return 100.0 * rewards(game, state, game.search.evaluation_scale)[seat]
    p = game.projection(state)
    if not p.finished:
        return game.evaluate(state, seat)
    sign = -1.0 if p.better == "lower" else 1.0
    mine = sign * float(p.scores[seat] or 0)
    others = [sign * float(score or 0) for s, score in enumerate(p.scores) if s != seat]
    return mine if p.cooperative or not others else mine - max(others)


def _judge(game: Game[S, E], state: S, seat: Seat, action: E, seed: int,
           settings: ReviewSettings) -> float:
    """One sample's value of ``action``: its determinization and draws follow from
    ``seed``, which the other action judged shares."""
    rng = random.Random(seed)
    d = game.determinize(state, seat, rng)
    try:
        d = game.fold(d, action)
    except IllegalAction:  # not the seat's to play in this sample: judged as it was
        d = game.fold(game.copy(state), action)
    d = play_out(game, d, rng, settings.horizon,
                 lambda s, actor, r: ranked(game, s, actor, r)[0][1])
    return measure(game, d, seat, settings)


def review_move(game: Game[S, E], state: S, seat: Seat, played: E, rng: random.Random,
                index: int = 0, budget: Budget = Budget()) -> MoveReview[E]:
    """The review of ``played``, the move ``seat`` made in ``state``."""
    started = time.process_time()
    settings = game.review
    search_settings = game.search
    if budget.playouts is not None:
        search_settings = replace(search_settings, playouts=budget.playouts)
    result = search(game, state, seat, rng, search_settings)
    suggested = result.action
    if action_key(suggested) == action_key(played):
        # the search's choice: nothing to judge it against
        value = _mean(game, state, seat, played, rng, budget, settings)
        return MoveReview(index, seat, played, played, suggested, value, value, 0.0,
                          len(result.visits), result.playouts,
                          time.process_time() - started)
    samples = budget.samples if budget.samples is not None else settings.samples
    seeds = [rng.getrandbits(64) for _ in range(max(1, samples))]
    value_played = sum(_judge(game, state, seat, played, s, settings) for s in seeds) / len(seeds)
    value_suggested = sum(_judge(game, state, seat, suggested, s, settings)
                          for s in seeds) / len(seeds)
    if value_suggested > value_played:
        best, value_best = suggested, value_suggested
    else:
        best, value_best = played, value_played
    return MoveReview(index, seat, played, best, suggested, value_played, value_best,
                      value_best - value_played, len(result.visits), result.playouts,
                      time.process_time() - started)


def _mean(game: Game[S, E], state: S, seat: Seat, action: E, rng: random.Random,
          budget: Budget, settings: ReviewSettings) -> float:
    samples = budget.samples if budget.samples is not None else settings.samples
    seeds = [rng.getrandbits(64) for _ in range(max(1, samples))]
    return sum(_judge(game, state, seat, action, s, settings) for s in seeds) / len(seeds)


def review_game(game: Game[S, E], start: S, events: Sequence[E],
                moves: Callable[[int, E], bool], seed: str,
                budget: Budget = Budget()) -> list[MoveReview[E]]:
    """The review of every move of ``events`` (folded from ``start``) that
    ``moves(index, event)`` picks: each an action of a seat the game awaited,
    other than a resignation or an automatic event (no choice of the seat's); in
    the record's order."""
    out: list[MoveReview[E]] = []
    state = game.copy(start)
    for index, event in enumerate(events):
        seat = event.get("player")
        if (isinstance(seat, int) and moves(index, event)
                and seat in game.awaiting(state).players
                and game.automatic(state) is None
                and not any(dict(e) == dict(event) for e in game.resign(state, seat))):
            out.append(review_move(game, state, seat, event, review_rng(seed, index, seat),
                                   index, budget))
        state = game.fold(state, event)
    return out


def marked(reviews: Sequence[MoveReview[E]], n: int = MARKED) -> set[int]:
    """The indices of the ``n`` costliest moves of each seat (those that cost
    anything), the earlier first among equal costs."""
    out: set[int] = set()
    for seat in {r.seat for r in reviews}:
        mine = sorted((r for r in reviews if r.seat == seat and r.cost > 0),
                      key=lambda r: (-r.cost, r.index))
        out.update(r.index for r in mine[:n])
    return out
