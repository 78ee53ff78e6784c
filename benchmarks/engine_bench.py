"""Engine benchmarks (issue 2's targets). Run: python benchmarks/engine_bench.py

- replaying a finished 4-player Animals record: target <= 50 us per event;
- all legal placements for a 3-tile hand on an 80-tile board: target <= 3 ms;
- random self-play: target >= 5 complete 2-player long Classic games a second.

Figures are medians of repeated runs. Each is printed beside a baseline taken in
the same run (the machine is shared and noisy): the cost of a plain Python loop
that reads every event of the record and does a dict lookup per tile, so the
ratio says how many "trivial passes over the data" each operation costs.

Replays go through the generic replay (``engine.replay``, as every game's do);
self-play through Marram's bots, and also through the generic self-play of any
game (``engine.selfplay``: it asks the game for the server's automatic events
after every move and draws chance from a seed, as a server does).

``--against REV`` measures this engine and the one of git revision REV side by
side: each round runs both, one after the other, in fresh processes, and the
medians over the rounds are printed with their ratio (new / old).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
CPU = "--cpu" in sys.argv
# --against runs this script on another revision's engine, exported beside it
sys.path.insert(0, os.environ.get("ENGINE_BENCH_ROOT", str(HERE)))

try:
    from engine.marram import make_config, new_game, step
    from engine.marram.actions import placements
    try:
        from engine.marram.replays import replay_events
    except ImportError:  # an engine from before the replay left the record module
        from engine.marram.record import replay_events  # type: ignore[no-redef]
    from engine.marram.selfplay import play, random_action
    GENERIC = True
except ImportError:  # an engine from before the games moved into packages
    from engine import make_config, new_game, step  # type: ignore[attr-defined,no-redef]
    from engine.actions import placements  # type: ignore[no-redef]
    from engine.record import replay_events  # type: ignore[no-redef]
    from engine.selfplay import play, random_action  # type: ignore[no-redef]
    GENERIC = False


def clock() -> float:
    """Wall time; the CPU time of this process with --cpu (as --against measures),
    which the other work on a shared machine disturbs far less."""
    return time.process_time() if CPU else time.perf_counter()


def run_times(fn, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        t = clock()
        fn()
        times.append(clock() - t)
    return times


def median_time(fn, repeat: int) -> float:
    return statistics.median(run_times(fn, repeat))


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
    times = run_times(lambda: replay_events(record.config, events), repeat)
    t = statistics.median(times)
    base = median_time(lambda: baseline_pass(events), repeat * 10)
    return {"events": n, "us_per_event": t / n * 1e6, "us_per_event_best": min(times) / n * 1e6,
            "baseline_us_per_event": base / n * 1e6, "ratio": t / base, "target_us": 50}


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
    results, bests, bases = [], [], []
    for seed in range(5):
        state = board_of(80, seed)
        seat = state.current
        hand = state.hands[seat]
        times = run_times(lambda s=state, p=seat: placements(s, p), repeat)
        results.append(statistics.median(times))
        bests.append(min(times))
        frontier = sorted(state.frontier)
        bases.append(median_time(lambda f=frontier, b=state.board: [
            q in b for _ in range(24) for q in f], repeat))
        assert len(hand) == 3 and len(state.board) == 80
    t, base = statistics.median(results), statistics.median(bases)
    return {"board": 80, "hand": 3, "ms": t * 1e3, "ms_best": statistics.median(bests) * 1e3,
            "baseline_ms": base * 1e3,
            "ratio": t / base, "target_ms": 3}


def bench_selfplay(games: int) -> dict:
    t = clock()
    for seed in range(games):
        play("classic", "long", 2, 1000 + seed)
    elapsed = clock() - t
    return {"games": games, "games_per_s": games / elapsed, "target_games_per_s": 5}


def bench_generic_selfplay(games: int) -> dict:
    from engine import registry
    from engine.selfplay import play as generic_play

    marram = registry.get("marram")
    options = {"variant": "classic", "length": "long"}
    t = clock()
    for seed in range(games):
        generic_play(marram, options, ["a", "b"], 1000 + seed)
    elapsed = clock() - t
    return {"games": games, "games_per_s": games / elapsed}


def measure(repeat: int, games: int) -> dict:
    figures = {
        "replay_animals_4p": bench_replay(repeat),
        "placements_80_tiles": bench_placements(repeat),
        "selfplay_classic_2p_long": bench_selfplay(games),
    }
    if GENERIC:
        figures["generic_selfplay_classic_2p_long"] = bench_generic_selfplay(games)
    return figures


def export(rev: str, into: Path) -> None:
    """The engine of git revision ``rev``, written under ``into``."""
    archive = into / "engine.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "-C", str(HERE), "archive", rev, "engine"], stdout=out,
                       check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")


def against(rev: str, rounds: int, repeat: int, games: int) -> None:
    keys = [("replay_animals_4p", "us_per_event", "replay, 4-player Animals", "us/event"),
            ("replay_animals_4p", "us_per_event_best", "  the same, best run", "us/event"),
            ("placements_80_tiles", "ms", "legal placements, 80 tiles", "ms"),
            ("placements_80_tiles", "ms_best", "  the same, best runs", "ms"),
            ("selfplay_classic_2p_long", "games_per_s", "self-play, 2-player Classic",
             "games/s")]
    runs: dict[str, list[dict]] = {"new": [], "old": []}
    with tempfile.TemporaryDirectory() as tmp:
        export(rev, Path(tmp))
        roots = {"new": str(HERE), "old": tmp}
        for i in range(rounds):
            for side in (("new", "old") if i % 2 == 0 else ("old", "new")):
                env = {**os.environ, "ENGINE_BENCH_ROOT": roots[side]}
                out = subprocess.run(
                    [sys.executable, __file__, "--worker", "--cpu", "--repeat", str(repeat),
                     "--games", str(games)], env=env, capture_output=True, text=True,
                    check=True, cwd=roots[side])
                runs[side].append(json.loads(out.stdout))
            print(f"round {i + 1}/{rounds} done", file=sys.stderr)
    print(f"this engine against {rev}, CPU time, medians of {rounds} rounds (alternating "
          "order):")
    for key, field, label, unit in keys:
        new = statistics.median(r[key][field] for r in runs["new"])
        old = statistics.median(r[key][field] for r in runs["old"])
        print(f"{label}: {new:.2f} {unit} (was {old:.2f}), new/old {new / old:.3f}")
    generic = [r["generic_selfplay_classic_2p_long"]["games_per_s"] for r in runs["new"]]
    print(f"generic self-play, 2-player Classic (new only): {statistics.median(generic):.2f} "
          "games/s")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--against", metavar="REV",
                        help="also measure the engine of this git revision, side by side")
    parser.add_argument("--rounds", type=int, default=5, help="with --against")
    parser.add_argument("--cpu", action="store_true",
                        help="time in CPU seconds of this process rather than wall seconds")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(measure(args.repeat, args.games)))
        return
    if args.against:
        against(args.against, args.rounds, args.repeat, args.games)
        return
    figures = measure(args.repeat, args.games)
    r, p, s = (figures[k] for k in ("replay_animals_4p", "placements_80_tiles",
                                    "selfplay_classic_2p_long"))
    print(f"replay, 4-player Animals ({r['events']} events): {r['us_per_event']:.1f} us/event "
          f"(target <= 50; baseline loop {r['baseline_us_per_event']:.2f} us/event, "
          f"ratio {r['ratio']:.0f}x)")
    print(f"legal placements, 3-tile hand, 80-tile board: {p['ms']:.2f} ms (target <= 3; "
          f"baseline {p['baseline_ms']:.3f} ms, ratio {p['ratio']:.0f}x)")
    print(f"self-play, 2-player long Classic: {s['games_per_s']:.1f} games/s on one core "
          f"(target >= 5)")
    g = figures["generic_selfplay_classic_2p_long"]
    print(f"generic self-play (any game's runner, with the server's automatic events and "
          f"seeded chance), 2-player long Classic: {g['games_per_s']:.1f} games/s")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
