"""The whole server at two revisions side by side: the same work, in alternating runs.

    .venv/bin/python benchmarks/revision_bench.py --against REV [--this REV2]
        [--game marram|pond|animals_on_board|make_a_snake] [--rounds 6]
        [--moves 4000] [--clients 8]

Each run is benchmarks/compare_bench.py's run of Marram's side (``marram_run``),
with the code of one revision: this checkout (or ``--this``) and ``--against``,
each checked out into a temporary worktree (``move_bench.worktree``) and run in
a process of its own from there, on the same throwaway PostgreSQL and Redis:
100 fresh games of ``--game``, one client alone first, then ``--clients``
clients holding their seats' streams until they have made ``--moves`` moves in
all. A round runs both revisions, in turn, the order reversed every other round.

``compare_bench.py`` measures both systems' figures in each run, but a single
run of it moves by 10-20% on a shared machine; this compares the server with
itself, a change against the code before it, with the load of the whole
server (granian, the stream server, Redis), which ``move_bench.py`` (the
application in one process) leaves out. Prints each run, then the median over
the rounds of the ratio of this revision to the other: the server's CPU a
move, and the one-client round trip.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import compare_bench as cb  # noqa: E402  (its directory first on the path)
import move_bench  # noqa: E402

sb = cb.sb

RUN = """
import argparse, json, os, sys
tree = sys.argv[1]
sys.path[:0] = [os.path.join(tree, "benchmarks"), tree]
os.chdir(tree)
import compare_bench as cb
cb.sb.BROKER_URL = os.environ["REDIS_URL"]
os.environ["MARRAM_STREAM"] = "1"
args = argparse.Namespace(**json.loads(sys.argv[2]))
figures = cb.marram_run(os.environ["DATABASE_URL"], args, args.round)
print(json.dumps({k: v for k, v in figures.items() if isinstance(v, (int, float))}))
"""
"""One run, in a process started in the revision's tree, with its own code."""


def run(tree: Path, args: argparse.Namespace, round_: int, env: dict[str, str]) -> dict:
    options = {"game": args.game, "games": 100, "clients": args.clients, "moves": args.moves,
               "workers": sb.WORKERS, "threads": sb.THREADS, "events": 150, "solo_moves": 200,
               "seconds": 600, "follow": "stream", "json": None, "round": round_}
    done = subprocess.run([sys.executable, "-c", RUN, str(tree), json.dumps(options)],
                          cwd=tree, env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"the run of {tree} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", required=True, help="the revision to run beside this one")
    parser.add_argument("--this", help="a revision to run instead of this checkout")
    parser.add_argument("--game", default="marram", choices=cb.GAMES)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--moves", type=int, default=4000, help="moves of all clients a run")
    parser.add_argument("--clients", type=int, default=8)
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        url = stack.enter_context(sb.database())
        redis_url = stack.enter_context(sb.broker())
        env = {**os.environ, "DATABASE_URL": url, "REDIS_URL": redis_url}
        this = stack.enter_context(move_bench.worktree(args.this)) if args.this else HERE.parent
        trees = {args.this or "this": this, args.against: stack.enter_context(
            move_bench.worktree(args.against))}
        runs: dict[str, list[dict]] = {name: [] for name in trees}
        for round_ in range(args.rounds):
            for name in list(trees) if round_ % 2 == 0 else list(trees)[::-1]:
                r = run(trees[name], args, round_, env)
                runs[name].append(r)
                print(cb.run_line(f"round {round_ + 1} {name}", r), file=sys.stderr,
                      flush=True)
    first, other = runs.values()
    print(f"\n{cb.GAMES[args.game]}: {args.clients} clients, {args.moves} moves a run, "
          f"{args.rounds} rounds; {list(trees)[0]} / {args.against}")
    for key, label in (("server_cpu_ms", "server CPU a move"),
                       ("solo_p50_ms", "one client's round trip p50")):
        ratios = [a[key] / b[key] for a, b in zip(first, other, strict=True)]
        print(f"{label:30} {statistics.median(r[key] for r in first):8.2f} "
              f"{statistics.median(r[key] for r in other):8.2f}  ratio median "
              f"{statistics.median(ratios):.3f} (from {min(ratios):.3f} to {max(ratios):.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
