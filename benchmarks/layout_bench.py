"""Web server layouts side by side: the same work under each, in alternating runs.

    .venv/bin/python benchmarks/layout_bench.py [--layouts 2x2,2x1] [--rounds 4]
        [--game marram|pond|animals_on_board|make_a_snake] [--moves 4000]
        [--clients 8] [--follow stream|get]

Each run is benchmarks/compare_bench.py's run of Marram's side (``marram_run``)
with the web server's ``MARRAM_WEB_WORKERS`` x ``MARRAM_WEB_THREADS`` as one
layout gives them: 100 fresh games of ``--game``, one client alone first, then
``--clients`` clients until they have made ``--moves`` moves in all, each seat
holding its stream (or, with ``--follow get``, reading the game as the next
player). Every run does the same work: CPU a move grows as games go on (a bigger
board, more placements to list), so a run of fixed seconds would give a faster
layout later positions and more CPU a move. A round runs every layout once, in
turn, the order reversed every other round.

Prints each run (moves/s, the server's CPU a move: the web server's, the stream
server's and Redis's; the one-client round trip; the CPU that other work on the
machine took), then each layout's medians and the median over the rounds of its
ratio to the first layout.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import compare_bench as cb  # noqa: E402  (its directory first on the path)

sb = cb.sb


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--layouts", default="2x2,2x1",
                        help="workers x threads, comma-separated; the first is the baseline")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--game", default="marram", choices=cb.GAMES)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--moves", type=int, default=4000, help="moves of all clients a run")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--follow", choices=("stream", "get"), default="stream")
    args = parser.parse_args()
    layouts = [tuple(int(n) for n in layout.split("x")) for layout in args.layouts.split(",")]
    runs: dict[tuple[int, ...], list[dict]] = {layout: [] for layout in layouts}
    if args.follow == "stream":
        os.environ["MARRAM_STREAM"] = "1"  # the web server publishes each commit
    with sb.database() as url, sb.broker() as redis_url:
        sb.BROKER_URL = redis_url
        for round_ in range(args.rounds):
            for layout in layouts if round_ % 2 == 0 else layouts[::-1]:
                workers, threads = layout
                run = argparse.Namespace(**vars(args), workers=workers, threads=threads,
                                         events=150, solo_moves=200, seconds=600)
                r = cb.marram_run(url, run, round_)
                runs[layout].append(r)
                print(cb.run_line(f"round {round_ + 1} {workers}x{threads}", r),
                      file=sys.stderr, flush=True)
    base = runs[layouts[0]]
    print(f"\n{cb.GAMES[args.game]}: {args.clients} clients, {args.moves} moves a run, "
          f"{args.rounds} rounds")
    print(f"{'layout':8}{'moves/s':>10}{'CPU a move ms':>15}{'CPU ratio':>11}"
          f"{'1 client p50 ms':>17}")
    for layout, rs in runs.items():
        ratio = statistics.median(r["server_cpu_ms"] / b["server_cpu_ms"]
                                  for r, b in zip(rs, base, strict=True))
        print(f"{layout[0]}x{layout[1]:<6}{statistics.median(r['moves_per_s'] for r in rs):10.1f}"
              f"{statistics.median(r['server_cpu_ms'] for r in rs):15.2f}{ratio:11.2f}"
              f"{statistics.median(r['solo_p50_ms'] for r in rs):17.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
