"""Pond's benchmarks (issue 12's targets). Run: python benchmarks/pond_bench.py

- replaying finished records: target <= 20 us per event;
- the legal actions of a position: target <= 50 us;
- random self-play of whole ``small`` games: target >= 500 games a second on one core.

Records and positions come from random self-play of the big and the small pond
(seeded, so every run measures the same games). Replays go through the generic
replay (``engine.replay.replay_events``, as the server's and the command line's
do: each event read and checked, then folded). Legal actions are timed over every
position of those games, for the player to move. Self-play is the plain loop a
bot runner makes: the legal actions, one drawn at random, folded.

Figures are medians of repeated runs. Each is printed beside a baseline taken in
the same run (the machine is shared and noisy): a plain Python loop that reads
every event of the records and every cell of a board, so the ratio says how many
"trivial passes over the data" each operation costs. ``--cpu`` times in CPU
seconds of this process rather than wall seconds.
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

from engine.pond import GAME  # noqa: E402
from engine.replay import replay_events  # noqa: E402

CPU = "--cpu" in sys.argv


def clock() -> float:
    return time.process_time() if CPU else time.perf_counter()


def median_time(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = clock()
        fn()
        times.append(clock() - t)
    return statistics.median(times)


def random_game(options: str, seed: int) -> tuple[dict, list[dict], list]:
    """One random game to its end: its config, its events and every position in it."""
    rng = random.Random(seed)
    config = GAME.setup({"options": options}, ["ann", "bob"], "")
    state = GAME.start(config)
    events, positions = [], []
    while not state.finished:
        positions.append(GAME.copy(state))
        action = rng.choice(GAME.legal_actions(state, state.current))
        events.append(action)
        state = GAME.fold(state, action)
    return config, events, positions


def random_selfplay(options: str, rng: random.Random) -> int:
    state = GAME.start(GAME.setup({"options": options}, ["a", "b"], ""))
    moves = 0
    legal, fold, choice = GAME.legal_actions, GAME.fold, rng.choice
    while not state.finished:
        state = fold(state, choice(legal(state, state.current)))
        moves += 1
    return moves


def baseline_pass(records: list[tuple[dict, list[dict]]]) -> None:
    seen: dict = {}
    for _, events in records:
        for e in events:
            seen[e["type"]] = e.get("at") or e.get("to")


def bench_replay(records, repeat: int) -> dict:
    starts = [(GAME.start(config), events) for config, events in records]
    total = sum(len(events) for _, events in records)

    def replay_all() -> None:
        for start, events in starts:
            done = replay_events(GAME, start, events)
            assert done.error is None

    t = median_time(replay_all, repeat)
    base = median_time(lambda: baseline_pass(records), repeat)
    return {"games": len(records), "events": total, "us_per_event": t / total * 1e6,
            "baseline_us_per_event": base / total * 1e6, "ratio": t / base,
            "target_us_per_event": 20}


def bench_legal(positions, repeat: int) -> dict:
    def all_legal() -> None:
        for state in positions:
            GAME.legal_actions(state, state.current)

    def base_pass() -> None:
        for state in positions:
            sum(1 for cell in state.board.cells if cell is None)

    t = median_time(all_legal, repeat)
    base = median_time(base_pass, repeat)
    slowest = max(positions, key=lambda s: len(GAME.legal_actions(s, s.current)))
    worst = median_time(lambda: GAME.legal_actions(slowest, slowest.current), repeat * 50)
    return {"positions": len(positions), "us": t / len(positions) * 1e6,
            "us_most_actions": worst * 1e6,
            "most_actions": len(GAME.legal_actions(slowest, slowest.current)),
            "baseline_us": base / len(positions) * 1e6, "ratio": t / base, "target_us": 50}


def bench_selfplay(games: int, repeat: int) -> dict:
    def play_all() -> None:
        rng = random.Random(7)
        for _ in range(games):
            random_selfplay("small", rng)

    t = median_time(play_all, max(3, repeat // 3))
    rng = random.Random(7)
    moves = sum(random_selfplay("small", rng) for _ in range(games))
    return {"games": games, "games_per_s": games / t, "moves_per_game": moves / games,
            "target_games_per_s": 500}


def measure(repeat: int, games: int) -> dict:
    records, positions = [], []
    for seed in range(games // 10):
        for options in ("big", "small"):
            config, events, seen = random_game(options, seed)
            records.append((config, events))
            positions += seen
    return {"replay": bench_replay(records, repeat),
            "legal_actions": bench_legal(positions, repeat),
            "selfplay_small": bench_selfplay(games, repeat)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--games", type=int, default=500,
                        help="self-play games a run (a tenth as many records of each size)")
    parser.add_argument("--cpu", action="store_true",
                        help="time in CPU seconds of this process rather than wall seconds")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    f = measure(args.repeat, args.games)
    r, la, s = f["replay"], f["legal_actions"], f["selfplay_small"]
    print(f"replay, {r['games']} random games, big and small ({r['events']} events): "
          f"{r['us_per_event']:.1f} us/event (target <= 20; baseline loop "
          f"{r['baseline_us_per_event']:.2f} us/event, ratio {r['ratio']:.0f}x)")
    print(f"legal actions, {la['positions']} positions of those games: {la['us']:.1f} us a "
          f"position (target <= 50; the position with the most, {la['most_actions']} actions: "
          f"{la['us_most_actions']:.1f} us; baseline {la['baseline_us']:.2f} us, "
          f"ratio {la['ratio']:.0f}x)")
    print(f"random self-play, whole small games: {s['games_per_s']:.0f} games/s on one core "
          f"(target >= 500; {s['moves_per_game']:.0f} moves a game)")
    if args.json:
        Path(args.json).write_text(json.dumps(f, indent=1))


if __name__ == "__main__":
    main()
