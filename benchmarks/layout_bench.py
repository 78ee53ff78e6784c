"""Web server layouts side by side: the same work under each, in alternating runs.

    .venv/bin/python benchmarks/layout_bench.py [--layouts 3x2,2x2] [--rounds 4]
        [--moves 600] [--clients 8]

Each run starts the web server (marram_site/server.py, production settings) with
``MARRAM_WEB_WORKERS`` x ``MARRAM_WEB_THREADS`` as one layout gives them, on 100
fresh Animals games, and has ``--clients`` clients play benchmarks/compare_bench.py's
Marram moves (a POST, and a GET as the next player when the move was not theirs)
until each has made ``--moves`` moves. Every run does the same work: CPU a move
grows as games go on (a bigger board, more placements to list), so a run of fixed
seconds would give a faster layout later positions and more CPU a move. A round
runs every layout once, in turn, the order reversed every other round.

Prints each run (moves/s, the web server's CPU a move, the CPU that other work on
the machine took), then each layout's medians and the median over the rounds of
its ratio to the first layout.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import compare_bench as cb  # noqa: E402  (its directory first on the path)

sb = cb.sb


def run(url: str, workers: int, threads: int, clients: int, moves: int, seed: int
        ) -> dict[str, float]:
    games = sb.prepare(url, 100, "animals")
    with sb.web_server(url, workers, threads) as port:
        pid = sb.web_server.pid  # type: ignore[attr-defined]
        warm = sb.Client(port, {})
        for _ in range(200):
            warm.request("ping", "GET", "/api/ping/")
        db_pid = sb.postmaster(url)
        counts, lock = {"moves": 0}, threading.Lock()
        before = sb.cpu_snapshot(pid, db_pid)
        started = time.monotonic()
        cb.marram_load(port, games, clients, 150, started + 600, seed, {}, counts, lock,
                       limit=clients * moves)
        elapsed = time.monotonic() - started
        after = sb.cpu_snapshot(pid, db_pid)
    figures = cb.cpu_figures(before, after, counts["moves"])
    return {"moves_per_s": counts["moves"] / elapsed, "server_cpu_ms": figures["server_cpu_ms"],
            "others_percent": figures["others_percent"]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--layouts", default="3x2,2x2",
                        help="workers x threads, comma-separated; the first is the baseline")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--moves", type=int, default=600, help="moves of each client a run")
    parser.add_argument("--clients", type=int, default=8)
    args = parser.parse_args()
    layouts = [tuple(int(n) for n in layout.split("x")) for layout in args.layouts.split(",")]
    runs: dict[tuple[int, ...], list[dict[str, float]]] = {layout: [] for layout in layouts}
    with sb.database() as url, sb.broker() as redis_url:
        sb.BROKER_URL = redis_url
        for round_ in range(args.rounds):
            for layout in layouts if round_ % 2 == 0 else layouts[::-1]:
                r = run(url, *layout, args.clients, args.moves, 1000 * round_)
                runs[layout].append(r)
                print(f"round {round_ + 1} {layout[0]}x{layout[1]}: {r['moves_per_s']:.1f} "
                      f"moves/s, server CPU {r['server_cpu_ms']:.2f} ms a move, others "
                      f"{r['others_percent']:.1f}%", file=sys.stderr, flush=True)
    base = runs[layouts[0]]
    print(f"\n{args.clients} clients x {args.moves} moves a run, {args.rounds} rounds")
    print(f"{'layout':8}{'moves/s':>10}{'CPU a move ms':>15}{'CPU ratio':>11}")
    for layout, rs in runs.items():
        ratio = statistics.median(r["server_cpu_ms"] / b["server_cpu_ms"]
                                  for r, b in zip(rs, base, strict=True))
        print(f"{layout[0]}x{layout[1]:<6}{statistics.median(r['moves_per_s'] for r in rs):10.1f}"
              f"{statistics.median(r['server_cpu_ms'] for r in rs):15.2f}{ratio:11.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
