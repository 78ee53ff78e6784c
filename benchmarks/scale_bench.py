"""Scale on paper, checked by measurement: what a game costs PostgreSQL in bytes
and in CPU, and what synchronous replication costs a move (docs/operations.md,
"Scale on paper"). Needs root (a cpuacct cgroup, network namespaces) and two cores.

    sudo nice -n 10 .venv/bin/python benchmarks/scale_bench.py [--rounds 3] [--games 20]
        [--kinds marram-classic,marram-animals,pond,animals_on_board,make_a_snake]
        [--sync-rounds 6] [--sync-moves 30] [--no-storage] [--no-sync] [--json]

**Bytes and CPU.** A throwaway PostgreSQL (scripts/testservices.py, but durable:
``fsync``, ``synchronous_commit`` and ``full_page_writes`` on) is started inside
a cgroup v1 cpuacct group of its own and pinned to the first core (an affinity,
as taskset sets, inherited by every backend it forks); its group's
``cpuacct.usage`` counts the CPU of the postmaster and every child, backends
that have exited included. The web server as production starts it (granian,
one worker of two threads, production settings, the chance drawn in the
move's own transaction), Redis (Celery's broker: tasks are queued, no worker
runs them) and this client share the second core.

Each round plays, for each kind of game (the order reversed every other round),
``--games`` fresh games of two people from their creation to their end through
the HTTP API: the awaited player GETs the game (as the opponent's page would
when the turn passes to them) and POSTs one of its legal actions, drawn by a
seeded random generator (after one game of each kind, not counted, so that
every table has its first pages). Each finished game's ratings are then taken by the
task Celery would run (``ratings.tasks.ratings_update``, called here), and
their mail delivered as the worker would (``notification_deliver`` for every
pending outbox row, to Django's in-memory mail backend): a sent row keeps the
mail it rendered, so the outbox's figure is that of mail sent.

- Bytes: before and after the round's games of a kind the database is
  compacted (``VACUUM FULL``) and every table's heap, indexes and TOAST
  measured (``pg_relation_size``, ``pg_indexes_size``,
  ``pg_total_relation_size`` of the TOAST table); the difference, divided by
  the games' events (rows of ``games_event``) or by the games, is the
  steady-state size of what they left: the event log's rows and their indexes,
  and the rows in every other table (games, seats, clocks, snapshots, the mail
  outbox, ratings...). Measured compacted, that is without the dead rows a
  live table carries between vacuums; a table's size moves in pages of 8 kB,
  so a small table's figure a game is good to 8 kB / games.
- Archive: each finished game's record (what ``GET /api/games/<id>/record/``
  answers: the game's record format with its seed) as compact JSON, and that
  compressed with xz: what a game would take archived as a record.
- CPU: the database group's CPU read before and after each request; a move's
  figure is the POST's, and beside it the GET that precedes it. Moves a second
  a database core = 1 / (PostgreSQL's mean CPU a move).

Printed: each kind's bytes an event (heap, indexes, TOAST) and a game, with the
table by table split, and PostgreSQL's CPU a move (the median of the rounds'
means, with their range) and moves a database core-second.

**Synchronous replication.** A primary and a streaming standby made with
``pg_basebackup`` on two hosts of network namespaces (tests/service/hosts_kit.py:
a bridge between them, on this one machine), both durable, and the web server
on the test's own namespace. The rounds alternate ``synchronous_standby_names``
set to the standby (``synchronous_commit = on``: a commit waits for the standby
to have flushed it) and empty (asynchronous streaming), checked in
``pg_stat_replication``; each plays ``--sync-moves`` sequential moves of a fresh
Marram game (after five to warm up) and prints the median wall time of a POST,
the median of the rounds' medians with their range, and the ratio sync / async
(each round's own ratio too). Over loopback on one machine a round trip is some
tens of microseconds: a real standby in another zone adds its round trip
(0.5-1 ms in a region) to every commit; docs/operations.md does the arithmetic.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import lzma
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(ROOT), str(HERE), str(ROOT / "scripts")]

import service_bench as sb  # noqa: E402
import testservices  # noqa: E402

from benchmarks.http_client import call  # noqa: E402

KINDS = {  # name: (the registry's key, options)
    "marram-classic": ("marram", {"variant": "classic", "length": "long"}),
    "marram-animals": ("marram", {"variant": "animals", "length": "long"}),
    "pond": ("pond", {}),
    "animals_on_board": ("animals_on_board", {}),
    "make_a_snake": ("make_a_snake", {}),
}
CGROUP_ROOT = Path("/sys/fs/cgroup/cpuacct")
MOVES_A_GAME_AT_MOST = 3000
DURABLE = "-c fsync=on -c synchronous_commit=on -c full_page_writes=on"


def spread(values: list[float], digits: int = 2) -> str:
    """The median and the range, as the report prints them."""
    return (f"{statistics.median(values):.{digits}f} ({min(values):.{digits}f}-"
            f"{max(values):.{digits}f})")


# ---------------------------------------------------------------- the database's CPU


class DatabaseGroup:
    """A cpuacct group for PostgreSQL: what is started while ``holding`` is in it,
    with its children, and pinned to ``core``."""

    def __init__(self) -> None:
        self.path = CGROUP_ROOT / f"scalebench-{os.getpid()}"

    def __enter__(self) -> DatabaseGroup:
        if not (CGROUP_ROOT / "cpuacct.usage").exists() or not os.access(CGROUP_ROOT, os.W_OK):
            raise SystemExit(f"needs cgroup v1's cpuacct at {CGROUP_ROOT}, writable (root)")
        self.path.mkdir()
        return self

    def __exit__(self, *exc: object) -> None:
        for pid in (self.path / "cgroup.procs").read_text().split():
            with contextlib.suppress(OSError):  # none, unless PostgreSQL's stop failed
                os.kill(int(pid), signal.SIGKILL)
        for _ in range(100):
            try:
                self.path.rmdir()
                return
            except OSError:
                time.sleep(0.1)

    @contextlib.contextmanager
    def holding(self, core: int) -> Iterator[None]:
        """This process in the group and on ``core`` for the block (what it starts
        stays there), then back where it was."""
        before = os.sched_getaffinity(0)
        (self.path / "cgroup.procs").write_text(str(os.getpid()))
        os.sched_setaffinity(0, {core})
        try:
            yield
        finally:
            (CGROUP_ROOT / "cgroup.procs").write_text(str(os.getpid()))
            os.sched_setaffinity(0, before)

    def seconds(self) -> float:
        return int((self.path / "cpuacct.usage").read_text()) / 1e9


# ---------------------------------------------------------------- sizes


SIZES = """
SELECT c.relname, pg_relation_size(c.oid), pg_indexes_size(c.oid),
       COALESCE(pg_total_relation_size(NULLIF(c.reltoastrelid, 0)), 0)
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = 'public' AND c.relkind = 'r'
"""


def sizes() -> dict[str, tuple[int, int, int]]:
    """Every table's (heap, indexes, TOAST) bytes, the database compacted first."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM FULL")
        cursor.execute(SIZES)
        return {name: (heap, index, toast) for name, heap, index, toast in cursor.fetchall()}


def grown(before: dict[str, tuple[int, int, int]], after: dict[str, tuple[int, int, int]]
          ) -> dict[str, tuple[int, int, int]]:
    out = {}
    for name, now in after.items():
        was = before.get(name, (0, 0, 0))
        delta = tuple(a - b for a, b in zip(now, was, strict=True))
        if any(delta):
            out[name] = (delta[0], delta[1], delta[2])
    return out


# ---------------------------------------------------------------- playing


def deliver_mail(game_ids: list[int]) -> dict[str, int]:
    """The games' outbox rows delivered as the worker's task would, to Django's
    in-memory mail backend: a sent row keeps its rendered mail. How many rows
    ended in each status."""
    from django.core import mail

    from notifications.models import Notification
    from notifications.tasks import notification_deliver

    rows = Notification.objects.filter(game_id__in=game_ids)
    for pk in rows.filter(status=Notification.Status.PENDING).values_list("pk", flat=True):
        notification_deliver(pk)
    mail.outbox = []
    statuses: dict[str, int] = {}
    for status in rows.values_list("status", flat=True):
        statuses[status] = statuses.get(status, 0) + 1
    return statuses


ROW_BYTES = """
SELECT status, count(*), sum(pg_column_size(n.*)) FROM notifications_notification n
WHERE game_id IS NOT NULL GROUP BY status
"""


def outbox_row_bytes() -> dict[str, float]:
    """The outbox rows' mean size by status (their tuples, as stored, compressed
    where PostgreSQL compressed them): a sent row carries its mail."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(ROW_BYTES)
        return {status: total / count for status, count, total in cursor.fetchall()}


def record_bytes(game_id: int) -> tuple[int, int]:
    """The finished game's record (GET /api/games/<id>/record/: the game's record
    format, its seed revealed) as JSON, and compressed with xz: the bytes a game
    archived so would take."""
    from games import selectors

    record = json.dumps(selectors.game_record_get(selectors.game_get(game_id)),
                        separators=(",", ":")).encode()
    return len(record), len(lzma.compress(record, preset=6))


def make_games(kind: str, count: int, players: list[Any], tokens: dict[int, str],
               rng: random.Random) -> list[dict[str, Any]]:
    """``count`` games of two of the players, started (both seats taken)."""
    from games import services
    from games.models import Seat

    key, options = KINDS[kind]
    made = []
    for _ in range(count):
        a, b = rng.sample(players, 2)
        game = services.game_create(user=a, game=key, options=options, seats=2,
                                    days_per_move=3)
        services.game_join(game=game, user=b)
        made.append({"id": game.pk, "seats": {
            seat.index: tokens[seat.user_id] for seat in Seat.objects.filter(game=game)}})
    return made


def awaited(view: dict[str, Any]) -> int | None:
    to_act = (view.get("game") or {}).get("projection", {}).get("to_act") or []
    return to_act[0] if view.get("status") == "running" and to_act else None


def play_out(port: int, game: dict[str, Any], rng: random.Random, group: DatabaseGroup,
             cpu: dict[str, list[float]]) -> int:
    """The game played to its end with random legal actions; each request's
    PostgreSQL CPU appended to ``cpu`` by kind; the moves made."""
    path = f"/api/games/{game['id']}/"
    seats: dict[int, str] = game["seats"]

    def timed(kind: str, token: str, method: str, url: str,
              body: dict[str, Any] | None = None) -> tuple[int, Any]:
        before = group.seconds()
        answer = call("127.0.0.1", port, token, method, url, body)
        cpu[kind].append(group.seconds() - before)
        return answer

    status, view = timed("get", seats[0], "GET", path)
    assert status == 200, view
    moves = 0
    while (seat := awaited(view)) is not None:
        if view.get("you") != seat or not view.get("legal_actions"):
            status, view = timed("get", seats[seat], "GET", path)
            assert status == 200, view
            if view.get("you") != seat or not view["legal_actions"]:
                raise RuntimeError(f"game {game['id']}: seat {seat} awaited but cannot act")
        action = dict(rng.choice(view["legal_actions"]))
        action.pop("player", None)
        status, answer = timed("post", seats[seat], "POST", path + "actions/",
                               {"seq": view["seq"], "action": action})
        if status != 201:
            raise RuntimeError(f"game {game['id']}: {status} {answer}")
        moves += 1
        if moves > MOVES_A_GAME_AT_MOST:
            raise RuntimeError(f"game {game['id']} did not end in {MOVES_A_GAME_AT_MOST} moves")
        view = answer["view"]
    if view.get("status") != "finished":  # the last answer is the mover's: read it again
        status, view = call("127.0.0.1", port, seats[0], "GET", path)
    if view.get("status") != "finished":
        raise RuntimeError(f"game {game['id']} stopped as {view.get('status')}")
    return moves


def storage_and_cpu(args: argparse.Namespace) -> dict[str, Any]:
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) < 2:
        raise SystemExit("needs two cores: one for PostgreSQL, one for the rest")
    with contextlib.ExitStack() as stack:
        group = stack.enter_context(DatabaseGroup())
        os.environ["TESTSERVICES_POSTGRES_OPTIONS"] = " " + DURABLE
        with group.holding(cores[0]):
            url = stack.enter_context(testservices.postgres())
        os.sched_setaffinity(0, set(cores[1:]))
        sb.BROKER_URL = stack.enter_context(testservices.redis())
        os.environ.update(sb.server_env(url))
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "marram_site.settings")
        # the mail this process delivers (the worker's part) is kept in memory
        os.environ["EMAIL_BACKEND"] = "django.core.mail.backends.locmem.EmailBackend"
        import django

        django.setup()
        from django.contrib.auth import get_user_model
        from django.core.management import call_command
        from rest_framework.authtoken.models import Token

        from games.models import Event
        from ratings.tasks import ratings_update

        call_command("migrate", verbosity=0)
        players = [get_user_model().objects.create_user(
            f"scale{n}", email=f"scale{n}@example.test", password="x" * 12) for n in range(32)]
        tokens = {user.pk: Token.objects.get_or_create(user=user)[0].key for user in players}
        port = stack.enter_context(sb.web_server(url, workers=1, threads=2))
        rng = random.Random(args.seed)
        kinds = args.kinds.split(",")
        found: dict[str, dict[str, Any]] = {
            kind: {"rounds": [], "tables": {}, "events": 0, "games": 0, "moves": 0}
            for kind in kinds}
        for kind in kinds:  # not counted: every table and index has its first pages
            for game in make_games(kind, 1, players, tokens, rng):
                play_out(port, game, rng, group, {"get": [], "post": []})
                ratings_update(game["id"])
        for round_ in range(args.rounds):
            for kind in kinds if round_ % 2 == 0 else kinds[::-1]:
                before = sizes()
                games = make_games(kind, args.games, players, tokens, rng)
                cpu: dict[str, list[float]] = {"get": [], "post": []}
                began = time.monotonic()
                moves = sum(play_out(port, game, rng, group, cpu) for game in games)
                wall = time.monotonic() - began
                delivered = deliver_mail([g["id"] for g in games])
                records = []
                for game in games:
                    ratings_update(game["id"])
                    records.append(record_bytes(game["id"]))
                events = Event.objects.filter(game_id__in=[g["id"] for g in games]).count()
                delta = grown(before, sizes())
                total = sum(sum(d) for d in delta.values())
                event_table = delta.get(Event._meta.db_table, (0, 0, 0))
                record = found[kind]
                for name, d in delta.items():
                    was = record["tables"].get(name, (0, 0, 0))
                    record["tables"][name] = tuple(a + b for a, b in zip(was, d, strict=True))
                record["events"] += events
                record["games"] += len(games)
                record["moves"] += moves
                record["rounds"].append({
                    "games": len(games), "moves": moves, "events": events,
                    "bytes_an_event": sum(event_table) / events,
                    "bytes_a_game": total / len(games),
                    "db_ms_a_move": 1000 * statistics.mean(cpu["post"]),
                    "db_ms_a_get": 1000 * statistics.mean(cpu["get"]),
                    "db_ms_median_move": 1000 * statistics.median(cpu["post"]),
                    "gets": len(cpu["get"]), "wall_s": wall, "mails": delivered,
                    "record_bytes": [r[0] for r in records],
                    "record_xz_bytes": [r[1] for r in records]})
                r = record["rounds"][-1]
                print(f"round {round_ + 1} {kind}: {len(games)} games, {moves} moves, "
                      f"{events} events; {r['bytes_an_event']:.0f} B an event (event table), "
                      f"{r['bytes_a_game']:.0f} B a game (all tables); PostgreSQL "
                      f"{r['db_ms_a_move']:.3f} ms CPU a move, {r['db_ms_a_get']:.3f} a GET; "
                      f"{wall:.0f} s", file=sys.stderr, flush=True)
        outbox_rows = outbox_row_bytes()
        from django.db import connections

        connections.close_all()
    summary: dict[str, Any] = {"outbox_row_bytes": outbox_rows}
    for kind, record in found.items():
        events, games = record["events"], record["games"]
        event_table = record["tables"].get("games_event", (0, 0, 0))
        moves_a_second = [1000 / r["db_ms_a_move"] for r in record["rounds"]]
        summary[kind] = {
            "games": games, "moves": record["moves"], "events": events,
            "events_a_game": events / games, "moves_a_game": record["moves"] / games,
            "event_heap_bytes_an_event": event_table[0] / events,
            "event_index_bytes_an_event": event_table[1] / events,
            "event_toast_bytes_an_event": event_table[2] / events,
            "event_bytes_an_event": sum(event_table) / events,
            "bytes_a_game": sum(sum(d) for d in record["tables"].values()) / games,
            "tables_bytes_a_game": {name: sum(d) / games for name, d in
                                    sorted(record["tables"].items(), key=lambda i: -sum(i[1]))},
            "rounds_bytes_an_event": [r["bytes_an_event"] for r in record["rounds"]],
            "rounds_bytes_a_game": [r["bytes_a_game"] for r in record["rounds"]],
            "rounds_db_ms_a_move": [r["db_ms_a_move"] for r in record["rounds"]],
            "rounds_db_ms_a_get": [r["db_ms_a_get"] for r in record["rounds"]],
            "rounds_moves_a_db_core_second": moves_a_second,
            "record_bytes_a_game": statistics.mean(
                b for r in record["rounds"] for b in r["record_bytes"]),
            "record_xz_bytes_a_game": statistics.mean(
                b for r in record["rounds"] for b in r["record_xz_bytes"]),
            "rounds": record["rounds"]}
    return summary


# ---------------------------------------------------------------- synchronous replication

MAKE_GAMES = """
import json
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from games import services
from games.models import Seat
made = []
for number in range({count}):
    users = [get_user_model().objects.create_user(f"s{{number}}{{side}}", password="x" * 12)
             for side in "ab"]
    game = services.game_create(user=users[0], game="marram", seats=2, days_per_move=3,
                                options={{"variant": "classic", "length": "long"}})
    services.game_join(game=game, user=users[1])
    made.append({{"id": game.pk, "seats": {{seat.index: Token.objects.get_or_create(
        user=seat.user)[0].key for seat in Seat.objects.filter(game=game)}}}})
print(json.dumps(made))
"""


def timed_moves(port: int, game: dict[str, Any], moves: int, rng: random.Random
                ) -> list[float]:
    """``moves`` moves of the game, one after another; each POST's wall time."""
    path = f"/api/games/{game['id']}/"
    times: list[float] = []
    view: dict[str, Any] = {}
    while len(times) < moves:
        seat = awaited(view) if view else None
        if seat is None or view.get("you") != seat or not view.get("legal_actions"):
            for token in game["seats"].values():
                status, view = call("127.0.0.1", port, token, "GET", path)
                assert status == 200, view
                if view["status"] != "running":
                    raise RuntimeError(f"game {game['id']} is over: make fewer moves")
                if view["legal_actions"]:
                    break
            else:
                continue
            seat = view["you"]
        action = dict(rng.choice(view["legal_actions"]))
        action.pop("player", None)
        began = time.perf_counter()
        status, answer = call("127.0.0.1", port, game["seats"][seat], "POST",
                              path + "actions/", {"seq": view["seq"], "action": action})
        times.append(time.perf_counter() - began)
        assert status == 201, answer
        view = answer["view"]
    return times


def connect_ms(address: str, port: int, times: int = 50) -> float:
    """The median time of a TCP connection's set-up to ``address``, in ms: one
    round trip (SYN, SYN-ACK)."""
    took = []
    for _ in range(times):
        began = time.perf_counter()
        with socket.create_connection((address, port), timeout=5):
            took.append(time.perf_counter() - began)
    return 1000 * statistics.median(took)


def synchronous_replication(args: argparse.Namespace) -> dict[str, Any]:
    from tests.service import hosts_kit

    rng = random.Random(args.seed)
    with contextlib.ExitStack() as stack:
        net = stack.enter_context(hosts_kit.network())
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(dir="/tmp")))
        workdir.chmod(0o755)
        primary = hosts_kit.Cluster(net.add("db", 30, front=False, back=True), workdir,
                                    "primary")
        standby = hosts_kit.Cluster(net.add("standby", 31, front=False, back=True), workdir,
                                    "standby")
        primary.initdb()
        primary.start()
        primary.sql(f"CREATE DATABASE {hosts_kit.DATABASE}", "postgres")
        standby.basebackup(primary)
        standby.start()
        env = {**os.environ, "DATABASE_URL": primary.url(),
               "DJANGO_SETTINGS_MODULE": "marram_site.settings"}
        for name in ("DJANGO_ENV", "REDIS_URL"):
            env.pop(name, None)
        subprocess.run([sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
                       cwd=ROOT, env=env, check=True)
        made = subprocess.run([sys.executable, "manage.py", "shell", "-c",
                               MAKE_GAMES.format(count=2 * args.sync_rounds)], cwd=ROOT,
                              env=env, check=True, capture_output=True, text=True)
        games = json.loads(made.stdout.strip().splitlines()[-1])
        for game in games:
            game["seats"] = {int(seat): token for seat, token in game["seats"].items()}
        sb.BROKER_URL = stack.enter_context(testservices.redis())
        port = stack.enter_context(sb.web_server(primary.url(), workers=1, threads=2))
        rtt = connect_ms(standby.address, hosts_kit.PG_PORT)

        def setting(sync: bool) -> None:
            primary.sql("ALTER SYSTEM SET synchronous_standby_names = "
                        + ("'standby'" if sync else "''"), "postgres")
            primary.sql("SELECT pg_reload_conf()", "postgres")
            wanted = "sync" if sync else "async"
            deadline = time.monotonic() + 30
            while primary.sql("SELECT sync_state FROM pg_stat_replication "
                              "WHERE application_name = 'standby'", "postgres") != wanted:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the standby did not become {wanted}")
                time.sleep(0.1)

        medians: dict[str, list[float]] = {"sync": [], "async": []}
        order = ["async", "sync"]
        for round_ in range(args.sync_rounds):
            for name in order:
                setting(name == "sync")
                game = games.pop()
                timed_moves(port, game, 5, rng)  # warm: the server's connection, the game
                medians[name].append(1000 * statistics.median(
                    timed_moves(port, game, args.sync_moves, rng)))
            order.reverse()
            print(f"sync round {round_ + 1}: " + ", ".join(
                f"{name} {medians[name][-1]:.2f} ms" for name in medians),
                file=sys.stderr, flush=True)
        lag = primary.sql("SELECT COALESCE(max(flush_lag), '0')::text FROM pg_stat_replication",
                          "postgres")
    ratios = [s / a for s, a in zip(medians["sync"], medians["async"], strict=True)]
    return {"rounds": args.sync_rounds, "moves_a_round": args.sync_moves,
            "sync_ms": medians["sync"], "async_ms": medians["async"], "ratios": ratios,
            "extra_ms": [s - a for s, a in zip(medians["sync"], medians["async"],
                                                strict=True)],
            "loopback_rtt_ms": rtt, "last_flush_lag": lag}


# ---------------------------------------------------------------- the report


def report(result: dict[str, Any]) -> None:
    storage = result.get("storage")
    if storage:
        print("\nBytes (compacted) and PostgreSQL's CPU, by kind of game "
              "(median of the rounds, their range):")
        print("outbox rows' mean bytes, all kinds: " + ", ".join(
            f"{status} {b:.0f}" for status, b in storage["outbox_row_bytes"].items()))
        for kind, s in storage.items():
            if kind == "outbox_row_bytes":
                continue
            print(f"\n{kind}: {s['games']} games, {s['moves_a_game']:.1f} moves and "
                  f"{s['events_a_game']:.1f} events a game")
            print(f"  event log: {s['event_bytes_an_event']:.0f} B an event (heap "
                  f"{s['event_heap_bytes_an_event']:.0f}, indexes "
                  f"{s['event_index_bytes_an_event']:.0f}, TOAST "
                  f"{s['event_toast_bytes_an_event']:.0f}); rounds "
                  f"{spread(s['rounds_bytes_an_event'], 0)}")
            print(f"  all tables: {s['bytes_a_game'] / 1024:.1f} kB a finished game; rounds "
                  f"{spread([b / 1024 for b in s['rounds_bytes_a_game']], 1)} kB")
            print("    " + ", ".join(f"{name} {b / 1024:.1f}" for name, b in
                                     s["tables_bytes_a_game"].items()) + " (kB a game)")
            mails: dict[str, int] = {}
            for r in s["rounds"]:
                for status, n in r["mails"].items():
                    mails[status] = mails.get(status, 0) + n
            print("  outbox rows a game: " + ", ".join(
                f"{n / s['games']:.1f} {status}" for status, n in sorted(mails.items())))
            print(f"  archived as its record: {s['record_bytes_a_game'] / 1024:.1f} kB of JSON, "
                  f"{s['record_xz_bytes_a_game'] / 1024:.2f} kB compressed with xz (mean)")
            print(f"  PostgreSQL CPU: {spread(s['rounds_db_ms_a_move'], 3)} ms a move (POST), "
                  f"{spread(s['rounds_db_ms_a_get'], 3)} ms a GET; "
                  f"{spread(s['rounds_moves_a_db_core_second'], 0)} moves a database "
                  "core-second")
    sync = result.get("sync")
    if sync:
        print(f"\nSynchronous replication: {sync['rounds']} alternating rounds of "
              f"{sync['moves_a_round']} sequential Marram moves (median POST wall time a round)")
        print(f"  async {spread(sync['async_ms'])} ms, sync {spread(sync['sync_ms'])} ms; "
              f"sync - async {spread(sync['extra_ms'], 3)} ms; ratio "
              f"{spread(sync['ratios'])}")
        print(f"  a round trip to the standby over the bridge (TCP connect, median): "
              f"{sync['loopback_rtt_ms']:.3f} ms")
    print(f"\nload average before/after: {result['load_before']} / {result['load_after']}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=20, help="games of each kind a round")
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--sync-rounds", type=int, default=6)
    parser.add_argument("--sync-moves", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-storage", action="store_true")
    parser.add_argument("--no-sync", action="store_true")
    parser.add_argument("--json", action="store_true", help="the figures as JSON on stdout")
    args = parser.parse_args()
    testservices.raise_on_sigterm()  # stopped, it stops what it started
    if os.geteuid() != 0:
        raise SystemExit("needs root: a cgroup, and hosts in network namespaces")
    for kind in args.kinds.split(","):
        if kind not in KINDS:
            raise SystemExit(f"unknown kind {kind!r}; known: {', '.join(KINDS)}")
    result: dict[str, Any] = {"load_before": Path("/proc/loadavg").read_text().split()[:3]}
    if not args.no_sync:
        result["sync"] = synchronous_replication(args)
    if not args.no_storage:
        result["storage"] = storage_and_cpu(args)
    result["load_after"] = Path("/proc/loadavg").read_text().split()[:3]
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        report(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
