"""Random self-play of any registered game, through the protocol only: each
awaited seat's bot picks an action (``Game.bot_action``), chance is drawn from a
seed per game as a server would draw it, and the server's automatic events are
appended. Every game's record therefore replays and verifies; the summary
shows that the game ends and how it plays, and measures the engine's speed."""
from __future__ import annotations

import hashlib
import json
import random
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TypeVar, cast

from .fairness import commitment, draw_event
from .protocol import JSON, Game, JSONObject, Options

S = TypeVar("S")
E = TypeVar("E", bound=Mapping[str, object])

MAX_EVENTS = 100_000
"""A game that has not ended by then never will: a bug in its rules or its bots."""


def secret_seed(seed: int) -> str:
    """The fair-chance seed of self-play game number ``seed``: reproducible, so
    that a record can be verified (self-play has no secrets to keep)."""
    return hashlib.sha256(f"selfplay:{seed}".encode()).hexdigest()


def play(game: Game[S, E], options: Options, players: Sequence[str], seed: int,
         policy: str = "random") -> tuple[S, JSONObject]:
    """One game played by bots: its final state and its record (with the seed)."""
    rng = random.Random(seed)
    secret = secret_seed(seed)
    config = game.setup(options, players, secret)
    state = game.start(config)
    events: list[E] = []
    while not (wait := game.awaiting(state)).finished:
        if len(events) >= MAX_EVENTS:
            raise RuntimeError(f"a game of {game.title} did not end in {MAX_EVENTS} events "
                               f"(self-play seed {seed})")
        event = game.automatic(state)
        if event is None and wait.chance is not None:
            chance = game.chance(state)
            if chance is None:
                raise RuntimeError(f"{game.title} awaits {wait.chance} but offers no odds")
            event = draw_event(secret, len(events), chance)
        elif event is None:
            event = game.bot_action(state, rng.choice(wait.players), rng, policy)
        state = game.fold(state, event)
        events.append(event)
    record: JSONObject = {
        "format": game.record_format, "version": game.record_version, "config": config,
        "events": cast(JSON, events),
        "fairness": {"seed": secret, "commitment": commitment(secret)},
    }
    return state, record


def _mean(values: Sequence[float]) -> str:
    return f"{sum(values) / len(values):.1f}" if values else "-"


def run(game: Game[S, E], options: Options, players: int, games: int, seed: int,
        out: str | None = None, progress: bool = True, policy: str = "random") -> int:
    names = [f"p{i + 1}" for i in range(players)]
    scores: list[list[float]] = [[] for _ in names]
    wins = [0] * players
    lower_wins = False
    events = 0
    stats: dict[str, list[float]] = {}
    out_dir = Path(out) if out else None
    if out_dir:
        out_dir.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    for g in range(games):
        state, record = play(game, options, names, seed + g, policy)
        p = game.projection(state)
        lower_wins = p.better == "lower"
        for s, score in enumerate(p.scores):
            if score is not None:
                scores[s].append(score)
        for s in p.winners:
            wins[s] += 1
        events += len(cast(list[JSON], record["events"]))
        for name, value in game.selfplay_stats(state).items():
            stats.setdefault(name, []).append(value)
        if out_dir:
            (out_dir / f"game-{seed + g:05d}.json").write_text(json.dumps(record))
        if progress:
            done = (g + 1) * 30 // games
            print(f"\r[{'#' * done}{'.' * (30 - done)}] {g + 1}/{games}", end="",
                  file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - started
    if progress:
        print(file=sys.stderr)
    n = max(games, 1)
    chosen = ", ".join(f"{k} {v}" for k, v in options.items())
    print(f"{games} {game.title} games ({chosen or 'no options'}), {players} players, "
          f"seed {seed}, {policy} play")
    print("mean scores:     " + ", ".join(_mean(s) for s in scores)
          + (" (lower is better)" if lower_wins else ""))
    print("games won:       " + ", ".join(str(w) for w in wins) + " (by seat; ties count "
          "for each)")
    print(f"mean events:     {events / n:.1f}")
    for name, values in stats.items():
        print(f"{name + ':':<16} {_mean(values)} a game")
    print(f"speed:           {games / elapsed:.1f} games/s")
    return 0
