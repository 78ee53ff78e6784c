"""Engine benchmarks (issue 2's targets). Run: python benchmarks/engine_bench.py

- replaying a finished 4-player Animals record: target <= 50 us per event;
- all legal placements for a 3-tile hand on an 80-tile board: target <= 3 ms;
- random self-play: target >= 5 complete 2-player long Classic games a second.

Figures are medians of repeated runs. Each is printed beside a baseline taken in
the same run (the machine is shared and noisy): the cost of a plain Python loop
that reads every event of the record and does a dict lookup per tile, so the
ratio says how many "trivial passes over the data" each operation costs.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.marram import make_config, new_game, step  # noqa: E402
from engine.marram.actions import placements  # noqa: E402
from engine.marram.record import replay_events  # noqa: E402
from engine.marram.selfplay import play, random_action  # noqa: E402


def median_time(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def baseline_pass(events: list[dict]) -> None:
    seen: dict = {}
    for e in events:
        seen[e.get("tile") or e["type"]] = e.get("at")


def bench_replay(repeat: int) -> dict:
    # the longest of a few finished 4-player Animals games
    games = [play("animals", "long", 4, seed) for seed in range(5)]
    state, record, _ = max(games, key=lambda g: len(g[1].events))
    events = record.events
    n = len(events)
    t = median_time(lambda: replay_events(record.config, events), repeat)
    base = median_time(lambda: baseline_pass(events), repeat * 10)
    return {"events": n, "us_per_event": t / n * 1e6, "baseline_us_per_event": base / n * 1e6,
            "ratio": t / base, "target_us": 50}


def board_of(size: int, seed: int):
    """A random position with ``size`` tiles laid and a full hand to move."""
    while True:
        rng = random.Random(seed)
        cfg0 = make_config("classic", "long", ["a", "b"])
        deck = list(cfg0.deck)
        rng.shuffle(deck)
        state = new_game(make_config("classic", "long", ["a", "b"], deck=deck))
        while len(state.board) < size and not state.finished:
            step(state, random_action(state, rng))
        if len(state.board) == size and len(state.hands[state.current]) == 3:
            return state
        seed += 1000


def bench_placements(repeat: int) -> dict:
    results, bases = [], []
    for seed in range(5):
        state = board_of(80, seed)
        seat = state.current
        hand = state.hands[seat]
        results.append(median_time(lambda s=state, p=seat: placements(s, p), repeat))
        frontier = sorted(state.frontier)
        bases.append(median_time(lambda f=frontier, b=state.board: [
            q in b for _ in range(24) for q in f], repeat))
        assert len(hand) == 3 and len(state.board) == 80
    t, base = statistics.median(results), statistics.median(bases)
    return {"board": 80, "hand": 3, "ms": t * 1e3, "baseline_ms": base * 1e3,
            "ratio": t / base, "target_ms": 3}


def bench_selfplay(games: int) -> dict:
    t = time.perf_counter()
    for seed in range(games):
        play("classic", "long", 2, 1000 + seed)
    elapsed = time.perf_counter() - t
    return {"games": games, "games_per_s": games / elapsed, "target_games_per_s": 5}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    figures = {
        "replay_animals_4p": bench_replay(args.repeat),
        "placements_80_tiles": bench_placements(args.repeat),
        "selfplay_classic_2p_long": bench_selfplay(args.games),
    }
    r, p, s = figures.values()
    print(f"replay, 4-player Animals ({r['events']} events): {r['us_per_event']:.1f} us/event "
          f"(target <= 50; baseline loop {r['baseline_us_per_event']:.2f} us/event, "
          f"ratio {r['ratio']:.0f}x)")
    print(f"legal placements, 3-tile hand, 80-tile board: {p['ms']:.2f} ms (target <= 3; "
          f"baseline {p['baseline_ms']:.3f} ms, ratio {p['ratio']:.0f}x)")
    print(f"self-play, 2-player long Classic: {s['games_per_s']:.1f} games/s on one core "
          f"(target >= 5)")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
