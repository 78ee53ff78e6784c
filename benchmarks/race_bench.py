"""Race benchmark: changes to one game sent at the same moment, against the service
in its production shape, with what each race ended in.

    .venv/bin/python benchmarks/race_bench.py [--races 50] [--kinds KIND ...]
        [--jitter-ms 20] [--workers 2] [--threads 2] [--seed 1] [--json FILE]

Starts a throwaway PostgreSQL and Redis (unless DATABASE_URL / REDIS_URL are set),
the web server with the production settings (benchmarks/service_bench.py's, 2
workers of 2 threads) and a Celery worker, and draws chance as production does:
in the worker's task after the move that calls for it (MARRAM_DRAW_INLINE off;
docker-compose's shape, with the stream's Redis publishing and the cache in
Redis too). Players and games are made through the services in this process; every
race is then sent through the HTTP API with token authentication (the admin's
through a superuser's session, signed in on /admin/login/), each request on a
keep-alive connection opened beforehand, all of a race's requests released at once
(a barrier, then a random delay of up to --jitter-ms each, so that either side
wins some races). Each race is played on a fresh game. The kinds:

- ``two_keys``: one player's two devices send the same move (Marram) with two
  idempotency keys: one 201, the other 409 ``stale_seq``.
- ``same_key``: the same, with the same key: one 201, the other 200 with the
  same events.
- ``timeout``: a move (Pond: every move hands the turn on) against its seat's
  clock running out (``games.services.clock_expire``, called from this process
  with a moment past the bank): exactly one of them is stored.
- ``draw_move``: the move that calls for a chance draw (Make-a-snake's roll, or
  Marram's fly or frog in the animals variant), then, while the worker's task
  draws it, the next move at the seq after the draw, the same move at the seq
  before it, and a second draw from this process (a task delivered twice): the
  draw stored once; the move at most once (201, or 409 while the draw is not
  in); the one behind never (409 ``awaiting_chance`` or ``stale_seq``).
- ``draw_resign``: the same move, then a resignation while the draw is pending:
  the resignation stored (200), the draw once, no game left waiting for a draw.
- ``resign``: a move (Marram, 2 or 3 seats) against another player's
  resignation: the resignation always stored; the move 201 if it came first,
  else 409 (``game_finished`` with 2 seats, ``stale_seq`` with 3).
- ``admin_move``: the admin's Save of a running game's change page
  (``/admin/games/game/<id>/change/``, with ``days_per_move`` changed) against a
  move: the Save 403, the move 201, the game's settings as they were.
- ``admin_join``: the Save of an open game's page against the join that starts
  it: either the Save first (302) and the game starts with its days per move, or
  the join first and the Save is refused (200 with the form's error, or 403);
  the game running in either case, its clocks of its days per move.
- ``keeps``: Animals on Board, every player's keep (2, 3 or 4 seats) at the same
  seq: all 201.
- ``keeps_twice``: the same, one player's keep sent from two devices (two keys):
  that one 201 and 409 ``stale_seq``, every other keep 201.

After each kind every game is checked with the project's own check
(``games.management.commands.verify_game.game_problems``: a replay from zero
against what is stored, the seq against the number of events, the snapshots), the
players' events appended during the race against the answers that said they were
(none lost, none written twice), and the game against what the race should leave.
Every 5xx is a defect; the web server's log (its tracebacks) is kept and its path
printed, and the worker's errors are counted. The table counts each race's answers
by status ("in-process": the services this process called, clock_expire and
chance_resolve; "other": any other status, 5xx among them), the races that ended
otherwise than the kind expects ("unexp.", each outcome listed below the table)
and the games the check found broken. The exit status is 1 when a race found a
5xx, an unexpected outcome or a broken game.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import secrets
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import orjson  # noqa: E402
import service_bench as sb  # noqa: E402

ROOT = sb.ROOT
MARRAM_CLASSIC = {"variant": "classic", "length": "long"}
MARRAM_ANIMALS = {"variant": "animals", "length": "long"}
DAYS_PER_MOVE = 3
ADMIN_DAYS_PER_MOVE = 7
"""What the admin's Save writes: a value no game of this benchmark has otherwise."""
ADMIN_PASSWORD = "race-" + uuid.uuid4().hex
SETTLE_SECONDS = 20.0
"""How long a game is given to have its pending draw made by the worker."""

KINDS = ("two_keys", "same_key", "timeout", "draw_move", "draw_resign", "resign",
         "admin_move", "admin_join", "keeps", "keeps_twice")


# ---------------------------------------------------------------- the services


_service_env = sb.server_env


def production_env(url: str) -> dict[str, str]:
    """service_bench's production settings, with chance drawn by the worker's task
    (MARRAM_DRAW_INLINE off, as docker-compose runs it), the stream's publishing on
    and the cache in Redis: what docker-compose sets."""
    return {**_service_env(url), "MARRAM_DRAW_INLINE": "0", "CELERY_TASK_ALWAYS_EAGER": "0",
            "MARRAM_STREAM": "1", "CACHE_URL": sb.BROKER_URL.rsplit("/", 1)[0] + "/1",
            # mail is made as ever, and dropped rather than printed into the worker's log
            "EMAIL_BACKEND": "django.core.mail.backends.dummy.EmailBackend",
            "PYTHONUNBUFFERED": "1"}


sb.server_env = production_env  # the web server sb.web_server starts runs these too


@contextlib.contextmanager
def stderr_to(path: Path) -> Iterator[None]:
    """While inside, this process's standard error (fd 2) goes to ``path``: a child
    started meanwhile keeps writing there (the web server's tracebacks)."""
    sys.stderr.flush()
    saved = os.dup(2)
    with path.open("ab") as log:
        os.dup2(log.fileno(), 2)
    try:
        yield
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)


@contextlib.contextmanager
def web_server(url: str, workers: int, threads: int, log: Path) -> Iterator[int]:
    """sb.web_server, its standard error (tracebacks) kept in ``log``."""
    server = sb.web_server(url, workers, threads)
    with stderr_to(log):
        port = server.__enter__()
    try:
        yield port
    finally:
        server.__exit__(None, None, None)


@contextlib.contextmanager
def celery_worker(url: str, log: Path, concurrency: int) -> Iterator[subprocess.Popen]:
    """A Celery worker as docker-compose runs it (``celery -A marram_site worker``),
    on the same settings as the web server; its output in ``log``."""
    argv = [sys.executable, "-m", "celery", "-A", "marram_site", "worker", "--loglevel=INFO",
            f"--concurrency={concurrency}", "-n", f"race-{os.getpid()}@%h"]
    with log.open("ab") as out:
        process = subprocess.Popen(argv, cwd=ROOT, env=production_env(url), stdout=out,
                                   stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while "ready." not in log.read_text(errors="replace"):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the Celery worker did not start:\n"
                                   + log.read_text(errors="replace")[-3000:])
            time.sleep(0.1)
        yield process
    finally:
        from testservices import stop

        stop(process, timeout=20)


def django_setup(url: str) -> None:
    os.environ.update(production_env(url))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "marram_site.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("collectstatic", verbosity=0, interactive=False)  # the admin's pages


# ---------------------------------------------------------------- HTTP


class Http(sb.Client):
    """service_bench's keep-alive client, with form bodies and cookies, and no second
    try: a request sent again after a lost answer would be a second submission."""

    def send(self, method: str, path: str, *, token: str | None = None, payload: Any = None,
             form: dict[str, str] | None = None, cookies: str = "") -> tuple[int, Any]:
        lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Accept: application/json"]
        if token:
            lines.append(f"Authorization: Token {token}")
        if cookies:
            lines.append(f"Cookie: {cookies}")
        body = b""
        if payload is not None:
            body = orjson.dumps(payload)
            lines.append("Content-Type: application/json")
        elif form is not None:
            body = urlencode(form).encode()
            lines.append("Content-Type: application/x-www-form-urlencoded")
        if payload is not None or form is not None or method == "POST":
            lines.append(f"Content-Length: {len(body)}")
        message = ("\r\n".join(lines) + "\r\n\r\n").encode() + body
        try:
            if self.sock is None:
                self.sock = self._connect()
            self.sock.sendall(message)
            status, raw = self._read_answer(self.sock)
        except OSError as error:
            if self.sock is not None:
                self.sock.close()
            self.sock = None
            return 0, {"code": "connection_error", "message": str(error)}
        if self.head.lower().find("\r\nconnection: close") >= 0:
            self.sock.close()
            self.sock = None
        if raw[:1] in (b"{", b"["):
            try:
                return status, orjson.loads(raw)
            except orjson.JSONDecodeError:
                pass
        if status >= 500 and not raw.strip():  # not Django's page: say whose it is
            return status, self.head
        return status, raw.decode("utf-8", "replace")

    def set_cookies(self) -> dict[str, str]:
        """The cookies the last answer set (name: value)."""
        found = {}
        for line in self.head.split("\r\n")[1:]:
            if line[:11].lower() == "set-cookie:":
                name, _, rest = line[11:].strip().partition("=")
                found[name] = rest.split(";", 1)[0]
        return found

    def fresh(self) -> None:
        """A connection of its own, opened now (a ping), for the next request."""
        if self.sock is not None:
            self.sock.close()
            self.sock = None
        status, _ = self.send("GET", "/api/ping/")
        if status != 200:
            raise RuntimeError(f"the server answers its ping {status}")


PORT = 0
_local = threading.local()


def http() -> Http:
    """This thread's client."""
    client = getattr(_local, "client", None)
    if client is None:
        client = _local.client = Http(PORT, {})
    return client


# ---------------------------------------------------------------- a race


@dataclass
class Answer:
    who: str
    status: int
    code: str = ""
    body: Any = None
    landed: int = 0
    """Player's events this answer says it stored (a 201 move, a 200 resignation)."""

    def label(self) -> str:
        return f"{self.status} {self.code}".strip()


@dataclass
class Job:
    """One participant of a race: ``prepare`` (opening its connection) runs before
    the barrier, ``go`` at once after it (and its delay)."""

    who: str
    go: Callable[[], Answer]
    prepare: Callable[[], None] = lambda: None
    jitter: float | None = None
    """The longest delay after the barrier (None: JITTER)."""


POOL = ThreadPoolExecutor(max_workers=8, thread_name_prefix="race")
RNG = random.Random(1)
JITTER = 0.02
DRAW_JITTER = 0.1
"""Against the worker's draw, which comes some tens of milliseconds after the move
that calls for it: a longer spread, so that some requests come after it."""


def at_once(jobs: list[Job]) -> list[Answer]:
    """Run the jobs in threads of their own, released together (each after a random
    delay of up to JITTER); their answers, in order."""
    barrier = threading.Barrier(len(jobs))
    delays = [RNG.uniform(0, JITTER if job.jitter is None else job.jitter) for job in jobs]

    def run(job: Job, delay: float) -> Answer:
        try:
            job.prepare()
            barrier.wait(timeout=60)
            if delay:
                time.sleep(delay)
            return job.go()
        except Exception as error:  # the harness's own failure, reported as such
            barrier.abort()
            return Answer(job.who, -1, f"harness: {type(error).__name__}: {error}")

    futures = [POOL.submit(run, job, delay) for job, delay in zip(jobs, delays, strict=True)]
    return [f.result(timeout=120) for f in futures]


def post_job(who: str, token: str, path: str, payload: Any) -> Job:
    def go() -> Answer:
        status, body = http().send("POST", path, token=token, payload=payload)
        code = body.get("code", "") if isinstance(body, dict) and status >= 300 else ""
        return Answer(who, status, code, body)

    return Job(who, go, lambda: http().fresh())


def _landing(job: Job, stored: int) -> Job:
    """``job``, its answer counted as landed when its status is ``stored``."""
    go = job.go

    def counted() -> Answer:
        answer = go()
        answer.landed = int(answer.status == stored)
        return answer

    job.go = counted
    return job


def move_job(who: str, token: str, game_id: int, seq: int, action: dict,
             key: str | None = None) -> Job:
    action = {k: v for k, v in action.items() if k != "player"}
    return _landing(post_job(who, token, f"/api/games/{game_id}/actions/",
                             {"seq": seq, "action": action,
                              "idempotency_key": key or uuid.uuid4().hex}), 201)


def resign_job(who: str, token: str, game_id: int) -> Job:
    return _landing(post_job(who, token, f"/api/games/{game_id}/resign/", {}), 200)


def in_process(who: str, call: Callable[[], Any], describe: Callable[[Any], str]) -> Job:
    """A service called from this process (a thread of the pool, its own database
    connection, opened before the barrier)."""

    def prepare() -> None:
        from django.db import connection

        connection.ensure_connection()

    def go() -> Answer:
        try:
            result = call()
        except Exception as error:  # a defect as surely as a 5xx: counted as "other"
            return Answer(who, -2, f"raised {type(error).__name__}: {error}")
        return Answer(who, 0, describe(result), result)

    return Job(who, go, prepare)


# ---------------------------------------------------------------- games


@dataclass
class Table:
    """A game made for a race, with its players by seat."""

    id: int
    kind: str
    users: dict[int, Any]
    tokens: dict[int, str]

    def game(self) -> Any:
        from games.models import Game

        return Game.objects.get(pk=self.id)


class Players:
    """The benchmark's accounts, handed out in turn, with their API tokens."""

    def __init__(self, count: int = 48) -> None:
        from django.contrib.auth import get_user_model
        from rest_framework.authtoken.models import Token

        User = get_user_model()
        self.users = []
        self.tokens: dict[int, str] = {}
        tag = uuid.uuid4().hex[:6]
        for n in range(count):
            user = User.objects.create_user(f"racer{tag}{n}", email=f"racer{n}@example.org")
            self.users.append(user)
            self.tokens[user.pk] = Token.objects.create(user=user).key
        self.next = 0

    def take(self, n: int) -> list:
        picked = [self.users[(self.next + i) % len(self.users)] for i in range(n)]
        self.next = (self.next + n) % len(self.users)
        return picked


def new_table(players: Players, kind: str, options: dict, seats: int, *,
              start: bool = True) -> Table:
    """A game of ``kind`` made by the first of ``seats`` players, joined by the
    others (``start``), through the services; ``DAYS_PER_MOVE`` days a move."""
    from games import services
    from games.models import Seat

    users = players.take(seats)
    game = services.game_create(user=users[0], game=kind, options=options, seats=seats,
                                days_per_move=DAYS_PER_MOVE)
    if start:
        for user in users[1:]:
            services.game_join(game=game, user=user)
    seated = {s.index: s.user for s in Seat.objects.filter(game_id=game.pk).select_related("user")}
    if not start:
        seated = {i: u for i, u in enumerate(users)}
    return Table(game.pk, kind, seated, {i: players.tokens[u.pk] for i, u in seated.items()})


def position(table: Table) -> tuple[Any, Any, Any]:
    """The game, its rules and its state now (never mutate the state)."""
    from games.selectors import game_state_get, rules_of

    game = table.game()
    return game, rules_of(game), game_state_get(game)


def settle(table: Table) -> None:
    """Draw what chance the game waits for, as the task would."""
    from games import services

    for _ in range(20):
        game, rules, state = position(table)
        if game.status != "running" or rules.awaiting(state).chance is None:
            return
        services.chance_resolve(game.pk)


def play(table: Table, action: dict) -> None:
    """A move through the services (setting up a position)."""
    from games import services

    game = table.game()
    services.action_submit(game=game.pk, user=table.users[action["player"]], action=action,
                           expected_seq=game.seq)


def awaited_action(rules: Any, state: Any, rng: random.Random) -> dict | None:
    """A random legal action of the (first) seat awaited, or None."""
    wait = rules.awaiting(state)
    if wait.finished or wait.chance is not None or not wait.players:
        return None
    actions = rules.legal_actions(state, wait.players[0])
    return dict(rng.choice(actions)) if actions else None


def advance(table: Table, moves: int, rng: random.Random) -> None:
    for _ in range(moves):
        settle(table)
        _, rules, state = position(table)
        action = awaited_action(rules, state, rng)
        if action is None:
            return
        play(table, action)
    settle(table)


def follow(rules: Any, state: Any, seq: int, seed: str, *, draw: bool
           ) -> tuple[Any, int, bool]:
    """What follows by itself from ``state`` (its own copy, mutated), as
    games.services.append.append_automatic appends it: (state, seq after, whether a draw is
    left pending). ``draw``: draws are made (from the seed), as the task makes them."""
    from engine import fairness

    while not rules.awaiting(state).finished:
        chance = rules.chance(state)
        if chance is not None:
            if not draw:
                return state, seq, True
            event = dict(fairness.draw_event(seed, seq, chance))
        else:
            forced = rules.automatic(state)
            if forced is None:
                break
            event = dict(forced)
        state = rules.fold(state, rules.read_event(event))
        seq += 1
    return state, seq, False


@dataclass
class DrawSetup:
    """A position where the next move calls for a draw: the move, the seq it is
    made at, the seq the game waits for the draw at, and the move the game awaits
    once the draw (and what follows by itself) is in, at its seq."""

    move: dict
    seq: int
    pending_seq: int
    after_seq: int
    after: dict | None


def draw_position(table: Table, rng: random.Random, limit: int = 120) -> DrawSetup | None:
    """Play random moves until the next one calls for a chance draw."""
    for _ in range(limit):
        settle(table)
        game, rules, state = position(table)
        action = awaited_action(rules, state, rng)
        if action is None:
            return None
        mine = rules.fold(rules.copy(state), rules.read_event(dict(action)))
        pending_state, pending_seq, pending = follow(rules, mine, game.seq + 1, game.seed,
                                                     draw=False)
        if pending:
            drawn, after_seq, _ = follow(rules, pending_state, pending_seq, game.seed,
                                         draw=True)
            return DrawSetup(action, game.seq, pending_seq, after_seq,
                             awaited_action(rules, drawn, rng))
        play(table, action)
    return None


def draw_delay(table: Table, setup: DrawSetup) -> float | None:
    """Milliseconds between the move that called for a draw and the draw, as stored."""
    from games.models import Event

    times = dict(Event.objects.filter(game_id=table.id, seq__in=(setup.seq, setup.pending_seq))
                 .values_list("seq", "created_at"))
    if len(times) < 2:
        return None
    return (times[setup.pending_seq] - times[setup.seq]).total_seconds() * 1000


def wait_drawn(table: Table) -> bool:
    """Until the game no longer waits for a draw (the worker's task): False if it
    still does after SETTLE_SECONDS."""
    deadline = time.monotonic() + SETTLE_SECONDS
    while time.monotonic() < deadline:
        game = table.game()
        if game.status != "running" or game.projection["awaiting"]["kind"] != "chance":
            return True
        time.sleep(0.02)
    return False


# ---------------------------------------------------------------- the races


@dataclass
class Race:
    """One race: its game, its answers, what it ended in and what it should have."""

    table: Table
    since: int
    """The game's seq when the race began: the players' events after it are its."""
    answers: list[Answer]
    outcome: str = ""
    expected: bool = True
    problems: list[str] = field(default_factory=list)
    draw_ms: float | None = None
    """How long after the move that called for it the draw was stored."""


def labels(answers: list[Answer]) -> str:
    """Each answer, with the message of a refusal other than the usual ones."""

    def said(a: Answer) -> str:
        usual = a.status < 400 or a.code in ("stale_seq", "game_finished")
        message = a.body.get("message", "") if isinstance(a.body, dict) else ""
        return "" if usual or not message else f" ({message[:120]})"

    return ", ".join(f"{a.who} {a.label()}{said(a)}" for a in answers)


def race_two_keys(players: Players, rng: random.Random, n: int) -> Race:
    table = new_table(players, "marram", MARRAM_CLASSIC, 2)
    advance(table, rng.randrange(0, 6), rng)
    game, rules, state = position(table)
    action = awaited_action(rules, state, rng)
    seat = action["player"]
    token = table.tokens[seat]
    answers = at_once([move_job("device A", token, game.pk, game.seq, action),
                       move_job("device B", token, game.pk, game.seq, action)])
    race = Race(table, game.seq, answers)
    race.outcome = " + ".join(sorted(a.label() for a in answers))
    race.expected = race.outcome == "201 + 409 stale_seq"
    return race


def race_same_key(players: Players, rng: random.Random, n: int) -> Race:
    table = new_table(players, "marram", MARRAM_CLASSIC, 2)
    advance(table, rng.randrange(0, 6), rng)
    game, rules, state = position(table)
    action = awaited_action(rules, state, rng)
    token, key = table.tokens[action["player"]], uuid.uuid4().hex
    answers = at_once([move_job("device A", token, game.pk, game.seq, action, key),
                       move_job("device B", token, game.pk, game.seq, action, key)])
    race = Race(table, game.seq, answers)
    race.outcome = " + ".join(sorted(a.label() for a in answers))
    race.expected = race.outcome == "200 + 201"
    if race.expected:
        first, again = sorted(answers, key=lambda a: -a.status)
        same = [e["seq"] for e in first.body["events"]] == [e["seq"] for e in again.body["events"]]
        if not same or first.body["seq"] != again.body["seq"]:
            race.expected = False
            race.problems.append(f"the repeated answer differs: {again.body} vs {first.body}")
    return race


def race_timeout(players: Players, rng: random.Random, n: int) -> Race:
    from django.utils import timezone

    from games import services

    table = new_table(players, "pond", {}, 2)
    advance(table, rng.randrange(0, 8), rng)
    game, rules, state = position(table)
    action = awaited_action(rules, state, rng)
    seat = action["player"]
    late = timezone.now() + timedelta(days=4 * DAYS_PER_MOVE)  # past any bank
    answers = at_once([
        move_job("move", table.tokens[seat], game.pk, game.seq, action),
        in_process("timeout", lambda: services.clock_expire(game_id=game.pk, seat=seat,
                                                            now=late),
                   lambda r: "none" if r is None else "timed out"),
    ])
    race = Race(table, game.seq, answers)
    move, timeout = answers
    race.outcome = f"move {move.label()} / timeout {timeout.code}"
    race.expected = race.outcome in ("move 201 / timeout none",
                                     "move 409 stale_seq / timeout timed out")
    return race


def race_draw_move(players: Players, rng: random.Random, n: int) -> Race | None:
    """The move that calls for a draw; once its answer is in, the next move at the
    seq after the draw and at the seq before it, and a second draw from here, while
    the worker's task draws."""
    from games import services

    snake = n % 2 == 0
    table = (new_table(players, "make_a_snake", {}, 2) if snake
             else new_table(players, "marram", MARRAM_ANIMALS, 2))
    setup = draw_position(table, rng)
    if setup is None or setup.after is None:
        return None
    mover = move_job("draw's move", table.tokens[setup.move["player"]], table.id, setup.seq,
                     setup.move)
    mover.prepare()
    first = mover.go()
    if first.status != 201:
        race = Race(table, setup.seq, [first], f"the draw's move {first.label()}", False)
        return race
    next_token = table.tokens[setup.after["player"]]
    jobs = [
        move_job("next move at seq after draw", next_token, table.id, setup.after_seq,
                 setup.after),
        move_job("next move at seq before draw", next_token, table.id, setup.pending_seq,
                 setup.after),
        in_process("second draw", lambda: services.chance_resolve(table.id),
                   lambda rows: f"drew {len(rows)}"),
    ]
    for job in jobs:
        job.jitter = DRAW_JITTER
    answers = at_once(jobs)
    drawn = wait_drawn(table)
    race = Race(table, setup.pending_seq, [first, *answers], draw_ms=draw_delay(table, setup))
    ahead, behind, second = answers
    race.outcome = (f"{'snake' if snake else 'marram'}: after {ahead.label()}, behind "
                    f"{behind.label()}, {second.code}")
    race.expected = (ahead.status in (201, 409) and (ahead.status == 201 or ahead.code in (
        "stale_seq", "awaiting_chance")) and behind.status == 409
        and behind.code in ("stale_seq", "awaiting_chance") and second.status == 0 and drawn)
    if not drawn:
        race.problems.append("the game still waits for its draw")
    return race


def race_draw_resign(players: Players, rng: random.Random, n: int) -> Race | None:
    """The move that calls for a draw, then a resignation (alternately the other
    player's and the mover's) while the draw is pending."""
    snake = n % 2 == 0
    table = (new_table(players, "make_a_snake", {}, 2) if snake
             else new_table(players, "marram", MARRAM_ANIMALS, 2))
    setup = draw_position(table, rng)
    if setup is None:
        return None
    mover = move_job("draw's move", table.tokens[setup.move["player"]], table.id, setup.seq,
                     setup.move)
    mover.prepare()
    first = mover.go()
    if first.status != 201:
        return Race(table, setup.seq, [first], f"the draw's move {first.label()}", False)
    quitter = setup.move["player"] if n % 4 in (2, 3) else 1 - setup.move["player"]
    who = "mover resigns" if quitter == setup.move["player"] else "other resigns"
    resign = resign_job(who, table.tokens[quitter], table.id)
    resign.jitter = DRAW_JITTER
    answers = at_once([resign])
    drawn = wait_drawn(table)
    race = Race(table, setup.pending_seq, [first, answers[0]], draw_ms=draw_delay(table, setup))
    from games.models import Event

    at = Event.objects.filter(game_id=table.id, seq=setup.pending_seq).first()
    order = "no event after the move" if at is None else (
        "resigned before the draw" if at.actor_id is not None else "drawn first")
    race.outcome = f"{'snake' if snake else 'marram'}: {who} {answers[0].label()}, {order}"
    race.expected = answers[0].status == 200 and drawn
    if not drawn:
        race.problems.append("the game still waits for its draw")
    return race


def race_resign(players: Players, rng: random.Random, n: int) -> Race:
    seats = 2 if n % 2 == 0 else 3
    table = new_table(players, "marram", MARRAM_CLASSIC, seats)
    advance(table, rng.randrange(0, 6), rng)
    game, rules, state = position(table)
    action = awaited_action(rules, state, rng)
    mover = action["player"]
    quitter = (mover + 1 + rng.randrange(seats - 1)) % seats
    answers = at_once([move_job("move", table.tokens[mover], game.pk, game.seq, action),
                       resign_job("resign", table.tokens[quitter], game.pk)])
    race = Race(table, game.seq, answers)
    move, resign = answers
    race.outcome = f"{seats} seats: move {move.label()} / resign {resign.label()}"
    refused = "409 game_finished" if seats == 2 else "409 stale_seq"
    race.expected = resign.status == 200 and move.label() in ("201", refused)
    return race


class Admin:
    """A superuser's session, signed in through /admin/login/ as a browser does."""

    def __init__(self) -> None:
        from django.contrib.auth import get_user_model

        name = f"race-admin-{uuid.uuid4().hex[:6]}"
        get_user_model().objects.create_superuser(name, f"{name}@example.org", ADMIN_PASSWORD)
        # CSRF by double submit: a secret of our own in the cookie and the form
        self.csrf = secrets.token_hex(16)
        client = Http(PORT, {})
        status, body = client.send("POST", "/admin/login/?next=/admin/", form={
            "csrfmiddlewaretoken": self.csrf, "username": name, "password": ADMIN_PASSWORD,
            "next": "/admin/"}, cookies=f"csrftoken={self.csrf}")
        session = {k: v for k, v in client.set_cookies().items() if "csrf" not in k}
        if status != 302 or not session:
            raise RuntimeError(f"the admin's sign-in failed: {status} {str(body)[:300]}")
        self.cookies = "; ".join([f"csrftoken={self.csrf}",
                                  *(f"{k}={v}" for k, v in session.items())])

    def page(self, game_id: int) -> int:
        status, _ = http().send("GET", f"/admin/games/game/{game_id}/change/",
                                cookies=self.cookies)
        return status

    def save_job(self, game: Any) -> Job:
        """Save pressed on the game's change page, ``days_per_move`` changed (the
        fields an open game's page posts)."""
        from tests.service.admin_kit import change_form

        form = {**change_form(game), "csrfmiddlewaretoken": self.csrf,
                "days_per_move": str(ADMIN_DAYS_PER_MOVE), "status": "open"}
        path = f"/admin/games/game/{game.pk}/change/"

        def go() -> Answer:
            status, body = http().send("POST", path, form=form, cookies=self.cookies)
            code = ""
            if status == 200 and isinstance(body, str):
                code = "game_started" if "has started since this page was read" in body \
                    else "form error"
            return Answer("admin save", status, code, body if status >= 500 else None)

        return Job("admin save", go, lambda: http().fresh())


ADMIN: Admin | None = None


def race_admin_move(players: Players, rng: random.Random, n: int) -> Race:
    table = new_table(players, "marram", MARRAM_CLASSIC, 2)
    advance(table, rng.randrange(0, 6), rng)
    game, rules, state = position(table)
    action = awaited_action(rules, state, rng)
    page = ADMIN.page(game.pk)
    answers = at_once([ADMIN.save_job(game),
                       move_job("move", table.tokens[action["player"]], game.pk, game.seq,
                                action)])
    race = Race(table, game.seq, answers)
    save, move = answers
    race.outcome = f"page {page}, save {save.label()} / move {move.label()}"
    after = table.game()
    race.expected = page == 200 and save.status == 403 and move.status == 201
    if after.days_per_move != DAYS_PER_MOVE:
        race.expected = False
        race.problems.append(f"the running game's days_per_move is {after.days_per_move}")
    return race


def race_admin_join(players: Players, rng: random.Random, n: int) -> Race:
    from games.models import Clock

    table = new_table(players, "marram", MARRAM_CLASSIC, 2, start=False)
    game = table.game()
    page = ADMIN.page(game.pk)
    answers = at_once([ADMIN.save_job(game),
                       post_job("join", table.tokens[1], f"/api/games/{game.pk}/join/", {})])
    race = Race(table, 0, answers)
    save, join = answers
    race.outcome = f"page {page}, save {save.label()} / join {join.label()}"
    after = table.game()
    banks = {c.bank for c in Clock.objects.filter(game_id=game.pk)}
    saved = save.status == 302
    days = ADMIN_DAYS_PER_MOVE if saved else DAYS_PER_MOVE
    race.expected = page == 200 and join.status == 200 and (
        saved or save.label() in ("200 game_started", "403"))
    if after.status != "running":
        race.problems.append(f"the game is {after.status} after its last seat was taken")
    if after.days_per_move != days:
        race.problems.append(f"save {save.status}, but days_per_move is {after.days_per_move}")
    if banks != {timedelta(days=2 * after.days_per_move)}:
        race.problems.append(f"the clocks' banks {sorted(banks)} are not two turns of "
                             f"{after.days_per_move} days")
    race.expected = race.expected and not race.problems
    return race


def keep_jobs(table: Table, state: Any, seq: int, rng: random.Random) -> list[Job]:
    return [move_job(f"seat {seat}", table.tokens[seat], table.id, seq,
                     {"type": "keep", "tile": rng.choice(state.drawn[seat])})
            for seat in sorted(table.users)]


def race_keeps(players: Players, rng: random.Random, n: int) -> Race:
    seats = (2, 3, 4)[n % 3]
    table = new_table(players, "animals_on_board", {}, seats)
    game, rules, state = position(table)
    answers = at_once(keep_jobs(table, state, game.seq, rng))
    race = Race(table, game.seq, answers)
    race.outcome = f"{seats} seats: " + " + ".join(sorted(a.label() for a in answers))
    race.expected = all(a.status == 201 for a in answers)
    return race


def race_keeps_twice(players: Players, rng: random.Random, n: int) -> Race:
    seats = (2, 3, 4)[n % 3]
    table = new_table(players, "animals_on_board", {}, seats)
    game, rules, state = position(table)
    jobs = keep_jobs(table, state, game.seq, rng)
    twice = rng.randrange(seats)
    action = {"type": "keep", "tile": rng.choice(state.drawn[twice])}
    jobs[twice] = move_job(f"seat {twice} device A", table.tokens[twice], table.id, game.seq,
                           action)
    jobs.append(move_job(f"seat {twice} device B", table.tokens[twice], table.id, game.seq,
                         action))
    answers = at_once(jobs)
    race = Race(table, game.seq, answers)
    pair = sorted(a.label() for a in (answers[twice], answers[-1]))
    others = [a for i, a in enumerate(answers[:-1]) if i != twice]
    race.outcome = (f"{seats} seats: twice {' + '.join(pair)}, others "
                    + (" + ".join(sorted(a.label() for a in others)) or "none"))
    race.expected = pair == ["201", "409 stale_seq"] and all(a.status == 201 for a in others)
    return race


RACES: dict[str, tuple[str, Callable[[Players, random.Random, int], Race | None]]] = {
    "two_keys": ("1. same move, two devices, two keys", race_two_keys),
    "same_key": ("1. same move, two devices, same key", race_same_key),
    "timeout": ("2. move vs its seat's timeout", race_timeout),
    "draw_move": ("3. moves vs a chance draw", race_draw_move),
    "draw_resign": ("3. resignation vs a chance draw", race_draw_resign),
    "resign": ("4. move vs another's resignation", race_resign),
    "admin_move": ("5. admin Save vs a move", race_admin_move),
    "admin_join": ("5. admin Save vs the starting join", race_admin_join),
    "keeps": ("6. every keep at once", race_keeps),
    "keeps_twice": ("6. every keep at once, one twice", race_keeps_twice),
}


# ---------------------------------------------------------------- checks and figures


def check(race: Race) -> None:
    """The project's check of the game, and the players' events since the race began
    against what the answers said they stored."""
    from games.management.commands.verify_game import game_problems
    from games.models import Event

    game = race.table.game()
    race.problems += game_problems(game)
    stored = Event.objects.filter(game_id=game.pk, seq__gte=race.since, actor__isnull=False)
    said = sum(a.landed for a in race.answers if a.who != "draw's move")
    if stored.count() != said:
        race.problems.append(f"{stored.count()} player events stored since seq {race.since}, "
                             f"the answers say {said}")
    keys = [k for k in stored.values_list("idempotency_key", flat=True) if k]
    if len(keys) != len(set(keys)):
        race.problems.append("an idempotency key stored twice")


def run_kind(kind: str, races: int, players: Players, seed: int) -> dict:
    title, make = RACES[kind]
    rng = random.Random(f"{seed}-{kind}")
    done: list[Race] = []
    skipped = 0
    started = time.monotonic()
    for n in range(races):
        race = make(players, rng, n)
        if race is None:
            skipped += 1
            continue
        check(race)
        done.append(race)
    statuses: Counter = Counter()
    codes: Counter = Counter()
    for race in done:
        for answer in race.answers:
            if answer.who == "draw's move":
                continue
            bucket = answer.status if answer.status in (200, 201, 302, 403, 409) else "other"
            if answer.status == 0:
                bucket = "in-process"
            statuses[str(bucket)] += 1
            codes[f"{answer.who}: {answer.label()}"] += 1
    server_errors = [(race.table.id, a.who, a.label(), str(a.body)[:500])
                     for race in done for a in race.answers if a.status >= 500]
    broken = [(race.table.id, race.problems) for race in done if race.problems]
    unexpected = [(race.table.id, race.outcome, labels(race.answers)) for race in done
                  if not race.expected]
    delays = sorted(r.draw_ms for r in done if r.draw_ms is not None)
    return {
        "draw_ms_median": round(delays[len(delays) // 2], 1) if delays else None,
        "draw_ms_max": round(delays[-1], 1) if delays else None,
        "kind": kind, "title": title, "races": len(done), "skipped": skipped,
        "seconds": round(time.monotonic() - started, 1),
        "statuses": dict(sorted(statuses.items())),
        "answers": dict(sorted(codes.items())),
        "outcomes": dict(Counter(r.outcome for r in done).most_common()),
        "server_errors": len(server_errors), "server_error_samples": server_errors[:5],
        "broken_games": len(broken), "broken_samples": broken[:5],
        "unexpected": len(unexpected), "unexpected_samples": unexpected[:5],
        "games": sorted({r.table.kind for r in done}),
    }


def print_table(results: list[dict]) -> None:
    print(f"{'kind':40}{'races':>6}  {'answers by status':40}{'5xx':>5}{'unexp.':>7}"
          f"{'broken':>7}")
    for r in results:
        shown = ", ".join(f"{k}: {v}" for k, v in r["statuses"].items())
        print(f"{r['title']:40}{r['races']:>6}  {shown:40}{r['server_errors']:>5}"
              f"{r['unexpected']:>7}{r['broken_games']:>7}")
    print()
    for r in results:
        print(f"{r['title']} ({', '.join(r['games'])}; {r['seconds']} s"
              + (f"; {r['skipped']} skipped: no position found" if r["skipped"] else "") + ")")
        if r["draw_ms_median"] is not None:
            print(f"    the worker's draw stored {r['draw_ms_median']} ms after the move that "
                  f"called for it (median; at most {r['draw_ms_max']} ms)")
        for outcome, count in r["outcomes"].items():
            print(f"    {count:4} x {outcome}")
        for game_id, problems in r["broken_samples"]:
            print(f"    BROKEN game {game_id}: {'; '.join(problems)}")
        for game_id, _, answers in r["unexpected_samples"]:
            print(f"    UNEXPECTED game {game_id}: {answers}")
        for game_id, who, label, body in r["server_error_samples"]:
            print(f"    5xx game {game_id}: {who} {label}: {body}")


def server_errors(log: Path) -> list[str]:
    """The web server's log of each request it failed (a 5xx), with its traceback."""
    text = log.read_text(errors="replace") if log.exists() else ""
    return [m.group(0).strip() for m in re.finditer(
        r"^\S+ \S+ ERROR .*?(?=^\d{4}-\d\d-\d\d |\Z)", text, re.S | re.M)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--races", type=int, default=50, help="races of each kind")
    parser.add_argument("--kinds", nargs="+", choices=KINDS, default=list(KINDS))
    parser.add_argument("--jitter-ms", type=float, default=20.0,
                        help="each request of a race waits a random delay up to this")
    parser.add_argument("--draw-jitter-ms", type=float, default=100.0,
                        help="the same, for the requests sent against a chance draw")
    parser.add_argument("--workers", type=int, default=2, help="web server processes")
    parser.add_argument("--threads", type=int, default=sb.THREADS, help="threads per worker")
    parser.add_argument("--celery-concurrency", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()

    global PORT, ADMIN, JITTER, DRAW_JITTER
    JITTER, DRAW_JITTER = args.jitter_ms / 1000, args.draw_jitter_ms / 1000
    RNG.seed(args.seed)
    logs = Path(tempfile.mkdtemp(prefix="race-bench-"))
    results = []
    with sb.database() as url, sb.broker() as redis_url:
        sb.BROKER_URL = redis_url
        django_setup(url)
        players = Players()
        with celery_worker(url, logs / "worker.log", args.celery_concurrency), \
                web_server(url, args.workers, args.threads, logs / "web.log") as port:
            PORT = port
            ADMIN = Admin()
            for kind in args.kinds:
                results.append(run_kind(kind, args.races, players, args.seed))
                r = results[-1]
                print(f"{r['title']}: {r['races']} races in {r['seconds']} s, "
                      f"{r['server_errors']} 5xx, {r['unexpected']} unexpected, "
                      f"{r['broken_games']} broken", file=sys.stderr)
        POOL.shutdown()
        from django.db import connections

        connections.close_all()

    tracebacks = server_errors(logs / "web.log")
    worker_errors = [m.group(0).strip() for m in re.finditer(
        r"^\[[^\]]*: ERROR/.*?(?=^\[|\Z)", (logs / "worker.log").read_text(errors="replace"),
        re.S | re.M)]
    print(f"{args.races} races of each kind, web server {args.workers}x{args.threads}, a Celery "
          f"worker drawing chance, up to {args.jitter_ms:g} ms between a race's requests")
    print_table(results)
    print(f"web server log: {logs / 'web.log'} ({len(tracebacks)} error(s) logged); "
          f"worker log: {logs / 'worker.log'}")
    if tracebacks:
        print("the first:\n" + tracebacks[0])
    if worker_errors:
        print(f"the worker logged {len(worker_errors)} error(s); the first:\n"
              + worker_errors[0][:3000])
    if args.json:
        Path(args.json).write_text(json.dumps({
            "races": args.races, "workers": args.workers, "threads": args.threads,
            "jitter_ms": args.jitter_ms, "draw_jitter_ms": args.draw_jitter_ms,
            "kinds": results, "server_errors_logged": tracebacks[:20],
            "worker_errors_logged": len(worker_errors), "worker_errors": worker_errors[:5],
        }, indent=1, default=str))
    failed = any(r["server_errors"] or r["broken_games"] or r["unexpected"] for r in results)
    return 1 if failed or tracebacks else 0


if __name__ == "__main__":
    sys.exit(main())
