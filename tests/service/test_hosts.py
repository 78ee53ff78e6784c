"""More than one machine, for real: the production shape built of hosts in network
namespaces (hosts_kit), every part a real one, bound to its host's address:

- a database host: PostgreSQL, the primary, with synchronous replication to
- a standby host: a streaming replica made with pg_basebackup;
- on each database host, Debian's PgBouncer in transaction mode in front of its
  PostgreSQL; the application connects to both poolers at once
  (``host=db,standby`` with ``target_session_attrs=read-write``);
- a cache host: Redis (Celery's queue and the throttles' counts);
- two application hosts: each a granian web server and a Celery worker, beat on
  the first only;
- a proxy host: nginx over both web servers;
- the test's own namespace: the players (clients through nginx) and the SMTP
  server that collects the mail.

The scenarios share the one shape (module scope) and each leaves it serving:
the primary killed under a steady load of moves and the standby promoted; an
application host lost; Redis lost and back; an application host cut from the
database hosts. Each checks what a player would see (the answers), what the
database holds after (every game replays to its stored outcome, no seq missing,
every acknowledged move there once) and the mail (each sent once).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
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

GAMES_EACH = 6
"""Games each scenario plays at once (two players each), a client thread a game."""
WEB_PORT = 8000
PROXY_PORT = 80
ANSWER_SECONDS = 30.0


@dataclass
class Shape:
    net: Network
    workdir: Path
    primary: Cluster
    standby: Cluster
    poolers: dict[str, Pooler]
    redis: Redis
    mailbox: Collector
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
        "DATABASE_URL": (f"postgres://{hosts_kit.USER}@{db.back},{standby.back}:"
                         f"{hosts_kit.POOLER_PORT}/{hosts_kit.DATABASE}"
                         "?target_session_attrs=read-write&connect_timeout=2"),
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
        "PYTHONUNBUFFERED": "1",
    })
    return env


def start_app(shape: Shape, name: str, stack: contextlib.ExitStack) -> None:
    """An application host's processes: the web server, a worker and, on app1, beat."""
    host = shape.apps[name]
    web = stack.enter_context(web_server(shape.workdir, name=name, env=shape.env,
                                         address=host.address, port=WEB_PORT,
                                         prefix=host.argv([])))
    assert web == WEB_PORT
    worker = Process(host, [sys.executable, "-m", "celery", "-A", "marram_site", "worker",
                            "-l", "info", "-n", f"worker@{name}", "-Q", "celery,webhooks,push",
                            "--concurrency", "2", "--without-gossip", "--without-mingle"],
                     shape.env, shape.workdir / f"{name}-worker.log", ROOT).start("ready.")
    stack.callback(worker.stop)
    shape.processes[f"{name}-worker"] = worker
    if name == "app1":
        beat = Process(host, [sys.executable, "-m", "celery", "-A", "marram_site", "beat",
                              "-l", "info", f"--schedule={shape.workdir / 'beat-schedule'}"],
                       shape.env, shape.workdir / "beat.log", ROOT).start("beat: Starting")
        stack.callback(beat.stop)
        shape.processes["beat"] = beat


@pytest.fixture(scope="module")
def shape() -> Iterator[Shape]:
    with contextlib.ExitStack() as stack:
        net = stack.enter_context(hosts_kit.network())
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(
            prefix="marram-hosts-", dir="/tmp")))
        workdir.chmod(0o755)  # the clusters' owner and nginx's workers enter it
        proxy = net.add("proxy", 10, front=True, back=False)
        apps = {"app1": net.add("app1", 11, front=True, back=True),
                "app2": net.add("app2", 12, front=True, back=True)}
        cache = net.add("cache", 20, front=True, back=False)
        db = net.add("db", 30, front=False, back=True)
        standby_host = net.add("standby", 31, front=False, back=True)

        collector = Collector()
        with socket.socket() as probe:
            probe.bind((net.own_front, 0))
            smtp_port = probe.getsockname()[1]
        controller = Controller(collector, hostname=net.own_front, port=smtp_port)
        controller.start()
        stack.callback(controller.stop)

        primary = Cluster(db, workdir, "primary")
        primary.initdb()
        primary.start("fsync=off")
        primary.sql(f"CREATE DATABASE {hosts_kit.DATABASE}", "postgres")
        standby = Cluster(standby_host, workdir, "standby")
        standby.basebackup(primary)
        standby.start("fsync=off")
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
        # as the tables' owner, straight to the primary (docs/operations.md); the
        # games' first mail waits in the shape's queue for its workers
        direct = {**os.environ, "DATABASE_URL": primary.url(), "REDIS_URL": redis.url(0),
                  "CELERY_TASK_ALWAYS_EAGER": "0", "DJANGO_SETTINGS_MODULE": "marram_site.settings"}
        direct.pop("DJANGO_ENV", None)
        manage(direct, "migrate", "--no-input", "-v", "0")
        made = json.loads(manage(direct, "shell", "-c", MAKE_GAMES.format(count=GAMES_EACH * 4))
                          .strip().splitlines()[-1])

        poolers = {"db": Pooler(db, workdir, primary), "standby": Pooler(standby_host, workdir,
                                                                         standby)}
        for pooler in poolers.values():
            pooler.start()

        env = app_env(net, apps, proxy, db, standby_host, redis, smtp_port)
        found = Shape(net, workdir, primary, standby, poolers, redis, collector, proxy, apps,
                      env, made)
        for name in apps:
            app_stack = stack.enter_context(contextlib.ExitStack())
            start_app(found, name, app_stack)
            found.processes[f"{name}-stack"] = app_stack
        stack.enter_context(nginx(workdir, [f"{a.address}:{WEB_PORT}" for a in apps.values()],
                                  address=proxy.address, port=PROXY_PORT,
                                  prefix=proxy.argv([])))
        mail_once(found, made)  # the games' first mail, sent before the scenarios start
        yield found


# ---------------------------------------------------------------- the players


def call(shape: Shape, token: str, method: str, path: str,
         body: dict[str, Any] | None = None) -> tuple[int, dict[str, str], Any]:
    """A request through nginx, as a player's client behind a TLS proxy makes it."""
    conn = http.client.HTTPConnection(shape.proxy.address, PROXY_PORT, timeout=ANSWER_SECONDS)
    try:
        conn.request(method, path, body=None if body is None else json.dumps(body),
                     headers={"Authorization": f"Token {token}", "X-Forwarded-Proto": "https",
                              "Content-Type": "application/json"})
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
    acknowledged: dict[str, tuple[int, list[int], float, float]] = field(default_factory=dict)
    """idempotency key -> (game, the seqs of its events, when the request that was
    answered was sent, when its answer came)"""
    refused: list[tuple[float, int, dict[str, str], Any]] = field(default_factory=list)
    """(when, status, headers, body) of every answer that was not a success"""
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

    def wait_for_moves(self, count: int, timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        while self.moves() < count:
            assert time.monotonic() < deadline, f"only {self.moves()} moves of {count}"
            assert any(t.is_alive() for t in self.threads), "every client stopped"
            time.sleep(0.05)


def outages_were_clear(refused: list[tuple[float, int, dict[str, str], Any]]) -> None:
    """Every refusal a 503 with Retry-After and the API's JSON, none a 500 page."""
    for _, status, headers, body in refused:
        assert status == 503, (status, body)
        assert int(headers["retry-after"]) > 0, headers
        assert isinstance(body, dict) and body["code"] == "database_unavailable", body


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
    direct = {**os.environ, "DATABASE_URL": shape.writer.url(),
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
    report("failover", moves_acknowledged=len(load.acknowledged),
           moves_before_kill=before, refused=Counter(status for _, status, _, _ in load.refused),
           kill_to_promoted_s=round(promoted - killed, 2),
           kill_to_first_accepted_move_s=round(first - killed, 2))
    outages_were_clear(load.refused)
    assert not load.broken, load.broken[:5]
    games_sound(shape, games, load)
    report("failover", mails_sent=mail_once(shape, games))
