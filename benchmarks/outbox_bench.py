"""The outbox's delivery (notifications.services.outbox_drain), in one process: the
worker's CPU and queries, and its PostgreSQL backend's CPU, a "your turn" row.

    .venv/bin/python benchmarks/outbox_bench.py [--games 500] [--runs 5]
        [--against DIR] [--mail starttls|smtp|locmem] [--json FILE] [--profile FILE]
        [--game marram|pond|animals_on_board|make_a_snake] [--events N]

It starts a throwaway PostgreSQL and Redis (scripts/testservices.py) and, for
each run, a process of its own on a fresh database: ``--games`` games of
``--game`` (Marram's by default) between two players of their own (each with an
address and the default mail policy), started through the services, and with
``--events N`` played on to N events (random moves of the rules' own; the
process's state cache emptied after, so that a mail's state is read as a drain
that never held the game reads it). Then for each shape, the outbox holds
one "your turn" row for each game with a clock running (so and then a run has a
row fewer), as a move writes it (its game, seat and seq), and
``outbox_drain`` is called until nothing is due:

- ``over``: the turn the row speaks of is over (its seat's clock has moved on):
  skipped, "that turn is over";
- ``looking``: the turn is not over and the player loaded the game a moment ago
  (an open page or stream): skipped, "the player is looking at the game";
- ``sent``: the turn is not over and the player is away: the mail is made (its
  board picture drawn) and sent, to an SMTP sink in a process of its own
  (benchmarks/mail_sink.py), over STARTTLS with its certificate checked
  against the system's authorities as in production (``--mail starttls``),
  in plain SMTP (``smtp``), or to Django's memory (``locmem``);
- ``mixed``: the three shapes in turn, game by game, drained by two drains at
  once (two threads, a connection each), as two of the worker's processes do
  when two web processes each ask for one;
- ``single``: the rows of ``mixed`` written one at a time, each followed by a
  drain of its own, as a quiet server asks for one after each move (the
  drain's own cost, which ``mixed`` shares among many rows, in full on each).

Printed for each: the process's CPU ms a row (both threads in ``mixed``; in
``single`` the drains' thread alone, not the writes), the
database backends' CPU ms a row (from /proc), queries a row, and what became of
the rows (status and note), which must not differ between two versions of the
code. With ``--against DIR`` (another checkout, e.g. a ``git worktree`` of an
earlier commit) the runs alternate between that code and this one, the same
script measuring both; each figure is the median of ``--runs`` runs with its
range. With ``--profile FILE`` the first run's ``sent`` drain of this checkout
runs under cProfile, its statistics written to FILE (its figures then include
the profiler's cost).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import mail_sink
import service_bench as sb

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SHAPES = ("over", "looking", "sent", "mixed", "single")
TICK = os.sysconf("SC_CLK_TCK")


# ---------------------------------------------------------------- the driver


def child(root: Path, args: argparse.Namespace, urls: dict[str, str],
          profile: Path | None = None) -> dict[str, Any]:
    """One run of the code in ``root``, in a process of its own; its figures."""
    argv = [sys.executable, str(Path(__file__).resolve()), "--child", str(root),
            "--games", str(args.games), "--mail", args.mail, "--game", args.game,
            "--events", str(args.events),
            *(["--profile", str(profile.resolve())] if profile else [])]
    env = {**os.environ, **urls}
    done = subprocess.run(argv, env=env, cwd=root, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"the run of {root} failed:\n{done.stderr[-4000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def spread(values: list[float]) -> str:
    return (f"{statistics.median(values):7.2f} ({min(values):.2f}-{max(values):.2f})"
            if values else "-")


def report(runs: dict[str, list[dict[str, Any]]]) -> None:
    print(f"\n{'shape':8} {'code':8} {'CPU ms/row':>22} {'DB ms/row':>22} {'queries/row':>22}")
    for shape in SHAPES:
        for name, results in runs.items():
            figures = [r[shape] for r in results]
            print(f"{shape:8} {name:8} "
                  f"{spread([f['cpu_ms'] for f in figures]):>22} "
                  f"{spread([f['db_ms'] for f in figures]):>22} "
                  f"{spread([f['queries'] for f in figures]):>22}")
    for shape in SHAPES:
        for name, results in runs.items():
            outcomes = {json.dumps(r[shape]["outcome"], sort_keys=True) for r in results}
            locked = [r[shape].get("locked", 0) for r in results]
            print(f"{shape:8} {name:8} rows: {' | '.join(sorted(outcomes))}"
                  + (f"; locked a run: {locked}" if shape == "mixed" else ""))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--against", type=Path, help="another checkout to measure alike")
    parser.add_argument("--mail", choices=("starttls", "smtp", "locmem"), default="starttls")
    parser.add_argument("--game", default="marram",
                        choices=("marram", "pond", "animals_on_board", "make_a_snake"))
    parser.add_argument("--events", type=int, default=0,
                        help="play each game on to this many events first")
    parser.add_argument("--json")
    parser.add_argument("--profile", type=Path, help="cProfile the first run's sent drain")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args)))
        return 0

    sys.path.insert(0, str(ROOT / "scripts"))
    from testservices import postgres, redis

    sides = {"this": ROOT, **({"against": args.against.resolve()} if args.against else {})}
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in sides}
    workdir = Path(tempfile.mkdtemp(prefix="outbox-bench-"))
    smtp = mail_sink.Sink(workdir, sb.free_port(), tls=args.mail == "starttls")
    try:
        smtp.start(ROOT)
        with postgres() as db_url, redis() as redis_url:
            urls = {"BENCH_DATABASE_URL": db_url, "REDIS_URL": redis_url,
                    **({"BENCH_MAIL": json.dumps(smtp.env())} if args.mail != "locmem" else {})}
            for run in range(args.runs):
                order = list(sides.items())
                if run % 2:
                    order.reverse()
                for name, root in order:
                    profile = args.profile if run == 0 and name == "this" else None
                    result = child(root, args, urls, profile)
                    runs[name].append(result)
                    print(f"run {run + 1} {name:8} " + "  ".join(
                        f"{shape} {result[shape]['cpu_ms']:.2f} ms "
                        f"{result[shape]['queries']:.1f} q" for shape in SHAPES), flush=True)
    finally:
        smtp.close()
        shutil.rmtree(workdir, ignore_errors=True)
    report(runs)
    if args.json:
        Path(args.json).write_text(json.dumps(runs, indent=1))
    return 0


# ---------------------------------------------------------------- one run


def configure(args: argparse.Namespace) -> str:
    """Django set up on a fresh database of the cluster, with the production
    settings as the worker runs them; that database's name."""
    import psycopg

    base = os.environ["BENCH_DATABASE_URL"]
    name = f"outbox_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    os.environ.update({
        "DJANGO_SETTINGS_MODULE": "marram_site.settings", "DJANGO_ENV": "production",
        "DJANGO_SECRET_KEY": "outbox-bench-" + uuid.uuid4().hex,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1", "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_LOG_LEVEL": "WARNING", "DATABASE_URL": base.rsplit("/", 1)[0] + "/" + name,
        "DATABASE_CONN_MAX_AGE": "600", "CELERY_TASK_ALWAYS_EAGER": "0",
        "MARRAM_DRAW_INLINE": "1",
    })
    if args.mail != "locmem":
        os.environ.update(json.loads(os.environ["BENCH_MAIL"]))
    else:
        os.environ["EMAIL_BACKEND"] = "django.core.mail.backends.locmem.EmailBackend"
    sys.path.insert(0, str(args.child))
    os.chdir(args.child)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    return name


def games_make(count: int, kind: str = "marram",
               events: int = 0) -> list[tuple[int, int, int, int]]:
    """``count`` started games of ``kind``, two players of their own each (Marram's
    Classic variant, long, or played on its Animals variant, long; the lobby's
    defaults for another game), each played on
    to ``events`` events as its players would (service_bench.play_on); for each,
    the game, the seat whose clock runs, its started seq and its player. The
    process's state cache is emptied after: a drain's process seldom holds the
    game it mails about."""
    from django.contrib.auth import get_user_model

    from games import services
    from games.models import Clock
    from live.state_cache import states

    User = get_user_model()
    tag = uuid.uuid4().hex[:6]
    # Marram's long games as the race plays them: the Animals variant (Classic's
    # end before 125 events)
    variant = "animals" if events else "classic"
    options = {"variant": variant, "length": "long"} if kind == "marram" else {}
    for i in range(count):
        ann = User.objects.create_user(f"a{i}{tag}", f"a{i}{tag}@players.example", None)
        bob = User.objects.create_user(f"b{i}{tag}", f"b{i}{tag}@players.example", None)
        game = services.game_create(user=ann, game=kind, options=options, seats=2)
        services.game_join(game=game, user=bob)
        if events:
            sb.play_on(game.pk, events, tag, options)
    states.clear()
    running = Clock.objects.filter(started_at__isnull=False).order_by("game_id")
    return [(c.game_id, c.seat, c.started_seq, c.user_id) for c in running]


def rows_write(games: list[tuple[int, int, int, int]], shapes: list[str],
               write: bool = True) -> list[tuple[Any, Any]]:
    """One "your turn" row a game, as a move writes it, in the shape given for each
    game in turn, each with its visit (or None), written (``write``) or not; the
    outbox emptied first."""
    from django.conf import settings
    from django.utils import timezone

    from games.models import Clock
    from notifications.models import GameVisit, Notification

    Notification.objects.all().delete()
    GameVisit.objects.all().delete()
    others = dict(Clock.objects.filter(started_at__isnull=True)
                  .values_list("game_id", "seat"))
    rows, visits, now = [], [], timezone.now()
    for (game, seat, seq, user), shape in zip(games, shapes, strict=True):
        if shape == "over":  # the seat moved: its clock stopped, the other's started
            seat = others[game]
            user = Clock.objects.get(game_id=game, seat=seat).user_id
        visits.append(GameVisit(user_id=user, game_id=game, seen_at=now)
                      if shape == "looking" else None)
        rows.append(Notification(
            user_id=user, game_id=game, seat=seat, seq=seq, kind="your_turn",
            dedup_key=f"your_turn:{game}:{seat}:{seq}",
            message_id=f"<{uuid.uuid4().hex}@{settings.REPLY_DOMAIN}>"))
    if write:
        Notification.objects.bulk_create(rows)
        GameVisit.objects.bulk_create([v for v in visits if v is not None])
    return list(zip(rows, visits, strict=True))


def backend_cpu(pid: int) -> float:
    """The CPU seconds of this PostgreSQL backend so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


class Counted:
    """Queries made through this thread's connection (an execute wrapper)."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, execute: Callable[..., Any], *a: Any) -> Any:
        self.count += 1
        return execute(*a)


def drains(threads: int, profile: Path | None = None) -> dict[str, Any]:
    """Run ``outbox_drain`` until nothing is due, in ``threads`` threads at once,
    each on a connection of its own; the figures: CPU seconds of this process and
    of the backends, queries, what the drains said of the rows. With ``profile``
    (one thread) the drains run under cProfile, its statistics written there."""
    import cProfile

    from django.db import connection

    from notifications import services

    figures: dict[str, Any] = {"queries": 0, "db": 0.0, "done": Counter()}
    ready = threading.Barrier(threads + 1)
    go = threading.Event()
    lock = threading.Lock()

    def drain() -> None:
        counted = Counted()
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            pid = cursor.fetchone()[0]
        db = backend_cpu(pid)
        ready.wait()
        go.wait()
        profiler = cProfile.Profile() if profile else None
        with connection.execute_wrapper(counted):
            if profiler:
                profiler.enable()
            while done := services.outbox_drain():
                with lock:
                    figures["done"].update(done)
            if profiler:
                profiler.disable()
                profiler.dump_stats(profile)
        db = backend_cpu(pid) - db
        with lock:
            figures["queries"] += counted.count
            figures["db"] += db
        connection.close()

    workers = [threading.Thread(target=drain) for _ in range(threads)]
    for worker in workers:
        worker.start()
    ready.wait()
    cpu = time.process_time()
    go.set()
    for worker in workers:
        worker.join()
    figures["cpu"] = time.process_time() - cpu
    return figures


def drains_one_by_one(rows: list[tuple[Any, Any]]) -> dict[str, Any]:
    """Write each row (and its visit) alone, then run one ``outbox_drain`` for it,
    in a thread of its own on a connection of its own, as a worker asked for a
    drain after each move; the figures of the drains alone (the thread's CPU)."""
    from django.db import connection

    from notifications import services

    figures: dict[str, Any] = {"queries": 0, "db": 0.0, "cpu": 0.0, "done": Counter()}
    asked, answered = threading.Semaphore(0), threading.Semaphore(0)

    def drain() -> None:
        counted = Counted()
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            pid = cursor.fetchone()[0]
        for _ in rows:
            asked.acquire()
            cpu, db = time.thread_time(), backend_cpu(pid)
            with connection.execute_wrapper(counted):
                figures["done"].update(services.outbox_drain())
            figures["cpu"] += time.thread_time() - cpu
            figures["db"] += backend_cpu(pid) - db
            answered.release()
        figures["queries"] = counted.count
        connection.close()

    worker = threading.Thread(target=drain)
    worker.start()
    for row, visit in rows:
        row.save()
        if visit is not None:
            visit.save()
        asked.release()
        answered.acquire()
    worker.join()
    return figures


def measure(args: argparse.Namespace) -> dict[str, Any]:
    import gc

    name = configure(args)
    from django.db import connections

    from notifications.models import Notification

    games = games_make(args.games, args.game, args.events)
    result: dict[str, Any] = {}
    for shape in SHAPES:
        shapes = [SHAPES[i % 3] for i in range(len(games))] if shape in ("mixed", "single") \
            else [shape] * len(games)
        rows = rows_write(games, shapes, write=shape != "single")
        connections.close_all()
        gc.collect()
        figures = drains_one_by_one(rows) if shape == "single" else \
            drains(2 if shape == "mixed" else 1, args.profile if shape == "sent" else None)
        left = Notification.objects.filter(status="pending").count()
        outcome = Counter(f"{s}: {note}" if note else s for s, note in
                          Notification.objects.values_list("status", "note"))
        result[shape] = {
            "rows": len(games), "cpu_ms": 1000 * figures["cpu"] / len(games),
            "db_ms": 1000 * figures["db"] / len(games),
            "queries": figures["queries"] / len(games), "left": left,
            "locked": figures["done"].get("locked", 0), "outcome": dict(outcome),
        }
    connections.close_all()
    import psycopg

    with psycopg.connect(os.environ["BENCH_DATABASE_URL"], autocommit=True) as conn:
        conn.execute(f"DROP DATABASE {name}")
    return result


if __name__ == "__main__":
    sys.exit(main())
