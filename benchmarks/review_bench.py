"""The review of a finished game (engine.bots.review, the reviews app's task):
CPU seconds per reviewed move and per reviewed game, for every game of the
registry. Run under nice: nice -n 10 python benchmarks/review_bench.py [--games 3]

Each game (2 players, default options) is played by two medium bots from seed
``--seed + n``, chance drawn as a server draws it; then seat 0's moves are
reviewed, as a player who asks for the review of a game against the computer
gets them, at the shipped budget (each game's own strong search and
``ReviewSettings``) or at ``--playouts``/``--samples``. Reported per game: the
median of the CPU seconds a reviewed move took with its range, the same for
the strong bot's search alone on those positions (the baseline: what the
strong player spends on a move of its own) and their ratio, the median CPU
seconds of a seat's whole review with its range, and how many moves that was.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine import registry  # noqa: E402
from engine.bots import choose  # noqa: E402
from engine.bots.mcts import search  # noqa: E402
from engine.bots.review import Budget, review_move, review_rng  # noqa: E402
from engine.fairness import draw_event  # noqa: E402
from engine.protocol import AnyGame  # noqa: E402
from engine.selfplay import MAX_EVENTS, secret_seed  # noqa: E402


def medium_game(game: AnyGame, seed: int) -> tuple[Any, list[Any], str]:
    """A game of two medium bots: its start, its events and its seed."""
    secret = secret_seed(seed)
    options = {o.name: o.default for o in game.options_declared}
    start = game.start(game.setup(options, ["a", "b"], secret))
    state, events = game.copy(start), []
    rngs = [random.Random(f"review-bench:{seed}:{s}") for s in (0, 1)]
    while not (wait := game.awaiting(state)).finished:
        if len(events) >= MAX_EVENTS:
            raise RuntimeError(f"{game.title} did not end")
        event = game.automatic(state)
        if event is None and wait.chance is not None:
            chance = game.chance(state)
            assert chance is not None
            event = draw_event(secret, len(events), chance)
        elif event is None:
            seat = wait.players[0]
            event = choose(game, state, seat, "medium", rngs[seat]).action
        state = game.fold(state, event)
        events.append(event)
    return start, events, secret


def fmt(values: list[float]) -> str:
    return f"{statistics.median(values):.3f} ({min(values):.3f}-{max(values):.3f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=9100)
    parser.add_argument("--playouts", type=int)
    parser.add_argument("--samples", type=int)
    parser.add_argument("--only", nargs="*")
    args = parser.parse_args()
    budget = Budget(args.playouts, args.samples)
    print(f"games a game: {args.games}, seeds {args.seed}-{args.seed + args.games - 1}, "
          f"budget: playouts {args.playouts or 'shipped'}, samples {args.samples or 'shipped'}")
    print("| game | playouts, samples | CPU s a reviewed move, median (range) | search alone "
          "| ratio | CPU s a seat's review, median (range) | moves a seat |")
    print("|---|---|---|---|---|---|---|")
    for game in registry.games():
        if args.only and game.key not in args.only:
            continue
        per_move: list[float] = []
        alone: list[float] = []
        per_game: list[float] = []
        moves: list[int] = []
        playouts = args.playouts or game.search.playouts
        settings = replace(game.search, playouts=playouts)
        for n in range(args.games):
            start, events, secret = medium_game(game, args.seed + n)
            state, total, count = game.copy(start), 0.0, 0
            for index, event in enumerate(events):
                if event.get("player") == 0 and game.automatic(state) is None \
                        and 0 in game.awaiting(state).players:
                    t = time.process_time()
                    search(game, state, 0, review_rng(secret, index, 0), settings)
                    alone.append(time.process_time() - t)
                    t = time.process_time()
                    review_move(game, state, 0, event, review_rng(secret, index, 0), index,
                                budget)
                    spent = time.process_time() - t
                    per_move.append(spent)
                    total += spent
                    count += 1
                state = game.fold(state, event)
            per_game.append(total)
            moves.append(count)
            print(f"  {game.key} game {n + 1}: {count} moves, {total:.1f} s", file=sys.stderr)
        ratio = statistics.median(per_move) / max(statistics.median(alone), 1e-9)
        samples = args.samples or game.review.samples
        print(f"| {game.title} | {playouts}, {samples} | {fmt(per_move)} | {fmt(alone)} | "
              f"x{ratio:.2f} | {fmt(per_game)} | {statistics.median(moves):.0f} "
              f"({min(moves)}-{max(moves)}) |", flush=True)


if __name__ == "__main__":
    main()
