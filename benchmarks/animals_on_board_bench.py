"""Animals on Board's performance targets (issue 13). Run:
python benchmarks/animals_on_board_bench.py [--quick]

- replay: at most 20 us an event, through the generic replay (``engine.replay``,
  as the server and ``python -m engine replay`` fold a record), over finished
  4-player self-play records;
- the best reduction to ten tiles: at most 1 ms in the worst case, the slowest
  of the arks that make the knapsack work hardest (every species in play with
  three to five tiles: 60, 48 and 36 tiles; and the largest arks self-play made);
- random self-play: at least 300 complete 4-player games a second on one core,
  through the generic self-play (``engine.selfplay.play``: the game's random
  bot, its automatic passes and the record, as ``python -m engine selfplay``).

Each figure is the median of repeated runs of the CPU time of this process (one
core; the machine is shared, and wall time would count the others' work): the
time of the whole batch divided by its count.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.animals_on_board import GAME, score_ark  # noqa: E402
from engine.animals_on_board.tiles import SPECIES, tiles_of  # noqa: E402
from engine.replay import replay_events  # noqa: E402
from engine.selfplay import play  # noqa: E402

PLAYERS = ["p1", "p2", "p3", "p4"]


def median_time(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.process_time()
        fn()
        times.append(time.process_time() - started)
    return statistics.median(times)


def bench_replay(records: list[dict], repeat: int) -> dict[str, float]:
    events = sum(len(r["events"]) for r in records)
    starts = [GAME.start(r["config"]) for r in records]

    def run() -> None:
        for start, record in zip(starts, records, strict=True):
            replayed = replay_events(GAME, start, record["events"])
            assert replayed.error is None and replayed.state.finished

    seconds = median_time(run, repeat)
    return {"us_per_event": seconds / events * 1e6, "events": events, "games": len(records)}


def worst_arks(records: list[dict]) -> list[list[str]]:
    """Arks that make the reduction work hardest: many species of 3 to 5 tiles
    each (every choice of what stays is open), and self-play's largest arks."""
    arks = [[t for s in SPECIES for t in tiles_of(s)],                 # 60: twelve herds of 5
            [t for s in SPECIES for t in tiles_of(s)[:4]],             # 48: twelve of 4
            [t for s in SPECIES for t in tiles_of(s)[:3]],             # 36: twelve of 3
            [t for i, s in enumerate(SPECIES) for t in tiles_of(s)[:3 + i % 3]]]  # mixed
    finals = [replay_events(GAME, GAME.start(r["config"]), r["events"]).state for r in records]
    largest = sorted((ark for state in finals for ark in state.arks), key=len)[-4:]
    return arks + largest


def bench_reduction(arks: list[list[str]], repeat: int) -> dict[str, float]:
    inner = 20
    worst = 0.0
    for ark in arks:
        seconds = median_time(lambda ark=ark: [score_ark(ark, 0) for _ in range(inner)],
                              repeat) / inner
        worst = max(worst, seconds)
    return {"ms_worst": worst * 1e3, "arks": len(arks), "largest": max(map(len, arks))}


def bench_selfplay(games: int, repeat: int) -> dict[str, float]:
    def run() -> None:
        for seed in range(games):
            state, _ = play(GAME, {}, PLAYERS, seed)
            assert state.finished

    seconds = median_time(run, repeat)
    return {"games_per_s": games / seconds, "games": games}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs (a smoke test)")
    args = parser.parse_args()
    repeat = 3 if args.quick else 9
    games = 100 if args.quick else 600
    records = [play(GAME, {}, PLAYERS, seed)[1] for seed in range(50)]
    results = {
        "replay_4p": bench_replay(records, repeat),
        "reduction": bench_reduction(worst_arks(records), repeat),
        "selfplay_4p": bench_selfplay(games, repeat),
    }
    rows = [("replay, 4 players", results["replay_4p"]["us_per_event"], "us/event", "<= 20"),
            ("best reduction to 10, worst case", results["reduction"]["ms_worst"], "ms",
             "<= 1"),
            ("random self-play, 4 players", results["selfplay_4p"]["games_per_s"], "games/s",
             ">= 300")]
    for name, value, unit, target in rows:
        print(f"{name:36} {value:10.2f} {unit:9} (target {target})")
    print(json.dumps(results))


if __name__ == "__main__":
    main()
