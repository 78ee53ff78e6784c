"""What Celery itself costs a task: the CPU of enqueuing one (what a web process
pays for each draw or drain it asks for), of the worker's taking, running and
acknowledging it, and of Redis, for a task that does nothing.

    .venv/bin/python benchmarks/celery_task_bench.py [--tasks 5000] [--runs 5]
        [--variant NAME=WORKER_ARGS ...] [--json FILE]

It starts a throwaway Redis (scripts/testservices.py) and, for each run and each
variant in turn (the first variant of a run alternating), a worker of the
default queue's shape in docker-compose.yml (``--pool=threads``, a thread a
core as shipped, two here whatever the machine; the app's Celery settings: late
acknowledgement, a prefetch of one) with the
variant's extra arguments, on a queue of its own. Once the worker is up and
quiet, this process enqueues ``--tasks`` runs of Celery's built-in
``celery.accumulate`` (which returns its argument: no query, no I/O) through
the app's ``send_task`` (what ``Task.apply_async`` and games.enqueue call), and
waits until the queue is empty and nothing is left unacknowledged. The
figures, each a task, in microseconds: this process's CPU for the enqueuing,
the worker's (every thread of it) from its quiet start to the end, and of it
its main thread's (Celery's consumer), and Redis's.

The variants by default: ``shipped`` (the worker's arguments in
docker-compose.yml: ``--loglevel=INFO``, a line logged as each task is received
and one as it ends) and ``warning`` (``--loglevel=WARNING``: neither line).
Each figure is the median of the runs with its range.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import redis

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from service_bench import process_cpu, stat_cpu  # noqa: E402
from stream_bench import pid_of  # noqa: E402

QUEUE = "celery-task-bench"
DEFAULT_VARIANTS = {"shipped": "--loglevel=INFO", "warning": "--loglevel=WARNING"}


def main_thread_cpu(pid: int) -> float:
    """CPU seconds of the process's main thread alone: in a worker of threads,
    Celery's consumer (receiving, handing over and acknowledging each task),
    where the pool's threads run the tasks and Celery's tracing around them."""
    return stat_cpu(Path(f"/proc/{pid}/task/{pid}/stat"))


def quiet(pid: int, settle: float = 1.0, timeout: float = 60.0) -> None:
    """Wait until the process has used under 2% of a core over ``settle`` seconds
    (a worker is quiet once it has started and met its broker)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        before = process_cpu(pid)
        time.sleep(settle)
        if process_cpu(pid) - before < 0.02 * settle:
            return
    raise RuntimeError(f"process {pid} did not go quiet in {timeout} s")


def drained(client: redis.Redis, timeout: float = 300.0) -> None:
    """Wait until the queue is empty and no message is left unacknowledged."""
    deadline = time.monotonic() + timeout
    while client.llen(QUEUE) or client.hlen("unacked"):
        if time.monotonic() > deadline:
            raise RuntimeError("the worker did not drain its queue")
        time.sleep(0.05)


def one_run(redis_url: str, redis_pid: int, worker_args: list[str], tasks: int
            ) -> dict[str, float]:
    from marram_site.celery import app

    env = {**os.environ, "REDIS_URL": redis_url, "CELERY_TASK_ALWAYS_EAGER": "0"}
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "marram_site", "worker", "-Q", QUEUE,
         "--pool=threads", "--concurrency=2", "-n", f"bench-{os.getpid()}@%h", *worker_args],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(2)
        quiet(worker.pid)
        client = redis.Redis.from_url(redis_url)
        worker0, redis0 = process_cpu(worker.pid), process_cpu(redis_pid)
        consumer0 = main_thread_cpu(worker.pid)
        mine0 = time.process_time()
        for n in range(tasks):  # a producer taken from the app's pool each time, as
            app.send_task("celery.accumulate", args=(n,), queue=QUEUE)  # apply_async does
        mine = time.process_time() - mine0
        drained(client)
        time.sleep(0.5)  # the last acknowledgement's own work
        worker_cpu = process_cpu(worker.pid) - worker0
        consumer_cpu = main_thread_cpu(worker.pid) - consumer0
        redis_cpu = process_cpu(redis_pid) - redis0
    finally:
        worker.terminate()
        worker.wait(30)
    return {"enqueue_us": 1e6 * mine / tasks, "worker_us": 1e6 * worker_cpu / tasks,
            "consumer_us": 1e6 * consumer_cpu / tasks, "redis_us": 1e6 * redis_cpu / tasks}


def summary(values: list[float]) -> str:
    return f"{statistics.median(values):7.1f} ({min(values):.1f}-{max(values):.1f})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--variant", action="append", metavar="NAME=WORKER_ARGS",
                        help="a worker's extra arguments, named (default: shipped, warning)")
    parser.add_argument("--json", help="write every run's figures to this file")
    args = parser.parse_args()
    variants = dict(DEFAULT_VARIANTS)
    if args.variant:
        variants = dict(v.split("=", 1) for v in args.variant)

    from testservices import redis as redis_server

    with redis_server() as url:
        os.environ["REDIS_URL"] = url
        os.environ["CELERY_TASK_ALWAYS_EAGER"] = "0"
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "marram_site.settings")
        import django

        django.setup()
        redis_pid = pid_of(b"redis-server", int(url.rsplit(":", 1)[1].split("/")[0]))
        assert redis_pid is not None
        figures: dict[str, list[dict[str, float]]] = {name: [] for name in variants}
        names = list(variants)
        for r in range(args.runs):
            for name in names[r % len(names):] + names[:r % len(names)]:
                figure = one_run(url, redis_pid, variants[name].split(), args.tasks)
                figures[name].append(figure)
                print(f"run {r + 1} {name:10} enqueue {figure['enqueue_us']:6.1f} us, worker "
                      f"{figure['worker_us']:6.1f} us (its consumer {figure['consumer_us']:5.1f}),"
                      f" Redis {figure['redis_us']:5.1f} us a task", flush=True)
    print(f"\n{args.tasks} tasks a run, median (min-max) of {args.runs} runs, CPU a task in us")
    keys = ("enqueue_us", "worker_us", "consumer_us", "redis_us")
    print(f"{'variant':10} {'enqueue':>22} {'worker':>22} {'its consumer':>22} {'Redis':>22}")
    for name, runs in figures.items():
        cells = [summary([f[k] for f in runs]) for k in keys]
        print(f"{name:10} " + " ".join(f"{cell:>22}" for cell in cells))
    if args.json:
        Path(args.json).write_text(json.dumps({"tasks": args.tasks, "variants": variants,
                                               "runs": figures}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
