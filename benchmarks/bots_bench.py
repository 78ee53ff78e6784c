"""Computer players: how strong each level is, and how fast the strong one
searches (issue 15). Run: python benchmarks/bots_bench.py [--games 200] [--jobs 2]

- strength: for every game of the registry (2 players, default options: Marram's
  long Classic, Pond's big pond, Make-a-snake's competitive mode) and
  tic-tac-toe, easy against a uniformly random player, medium against a
  one-ply greedy player (both written from the rules, ``baselines.py``) and
  against easy, strong against medium and against the greedy player, seats
  rotated, each level's wins with a 95% Wilson interval, its mean score, its
  CPU seconds per move (mean, median, slowest) and the moves the strong bot's
  CPU guard cut. ``bots_tables.py`` turns the reports into docs/bots.md's
  table.
  ``--jobs`` splits each pairing by seed over processes; the games played are
  those of one ``python -m engine arena`` run with the same seed.
- speed: the strong bot's playouts per CPU second and CPU seconds per move, at
  each game's own budget, from a mid-game position of each game (medium play),
  the median of ``--rounds`` searches.

``--only GAME`` (a key, ``tictactoe`` or ``speed``), ``--pairs strong,medium``,
``--playouts N``, ``--search NAME=VALUE`` (another value of a field of the
game's ``SearchSettings``) and ``--speed-games GAME...`` narrow a run (the
figures in docs/bots.md say which were used); ``--option NAME=VALUE`` sets a
game option.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.baselines import BASELINES  # noqa: E402
from engine import registry  # noqa: E402
from engine.bots import choose  # noqa: E402
from engine.bots.arena import Tally, play, report  # noqa: E402
from engine.bots.mcts import search  # noqa: E402
from engine.protocol import AnyGame, SearchSettings, read_options  # noqa: E402
from engine.selfplay import secret_seed  # noqa: E402

PAIRS = (("easy", "random"), ("medium", "greedy"), ("medium", "easy"), ("strong", "medium"),
         ("strong", "greedy"))
"""Each level against the one below and against the baselines written from the
rules (``benchmarks/baselines.py``: ``random``, ``greedy``)."""


def _game(key: str) -> AnyGame:
    if key == "tictactoe":
        from tests.engine.tictactoe import GAME

        if GAME.key not in [g.key for g in registry.games()]:
            registry.register(GAME)
    return registry.get(key)


def _settings(game: AnyGame, playouts: int | None,
              tuning: dict[str, str] | None = None) -> SearchSettings:
    """The game's ``search``, with ``--playouts`` and each ``--search NAME=VALUE``."""
    settings = game.search if playouts is None else replace(game.search, playouts=playouts)
    changes: dict[str, object] = {}
    for name, value in (tuning or {}).items():
        field = type(getattr(settings, name))
        text = name in ("rollout_policy", "others_policy")
        changes[name] = (None if value == "None" else value if text
                         else float(value) if field is float else int(value))
    return replace(settings, **changes)  # type: ignore[arg-type]


def _shard(key: str, levels: tuple[str, ...], first: int, games: int,
           playouts: int | None, raw: dict[str, str] | None = None,
           tuning: dict[str, str] | None = None) -> list[Tally]:
    game = _game(key)
    options = read_options(game, raw or {}, len(levels))
    settings = _settings(game, playouts, tuning)
    tallies = [Tally(level) for level in levels]
    for n in range(first, first + games):
        play(game, options, levels, n, n, tallies, settings, BASELINES)
        # a running tally per game on stderr: a long run shows how it goes
        print(f"{key} {','.join(levels)} game {n}: wins "
              + ", ".join(f"{t.level} {t.wins}" for t in tallies), file=sys.stderr, flush=True)
    return tallies


def strength(key: str, levels: tuple[str, ...], games: int, seed: int, jobs: int,
             playouts: int | None, raw: dict[str, str] | None = None,
             tuning: dict[str, str] | None = None) -> list[str]:
    size = -(-games // jobs)
    starts = range(0, games, size)
    started = time.perf_counter()
    with ProcessPoolExecutor(jobs) as pool:
        parts = list(pool.map(_shard, [key] * len(starts), [levels] * len(starts),
                              [seed + i for i in starts], [min(size, games - i) for i in starts],
                              [playouts] * len(starts), [raw] * len(starts),
                              [tuning] * len(starts)))
    tallies = [Tally(level) for level in levels]
    for part in parts:
        for total, t in zip(tallies, part, strict=True):
            total.wins += t.wins
            total.ties += t.ties
            total.scores += t.scores
            total.moves += t.moves
            total.seconds += t.seconds
            total.playouts += t.playouts
            total.times += t.times
            total.cuts += t.cuts
    game = _game(key)
    lines = report(game, read_options(game, raw or {}, len(levels)), levels, games, seed,
                   tallies)
    lines.append(f"  ({time.perf_counter() - started:.0f} s wall clock, {jobs} processes"
                 + (f", strong bot at {playouts} playouts a move" if playouts else "")
                 + "".join(f", {k}={v}" for k, v in (tuning or {}).items()) + ")")
    return lines


MIDGAME = {"marram": 30, "pond": 14, "animals_on_board": 12, "make_a_snake": 24}
"""Events of medium play (chance drawn with the seed) before the speed is
measured: about half-way through a 2-player game."""


def _midgame(game: AnyGame, events: int) -> object:
    options = read_options(game, {}, 2)
    state = game.start(game.setup(options, ["a", "b"], secret_seed(3)))
    rng = random.Random(3)
    for _ in range(events):
        event = game.automatic(state)
        chance = game.chance(state) if event is None else None
        if chance is not None:
            event = rng.choices([e for e, _ in chance.outcomes],
                                [float(p) for _, p in chance.outcomes])[0]
        elif event is None:
            wait = game.awaiting(state)
            if wait.finished:
                raise RuntimeError(f"a game of {game.title} ended within {events} events")
            event = choose(game, state, wait.players[0], "medium", rng).action
        state = game.fold(state, event)
    while game.chance(state) is not None or game.automatic(state) is not None:
        event = game.automatic(state) or game.chance(state).outcomes[0][0]  # type: ignore
        state = game.fold(state, event)
    return state


def speed(rounds: int, playouts: int | None, keys: list[str],
          tuning: dict[str, str] | None = None) -> list[str]:
    """The strong bot's playouts per CPU second and seconds per move, at its
    game's own budget (or ``playouts``), from a mid-game position of each game."""
    lines = []
    for key in keys:
        game = _game(key)
        state = _midgame(game, MIDGAME.get(key, 20))
        seat = game.awaiting(state).players[0]
        settings = replace(_settings(game, playouts, tuning), cpu_seconds=1e9)
        rates, seconds = [], []
        for r in range(rounds):
            started = time.process_time()
            result = search(game, state, seat, random.Random(r), settings)
            elapsed = time.process_time() - started
            rates.append(result.playouts / elapsed)
            seconds.append(elapsed)
        where = (f"{len(state.board)} tiles laid, {state.deck_left} in the deck"  # type: ignore
                 if key == "marram" else f"after {MIDGAME.get(key, 20)} events")
        lines.append(f"{key} mid-game ({where}): {statistics.median(rates):.0f} playouts per "
                     f"CPU second, {statistics.median(seconds):.2f} s per strong move of "
                     f"{settings.playouts} playouts (median of {rounds})")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=5)
    keys = ["tictactoe"] + [g.key for g in registry.games()]
    parser.add_argument("--only", choices=(*keys, "speed"))
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--pairs", action="append",
                        help="levels to pit, e.g. strong,medium (default: both pairings)")
    parser.add_argument("--playouts", type=int, help="the strong bot's playouts a move")
    parser.add_argument("--search", action="append", default=[], metavar="NAME=VALUE",
                        help="another value of a SearchSettings field for the strong bot, "
                        "e.g. rollout_moves=4 (None for none)")
    parser.add_argument("--speed-games", nargs="+", metavar="GAME",
                        help="the games whose speed is measured (default: all)")
    args = parser.parse_args()
    pairs = [tuple(p.split(",")) for p in args.pairs] if args.pairs else list(PAIRS)
    tuning = dict(o.split("=", 1) for o in args.search)
    if args.only in (None, "speed"):
        speed_keys = args.speed_games or [k for k in keys if k != "tictactoe"]
        print("\n".join(speed(args.rounds, args.playouts, speed_keys, tuning)), flush=True)
    raw = dict(o.split("=", 1) for o in args.option)
    for key in keys:
        if args.only not in (None, key):
            continue
        for levels in pairs:
            print("\n".join(strength(key, levels, args.games, args.seed, args.jobs,
                                     args.playouts, raw, tuning)), flush=True)


if __name__ == "__main__":
    main()
