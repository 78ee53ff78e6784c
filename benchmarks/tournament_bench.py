"""Pairing a Swiss round (issue 41's target: a 1,000-player round in under 2 s).
Run: python benchmarks/tournament_bench.py [--players 1000] [--rounds 9] [--cpu]

A Swiss of ``--players`` is paired round after round (tournaments.pairing.swiss,
the function the service calls), each game's winner drawn from a seeded
generator, so every run pairs the same rounds. Each round's pairing is timed
three times on the same history; the figures are the median of the three for
each round, and the median, least and most over the rounds. Beside them, in the
same run, the same for a field of a tenth the size: the ratio says how the time
grows with the field (the blossom matching is cubic in the worst case, the score
groups and the window of WINDOW places keep it near linear here).
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournaments import pairing  # noqa: E402
from tournaments.pairing import History  # noqa: E402


def rounds_timed(players: int, rounds: int, cpu: bool) -> list[float]:
    clock = time.process_time if cpu else time.perf_counter
    rng = random.Random(41)
    field = list(range(players))
    history = History()
    found = []
    for _ in range(rounds):
        times = []
        for _ in range(3):
            start = clock()
            paired = pairing.swiss(field, history)
            times.append(clock() - start)
        found.append(statistics.median(times))
        for table in paired.tables:
            assert history.met[frozenset(table.players)] == 0, "a pair repeated"
            history.played(table.players)
            winner = rng.choice(table.players)
            history.scores[winner] = history.scores.get(winner, Fraction(0)) + 1
        for bye in paired.byes:
            history.byes[bye] += 1
            history.scores[bye] = history.scores.get(bye, Fraction(0)) + 1
    return found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--cpu", action="store_true", help="CPU seconds, not wall seconds")
    args = parser.parse_args()
    big = rounds_timed(args.players, args.rounds, args.cpu)
    small = rounds_timed(max(args.players // 10, 4), args.rounds, args.cpu)
    unit = "CPU s" if args.cpu else "s"
    for label, times in ((f"{args.players} players", big),
                         (f"{max(args.players // 10, 4)} players", small)):
        print(f"{label}: a round paired in median {statistics.median(times):.3f} {unit} "
              f"(least {min(times):.3f}, most {max(times):.3f}; {len(times)} rounds, "
              "each the median of 3)")
        print("  by round: " + ", ".join(f"{t:.3f}" for t in times))
    print(f"ratio {args.players} : {max(args.players // 10, 4)} players = "
          f"{statistics.median(big) / statistics.median(small):.1f}")


if __name__ == "__main__":
    main()
