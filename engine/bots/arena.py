"""Bots against bots: ``python -m engine arena --game G --players A,B --games N``.

Game number ``n`` (its seed) gives seat ``s`` the level listed at
``(s + n) % seats``, so every level plays every seat equally often, and a run
split into shards by seed (``benchmarks/bots_bench.py``) plays the same games.
Chance is drawn from a seed per game as a server draws it
(``engine.fairness.draw_event``) and each bot has its own random generator, so a
run replays exactly for a seed (within the strong bot's CPU-time cap). The
report gives each level's wins out of N, its win rate with a 95% Wilson
interval, its mean score, its CPU seconds per move and, for the strong bot, its
playouts per second."""
from __future__ import annotations

import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TextIO, TypeVar

from ..fairness import draw_event
from ..protocol import Game, Options, SearchSettings
from ..selfplay import MAX_EVENTS, secret_seed
from .policies import choose

S = TypeVar("S")
E = TypeVar("E", bound=Mapping[str, object])

Z95 = 1.959963984540054

Player = Callable[[Game[S, E], S, int, random.Random], E]
"""A player that is not one of the bots' levels (``benchmarks/baselines.py``):
the action it plays for an awaited seat."""


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default), as fractions."""
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (0.0 if wins <= 0 else centre - half, 1.0 if wins >= n else centre + half)


@dataclass(slots=True)
class Tally:
    """One entry of ``--players`` over the run."""

    level: str
    wins: int = 0
    ties: int = 0
    scores: list[float] = field(default_factory=list)
    moves: int = 0
    seconds: float = 0.0
    playouts: int = 0
    times: list[float] = field(default_factory=list)
    """CPU seconds of each move."""
    cuts: int = 0
    """Moves the strong bot's CPU-time guard cut short."""

    def interval(self, games: int) -> tuple[float, float]:
        return wilson(self.wins, games)


def play(game: Game[S, E], options: Options, levels: Sequence[str], seed: int,
         rotation: int, tallies: Sequence[Tally],
         settings: SearchSettings | None = None,
         players: Mapping[str, Player[S, E]] | None = None) -> S:
    """One game: seat ``s`` plays ``levels[(s + rotation) % len(levels)]``, a
    bot's level or one of ``players``; the moves' costs are added to
    ``tallies`` (one per entry of ``levels``)."""
    seats = len(levels)
    entry = [(s + rotation) % seats for s in range(seats)]
    names = [f"{levels[entry[s]]}{s + 1}" for s in range(seats)]
    secret = secret_seed(seed)
    state = game.start(game.setup(options, names, secret))
    rngs = [random.Random(f"arena:{seed}:{s}") for s in range(seats)]
    order = random.Random(f"arena-order:{seed}")
    events = 0
    while not (wait := game.awaiting(state)).finished:
        if events >= MAX_EVENTS:
            raise RuntimeError(f"a game of {game.title} did not end in {MAX_EVENTS} events")
        event = game.automatic(state)
        if event is None and wait.chance is not None:
            chance = game.chance(state)
            if chance is None:
                raise RuntimeError(f"{game.title} awaits {wait.chance} but offers no odds")
            event = draw_event(secret, events, chance)
        elif event is None:
            seat = wait.players[0] if len(wait.players) == 1 else order.choice(wait.players)
            tally = tallies[entry[seat]]
            started = time.process_time()
            level = levels[entry[seat]]
            other = (players or {}).get(level)
            if other is not None:
                event = other(game, state, seat, rngs[seat])
            else:
                move = choose(game, state, seat, level, rngs[seat], settings)
                tally.playouts += move.playouts
                tally.cuts += move.cut
                event = move.action
            spent = time.process_time() - started
            tally.seconds += spent
            tally.times.append(spent)
            tally.moves += 1
        state = game.fold(state, event)
        events += 1
    p = game.projection(state)
    for s in range(seats):
        tally = tallies[entry[s]]
        score = p.scores[s]
        if score is not None:
            tally.scores.append(float(score))
        if s in p.winners:
            if len(p.winners) == 1 or p.cooperative:
                tally.wins += 1
            else:
                tally.ties += 1
    return state


def run(game: Game[S, E], options: Options, levels: Sequence[str], games: int, seed: int,
        progress: bool = True, settings: SearchSettings | None = None,
        out: TextIO | None = None) -> list[Tally]:
    """Play ``games`` games and print the report (to ``out``, stdout by default)."""
    tallies = [Tally(level) for level in levels]
    for g in range(games):
        play(game, options, levels, seed + g, seed + g, tallies, settings)
        if progress:
            done = (g + 1) * 30 // games
            print(f"\r[{'#' * done}{'.' * (30 - done)}] {g + 1}/{games}", end="",
                  file=sys.stderr, flush=True)
    if progress:
        print(file=sys.stderr)
    stream = out if out is not None else sys.stdout
    for line in report(game, options, levels, games, seed, tallies):
        print(line, file=stream)
    return tallies


def report(game: Game[S, E], options: Options, levels: Sequence[str], games: int,
           seed: int, tallies: Sequence[Tally]) -> list[str]:
    chosen = ", ".join(f"{k} {v}" for k, v in options.items())
    lines = [f"{games} {game.title} games ({chosen or 'no options'}), "
             f"{', '.join(levels)}, seats rotated, seed {seed}"]
    width = max(len(t.level) for t in tallies) + 3
    for i, t in enumerate(tallies):
        low, high = t.interval(games)
        mean = f"{sum(t.scores) / len(t.scores):.1f}" if t.scores else "-"
        per_move = t.seconds / t.moves if t.moves else 0.0
        name = t.level if levels.count(t.level) == 1 else f"{t.level}#{i + 1}"
        line = (f"{name:<{width}} wins {t.wins}/{games} ({100 * t.wins / games:.1f}%, "
                f"95% CI {100 * low:.1f}-{100 * high:.1f}%), ties {t.ties}, "
                f"mean score {mean}, {t.moves} moves, {per_move:.4f} s/move")
        if t.times:
            line += (f" (median {statistics.median(t.times):.3f}, "
                     f"max {max(t.times):.3f})")
        if t.playouts:
            line += (f", {t.playouts / t.moves:.0f} playouts/move, "
                     f"{t.playouts / t.seconds:.0f} playouts/s" if t.seconds else "")
            line += f", {t.cuts} moves cut by the CPU guard"
        lines.append(line)
    return lines
