"""Cold-game cost with and without snapshots. Run: python benchmarks/snapshot_bench.py

A cold game is one no worker's cache holds (live.state_cache): its state is
made from the database. Without snapshots that is every event, read as the
database hands it over (JSON text parsed) and replayed from the first; with
them it is the newest snapshot (its JSON parsed and ``engine.snapshot.restore``\\d)
and the events after it folded. With one snapshot every 50 events a cold game
lies 0 to 49 events past its newest, 25 on average: so each game length L is
timed from a snapshot at L - 25. The database's own round trips are left out
(one more query on a cold read of a game past 50 events: see docs/performance.md).

The games are random self-play (seeded: the same games on every run), each cut
at the lengths measured. Also printed: what writing a snapshot costs (the dump
and its JSON text, the move that crosses a multiple of 50 pays it after its
commit) and its size. Figures are medians of repeated runs; the baseline,
timed in the same run on the same machine, is a plain ``json.loads`` of the
events. ``--cpu`` times in CPU seconds of this process.
"""
from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import registry  # noqa: E402
from engine.protocol import AnyGame, read_options  # noqa: E402
from engine.replay import replay_events  # noqa: E402
from engine.selfplay import play  # noqa: E402
from engine.snapshot import restore, snapshot  # noqa: E402

CPU = "--cpu" in sys.argv
LENGTHS = (50, 100, 150)
"""And each game's whole length: random self-play ends before 300 events."""
BEHIND = 25
"""Events a cold game lies past its newest snapshot, on average, at one every 50."""
REPEAT = 15
GAMES = [("marram", {"variant": "animals", "length": "long"}, 4),
         ("pond", {"options": "big"}, 2),
         ("make_a_snake", {"mode": "competitive", "advanced": True}, 4),
         ("animals_on_board", {}, 4)]


def clock() -> float:
    return time.process_time() if CPU else time.perf_counter()


def median_time(fn, repeat: int = REPEAT) -> float:
    times = []
    for _ in range(repeat):
        t = clock()
        fn()
        times.append(clock() - t)
    return statistics.median(times)


def longest_game(game: AnyGame, options: dict, seats: int, tries: int = 12) -> dict:
    """The longest of a few self-played records (seeded)."""
    opts = read_options(game, options, seats)
    records = [play(game, opts, [f"p{s}" for s in range(seats)], seed)[1]
               for seed in range(1, tries + 1)]
    return max(records, key=lambda r: len(r["events"]))


def measure(game: AnyGame, config: dict, events: list, length: int) -> dict[str, float]:
    texts = [json.dumps(e) for e in events[:length]]  # as the database hands them over
    at = max(0, length - BEHIND)
    state = replay_events(game, game.start(config), events[:at]).state
    stored = json.dumps(snapshot(game, state))

    def replay() -> None:
        replay_events(game, game.start(config), [json.loads(t) for t in texts])

    def from_snapshot() -> None:
        start = restore(game, config, json.loads(stored))
        replay_events(game, start, [json.loads(t) for t in texts[at:]])

    def baseline() -> None:
        [json.loads(t) for t in texts]

    def write() -> None:
        json.dumps(snapshot(game, state))

    return {"replay": median_time(replay), "snapshot": median_time(from_snapshot),
            "baseline": median_time(baseline), "write": median_time(write),
            "bytes": len(stored)}


def main() -> None:
    unit = "CPU ms" if CPU else "ms"
    print(f"cold-game cost ({unit}, medians of {REPEAT}); snapshot {BEHIND} events back")
    print(f"{'game':18} {'events':>6} {'replay':>8} {'snapshot':>9} {'speed-up':>8} "
          f"{'baseline':>9} {'write':>7} {'size':>8}")
    for key, options, seats in GAMES:
        game = registry.get(key)
        record = longest_game(game, options, seats)
        config, events = record["config"], record["events"]
        for length in sorted({*(n for n in LENGTHS if n < len(events)), len(events)}):
            m = measure(game, config, events, length)
            print(f"{key:18} {length:>6} {m['replay'] * 1e3:>8.2f} {m['snapshot'] * 1e3:>9.2f} "
                  f"{m['replay'] / m['snapshot']:>7.1f}x {m['baseline'] * 1e3:>9.3f} "
                  f"{m['write'] * 1e3:>7.2f} {m['bytes'] / 1024:>6.1f}kB")


if __name__ == "__main__":
    main()
