"""More than one machine, for real: the production shape built of hosts in network
namespaces (hosts_kit), every part a real one, bound to its host's address:

- a database host: PostgreSQL, the primary, with synchronous replication to
- a standby host: a streaming replica made with pg_basebackup;
- the deployment's two roles (deploy/postgres/roles.sql): the tables' owner
  migrates and grants the app's role its privileges (grant_app_role), and the
  application hosts connect as the app's role, which owns nothing;
- on each database host, Debian's PgBouncer in transaction mode in front of its
  PostgreSQL; the application connects to both poolers at once
  (``host=db,standby`` with ``target_session_attrs=read-write``);
- a cache host: Redis (Celery's queue and the throttles' counts);
- two application hosts: each a granian web server, a Celery worker (restarted
  when it exits, as a supervisor would) and beat (the schedule run by the one
  holding beat's lock, marram_site.beat);
- a proxy host: nginx over both web servers;
- the test's own namespace: the players (clients through nginx) and the SMTP
  server that collects the mail.

The scenarios share the one shape (module scope) and each leaves it serving:
the primary killed under a steady load of moves and the standby promoted; an
application host lost, with a mail its worker was inside the send of; Redis
lost and back; an application host cut from the database hosts for 30 s. Each
checks what a player would see (the answers), what the
database holds after (every game replays to its stored outcome, no seq missing,
every acknowledged move there once) and the mail (each sent once).
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import os
import re
import shlex
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import pytest
from aiosmtpd.controller import Controller

from tests.service import hosts_kit
from tests.service.hosts_kit import Cluster, Host, Network, Pooler, Process, Redis
from tests.service.proxy_kit import ROOT, nginx, web_server
from tests.service.test_celery_worker import Collector

pytestmark = pytest.mark.long

GAMES_EACH = 6
"""Games each scenario plays at once (two players each), a client thread a game."""
THINK_SECONDS = 0.3
"""How long a client waits between two moves of its game: a steady load (about 15
moves a second in all) under which a Marram game, about 100 moves, outlasts a
scenario."""
PARTITION_SECONDS = float(os.environ.get("MARRAM_HOSTS_PARTITION_SECONDS", "30"))
"""How long an application host is cut from the database hosts."""
CONNECT_SECONDS = 2
"""The connection string's connect_timeout, a database host each (app_env)."""
REFUSED_WITHIN = 2 * CONNECT_SECONDS + 1.0
"""The longest a request to a host cut from the database may wait for its 503:
one connection attempt, to the two database hosts in turn (each CONNECT_SECONDS,
longer than a kept connection's tcp_user_timeout of 3 s), and a second for the
rest. Only the request that tries the database pays for it; the others are
refused at once (web.database_out), however long the cut lasts."""
WEB_PORT = 8000
PROXY_PORT = 80
ANSWER_SECONDS = 30.0


class Mailbox(Collector):
    """The SMTP server that collects the mail; with ``hold_from`` an address, each
    message from there is kept waiting in DATA (its sender inside the send) until
    ``release``, then refused, as its sender is gone by then."""

    def __init__(self) -> None:
        super().__init__()
        self.hold_from: str | None = None
        self.held = 0

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if self.hold_from is None or session.peer[0] != self.hold_from:
            return await super().handle_DATA(server, session, envelope)
        self.held += 1
        while not self.release.is_set():
            await asyncio.sleep(0.02)
        return "451 4.3.0 The sender went away"


@dataclass
class Shape:
    net: Network
    workdir: Path
    primary: Cluster
    standby: Cluster
    poolers: dict[str, Pooler]
    redis: Redis
    mailbox: Mailbox
    proxy: Host
    apps: dict[str, Host]
    env: dict[str, str]
    games: list[dict[str, Any]]
    processes: dict[str, Any] = field(default_factory=dict)

    @property
    def writer(self) -> Cluster:
        """The cluster that takes writes now."""
        return self.standby if self.processes.get("promoted") else self.primary

    def query(self, statement: str, *params: Any) -> list[tuple[Any, ...]]:
        """A read of the database that takes writes, straight from the test's
        namespace (not through a pooler)."""
        with psycopg.connect(self.writer.url(), connect_timeout=5) as conn:
            return conn.execute(statement, params).fetchall()

    def take_games(self, count: int) -> list[dict[str, Any]]:
        taken, self.games = self.games[:count], self.games[count:]
        assert len(taken) == count, "the shape made too few games for its scenarios"
        return taken


def keep_logs(workdir: Path) -> None:
    """Every host's logs copied to MARRAM_HOSTS_LOGS (a directory), if it is set:
    the shape's own directory goes with it."""
    target = os.environ.get("MARRAM_HOSTS_LOGS")
    if not target:
        return
    for log in workdir.rglob("*.log"):
        copy = Path(target) / log.relative_to(workdir)
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_bytes(log.read_bytes())


def manage(env: dict[str, str], *args: str) -> str:
    result = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return result.stdout


MAKE_GAMES = """
import json
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from games import services
from games.models import Seat
made = []
for number in range({count}):
    users = [get_user_model().objects.create_user(
        f"p{{number}}{{side}}", email=f"p{{number}}{{side}}@example.org", password="x" * 12)
        for side in "ab"]
    game = services.game_create(user=users[0], game="marram", seats=2)
    services.game_join(game=game, user=users[1])
    tokens = {{str(seat.index): Token.objects.get_or_create(user=seat.user)[0].key
              for seat in Seat.objects.filter(game=game)}}
    made.append({{"id": game.pk, "tokens": tokens}})
print(json.dumps(made))
"""


def app_env(net: Network, apps: dict[str, Host], proxy: Host, db: Host, standby: Host,
            redis: Redis, smtp_port: int) -> dict[str, str]:
    """Every application host's settings: the same on each, naming no host but by
    its address (docs/operations.md)."""
    env = {name: value for name, value in os.environ.items()
           if not name.startswith(("DATABASE_", "REDIS_", "CACHE_", "DJANGO_", "MARRAM_"))}
    env.update({
        "DJANGO_SETTINGS_MODULE": "marram_site.settings_production",
        "DJANGO_SECRET_KEY": "hosts-test-only-" + uuid.uuid4().hex,
        "DJANGO_ALLOWED_HOSTS": ",".join([proxy.address, *(a.address for a in apps.values())]),
        "DJANGO_LOG_LEVEL": "WARNING",
        # both database hosts' poolers: whichever takes writes (docs/operations.md)
        # as the role that owns nothing (deploy/postgres/roles.sql)
        "DATABASE_URL": (f"postgres://{hosts_kit.APP}@{db.back},{standby.back}:"
                         f"{hosts_kit.POOLER_PORT}/{hosts_kit.DATABASE}"
                         f"?target_session_attrs=read-write&connect_timeout={CONNECT_SECONDS}"
                         # a kept connection whose host went silent fails in 3 s:
                         # what it sent unacknowledged for 3 s, or, waiting on an
                         # answer with nothing unacknowledged (a statement sent just
                         # before the cut), its keepalives unanswered for 3 s
                         "&tcp_user_timeout=3000&keepalives_idle=1&keepalives_interval=1"),
        "DATABASE_PREPARE_THRESHOLD": "0",
        "DATABASE_CONN_MAX_AGE": "60",
        "REDIS_URL": redis.url(0),
        "CACHE_URL": redis.url(1),
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "MARRAM_DRAW_INLINE": "0",
        "EMAIL_HOST": net.own_front, "EMAIL_PORT": str(smtp_port), "EMAIL_USE_TLS": "0",
        "MARRAM_TRUSTED_PROXIES": proxy.address,
        "MARRAM_WEB_WORKERS": "1", "MARRAM_WEB_THREADS": "2",
        "MARRAM_WEB_ACCESS_LOG": "1",
        # a lost worker's task handed out again after 5 s, not 300; beat's lock
        # taken over 3 s after its holder is lost, not 30 (marram_site.beat)
        "MARRAM_TASK_VISIBILITY_TIMEOUT": "5",
        "MARRAM_BEAT_LOCK_SECONDS": "3",
        "PYTHONUNBUFFERED": "1",
    })
    return env


def start_app(shape: Shape, name: str, stack: contextlib.ExitStack, *,
              beat: bool = True) -> None:
    """An application host's processes: the web server, a worker and beat (which
    runs the schedule on one host at a time, marram_site.beat)."""
    host = shape.apps[name]
    web = stack.enter_context(web_server(shape.workdir, name=name, env=shape.env,
                                         address=host.address, port=WEB_PORT,
                                         prefix=host.argv([])))
    assert web == WEB_PORT
    # started again when it exits, as docker-compose's restart policy does: a worker
    # exits when Redis goes away under it (docs/operations.md)
    command = shlex.join([sys.executable, "-m", "celery", "-A", "marram_site", "worker", "-l",
                          "info", "-n", f"worker@{name}", "-Q", "celery,webhooks,push",
                          "--concurrency", "2", "--without-gossip", "--without-mingle"])
    worker = Process(host, ["sh", "-c", f"while :; do {command}; sleep 0.5; done"],
                     shape.env, shape.workdir / f"{name}-worker.log", ROOT).start("ready.")
    stack.callback(worker.stop)
    shape.processes[f"{name}-worker"] = worker
    if beat:
        start_beat(shape, name, stack)


def start_beat(shape: Shape, name: str, stack: contextlib.ExitStack) -> None:
    host = shape.apps[name]
    beat = Process(host, [sys.executable, "-m", "celery", "-A", "marram_site", "beat", "-l",
                          "info", f"--schedule={shape.workdir / f'{name}-beat-schedule'}"],
                   shape.env, shape.workdir / f"{name}-beat.log", ROOT).start("beat: Starting")
    stack.callback(beat.stop)
    shape.processes[f"{name}-beat"] = beat


@pytest.fixture(scope="module")
def shape() -> Iterator[Shape]:
    with contextlib.ExitStack() as stack:
        net = stack.enter_context(hosts_kit.network())
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(
            prefix="marram-hosts-", dir="/tmp")))
        workdir.chmod(0o755)  # the clusters' owner and nginx's workers enter it
        stack.callback(keep_logs, workdir)
        began = time.monotonic()
        proxy = net.add("proxy", 10, front=True, back=False)
        apps = {"app1": net.add("app1", 11, front=True, back=True),
                "app2": net.add("app2", 12, front=True, back=True)}
        cache = net.add("cache", 20, front=True, back=False)
        db = net.add("db", 30, front=False, back=True)
        standby_host = net.add("standby", 31, front=False, back=True)

        collector = Mailbox()
        with socket.socket() as probe:
            probe.bind((net.own_front, 0))
            smtp_port = probe.getsockname()[1]
        controller = Controller(collector, hostname=net.own_front, port=smtp_port)
        controller.start()
        stack.callback(controller.stop)

        primary = Cluster(db, workdir, "primary")
        primary.initdb()
        primary.start()
        primary.sql(f"CREATE DATABASE {hosts_kit.DATABASE}", "postgres")
        primary.make_roles()
        standby = Cluster(standby_host, workdir, "standby")
        standby.basebackup(primary)
        standby.start()
        # a commit returns once the standby has the WAL that makes it (docs/operations.md)
        primary.sql("ALTER SYSTEM SET synchronous_standby_names = 'standby'")
        primary.sql("SELECT pg_reload_conf()")
        deadline = time.monotonic() + 30
        while primary.sql("SELECT sync_state FROM pg_stat_replication "
                          "WHERE application_name = 'standby'") != "sync":
            assert time.monotonic() < deadline, "the standby did not become synchronous"
            time.sleep(0.1)

        redis = Redis(cache, workdir)
        redis.start()
        stack.callback(redis.stop)
        # migrated as the tables' owner, straight to the primary, and the app's role
        # given its privileges, as docker-compose's migrate service does
        # (docs/operations.md); the games made as the app; their first mail waits
        # in the shape's queue for its workers
        direct = {**os.environ, "DATABASE_URL": primary.url(user=hosts_kit.OWNER),
                  "REDIS_URL": redis.url(0), "CELERY_TASK_ALWAYS_EAGER": "0",
                  "DJANGO_SETTINGS_MODULE": "marram_site.settings"}
        direct.pop("DJANGO_ENV", None)
        manage(direct, "migrate", "--no-input", "-v", "0")
        manage(direct, "grant_app_role", hosts_kit.APP)
        count = GAMES_EACH * 4
        made = json.loads(manage({**direct, "DATABASE_URL": primary.url(user=hosts_kit.APP)},
                                 "shell", "-c", MAKE_GAMES.format(count=count))
                          .strip().splitlines()[-1])

        made_at = time.monotonic()
        poolers = {"db": Pooler(db, workdir, primary), "standby": Pooler(standby_host, workdir,
                                                                         standby)}
        for pooler in poolers.values():
            pooler.start()

        env = app_env(net, apps, proxy, db, standby_host, redis, smtp_port)
        found = Shape(net, workdir, primary, standby, poolers, redis, collector, proxy, apps,
                      env, made)
        found.processes["stack"] = stack
        for name in apps:
            found.processes[f"{name}-stack"] = stack.enter_context(contextlib.ExitStack())
        # both hosts' processes started at once; app1's beat first, so that it holds
        # the lock (the host-lost scenario loses app1)
        with ThreadPoolExecutor(2) as pool:
            for started in [pool.submit(start_app, found, name, found.processes[f"{name}-stack"],
                                        beat=name == "app1") for name in apps]:
                started.result()
        wait_for_line(found, "app1-beat", "holds the lock: running")
        start_beat(found, "app2", found.processes["app2-stack"])
        stack.enter_context(nginx(workdir, [f"{a.address}:{WEB_PORT}" for a in apps.values()],
                                  address=proxy.address, port=PROXY_PORT,
                                  prefix=proxy.argv([])))
        mail_once(found, made)  # the games' first mail, sent before the scenarios start
        report("shape", databases_migrated_and_games_made_s=round(made_at - began, 1),
               applications_started_s=round(time.monotonic() - made_at, 1))
        yield found


# ---------------------------------------------------------------- the players


def call(shape: Shape, token: str, method: str, path: str,
         body: dict[str, Any] | None = None) -> tuple[int, dict[str, str], Any]:
    """A request through nginx, as a player's client behind a TLS proxy makes it."""
    conn = http.client.HTTPConnection(shape.proxy.address, PROXY_PORT, timeout=ANSWER_SECONDS)
    try:
        headers = {"X-Forwarded-Proto": "https", "Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Token {token}"
        conn.request(method, path, body=None if body is None else json.dumps(body),
                     headers=headers)
        answer = conn.getresponse()
        raw = answer.read()
        headers = {k.lower(): v for k, v in answer.getheaders()}
        try:
            parsed = json.loads(raw or b"null")
        except ValueError:
            parsed = raw.decode(errors="replace")[:300]
        return answer.status, headers, parsed
    finally:
        conn.close()


@dataclass
class Load:
    """A client thread a game, each playing its game's first legal action in turn
    through nginx, as fast as the answers come; a move not answered (a 503, a
    broken connection) is sent again with the same idempotency key until it is."""

    shape: Shape
    games: list[dict[str, Any]]
    think: float = THINK_SECONDS
    acknowledged: dict[str, tuple[int, list[int], float, float]] = field(default_factory=dict)
    """idempotency key -> (game, the seqs of its events, when the request that was
    answered was sent, when its answer came)"""
    refused: list[tuple[float, int, dict[str, str], Any]] = field(default_factory=list)
    """(when, status, headers, body) of every answer that was not a success"""
    waits: list[float] = field(default_factory=list)
    """how long each of those took to come"""
    broken: list[tuple[float, str]] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    """what went wrong in a client thread (an unexpected answer)"""
    stopping: threading.Event = field(default_factory=threading.Event)
    threads: list[threading.Thread] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def start(self) -> Load:
        for game in self.games:
            thread = threading.Thread(target=self.play, args=(game,), daemon=True)
            thread.start()
            self.threads.append(thread)
        return self

    def stop(self) -> None:
        self.stopping.set()
        for thread in self.threads:
            thread.join(timeout=120)
        assert not any(thread.is_alive() for thread in self.threads), "a client never finished"
        assert not self.failed, self.failed

    def moves(self) -> int:
        with self.lock:
            return len(self.acknowledged)

    def answered(self, method: str, path: str, token: str,
                 body: dict[str, Any] | None = None) -> tuple[int, Any, float]:
        """The first answer that is not an outage's, asking again until then; when
        the request so answered was sent."""
        while True:
            sent = time.monotonic()
            try:
                status, headers, answer = call(self.shape, token, method, path, body)
            except OSError as error:
                with self.lock:
                    self.broken.append((time.monotonic(), repr(error)))
                time.sleep(0.2)
                continue
            if status < 500:
                return status, answer, sent
            with self.lock:
                self.refused.append((time.monotonic(), status, headers, answer))
                self.waits.append(time.monotonic() - sent)
            time.sleep(0.2)

    def play(self, game: dict[str, Any]) -> None:
        try:
            self.play_on(game)
        except Exception as error:  # the test's thread reports it (stop)
            with self.lock:
                self.failed.append(f"game {game['id']}: {error!r}")

    def play_on(self, game: dict[str, Any]) -> None:
        path = f"/api/games/{game['id']}/"
        tokens = game["tokens"]
        while not self.stopping.is_set():
            turn = None
            for seat in sorted(tokens):
                status, view, _ = self.answered("GET", path, tokens[seat])
                assert status == 200, view
                if view["status"] != "running":
                    return
                if view["legal_actions"]:
                    turn = seat, view
                    break
            if turn is None:  # a chance event the worker has yet to draw
                time.sleep(0.05)
                continue
            seat, view = turn
            action = dict(view["legal_actions"][0])
            action.pop("player", None)
            key = f"g{game['id']}-s{view['seq']}"
            status, answer, sent = self.answered(
                "POST", path + "actions/", tokens[seat],
                {"seq": view["seq"], "action": action, "idempotency_key": key})
            assert status in (200, 201), (status, answer)
            with self.lock:
                self.acknowledged[key] = (game["id"], [e["seq"] for e in answer["events"]],
                                          sent, time.monotonic())
            self.stopping.wait(self.think)

    def wait_for_moves(self, count: int, timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        while self.moves() < count:
            assert time.monotonic() < deadline, f"only {self.moves()} moves of {count}"
            assert any(t.is_alive() for t in self.threads), f"every client stopped: {self.failed}"
            time.sleep(0.05)


OUTAGE_CODES = {503: "database_unavailable", 502: "server_lost"}
"""What a client may be answered in an outage: the web server's 503 while the
database is out, nginx's 502 for a request a lost web server had taken."""


def outages_were_clear(refused: list[tuple[float, int, dict[str, str], Any]],
                       allowed: tuple[int, ...] = (503,)) -> None:
    """Every refusal one of ``allowed``, with Retry-After and the API's JSON; never
    a 500 page."""
    for _, status, headers, body in refused:
        assert status in allowed, (status, body)
        assert int(headers["retry-after"]) > 0, headers
        assert isinstance(body, dict) and body["code"] == OUTAGE_CODES[status], body


CHECK_GAMES = """
import json
from games.management.commands.verify_game import game_problems
from games.models import Game
print(json.dumps({{pk: game_problems(Game.objects.get(pk=pk)) for pk in {ids}}}))
"""


def games_sound(shape: Shape, games: list[dict[str, Any]], load: Load) -> None:
    """Every game replays to its stored outcome with no seq missing (verify_game's
    checks, on the database that takes writes), and holds each acknowledged move
    once and no move that was not acknowledged."""
    direct = {**os.environ, "DATABASE_URL": shape.writer.url(user=hosts_kit.APP),
              "DJANGO_SETTINGS_MODULE": "marram_site.settings"}
    direct.pop("DJANGO_ENV", None)
    ids = [game["id"] for game in games]
    problems = json.loads(manage(direct, "shell", "-c", CHECK_GAMES.format(ids=ids))
                          .strip().splitlines()[-1])
    assert problems == {str(pk): [] for pk in ids}
    rows = shape.query("SELECT idempotency_key, game_id, seq FROM games_event "
                       "WHERE game_id = ANY(%s) AND actor_id IS NOT NULL", ids)
    logged = Counter(key for key, _, _ in rows)
    assert set(logged) == set(load.acknowledged), (
        sorted(set(load.acknowledged) - set(logged)), sorted(set(logged) - set(load.acknowledged)))
    assert set(logged.values()) == {1}
    by_key = {key: (game, seq) for key, game, seq in rows}
    for key, (game, seqs, _, _) in load.acknowledged.items():
        assert by_key[key] == (game, seqs[0]), key


def mail_once(shape: Shape, games: list[dict[str, Any]]) -> int:
    """Once every mail row of the games is settled: each one sent reached the SMTP
    server exactly once; the count of them."""
    ids = [game["id"] for game in games]
    deadline = time.monotonic() + 90
    while pending := shape.query(
            "SELECT id, kind, attempts, next_attempt_at - now(), note "
            "FROM notifications_notification WHERE game_id = ANY(%s) AND status = 'pending'",
            ids):
        assert time.monotonic() < deadline, f"mail still pending: {pending}"
        time.sleep(0.2)
    sent = [message_id for (message_id,) in shape.query(
        "SELECT message_id FROM notifications_notification "
        "WHERE game_id = ANY(%s) AND status = 'sent'", ids)]
    received = Counter(message["Message-ID"] for message in shape.mailbox.messages)
    assert [received[message_id] for message_id in sent] == [1] * len(sent)
    return len(sent)


def report(name: str, **figures: Any) -> None:
    """Figures for docs/operations.md, in the test's output."""
    print(f"\n[hosts] {name}: " + ", ".join(f"{k}={v}" for k, v in figures.items()))


# ---------------------------------------------------------------- the scenarios


def test_the_primary_killed_under_load_the_standby_takes_over_and_nothing_acknowledged_is_lost(
        shape):
    games = shape.take_games(GAMES_EACH)
    load = Load(shape, games).start()
    try:
        load.wait_for_moves(30)
        served = posts_served(shape, "app1"), posts_served(shape, "app2")
        before = load.moves()
        killed = time.monotonic()
        shape.net.hosts["db"].kill()
        shape.standby.promote()
        shape.processes["promoted"] = True
        promoted = time.monotonic()
        # PgBouncer 1.18 hands every client the parameters its first server
        # connection reported (in_hot_standby among them): the new primary's pooler
        # is restarted with the promotion, or it goes on saying "read-only"
        shape.poolers["standby"].restart()
        load.wait_for_moves(before + 30)
    finally:
        load.stop()
    # the first move sent after the kill that was accepted
    first = min(answered for _, _, sent, answered in load.acknowledged.values() if sent > killed)
    assert min(served) > 0, served  # moves from both application hosts
    report("failover", moves_acknowledged=len(load.acknowledged), posts_by_host=served,
           moves_before_kill=before, refused=Counter(status for _, status, _, _ in load.refused),
           kill_to_promoted_s=round(promoted - killed, 2),
           kill_to_first_accepted_move_s=round(first - killed, 2))
    outages_were_clear(load.refused)
    assert not load.broken, load.broken[:5]
    games_sound(shape, games, load)
    report("failover", mails_sent=mail_once(shape, games))


def posts_served(shape: Shape, name: str, status: str = "") -> int:
    """Moves the web server of application host ``name`` has answered (its access
    log), those answered ``status`` if given."""
    log = (shape.workdir / f"{name}.log").read_text(errors="replace")
    return sum(1 for line in log.splitlines()
               if '"POST /api/games/' in line and f'" {status}' in line)


def log_of(shape: Shape, name: str) -> str:
    return (shape.workdir / f"{name}.log").read_text(errors="replace")


def wait_for_line(shape: Shape, name: str, line: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while line not in log_of(shape, name):
        assert time.monotonic() < deadline, f"no {line!r} in {name}'s log"
        time.sleep(0.1)


def restart_app(shape: Shape, name: str) -> None:
    """The host's processes started again (its machine back)."""
    shape.processes.pop(f"{name}-stack").close()
    app_stack = shape.processes["stack"].enter_context(contextlib.ExitStack())
    start_app(shape, name, app_stack)
    shape.processes[f"{name}-stack"] = app_stack


QUEUE_MAIL = """
from django.db import transaction
from games.models import Seat
from notifications import jobs
from notifications.models import Notification
from notifications.services import notifications_queue
rows = [Notification(user=seat.user, game_id=seat.game_id, kind="game_started",
                     dedup_key=f"{tag}:{{seat.game_id}}:{{seat.index}}",
                     subject="Your game goes on", body_text="It goes on.")
        for seat in Seat.objects.filter(game_id__in={ids}).select_related("user")]
with transaction.atomic():
    pks = notifications_queue(rows)
for pk in pks:
    jobs.notification_deliver.delay(pk)
"""


def queue_mail(shape: Shape, games: list[dict[str, Any]], tag: str) -> None:
    """A mail to each player of ``games`` in the outbox, each with a task of its
    own that delivers it (as the sweep enqueues them), so that both hosts'
    workers take some."""
    direct = {**os.environ, "DATABASE_URL": shape.writer.url(user=hosts_kit.APP),
              "REDIS_URL": shape.redis.url(0),
              "CELERY_TASK_ALWAYS_EAGER": "0", "DJANGO_SETTINGS_MODULE": "marram_site.settings"}
    direct.pop("DJANGO_ENV", None)
    manage(direct, "shell", "-c", QUEUE_MAIL.format(tag=tag, ids=[game["id"] for game in games]))


TASK_ID = r"\[([0-9a-f-]{36})\]"


def unfinished(log: str) -> list[str]:
    """The tasks the worker whose log this is took and has not finished (running,
    or reserved for later: unacknowledged either way)."""
    received = re.findall(TASK_ID + " received", log)
    done = set(re.findall(TASK_ID + " (?:succeeded|failed|retry|raised)", log))
    return [task for task in dict.fromkeys(received) if task not in done]


def test_an_application_host_lost_under_load_nginx_routes_around_it_and_beat_goes_on(shape):
    """... and the tasks its worker was running, a mail inside its send among them,
    are handed to the other host's worker once their visibility timeout is over:
    each mail reaches the SMTP server once."""
    name = "app1"  # beat's holder (its beat started first)
    games = shape.take_games(GAMES_EACH)
    load = Load(shape, games).start()
    try:
        load.wait_for_moves(20)
        assert "holds the lock: running" in log_of(shape, "app1-beat")
        assert "waits: another beat holds the lock" in log_of(shape, "app2-beat")
        served = posts_served(shape, "app1"), posts_served(shape, "app2")
        assert min(served) > 0, served  # nginx spreads the moves over both
        # app1's mail held in the SMTP server's DATA: its worker inside the send,
        # inside the transaction that locks the mail's row
        shape.mailbox.hold_from = shape.apps[name].front
        since = len(log_of(shape, f"{name}-worker"))
        for batch in range(2):
            queue_mail(shape, games, f"lost{batch}")
            deadline = time.monotonic() + 10
            while not (shape.mailbox.held and unfinished(
                    log_of(shape, f"{name}-worker")[since:])):
                if time.monotonic() > deadline:
                    break
                time.sleep(0.1)
            else:
                break
        assert shape.mailbox.held, "app1's worker sent none of the mail"
        before = load.moves()
        held = unfinished(log_of(shape, f"{name}-worker")[since:])
        assert held, "app1's worker holds no task"
        seen = len(log_of(shape, "app2-worker"))
        killed = time.monotonic()
        shape.apps[name].kill()  # its web server, worker and beat at once
        # the tasks it had taken, unacknowledged, handed to app2's worker (the
        # visibility timeout)
        deadline = killed + 60
        while waiting := [task for task in held if f"[{task}] received"
                          not in log_of(shape, "app2-worker")[seen:]]:
            assert time.monotonic() < deadline, f"{waiting} never handed to app2"
            time.sleep(0.1)
        redelivered = time.monotonic() - killed
        load.wait_for_moves(before + 20)
        # beat's holder lost: app2's takes the lock and runs the schedule
        deadline = time.monotonic() + 30
        while "Sending due task outbox-sweep" not in log_of(shape, "app2-beat").partition(
                "holds the lock: running")[2]:
            assert time.monotonic() < deadline, log_of(shape, "app2-beat")[-2000:]
            time.sleep(0.1)
        taken_over = time.monotonic() - killed
    finally:
        shape.mailbox.hold_from = None
        shape.mailbox.release.set()
        try:
            load.stop()
        finally:
            restart_app(shape, name)  # its machine back, for the other scenarios
    report("host lost", lost=name, moves_acknowledged=len(load.acknowledged),
           moves_before_kill=before, refused=Counter(status for _, status, _, _ in load.refused),
           posts_app1=served[0], posts_app2=served[1], kill_to_beat_taken_over_s=round(
               taken_over, 2), mails_held_in_send=shape.mailbox.held, tasks_redelivered=len(held),
           kill_to_tasks_redelivered_s=round(redelivered, 2))
    outages_were_clear(load.refused, allowed=(502, 503))
    assert not load.broken, load.broken[:3]
    games_sound(shape, games, load)
    report("host lost", mails_sent=mail_once(shape, games))
    # the mail app1 was sending went, once (mail_once), with every other queued
    assert shape.query("SELECT DISTINCT status FROM notifications_notification "
                       "WHERE dedup_key LIKE %s", "lost%") == [("sent",)]


def test_redis_lost_and_back_empty_loses_nothing_of_a_game(shape):
    games = shape.take_games(GAMES_EACH)
    load = Load(shape, games).start()
    try:
        load.wait_for_moves(10)
        shape.redis.stop()  # the queue and the cache with it
        lost = time.monotonic()
        try:
            before = load.moves()
            load.wait_for_moves(before + 10)  # moves go on without Redis
            during = load.moves() - before
            # what counts requests counts in each process meanwhile: answered
            status, _, answer = call(shape, "", "POST", "/api/auth/token/",
                                     {"username": "p0a", "password": "x" * 12})
            assert status == 200 and answer["token"], answer
        finally:
            shape.redis.start()  # empty
        back = time.monotonic()
        after = load.moves()
        load.wait_for_moves(after + 10)
        # what waited for a task while Redis was out is swept: the chance draws
        # (every game moves again) and the mail (below)
        deadline = time.monotonic() + 60
        while {game for game, _, _, answered in list(load.acknowledged.values())
               if answered > back} != {game["id"] for game in games}:
            assert time.monotonic() < deadline, "a game was left waiting for its draw"
            time.sleep(0.1)
    finally:
        load.stop()
    report("redis lost", moves_acknowledged=len(load.acknowledged),
           moves_while_out=during, out_s=round(back - lost, 1),
           refused=Counter(status for _, status, _, _ in load.refused))
    assert not load.refused and not load.broken, (load.refused[:3], load.broken[:3])
    games_sound(shape, games, load)
    report("redis lost", mails_sent=mail_once(shape, games))


def test_an_application_host_cut_from_the_database_fails_fast_and_recovers_by_itself(shape):
    cut = shape.apps["app2"]
    games = shape.take_games(GAMES_EACH)
    load = Load(shape, games).start()
    try:
        load.wait_for_moves(10)
        cut.cut("back")
        before = load.moves()
        load.stopping.wait(PARTITION_SECONDS)  # the load goes on meanwhile
        during = load.moves() - before
        cut.mend("back")
        mended = time.monotonic()
        served = posts_served(shape, "app2", status="201")
        deadline = time.monotonic() + 60
        while posts_served(shape, "app2", status="201") == served:
            assert time.monotonic() < deadline, "app2 never took a move again"
            time.sleep(0.1)
        recovered = time.monotonic() - mended
        load.wait_for_moves(load.moves() + 10)
    finally:
        cut.mend("back")
        load.stop()
    waits = sorted(load.waits)
    report("partition", seconds=PARTITION_SECONDS, moves_acknowledged=len(load.acknowledged),
           moves_while_cut=during,
           refused=Counter(status for _, status, _, _ in load.refused),
           median_refusal_s=round(waits[len(waits) // 2], 3) if waits else None,
           refusals_over_1s=sum(1 for wait in waits if wait > 1),
           slowest_refusal_s=round(max(waits, default=0.0), 2),
           mended_to_app2_moving_s=round(recovered, 2))
    outages_were_clear(load.refused)
    assert load.refused, "app2 was asked nothing while it was cut off"
    assert max(waits) <= REFUSED_WITHIN, waits[-10:]
    assert not load.broken, load.broken[:3]
    games_sound(shape, games, load)
    report("partition", mails_sent=mail_once(shape, games))
