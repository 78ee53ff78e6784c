"""Service benchmark: the API under the web server (granian), against PostgreSQL.

    .venv/bin/python benchmarks/service_bench.py [--games 100] [--clients 8] [--runs 3]
        [--workers 3] [--threads 2]

Starts a throwaway PostgreSQL cluster and Redis (scripts/testservices.py) unless
DATABASE_URL / REDIS_URL are set, migrates, creates the games, starts the web
server (marram_site/server.py, production settings, plain HTTP) on 127.0.0.1 on a
free port, and plays the games through the HTTP API with concurrent clients
(threads, one keep-alive connection each). Each move is
``GET /api/games/{id}/`` as the player the game awaits, then
``POST /api/games/{id}/actions/`` with a random legal action. The run stops
when every game has ~``--events`` events or is over, or after ``--seconds``.
It does that ``--runs`` times, each time on fresh games, and reports the median of
each figure over the runs (the machine is shared: one run can be a third slower
than the next, which is also why each run measures its own ping).

Targets on the 2-core reference machine: GET state p50 <= 10 ms, POST action
p50 <= 20 ms, >= 200 moves/s. Beside them: ``GET /api/ping/`` (a bare DRF view)
p50 under the same load, the floor that every request pays, and the ratios.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import orjson  # the client parses fast: its CPU is taken from the server's two cores

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from marram_site.server import THREADS, default_workers  # noqa: E402

WORKERS = default_workers()
"""The web server's layout unless a benchmark says otherwise: the service's own."""

VENV_BIN = Path(sys.executable).parent


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


@contextlib.contextmanager
def database() -> Iterator[str]:
    if os.environ.get("DATABASE_URL"):
        yield os.environ["DATABASE_URL"]
        return
    from testservices import postgres

    with postgres() as url:
        yield url


@contextlib.contextmanager
def broker() -> Iterator[str]:
    """Redis for Celery: requests enqueue their tasks as in production (no worker
    runs them here: delivery is not what this measures)."""
    if os.environ.get("REDIS_URL"):
        yield os.environ["REDIS_URL"]
        return
    from testservices import redis

    with redis() as url:
        yield url


BROKER_URL = ""
SECRET_KEY = "benchmark-only-" + uuid.uuid4().hex
"""One key for the set-up and the server: what one signs (a session), the other reads."""


def server_env(url: str) -> dict[str, str]:
    """Production settings, but plain HTTP on 127.0.0.1 (no TLS proxy in front)."""
    return {
        **os.environ,
        "DJANGO_ENV": "production",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DATABASE_URL": url,
        "DATABASE_CONN_MAX_AGE": "600",
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": SECRET_KEY,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_LOG_LEVEL": "WARNING",
        "MARRAM_WEB_ACCESS_LOG": "0",
        "REDIS_URL": BROKER_URL,
        "CELERY_TASK_ALWAYS_EAGER": "0",
        # the fly and frog drawn in the move's own transaction: no worker needed,
        # and every POST pays for the draws that follow it
        "MARRAM_DRAW_INLINE": "1",
    }


def prepare(url: str, games: int, variant: str | None, game: str = "marram") -> list[dict]:
    """Migrate, then create the players and games directly through the services: two
    seats each, ``game`` (a registry key) with its default options, Marram's
    ``variant`` and long length for Marram."""
    os.environ.update(server_env(url))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "marram_site.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from rest_framework.authtoken.models import Token

    from games import services

    call_command("migrate", verbosity=0)
    User = get_user_model()
    tokens: dict[str, str] = {}
    players = []
    for n in range(16):
        user, _ = User.objects.get_or_create(username=f"bench{n}")
        tokens[user.username] = Token.objects.get_or_create(user=user)[0].key
        players.append(user)
    out = []
    for g in range(games):
        a, b = players[g % 16], players[(g * 7 + 3) % 16 if (g * 7 + 3) % 16 != g % 16 else
                                        (g + 1) % 16]
        # three days a move, as the lobby page offers: the clocks run
        options = {"variant": variant, "length": "long"} if game == "marram" else {}
        made = services.game_create(user=a, game=game, options=options, seats=2,
                                    days_per_move=3)
        services.game_join(game=made, user=b)
        out.append({"id": made.pk, "tokens": {a.username: tokens[a.username],
                                              b.username: tokens[b.username]}})
    from django.db import connections

    connections.close_all()
    return out


def play_on(pk: int, target: int, seed: object, options: dict[str, Any]) -> tuple[int, int]:
    """Play the game on through the services to ``target`` events, as its players
    would: each move a random one of the rules' (``bot_action``'s "random") by
    the seat the game awaits, each draw made at once (a worker's task would make
    it a moment later). A game over sooner is replaced by a new one between the
    same players (``options``, three days a move), played on in its turn.
    Returns the moves made and the id of the game played on."""
    from django.test import override_settings

    from games import selectors, services
    from games.models import Game

    def seated(game: Game) -> dict[int, Any]:
        return {seat.index: seat.user for seat in game.seats.select_related("user")}

    moves, game, tries = 0, Game.objects.get(pk=pk), 0
    users, rng = seated(game), random.Random(f"{seed}:{pk}")
    with override_settings(MARRAM_DRAW_INLINE=True):
        while game.seq < target or game.status != Game.Status.RUNNING:
            if game.status != Game.Status.RUNNING:  # over too soon: another
                if (tries := tries + 1) > 20:
                    raise SystemExit(f"{game.game} {options}: 20 games in a row ended "
                                     f"before {target} events")
                made = services.game_create(user=users[0], game=game.game, options=options,
                                            seats=2, days_per_move=3)
                services.game_join(game=made, user=users[1])
                game = Game.objects.get(pk=made.pk)
                users = seated(game)
                continue
            rules, state = selectors.rules_of(game), selectors.game_state_get(game)
            wait = rules.awaiting(state)
            if wait.chance is not None:
                services.chance_resolve(game.pk)
            else:
                seat = rng.choice(list(wait.players))
                action = rules.bot_action(state, seat, rng, "random")
                services.action_submit(game=game.pk, user=users[seat], action=dict(action),
                                       expected_seq=game.seq)
                moves += 1
            game = Game.objects.get(pk=game.pk)
    return moves, game.pk


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until_up(process: subprocess.Popen, port: int, path: str, what: str,
                  ready: Callable[[bytes], bool] = lambda body: True) -> None:
    """Until ``path`` on the server ``process`` started answers 200 (and
    ``ready`` likes its body), for 30 s at most."""
    deadline = time.monotonic() + 30
    while True:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", path)
            answer = conn.getresponse()
            if answer.status == 200 and ready(answer.read()):
                return
        except OSError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not start")
        time.sleep(0.1)


@contextlib.contextmanager
def web_server(url: str, workers: int, threads: int, script: Path | None = None
               ) -> Iterator[int]:
    """The web server as production starts it (``python -m marram_site.server``),
    ``workers`` processes of ``threads`` threads; or ``script``, another benchmark's,
    which starts the same server around its own application factory."""
    port = free_port()
    argv = [sys.executable, *([str(script)] if script else ["-m", "marram_site.server"])]
    env = {**server_env(url), "MARRAM_WEB_BIND": f"127.0.0.1:{port}",
           "MARRAM_WEB_WORKERS": str(workers), "MARRAM_WEB_THREADS": str(threads)}
    process = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    web_server.pid = process.pid  # type: ignore[attr-defined]
    try:
        wait_until_up(process, port, "/api/ping/", "the web server")
        yield port
    finally:
        from testservices import stop

        stop(process, timeout=15)


TICK = os.sysconf("SC_CLK_TCK")


def process_cpu(pid: int) -> float:
    """CPU seconds (user + system) a process has used, from /proc."""
    return stat_cpu(Path(f"/proc/{pid}/stat"))


def stat_cpu(stat: Path) -> float:
    """CPU seconds (user + system) in a /proc stat file (a process's, a thread's)."""
    try:
        fields = stat.read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def machine_cpu() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine so far."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]
    return (sum(values) - idle) / TICK, sum(values) / TICK


def postmaster(url: str) -> int | None:
    """The pid of the PostgreSQL server listening on the URL's port, if it runs here."""
    port = url.rsplit(":", 1)[-1].split("/", 1)[0]
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            argv = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if argv and argv[0].endswith(b"postgres") and b"-p" in argv and \
                argv[argv.index(b"-p") + 1:argv.index(b"-p") + 2] == [port.encode()]:
            return int(proc.name)
    return None


def cpu_snapshot(server_pid: int, db_pid: int | None) -> dict[str, float]:
    busy, total = machine_cpu()
    db = [db_pid, *children(db_pid)] if db_pid else []
    return {
        "server": sum(process_cpu(p) for p in [server_pid, *children(server_pid)]),
        "client": process_cpu(os.getpid()),
        "database": sum(process_cpu(p) for p in db),
        "busy": busy,
        "total": total,
    }


class Client:
    """One keep-alive HTTP/1.1 connection; records the latency of each request by
    kind. It writes requests and reads answers (the service gives every one a
    Content-Length) on the socket itself: http.client's header parsing alone
    took a tenth of a core, and this client shares the server's two cores."""

    def __init__(self, port: int, timings: dict[str, list[float]]) -> None:
        self.port = port
        self.timings = timings
        self.sock: socket.socket | None = None
        self.pending = b""
        self.head = ""
        """The last answer's status line and headers."""

    def _connect(self) -> socket.socket:
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=30)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.pending = b""
        return sock

    def _read_answer(self, sock: socket.socket) -> tuple[int, bytes]:
        data = self.pending
        while (end := data.find(b"\r\n\r\n")) < 0:
            data += self._recv(sock)
        head, rest = data[:end].decode("latin-1"), data[end + 4:]
        status = int(head[9:12])
        # a 304 has no body, and may have no Content-Length
        length = next((int(line.split(":", 1)[1]) for line in head.split("\r\n")[1:]
                       if line[:15].lower() == "content-length:"), 0)
        self.head = head
        while len(rest) < length:
            rest += self._recv(sock)
        self.pending = rest[length:]
        return status, rest[:length]

    @staticmethod
    def _recv(sock: socket.socket) -> bytes:
        chunk = sock.recv(262144)
        if not chunk:
            raise ConnectionError("the server closed the connection")
        return chunk

    def request(self, kind: str, method: str, path: str, token: str | None = None,
                payload: object = None, headers: tuple[str, ...] = ()) -> tuple[int, object]:
        """``headers``: more header lines ("Cookie: ...")."""
        lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Accept: application/json"]
        if token:
            lines.append(f"Authorization: Token {token}")
        lines += headers
        body = b"" if payload is None else orjson.dumps(payload)
        if payload is not None:
            lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
        message = ("\r\n".join(lines) + "\r\n\r\n").encode() + body
        for attempt in (1, 2):
            try:
                started = time.perf_counter()
                if self.sock is None:
                    self.sock = self._connect()
                self.sock.sendall(message)
                status, raw = self._read_answer(self.sock)
                self.timings.setdefault(kind, []).append(time.perf_counter() - started)
                return status, orjson.loads(raw) if raw else None
            except OSError:  # closed by the server (keep-alive timeout): once more
                if self.sock is not None:
                    self.sock.close()
                self.sock = None
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")


def awaited_seat(awaiting: dict) -> int | None:
    """The seat a game awaits: the one seat's, or the first of several seats'
    (each may act); None when it awaits no seat (over, or a draw)."""
    if "player" in awaiting:
        return awaiting["player"]
    seats = awaiting.get("seats") or []
    return seats[0]["seat"] if seats else None


def post_random_action(client: Client, gid: int, token: str, view: dict, rng: random.Random,
                       counts: dict[str, int], lock: threading.Lock) -> tuple[int, Any]:
    """POST one of the view's legal actions, chosen at random, and count it: a move
    and its events, or the refusal's status."""
    action = dict(rng.choice(view["legal_actions"]))
    action.pop("player")
    status, answer = client.request(
        "post_action", "POST", f"/api/games/{gid}/actions/", token,
        {"seq": view["seq"], "idempotency_key": uuid.uuid4().hex, "action": action})
    with lock:
        if status == 201:
            counts["moves"] += 1
            counts["events"] = counts.get("events", 0) + len(answer["events"])
        else:
            counts[f"http_{status}"] = counts.get(f"http_{status}", 0) + 1
    return status, answer


def play(port: int, games: list[dict], target: int, deadline: float, seed: int,
         timings: dict[str, list[float]], counts: dict[str, int], lock: threading.Lock,
         limit: int | None = None) -> None:
    """Play these games in turn, one move at a time: GET the game as the player it
    awaits, POST a random legal action (the answer says whom it awaits next)."""
    rng = random.Random(seed)
    client = Client(port, timings)
    first = {g["id"]: next(iter(g["tokens"])) for g in games}
    seats: dict[int, dict[int, str]] = {}
    waiting: dict[int, int | None] = {}
    live = list(games)
    moves = 0
    while live and time.monotonic() < deadline and (limit is None or moves < limit):
        for game in list(live):
            gid = game["id"]
            known = seats.get(gid, {}).get(waiting.get(gid))
            name = known or first[gid]
            status, view = client.request("get_state", "GET", f"/api/games/{gid}/",
                                          game["tokens"][name])
            assert status == 200, (status, view)
            seats[gid] = {p["seat"]: p["name"] for p in view["game"]["players"]}
            if view["state"] is not None:
                waiting[gid] = awaited_seat(view["state"]["awaiting"])
            if view["status"] == "running" and view["you"] != waiting[gid]:
                continue  # asked as the wrong player (or the server draws): ask again
            if view["status"] != "running" or view["seq"] >= target:
                live.remove(game)
                continue
            status, answer = post_random_action(client, gid, game["tokens"][name], view, rng,
                                                counts, lock)
            if status == 201:
                moves += 1
                waiting[gid] = awaited_seat(answer["awaiting"])
                if answer["status"] != "running":
                    live.remove(game)
            if time.monotonic() >= deadline:
                break


def ping_under_load(port: int, stop: threading.Event, timings: dict[str, list[float]]) -> None:
    client = Client(port, timings)
    while not stop.is_set():
        client.request("ping_under_load", "GET", "/api/ping/")
        time.sleep(0.05)  # a probe, ~15 a second: not part of the load


def load_phase(port: int, url: str, games: list[dict], args: argparse.Namespace,
               run: int) -> dict:
    """8 clients (and a ping) against the server until the games reach ~--events
    events or --seconds pass: the figures of one run."""
    timings: dict[str, list[float]] = {}
    counts = {"moves": 0, "events": 0}
    lock = threading.Lock()
    stop = threading.Event()
    pinger = threading.Thread(target=ping_under_load, args=(port, stop, timings))
    pinger.start()
    db_pid = postmaster(url)
    cpu_before = cpu_snapshot(web_server.pid, db_pid)  # type: ignore[attr-defined]
    started = time.monotonic()
    deadline = started + args.seconds
    threads = [
        threading.Thread(target=play, args=(port, games[i::args.clients], args.events,
                                            deadline, 1000 * run + i, timings, counts, lock))
        for i in range(args.clients)
    ]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    elapsed = time.monotonic() - started
    cpu_after = cpu_snapshot(web_server.pid, db_pid)  # type: ignore[attr-defined]
    stop.set()
    pinger.join()
    cpu = {k: cpu_after[k] - cpu_before[k] for k in cpu_before}
    ms = {k: [v * 1000 for v in vs] for k, vs in timings.items()}
    moves = max(counts["moves"], 1)
    figures = {
        "seconds": round(elapsed, 1),
        "moves": counts["moves"],
        "events": counts["events"],
        "moves_per_s": round(counts["moves"] / elapsed, 1),
        "events_per_s": round(counts["events"] / elapsed, 1),
        "errors": {k: v for k, v in counts.items() if k.startswith("http_")},
        # where the machine's CPU went during the load phase
        "server_cpu_ms_per_move": round(cpu["server"] * 1000 / moves, 2),
        "client_cpu_ms_per_move": round(cpu["client"] * 1000 / moves, 2),
        "database_cpu_ms_per_move": round(cpu["database"] * 1000 / moves, 2),
        "machine_busy_percent": round(100 * cpu["busy"] / max(cpu["total"], 1e-9), 1),
        # CPU used by neither the server, this client nor the database: other tenants
        "others_percent": round(100 * (cpu["busy"] - cpu["server"] - cpu["client"]
                                       - cpu["database"]) / max(cpu["total"], 1e-9), 1),
    }
    for kind in ("get_state", "post_action", "ping_under_load"):
        figures[f"{kind}_p50_ms"] = round(percentile(ms[kind], 50), 2)
        figures[f"{kind}_p95_ms"] = round(percentile(ms[kind], 95), 2)
        figures[f"{kind}_n"] = len(ms[kind])
    ping = figures["ping_under_load_p50_ms"]
    figures["get_state_p50_over_ping"] = round(figures["get_state_p50_ms"] / ping, 2)
    figures["post_action_p50_over_ping"] = round(figures["post_action_p50_ms"] / ping, 2)
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--workers", type=int, default=WORKERS,
                        help="web server processes (the server's default: one a core)")
    parser.add_argument("--threads", type=int, default=THREADS, help="threads per worker")
    parser.add_argument("--events", type=int, default=150, help="events to play a game to")
    parser.add_argument("--solo-moves", type=int, default=200,
                        help="moves played first by one client alone (service times)")
    parser.add_argument("--seconds", type=float, default=120, help="longest load phase")
    parser.add_argument("--variant", default="animals",
                        choices=("classic", "pitchfork", "animals"))
    parser.add_argument("--runs", type=int, default=3,
                        help="load phases, each on fresh games; figures are their medians")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()

    global BROKER_URL
    with database() as url, broker() as redis_url:
        BROKER_URL = redis_url
        t = time.perf_counter()
        # fresh games for each run (and a few for the client alone)
        sets = [prepare(url, args.games, args.variant) for _ in range(args.runs)]
        solo_games = prepare(url, args.clients, args.variant)
        print(f"prepared {args.runs} x {args.games} {args.variant} games in "
              f"{time.perf_counter() - t:.1f} s", file=sys.stderr)
        with web_server(url, args.workers, args.threads) as port:
            timings: dict[str, list[float]] = {}
            idle = Client(port, timings)
            for _ in range(300):
                idle.request("ping_idle", "GET", "/api/ping/")
            # One client alone: the service time of each request, without queueing.
            play(port, solo_games, args.solo_moves, time.monotonic() + 30, 99,
                 timings, {"moves": 0, "events": 0}, threading.Lock(), limit=args.solo_moves)
            runs = []
            for run, games in enumerate(sets):
                runs.append(load_phase(port, url, games, args, run))
                r = runs[-1]
                print(f"run {run + 1}: {r['moves']} moves in {r['seconds']} s, "
                      f"{r['moves_per_s']} moves/s, GET {r['get_state_p50_ms']} ms, POST "
                      f"{r['post_action_p50_ms']} ms, ping {r['ping_under_load_p50_ms']} ms, "
                      f"server CPU {r['server_cpu_ms_per_move']} ms a move", file=sys.stderr)

    ms = {k: [v * 1000 for v in vs] for k, vs in timings.items()}
    figures: dict = {
        "games": args.games,
        "variant": args.variant,
        "clients": args.clients,
        "workers": args.workers,
        "threads_per_worker": args.threads,
        "runs": runs,
    }
    # each figure: the median over the runs (each run measured against its own ping)
    for key in runs[0]:
        if isinstance(runs[0][key], (int, float)):
            figures[key] = round(statistics.median(r[key] for r in runs), 2)
    figures["errors"] = {k: sum(r["errors"].get(k, 0) for r in runs)
                         for r in runs for k in r["errors"]}
    for kind in ("get_state", "post_action", "ping_idle"):
        figures[f"{kind}_solo_p50_ms"] = round(percentile(ms[kind], 50), 2)
        figures[f"{kind}_solo_p95_ms"] = round(percentile(ms[kind], 95), 2)
    ping_solo = figures["ping_idle_solo_p50_ms"]

    print(f"{args.games} {args.variant} games, {args.clients} clients, web server "
          f"{args.workers}x{args.threads}, median of {args.runs} run(s)"
          + (f" (moves/s from {min(r['moves_per_s'] for r in runs)} to "
             f"{max(r['moves_per_s'] for r in runs)})" if args.runs > 1 else ""))
    # "x ping": against the ping under the same load (or alone, for one client)
    rows = [
        (f"GET state ({args.clients} clients)", "get_state", 10, "x"),
        (f"POST action ({args.clients} clients)", "post_action", 20, "x"),
        (f"GET ping ({args.clients} clients)", "ping_under_load", None, "x"),
        ("GET state (1 client)", "get_state_solo", None, "solo"),
        ("POST action (1 client)", "post_action_solo", None, "solo"),
        ("GET ping (1 client)", "ping_idle_solo", None, "solo"),
    ]
    print(f"{'':26}{'p50 ms':>9}{'p95 ms':>9}{'x ping':>8}{'target':>12}")
    for label, kind, target, base in rows:
        p50 = figures[f"{kind}_p50_ms"]
        ratio = (figures.get(f"{kind}_p50_over_ping", 1.0) if base == "x"
                 else p50 / ping_solo)
        ok = "" if target is None else (f"<= {target}" + (" ok" if p50 <= target else " MISS"))
        print(f"{label:26}{p50:9.2f}{figures[f'{kind}_p95_ms']:9.2f}{ratio:8.2f}{ok:>12}")
    rate_ok = "ok" if figures["moves_per_s"] >= 200 else "MISS"
    print(f"moves/s {figures['moves_per_s']} (target >= 200: {rate_ok}); events/s "
          f"{figures['events_per_s']}; errors {figures['errors'] or 'none'}")
    print(f"CPU a move: web server {figures['server_cpu_ms_per_move']} ms, PostgreSQL "
          f"{figures['database_cpu_ms_per_move']} ms, this client "
          f"{figures['client_cpu_ms_per_move']} ms; the machine was "
          f"{figures['machine_busy_percent']}% busy, {figures['others_percent']}% of it "
          "by other processes")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
