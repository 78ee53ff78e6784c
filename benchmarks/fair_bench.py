"""Marram beside boardgame.io, made fair: production shape, equal pinned cores, every
process counted, cold games, contention, short and long matches (issue 37).

    .venv/bin/python benchmarks/fair_bench.py [--runs 5] [--shape 1+1|2shared]
        [--game marram|pond|animals_on_board|make_a_snake ...]
        [--phase solo|hot|cold|contended|short|long ...] [--moves 400] [--json FILE]
        [--cold-games 2000] [--cold-events N] [--side marram|boardgame.io]
        [--marram-env NAME=VALUE ...]

Needs root and cgroup v1's cpuacct controller at /sys/fs/cgroup/cpuacct (the
benchmark machine's), node and npm (boardgame.io's side is installed as
compare_bench.py installs it), openssl (the mail sink's certificate), and
PostgreSQL and Redis as the tests find them (scripts/testservices.py). It starts
its own cluster and Redis: an outside DATABASE_URL or REDIS_URL would leave their
processes uncounted.

The two sides
-------------
Marram runs as docker-compose.yml ships it, read from that file: every service of
the app's image with its command, and the app's environment (x-marram-env) with
its defaults: ``marram_site.settings_production``; the web server (a worker
process for each core it may run on, 2 threads each, a line of access log a
request); the stream server (MARRAM_STREAM on); the Celery workers of the default
queue (a thread a core, in one process), of the computers' queue (Celery's
default concurrency; the race has no computer player, so it only idles), of the
webhooks' and of the pushes' queues (4 each); beat; Redis (broker, the stream's
pub/sub, the cache) and PostgreSQL.
Chance is drawn by the worker's task after the move that calls for it
(MARRAM_DRAW_INLINE off); kept connections live 60 s, statements are prepared
after 5 uses, no health checks; no VAPID key, so no push is sent. Every player
has an address and the default mail policy, and the worker sends mail to an SMTP
sink over STARTTLS, as to a provider, checking its certificate against the
system's certificate authorities as in production (the sink's self-signed
certificate added to them: benchmarks/mail_sink.py). Not started: ``migrate``
(run once before), ``web2`` (a second machine's web server) and ``mail`` (replies
by mail; the race sends none). What differs from compose: no nginx in front of
either side (its CPU would be the same work for both, and boardgame.io has no
proxy either); plain HTTP on 127.0.0.1, so no redirect to HTTPS and no trusted
proxy; the Celery workers named apart (``-n``), as they share one host; the app
connects as the cluster's owner, not as compose's ``marram_app`` role; PostgreSQL
as the tests run it (fsync off: the disk is not measured).

boardgame.io 0.50.2 runs benchmarks/peer/server.js (its Server, socket.io, the
lobby, bgio-postgres) with NODE_ENV=production, its matches in a database of their
own, ``peer``, in the same PostgreSQL cluster. Its game is compare_bench.py's
placement game, its length (tiles) set by each phase.

Both sides are played by Node clients, pinned off the server's cores:
benchmarks/peer/marram_clients.js (Marram's API over HTTP, each seat following
its game on its stream) and benchmarks/peer/clients.js (boardgame.io's socket.io
clients), through the same CONFIG.json. Each seat's first view of its game is
taken in the set-up on both sides: boardgame.io's seats are sent theirs when they
sync; Marram's are the answers of a GET of the game as each seat, made by the
preparing processes once the worker has made the draws the games' start called
for, so the web server measured has never held those states. Until b8bb148
Marram's clients took theirs by GETs inside the window (about 1.5 a game), which
boardgame.io's side never paid. Each client prints ``ready`` once set up
(streams or sockets open, matches made), plays on a line ``go``, and prints its
figures as one JSON line: accepted moves, the mover's round trip (Marram: the
POST until its 201; boardgame.io: the emit until the mover's socket has the
update) and "next player can act" (from sending the move until the next player
holds a state they can move from: Marram, the view on that player's stream with
legal actions for them, after the draw when the move called for one;
boardgame.io, that player's socket receiving the update with them to move).

Cores
-----
``--shape 1+1`` (the default, the issue's "one core each"): each side's server
processes on core 0 (an affinity, as taskset sets, inherited by whatever they
start); PostgreSQL, the clients, the mail sink and this process on core 1.
``--shape 2shared``: nothing pinned, every process on both cores, boardgame.io as
two Node processes sharing the matches (the clients' ``bases``, match i on shard
i mod 2). The issue's "two cores each" needs four cores (two for a server, two
for PostgreSQL and the clients); this machine has two, so 2shared is NOT that
shape: a server shares its cores with PostgreSQL and the clients.

What is counted
---------------
Every process is started in a cpuacct cgroup of its kind,
/sys/fs/cgroup/cpuacct/fairbench/{marram_server,bgio_server,database,clients,sink,
harness} (made at the start, removed at the end): a process and whatever it
starts stay in the group, and a group's ``cpuacct.usage`` keeps the CPU of
processes that have exited (respawned workers, PostgreSQL backends closed by a
pool, autovacuum workers, the prefork pools' children). Marram's server group
holds the web server, the stream server, the Celery workers and their pools,
beat and Redis; boardgame.io's holds node. PostgreSQL serves both; the sides run
one after the other, so the database group's CPU during a side's phase is that
side's. The groups are read before a phase's moves and after its work is done:

- total CPU a move: the side's server group, the database and the clients, over
  the accepted moves; each part shown too;
- moves per server core-second: accepted moves over the server group's CPU
  seconds, beside moves per second of the clock;
- the mover's round trip and "next player can act", p50 and p95;
- refused and accepted submissions, errors (any answer not expected), stalls,
  mails the sink received;
- the side's standing cost: its server group's CPU a second with nothing asked of
  it (measured for 2 s after it starts), which every window pays;
- Marram's server CPU a move by service (web, stream, each Celery worker, beat,
  Redis), from /proc: live processes only, so it can fall short of the group's.

Not counted in either side, and shown apart: the mail sink (it stands for the
mail provider), and this process (it prepares Marram's games outside the
windows, and within one only asks Redis and PostgreSQL every 0.1 s whether the
work is done, their CPU for that counted with them). ``others`` is the CPU of
the server's cores spent outside every group here: other tenants of the machine.

A phase
-------
Once a phase's clients are set up, the side's database is vacuumed, analysed and
checkpointed (neither side pays for the other's dead rows or dirty pages), and
the harness waits until the side is quiet (its server and the database under 3%
of a core for 0.3 s, no query of the side's running). Then the groups are read
and the clients told ``go``. The phase ends once the clients have made its
accepted moves (``--moves``, the same on both sides) AND the work those moves
caused is done: for Marram, every Celery queue the settings route to empty, no
task reserved or running (kombu's ``unacked``), no outbox row due
(notifications.models.Notification pending with its time come), no game waiting
for a draw; for both, no query of the side's running and the side quiet again.
Only then are the groups read again.

The phases, each on games (matches) of its own:

- ``solo``: one client alone, 8 games, ``--solo-moves`` moves: latency without
  queueing (its p50 "next player can act" is the issue's one-client target);
- ``hot``: compare_bench's load: 100 games, 8 clients, one keep-alive connection
  a client for all its seats, 16 players sharing the games (every state, token
  and connection in a cache), the long length (Marram to 150 events,
  boardgame.io's 100 tiles), ``--moves`` moves, each game a few of them;
- ``cold``: ``--cold-games`` games, each between two players of its own, a
  connection a seat (``per_seat``), each game touched once (``--cold-touches``).
  Its clients are set up first and its moves played last, at least the token
  cache's life (accounts.auth.TOKEN_CACHE_SECONDS, 30 s) after the set-up: every
  token, every game's state and every connection then misses (the web server
  closes a connection idle for 30 s, so a seat's move opens a new one). With
  ``--cold-events N`` the games are long ones, as a correspondence game's move
  finds them: Marram's are played on to N events before the run, through the
  services by the preparing processes (random moves of the rules' own, each draw
  made at once), so the web server has never held them; boardgame.io's matches
  are played on in their clients' set-up by the moves Marram's games take on
  average to reach N events. 2,000
  games by default: with nothing in front of it to hold the players' connections
  (nginx in production, which keeps 16 to each web server), the web server is
  let hold one a seat (``MARRAM_WEB_CONNECTIONS``; as shipped it holds 1,024 in
  all, granian's default backpressure);
- ``contended``: the hot set-up with every move sent twice at once for its seat
  from two connections (a player's two devices), the same move from the same
  view: one is accepted, the other should be refused (Marram: 409 with the
  current seq). Accepted moves are the phase's moves. Afterwards every one of
  Marram's games of the phase must pass the project's check (verify_game's
  ``game_problems``: a replay from zero against what is stored, the seq against
  the number of events);
- ``short`` and ``long``: the match-length sweep, whole matches played to
  ``--short-events`` / ``--long-events`` events (Marram) and ``--short-tiles`` /
  ``--long-tiles`` tiles (boardgame.io), as many games as the moves need (the
  moves a match takes: from random self-play of the engine for Marram, tiles
  less one for boardgame.io; at least one game a client).

In every phase Marram's player events stored are counted against the clients'
accepted moves (a move lost or stored twice is reported), and the outbox rows the
phase wrote by kind, status and note. Every seat holds its stream open (its page
is open), so most turn mails are skipped by the mail policy ("the player is
looking at the game", "that turn is over"): the phases do not have the player
away from the game whom a correspondence game mails.

Runs and figures
----------------
For each game, ``--runs`` runs (5), the side that goes first alternating; in each
run each side starts afresh: its servers started, Marram's games of the run
prepared beforehand through the services by two processes, outside every window
(the mail of their start marked skipped: it is the set-up's). Each run's
figures are printed as they come; then, per game and phase, each figure's median
over the runs with its range (min-max) on both sides, the ratio Marram /
boardgame.io and the issue's targets: total CPU a move <= 0.8x (hot and cold),
moves per server core-second >= 1.25x, one client's p50 "next player can act"
no worse (<= 1.0x). ``--json`` writes every run's figures; ``--side`` runs one
side alone (to check it). A run of Pond takes about 2.5 minutes on the 2-core
machine, Make-a-snake's (a draw after most moves) about twice that, most of it
setting up (Marram's games, boardgame.io's matches through its lobby): the
default, 4 games x 5 runs, about an hour, more when other work shares the
machine. Each side-run's logs (servers, workers, clients) are kept in the
directory printed at the start when they hold a traceback, an error or a 5xx,
or with ``--keep-logs``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import queue
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import compare_bench as cb  # noqa: E402  (its directory first on the path)
import mail_sink  # noqa: E402
import service_bench as sb  # noqa: E402

ROOT = sb.ROOT
PEER = cb.PEER
GAMES = cb.GAMES
OPTIONS = {"marram": {"variant": "animals", "length": "long"}}
"""Each game's options on Marram's side (the lobby's defaults otherwise)."""
PHASES = ("solo", "hot", "cold", "contended", "short", "long")
SIDES = ("marram", "boardgame.io")
CGROUP_ROOT = Path("/sys/fs/cgroup/cpuacct")
GROUPS = ("marram_server", "bgio_server", "database", "clients", "sink", "harness")
SERVER_GROUP = {"marram": "marram_server", "boardgame.io": "bgio_server"}
SHARED_PLAYERS = 16
"""Players sharing the games of every phase but the cold one (compare_bench's)."""
DAYS_PER_MOVE = 3
QUIET_SHARE = 0.03
"""A side is quiet when its server and the database use less than this share of a
core over QUIET_WINDOW seconds."""
QUIET_WINDOW = 0.3
DRAIN_LIMIT = 180.0
"""The longest a phase waits for the work its moves caused (then it is reported)."""
WEB_CONNECTIONS = 1024
"""Connections Marram's web server holds at once as shipped (granian's default
backpressure, among all its workers): nginx holds the players' own connections in
production, so few reach it. With nothing in front here, the web server is let
hold one connection a seat of the cold phase, and a margin
(``MARRAM_WEB_CONNECTIONS``, ``web_connections``)."""


def web_connections(args: argparse.Namespace) -> int:
    """The connections the web server is let hold: every seat of the cold phase
    with one of its own, the hot games' clients and a margin."""
    return max(WEB_CONNECTIONS, 2 * args.cold_games + 4 * args.hot_games + 256)


STREAM_LIMIT = 5000
"""MARRAM_STREAM_MAX_CONNECTIONS as the settings ship it: the cold phase's seats
each hold a stream."""


# ---------------------------------------------------------------- cores and cgroups


def shape_cores(shape: str) -> tuple[set[int], set[int]]:
    """(the servers' cores, the other processes' cores) for a shape."""
    cores = sorted(os.sched_getaffinity(0))
    if shape == "2shared":
        return set(cores), set(cores)
    if len(cores) < 2:
        raise SystemExit("shape 1+1 needs two cores")
    return {cores[0]}, {cores[1]}


class Cgroups:
    """The cpuacct groups of every process the benchmark starts, under one parent."""

    def __init__(self, name: str = "fairbench") -> None:
        self.base = CGROUP_ROOT / name

    def __enter__(self) -> Cgroups:
        if not (CGROUP_ROOT / "cpuacct.usage").exists() or not os.access(CGROUP_ROOT, os.W_OK):
            raise SystemExit(f"needs cgroup v1's cpuacct at {CGROUP_ROOT}, writable (root)")
        for group in GROUPS:
            (self.base / group).mkdir(parents=True, exist_ok=True)
        self.move(os.getpid(), "harness")
        return self

    def __exit__(self, *exc: object) -> None:
        """Processes left in a group (none, unless a stop failed) are ended; the
        harness goes back to the root; the groups are removed."""
        for group in GROUPS:
            path = self.base / group
            for pid in self.pids(group):
                if pid != os.getpid() and group not in ("harness", "database"):
                    print(f"ending pid {pid}, left in {group}", file=sys.stderr)
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGKILL)
                with contextlib.suppress(OSError):
                    (CGROUP_ROOT / "cgroup.procs").write_text(str(pid))
            for _ in range(50):
                try:
                    path.rmdir()
                    break
                except OSError:
                    time.sleep(0.1)
        with contextlib.suppress(OSError):
            self.base.rmdir()

    def pids(self, group: str) -> list[int]:
        return [int(p) for p in (self.base / group / "cgroup.procs").read_text().split()]

    def move(self, pid: int, group: str) -> None:
        """The process and all its threads into ``group``."""
        (self.base / group / "cgroup.procs").write_text(str(pid))

    def usage(self) -> dict[str, int]:
        """Each group's CPU so far, in ns, exited processes included."""
        return {g: int((self.base / g / "cpuacct.usage").read_text()) for g in GROUPS}

    def usage_by_core(self) -> dict[str, list[int]]:
        return {g: [int(v) for v in (self.base / g / "cpuacct.usage_percpu").read_text().split()]
                for g in GROUPS}

    @contextlib.contextmanager
    def placed(self, group: str, cores: set[int]) -> Iterator[None]:
        """While inside, this process is in ``group`` and its thread on ``cores``, so
        that whatever it starts starts there (and stays: children inherit both)."""
        home = os.sched_getaffinity(0)
        self.move(os.getpid(), group)
        os.sched_setaffinity(0, cores)
        try:
            yield
        finally:
            self.move(os.getpid(), "harness")
            os.sched_setaffinity(0, home)


def core_busy() -> dict[int, float]:
    """Each core's busy CPU seconds so far, from /proc/stat (idle and iowait left out)."""
    busy = {}
    for line in Path("/proc/stat").read_text().splitlines():
        name, *values = line.split()
        if name.startswith("cpu") and name != "cpu":
            ticks = [int(v) for v in values[:8]]
            busy[int(name[3:])] = (sum(ticks) - ticks[3] - ticks[4]) / sb.TICK
    return busy


def stop(process: subprocess.Popen, timeout: float = 20) -> None:
    from testservices import stop as stop_process

    if process.poll() is None:
        stop_process(process, timeout)


# ---------------------------------------------------------------- the mail sink


class Sink(mail_sink.Sink):
    """The SMTP sink (benchmarks/mail_sink.py) in a process of its own, in the sink
    group, on the clients' cores."""

    def __init__(self, cgroups: Cgroups, cores: set[int], workdir: Path) -> None:
        super().__init__(workdir, sb.free_port())
        with cgroups.placed("sink", cores):
            self.start(ROOT)


# ---------------------------------------------------------------- the Node clients


class NodeClients:
    """One run of a side's Node clients: set up, ``go``, their figures."""

    def __init__(self, cgroups: Cgroups, cores: set[int], script: Path, config: dict,
                 logdir: Path, name: str) -> None:
        self.config_path = logdir / f"{name}.json"
        self.config_path.write_text(json.dumps(config))
        self.lines: queue.Queue[str] = queue.Queue()
        self.log = logdir / f"{name}.log"
        with cgroups.placed("clients", cores), self.log.open("ab") as err:
            self.process = subprocess.Popen(
                ["node", str(script), str(self.config_path)], stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=err, text=True, cwd=ROOT)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:  # type: ignore[union-attr]
            self.lines.put(line)
        self.lines.put("")

    def _line(self, timeout: float, what: str, want: Callable[[str], bool]) -> str:
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                line = None
            if not line:
                self.close()
                why = "nothing in time" if line is None else "exited"
                tail = self.log.read_text(errors="replace")[-2000:]
                raise RuntimeError(f"the clients ({self.config_path.name}): {what} ({why})"
                                   f"\n{tail}")
            if want(line.strip()):
                return line.strip()

    def ready(self, timeout: float) -> None:
        self._line(timeout, "not ready", lambda line: line == "ready")

    def play(self, timeout: float) -> dict:
        self.process.stdin.write("go\n")  # type: ignore[union-attr]
        self.process.stdin.flush()  # type: ignore[union-attr]
        return json.loads(self._line(timeout, "no figures", lambda line: line.startswith("{")))

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.process.stdin.close()  # type: ignore[union-attr]
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


# ---------------------------------------------------------------- the phases


@dataclass
class Phase:
    """One phase's work, the same on both sides but for each side's game."""

    name: str
    moves: int
    clients: int
    connections: str
    contended: bool
    marram_games: int
    marram_target: int
    bgio_games: int
    bgio_tiles: int
    distinct_players: bool = False
    events_before: int = 0
    """Marram: the events each game is played to before the run (0: fresh games)."""
    bgio_moves_before: int = 0
    """boardgame.io: the moves each match is played on before the run, as many as
    Marram's games take on average to reach ``events_before``."""

    def label(self) -> str:
        how = f"{self.clients} client{'s' * (self.clients > 1)}, {self.connections} connections"
        if self.contended:
            how += ", every move sent twice"
        if self.events_before:
            how += (f", Marram's games played to {self.events_before} events and "
                    f"boardgame.io's matches {self.bgio_moves_before} moves before the run")
        return (f"{self.moves} moves; Marram {self.marram_games} games to {self.marram_target} "
                f"events, boardgame.io {self.bgio_games} matches of {self.bgio_tiles} tiles; "
                + how)


def moves_a_match(kind: str, target: int, samples: int = 20) -> float:
    """How many moves a game of ``kind`` (two seats, Marram's options) takes to reach
    ``target`` events or its end, on average over random self-play of the engine:
    a server's events (automatic, chance) count as the service counts them."""
    from engine import registry
    from engine.fairness import draw_event
    from engine.protocol import read_options
    from engine.selfplay import secret_seed

    rules = registry.get(kind)
    options = read_options(rules, OPTIONS.get(kind, {}), 2)
    total = 0
    for n in range(samples):
        rng, secret = random.Random(n), secret_seed(n)
        state = rules.start(rules.setup(options, ["a", "b"], secret))
        events = 0
        while events < target and not (wait := rules.awaiting(state)).finished:
            event = rules.automatic(state)
            if event is None and wait.chance is not None:
                event = draw_event(secret, events, rules.chance(state))
            elif event is None:
                event = rules.bot_action(state, rng.choice(wait.players), rng, "random")
                total += 1
            state = rules.fold(state, event)
            events += 1
    return total / samples


def cold_phase(kind: str, args: argparse.Namespace, hot: dict[str, Any]) -> Phase:
    """The cold phase: fresh games, or with ``--cold-events`` games already long
    (a correspondence game's move: its state in no cache, many events behind
    it), each side's played on before the run by the same number of moves."""
    phase = Phase("cold", args.cold_games * args.cold_touches,
                  **{**hot, "connections": "per_seat"}, marram_games=args.cold_games,
                  bgio_games=args.cold_games, distinct_players=True)
    if args.cold_events:
        before = round(moves_a_match(kind, args.cold_events))
        phase.events_before, phase.bgio_moves_before = args.cold_events, before
        # room after them for the touches (a match of n tiles takes n - 1 moves)
        phase.marram_target = args.cold_events + args.long_events
        phase.bgio_tiles = max(args.long_tiles, before + args.cold_touches + 2)
    return phase


def phases_for(kind: str, args: argparse.Namespace) -> list[Phase]:
    """The phases asked for, sized for this game."""
    hot = {"clients": args.clients, "connections": "shared", "contended": False,
           "marram_target": args.long_events, "bgio_tiles": args.long_tiles}
    made = {
        "solo": Phase("solo", args.solo_moves, **{**hot, "clients": 1}, marram_games=8,
                      bgio_games=8),
        "hot": Phase("hot", args.moves, **hot, marram_games=args.hot_games,
                     bgio_games=args.hot_games),
        "cold": cold_phase(kind, args, hot),
        "contended": Phase("contended", args.moves, **{**hot, "contended": True},
                           marram_games=args.hot_games, bgio_games=args.hot_games),
    }
    for name, events, tiles in (("short", args.short_events, args.short_tiles),
                                ("long", args.long_events, args.long_tiles)):
        # whole matches: as many as the moves need, at least one a client
        marram = max(args.clients, math.ceil(args.moves / moves_a_match(kind, events)))
        bgio = max(args.clients, math.ceil(args.moves / max(tiles - 1, 1)))
        made[name] = Phase(name, args.moves, **{**hot, "marram_target": events,
                                                "bgio_tiles": tiles},
                           marram_games=marram, bgio_games=bgio)
    return [made[name] for name in args.phase]


# ---------------------------------------------------------------- what a phase measures


@dataclass
class Sample:
    at: float
    usage: dict[str, int]
    by_core: dict[str, list[int]]
    busy: dict[int, float]
    mails: int
    parts: dict[str, float]
    """CPU seconds of each of the side's services, live processes only (from /proc)."""


def tree_cpu(pid: int) -> float:
    """CPU seconds of a process and its live descendants, from /proc."""
    total = sb.process_cpu(pid)
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError):
                total += sum(tree_cpu(int(c)) for c in (task / "children").read_text().split())
    return total


@dataclass
class Bench:
    """What every phase shares: the cgroups, the cores, the sink, the services."""

    args: argparse.Namespace
    cgroups: Cgroups
    server_cores: set[int]
    other_cores: set[int]
    sink: Sink
    url: str
    peer_url: str
    redis_url: str
    workdir: Path
    redis_pid: int = 0
    parts: Callable[[], dict[str, float]] = dict
    """The running side's services' CPU (MarramStack.parts), for the breakdown."""

    def sample(self) -> Sample:
        return Sample(time.monotonic(), self.cgroups.usage(), self.cgroups.usage_by_core(),
                      core_busy(), self.sink.count(), self.parts())

    def tidy(self, database_url: str) -> float:
        """Vacuum, analyse and checkpoint a side's database before its phase; the
        seconds it took."""
        import psycopg

        started = time.monotonic()
        with psycopg.connect(database_url, autocommit=True) as conn:
            conn.execute("VACUUM (ANALYZE)")
            conn.execute("CHECKPOINT")
        return time.monotonic() - started

    def running_queries(self, database: str) -> int:
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            row = conn.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND state = 'active' "
                "AND pid <> pg_backend_pid() AND backend_type = 'client backend'",
                (database,)).fetchone()
        return int(row[0]) if row else 0

    def quiet(self, group: str, database: str, limit: float = 30.0) -> float:
        """Wait until the side's server and the database idle and no query of the
        side's runs; the seconds it took."""
        started = time.monotonic()
        groups = (group, "database")
        last = self.cgroups.usage()
        while time.monotonic() - started < limit:
            time.sleep(QUIET_WINDOW)
            now = self.cgroups.usage()
            used = sum(now[g] - last[g] for g in groups) / 1e9
            last = now
            if used < QUIET_SHARE * QUIET_WINDOW and self.running_queries(database) == 0:
                break
        return time.monotonic() - started

    def set_up(self, phase: Phase, script: Path, config: dict, logdir: Path,
               rest: float = 0.0) -> SetUp:
        """A phase's clients, set up (streams or sockets open, matches made) and
        waiting for ``go``; ``rest``: seconds that must pass before their moves."""
        games = len(config["games"]) if isinstance(config["games"], list) else config["games"]
        started = time.monotonic()
        clients = NodeClients(self.cgroups, self.other_cores, script, config, logdir,
                              f"{phase.name}-clients")
        try:
            # a match played on before the run: about 5 ms a move on a loaded machine
            clients.ready(120 + games * (0.1 + 0.02 * config.get("moves_before", 0)))
        except BaseException:
            clients.close()
            raise
        return SetUp(phase, clients, time.monotonic() - started, time.monotonic() + rest)

    def measure(self, side: str, ready: SetUp, database: str, database_url: str,
                drain: Callable[[], list[str]]) -> dict:
        """A phase on one side, its clients set up: the side's database tidied, the
        side quiet, the groups read, the moves, the work they caused drained, the
        side quiet again, the groups read again."""
        group = SERVER_GROUP[side]
        try:
            time.sleep(max(0.0, ready.moves_from - time.monotonic()))
            tidied = time.monotonic()
            tidy = self.tidy(database_url)
            self.quiet(group, database)
            before = self.sample()
            result = ready.clients.play(self.args.seconds + 120)
            ended = time.monotonic()
            left = wait_for_drain(drain)
            self.quiet(group, database)
            after = self.sample()
        finally:
            ready.clients.close()
        figures = phase_figures(result, before, after, group, self.server_cores)
        figures["drain_s"] = round(after.at - ended, 2)
        figures["setup_s"] = round(ready.seconds, 2)
        figures["tidy_s"] = round(tidy, 2)
        figures["quiet_s"] = round(before.at - tidied - tidy, 2)
        if left:
            figures["not_drained"] = left
        return figures


@dataclass
class SetUp:
    """A phase's clients, set up and waiting for ``go``."""

    phase: Phase
    clients: NodeClients
    seconds: float
    moves_from: float
    """The moment from which the moves may start (time.monotonic)."""


def play_order(phases: list[Phase]) -> list[Phase]:
    """The cold phase last: its clients are set up first (its set-up outside every
    window), and its games then wait for the others' phases while the caches of
    its set-up age out."""
    return [p for p in phases if p.name != "cold"] + [p for p in phases if p.name == "cold"]


def run_phases(phases: list[Phase], set_up: Callable[[Phase], SetUp],
               measure: Callable[[SetUp], dict]) -> dict[str, dict]:
    """A side's phases: the cold one's clients set up first, every phase measured
    in play_order."""
    early = {p.name: set_up(p) for p in phases if p.name == "cold"}
    out = {}
    try:
        for phase in play_order(phases):
            out[phase.name] = measure(early.pop(phase.name, None) or set_up(phase))
    finally:
        for waiting in early.values():
            waiting.clients.close()
    return out


def idle(bench: Bench, side: str, database: str, seconds: float = 2.0) -> dict[str, float]:
    """The side's standing cost, its servers up and nothing asked of them: CPU ms a
    second of its server group and of the database."""
    group = SERVER_GROUP[side]
    bench.quiet(group, database)
    before = bench.sample()
    time.sleep(seconds)
    after = bench.sample()
    spent = {g: (after.usage[g] - before.usage[g]) / 1e6 / (after.at - before.at)
             for g in (group, "database")}
    return {"idle_server_ms_per_s": round(spent[group], 2),
            "idle_database_ms_per_s": round(spent["database"], 2)}


def wait_for_drain(drain: Callable[[], list[str]]) -> list[str]:
    """Until ``drain`` finds nothing left (DRAIN_LIMIT at most): what was left."""
    deadline = time.monotonic() + DRAIN_LIMIT
    while (left := drain()) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


def phase_figures(result: dict, before: Sample, after: Sample, group: str,
                  server_cores: set[int]) -> dict:
    seconds = {g: (after.usage[g] - before.usage[g]) / 1e9 for g in GROUPS}
    moves = result["moves"]
    per_move = max(moves, 1)
    server, database, clients = seconds[group], seconds["database"], seconds["clients"]
    window = after.at - before.at
    ours = sum((after.by_core[g][c] - before.by_core[g][c]) / 1e9
               for g in GROUPS for c in server_cores)
    busy = sum(after.busy[c] - before.busy[c] for c in server_cores)
    refused = result.get("refused", 0)
    return {
        "moves": moves,
        "seconds": round(result["seconds"], 2),
        "moves_per_s": round(result["moves_per_s"], 1),
        "total_cpu_ms": round((server + database + clients) * 1000 / per_move, 3),
        "server_cpu_ms": round(server * 1000 / per_move, 3),
        "database_cpu_ms": round(database * 1000 / per_move, 3),
        "clients_cpu_ms": round(clients * 1000 / per_move, 3),
        # the processes the issue lists for each side, the clients left out
        "server_database_cpu_ms": round((server + database) * 1000 / per_move, 3),
        "moves_per_server_core_s": round(moves / server, 1) if server else 0.0,
        "move_p50_ms": round(result["move_p50_ms"], 2),
        "move_p95_ms": round(result["move_p95_ms"], 2),
        "next_p50_ms": round(result["next_p50_ms"], 2),
        "next_p95_ms": round(result["next_p95_ms"], 2),
        "accepted": moves,
        "refused": refused,
        "refused_ok": result.get("refused_ok", 0),
        "accepted_share": round(moves / max(moves + refused, 1), 3),
        "errors": result.get("errors", {}),
        "games_over": result.get("games_over", 0),
        "stalls": result.get("stalls", 0),
        # Marram's reads of a game in the window: a stall's, or a settled game's
        "gets": result.get("gets", 0),
        "mails": after.mails - before.mails,
        "sink_cpu_ms": round(seconds["sink"] * 1000 / per_move, 3),
        "harness_cpu_ms": round(seconds["harness"] * 1000 / per_move, 3),
        "clients_own_cpu_ms": round(result.get("client_cpu_s", 0.0) * 1000 / per_move, 3),
        "window_s": round(window, 2),
        "others_percent": round(100 * max(busy - ours, 0.0)
                                / max(window * len(server_cores), 1e-9), 1),
        "server_parts_ms": {name: round((after.parts[name] - spent) * 1000 / per_move, 3)
                            for name, spent in before.parts.items() if name in after.parts},
    }


# ---------------------------------------------------------------- Marram's side


COMPOSE = ROOT / "docker-compose.yml"
NOT_STARTED = {
    "migrate": "it runs once, before the services",
    "web2": "a second web machine's web server: one web server here, a process a core",
    "mail": "it takes players' replies by mail, of which the race sends none",
}
"""docker-compose's services of the app's image that are not started here, and why."""
IMAGE_ENV = {"PYTHONDONTWRITEBYTECODE": "1", "PYTHONUNBUFFERED": "1"}
"""What the Dockerfile sets beside x-marram-env."""


def compose() -> dict:
    import yaml

    return yaml.safe_load(COMPOSE.read_text())


def compose_value(value: object) -> str:
    """A value of docker-compose.yml with each ${NAME:-default} as its default
    (innermost first) and each required ${NAME:?...} empty (set here instead)."""
    import re

    text = str(value)
    pattern = re.compile(r"\$\{[A-Za-z0-9_]+(?::?([-?])([^${}]*))?\}")
    while (found := pattern.search(text)) is not None:
        default = found.group(2) if found.group(1) == "-" else ""
        text = text[:found.start()] + (default or "") + text[found.end():]
    return text


def marram_env(bench: Bench) -> dict[str, str]:
    """docker-compose.yml's environment (x-marram-env, defaults as shipped) and the
    image's, on this machine's services: plain HTTP on 127.0.0.1 (no proxy and
    no TLS in front: no redirect to HTTPS, no trusted proxy), mail to the sink."""
    keep = {k: os.environ[k] for k in ("PATH", "HOME", "LANG", "TMPDIR") if k in os.environ}
    shipped = {k: compose_value(v) for k, v in compose()["x-marram-env"].items()}
    redis_base = bench.redis_url.rsplit("/", 1)[0]
    return {
        **keep,
        **IMAGE_ENV,
        **shipped,
        "DJANGO_SECRET_KEY": sb.SECRET_KEY,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_SECURE_SSL_REDIRECT": "false",
        "MARRAM_TRUSTED_PROXIES": "",
        "DATABASE_URL": bench.url,
        # nothing in front to hold the players' connections as nginx does
        "MARRAM_WEB_CONNECTIONS": str(web_connections(bench.args)),
        "REDIS_URL": f"{redis_base}/{shipped['REDIS_URL'].rsplit('/', 1)[1]}",
        "CACHE_URL": f"{redis_base}/{shipped['CACHE_URL'].rsplit('/', 1)[1]}",
        **bench.sink.env(),
        # a mechanism switched off to measure what it saves (--marram-env)
        **dict(pair.split("=", 1) for pair in bench.args.marram_env or ()),
    }


def queues() -> set[str]:
    """Every Celery queue the settings route tasks to."""
    from django.conf import settings

    return {settings.CELERY_TASK_DEFAULT_QUEUE,
            *(route["queue"] for route in settings.CELERY_TASK_ROUTES.values())}


class MarramStack:
    """Marram's processes, each service of docker-compose.yml run from the app's
    image (but NOT_STARTED) with its command as shipped, on this machine: in the
    server group on the servers' cores. Redis (started once for the whole
    benchmark) is in the same group."""

    def __init__(self, bench: Bench, logdir: Path) -> None:
        self.bench, self.logdir = bench, logdir
        self.env = marram_env(bench)
        self.processes: dict[str, subprocess.Popen] = {}
        self.web_port = sb.free_port()
        self.stream_port = sb.free_port()
        self.waits: list[Callable[[], None]] = []

    def command(self, name: str, shipped: list[str]) -> list[str]:
        """A service's command as compose ships it, on this machine: its program
        from this virtualenv, listening on 127.0.0.1, its files in the logs."""
        program, *rest = [compose_value(word) for word in shipped]
        argv = [sys.executable] if program == "python" else [sys.executable, "-m", program]
        for word in rest:
            if word.startswith("--host="):
                word = "--host=127.0.0.1"
            elif word.startswith("--port="):
                word = f"--port={self.stream_port}"
            elif word.startswith("--schedule="):
                word = f"--schedule={self.logdir / 'celerybeat-schedule'}"
            argv.append(word)
        if program == "celery" and "worker" in rest:
            argv += ["-n", f"{name}@%h"]  # one host here: each worker named apart
        return argv

    def _start(self, name: str, argv: list[str]) -> None:
        env = {**self.env, "MARRAM_WEB_BIND": f"127.0.0.1:{self.web_port}"}
        with self.bench.cgroups.placed("marram_server", self.bench.server_cores), \
                (self.logdir / f"{name}.log").open("ab") as out:
            process = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=out,
                                       stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self.processes[name] = process
        if "marram_site.server" in argv:
            self.waits.append(lambda: sb.wait_until_up(process, self.web_port, "/api/ping/",
                                                       "the web server"))
        elif "uvicorn" in argv:
            self.waits.append(lambda: sb.wait_until_up(
                process, self.stream_port, "/stream/health", "the stream server",
                lambda body: json.loads(body)["subscribed"]))
        elif "celery" in argv:
            marker = " ready." if "worker" in argv else "beat: Starting"
            self.waits.append(lambda: self._wait_log(name, marker))

    def parts(self) -> dict[str, float]:
        """Each service's CPU seconds (its live processes), and Redis's."""
        parts = {name: tree_cpu(process.pid) for name, process in self.processes.items()}
        parts["redis"] = sb.process_cpu(self.bench.redis_pid)
        return parts

    def _wait_log(self, name: str, marker: str) -> None:
        process = self.processes[name]
        log = self.logdir / f"{name}.log"
        deadline = time.monotonic() + 60
        while marker not in log.read_text(errors="replace"):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{name} did not start:\n"
                                   + log.read_text(errors="replace")[-3000:])
            time.sleep(0.1)

    def __enter__(self) -> MarramStack:
        shipped = compose()
        image = shipped["x-marram-app"]["image"]
        try:
            for name, service in shipped["services"].items():
                if service.get("image") == image and name not in NOT_STARTED:
                    self._start(name, self.command(name, service["command"]))
            for wait in self.waits:
                wait()
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        for process in self.processes.values():
            process.terminate()
        for process in self.processes.values():
            stop(process, 30)


def django_setup(bench: Bench) -> None:
    """This process on Marram's settings (to prepare games and check them)."""
    os.environ.update(marram_env(bench))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    # mail's pages and the admin name static files through the manifest
    call_command("collectstatic", verbosity=0, interactive=False)


def players(prefix: str, count: int) -> list[tuple[int, str, str]]:
    """``count`` players named ``prefix``N, each with an address and an API token,
    made once (id, name, token)."""
    import binascii

    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    User = get_user_model()
    names = [f"{prefix}{n}" for n in range(count)]
    have = set(User.objects.filter(username__in=names).values_list("username", flat=True))
    made = User.objects.bulk_create([
        User(username=name, email=f"{name}@players.example", password="!")
        for name in names if name not in have])
    Token.objects.bulk_create([Token(user=user, key=binascii.hexlify(os.urandom(20)).decode())
                               for user in made])
    rows = (User.objects.filter(username__in=names)
            .values_list("pk", "username", "auth_token__key"))
    found = {name: (pk, name, key) for pk, name, key in rows}
    return [found[name] for name in names]


def _pool_init(env: dict[str, str]) -> None:
    os.environ.update(env)
    import django

    django.setup()


def _make_games(kind: str, pairs: list[tuple[int, int]]) -> list[int]:
    """A pool worker's share: a game for each pair of players (ids), the first
    creating it, the second joining it (which starts it)."""
    from django.contrib.auth import get_user_model
    from django.db import connections

    from games import services

    users = get_user_model().objects.in_bulk({pk for pair in pairs for pk in pair})
    ids = []
    for a, b in pairs:
        made = services.game_create(user=users[a], game=kind, options=OPTIONS.get(kind, {}),
                                    seats=2, days_per_move=DAYS_PER_MOVE)
        services.game_join(game=made, user=users[b])
        ids.append(made.pk)
    connections.close_all()
    return ids


def _play_on(pks: list[int], kind: str, target: int, seed: int) -> tuple[int, dict[int, int]]:
    """A pool worker's share of the cold phase's games played on, before the run,
    to ``target`` events (service_bench.play_on: random moves through the
    services, each draw made at once; a game over sooner replaced). Returns the
    moves made and the replacements (old id: new id)."""
    from django.db import connections

    moves, replaced = 0, {}
    for pk in pks:
        made, played = sb.play_on(pk, target, seed, OPTIONS.get(kind, {}))
        moves += made
        if played != pk:
            replaced[pk] = played
    connections.close_all()
    return moves, replaced


def _first_views(games: list[dict]) -> list[dict]:
    """A pool worker's share: each seat's first view of its game, the answer of a
    GET of the game as that seat (through the application as the web server runs
    it, in this process: the web server measured never holds these states)."""
    from django.db import connections
    from django.test import Client

    client = Client(HTTP_HOST="127.0.0.1")
    out = []
    for game in games:
        seats = []
        for seat in game["seats"]:
            answer = client.get(f"/api/games/{game['id']}/",
                                HTTP_AUTHORIZATION=f"Token {seat['token']}")
            if answer.status_code != 200:
                raise RuntimeError(f"game {game['id']} as {seat['name']}: "
                                   f"{answer.status_code} {answer.content[:300]!r}")
            seats.append({**seat, "view": answer.json()})
        out.append({**game, "seats": seats})
    connections.close_all()
    return out


class Preparer:
    """Marram's games, made through the services by two processes (this process's
    cores are the clients' in 1+1: the pool may use every core, outside the runs)."""

    def __init__(self, bench: Bench) -> None:
        import multiprocessing

        self.bench = bench
        self.shared = players("fair", SHARED_PLAYERS)
        self.distinct = players("faircold", 2 * bench.args.cold_games)
        context = multiprocessing.get_context("spawn")
        with bench.cgroups.placed("harness", bench.server_cores | bench.other_cores):
            self.pool = context.Pool(2, _pool_init, (marram_env(bench),))

    def close(self) -> None:
        self.pool.close()
        self.pool.join()

    def first_views(self, games: dict[str, list[dict]]) -> dict[str, list[dict]]:
        """The games with each seat's first view (``_first_views``), read once the
        side's worker has made the draws the games' start called for."""
        out = {}
        for name, of_phase in games.items():
            chunks = [of_phase[i:i + 50] for i in range(0, len(of_phase), 50)]
            out[name] = [g for part in self.pool.map(_first_views, chunks) for g in part]
        return out

    def games(self, kind: str, phases: list[Phase], seed: int) -> dict[str, list[dict]]:
        """The games of every Marram phase of a run, as the clients take them."""
        from games.models import Game
        from notifications.models import Notification

        rng = random.Random(seed)
        pairs: dict[str, list[tuple[tuple, tuple]]] = {}
        for phase in phases:
            if phase.distinct_players:
                people = self.distinct[:2 * phase.marram_games]
                pairs[phase.name] = [(people[2 * g], people[2 * g + 1])
                                     for g in range(phase.marram_games)]
            else:
                pairs[phase.name] = [tuple(rng.sample(self.shared, 2))  # type: ignore[misc]
                                     for _ in range(phase.marram_games)]
        every = [(a[0], b[0]) for name in pairs for a, b in pairs[name]]
        chunks = [every[i:i + 50] for i in range(0, len(every), 50)]
        ids = [pk for part in self.pool.starmap(_make_games, [(kind, c) for c in chunks])
               for pk in part]
        at, replaced = 0, []
        for phase in phases:
            mine = ids[at:at + len(pairs[phase.name])]
            at += len(mine)
            if phase.events_before:
                # the games played on before the run: a cold touch of a long game
                played = self.pool.starmap(_play_on, [
                    (mine[i::8], kind, phase.events_before, seed) for i in range(8)])
                new = {old: pk for _, part in played for old, pk in part.items()}
                ids[at - len(mine):at] = [new.get(pk, pk) for pk in mine]
                replaced.extend(new)
                print(f"  {phase.name}: {len(mine)} games played on to {phase.events_before} "
                      f"events ({sum(n for n, _ in played)} moves; {len(new)} over too "
                      "soon, replaced)", file=sys.stderr)
        # the mail of the games' start (and of the moves before the run) is the
        # set-up's, not the moves'
        Notification.objects.filter(game_id__in=ids + replaced,
                                    status=Notification.Status.PENDING).update(
            status=Notification.Status.SKIPPED, note="benchmark set-up")
        assert Game.objects.filter(pk__in=ids, status=Game.Status.RUNNING).count() == len(ids)
        out: dict[str, list[dict]] = {}
        at = 0
        for name, pairs_of in pairs.items():
            out[name] = [{"id": ids[at + i],
                          "seats": [{"name": a[1], "token": a[2]}, {"name": b[1], "token": b[2]}]}
                         for i, (a, b) in enumerate(pairs_of)]
            at += len(pairs_of)
        return out


def marram_left(redis: Any) -> list[str]:
    """What is still to do of the work the moves caused: Celery's queues and the
    tasks reserved or running (kombu's ``unacked``), mail due in the outbox, games
    waiting for a draw."""
    from django.utils import timezone

    from games.models import Game
    from notifications.models import Notification

    left = []
    for key in sorted(queues()):
        if redis.llen(key):
            left.append(f"{redis.llen(key)} tasks queued on {key}")
    if redis.hlen("unacked"):
        left.append(f"{redis.hlen('unacked')} tasks reserved or running")
    due = Notification.objects.filter(status=Notification.Status.PENDING,
                                      next_attempt_at__lte=timezone.now()).count()
    if due:
        left.append(f"{due} outbox rows due")
    drawing = Game.objects.filter(status=Game.Status.RUNNING,
                                  projection__awaiting__kind="chance").count()
    if drawing:
        left.append(f"{drawing} games waiting for a draw")
    return left


def last_pk(model: Any) -> int:
    return model.objects.order_by("-pk").values_list("pk", flat=True).first() or 0


def marram_checks(games: list[dict], events_after: int, notes_after: int, accepted: int,
                  full: bool) -> dict:
    """The phase's games against what the clients were told: the player events
    stored since the phase began against the accepted moves, none stored twice
    (the same player's same action twice in a row), and with ``full`` the
    project's check of every game (a replay from zero; seq = events)."""
    from games.management.commands.verify_game import game_problems
    from games.models import Event, Game
    from notifications.models import Notification

    ids = [g["id"] for g in games]
    stored = list(Event.objects.filter(pk__gt=events_after, game_id__in=ids,
                                       actor__isnull=False)
                  .order_by("game_id", "seq").values_list("game_id", "actor_id", "payload"))
    doubled = sum(1 for one, two in zip(stored, stored[1:], strict=False) if one == two)
    checks: dict[str, Any] = {"player_events": len(stored), "doubled": doubled,
                              "lost_or_extra": len(stored) - accepted}
    if full:
        broken = {}
        for game in Game.objects.filter(pk__in=ids):
            problems = game_problems(game)
            if problems:
                broken[game.pk] = problems[:3]
        checks["games_checked"] = len(ids)
        checks["broken_games"] = len(broken)
        if broken:
            checks["broken_samples"] = dict(list(broken.items())[:5])
    rows = (Notification.objects.filter(pk__gt=notes_after, game_id__in=ids)
            .values_list("kind", "status", "note"))
    checks["outbox"] = dict(Counter(f"{kind} {status}" + (f": {note}" if note else "")
                                    for kind, status, note in rows).most_common())
    return checks


def marram_side(bench: Bench, kind: str, phases: list[Phase], games: dict[str, list[dict]],
                logdir: Path, seed: int, preparer: Preparer) -> dict[str, dict]:
    import redis as redis_client
    from django.db import connections

    from accounts.auth import TOKEN_CACHE_SECONDS
    from games.models import Event
    from notifications.models import Notification

    redis = redis_client.Redis.from_url(bench.redis_url)
    # the cache starts empty (the queue holds the set-up's draws: the worker takes them)
    redis_client.Redis.from_url(marram_env(bench)["CACHE_URL"]).flushdb()
    with MarramStack(bench, logdir) as stack:
        wait_for_drain(lambda: marram_left(redis))
        # each seat's first view, as boardgame.io's seats are sent theirs on syncing
        games = preparer.first_views(games)
        bench.parts = stack.parts
        standing = idle(bench, "marram", "marram")

        def set_up(phase: Phase) -> SetUp:
            config = {"base": f"http://127.0.0.1:{stack.web_port}",
                      "stream_base": f"http://127.0.0.1:{stack.stream_port}",
                      "games": games[phase.name], "target_events": phase.marram_target,
                      "clients": phase.clients, "seconds": bench.args.seconds,
                      "limit": phase.moves, "connections": phase.connections,
                      "contended": phase.contended, "seed": seed + PHASES.index(phase.name)}
            # a cold game's player comes back after the tokens its set-up used expired
            rest = TOKEN_CACHE_SECONDS + 1 if phase.distinct_players else 0.0
            return bench.set_up(phase, PEER / "marram_clients.js", config, logdir, rest)

        def measure(ready: SetUp) -> dict:
            events_after, notes_after = last_pk(Event), last_pk(Notification)
            connections.close_all()
            figures = bench.measure("marram", ready, "marram", bench.url,
                                    lambda: marram_left(redis))
            figures["checks"] = marram_checks(games[ready.phase.name], events_after,
                                              notes_after, figures["accepted"],
                                              ready.phase.contended)
            connections.close_all()
            return figures

        try:
            out = run_phases(phases, set_up, measure)
        finally:
            bench.parts = dict
    redis.close()
    return {name: {**figures, **standing} for name, figures in out.items()}


# ---------------------------------------------------------------- boardgame.io's side


@contextlib.contextmanager
def bgio_servers(bench: Bench, logdir: Path) -> Iterator[list[str]]:
    """boardgame.io's server, one process (1+1) or two sharing the matches (2shared),
    in its group on the servers' cores: their addresses."""
    shards = 2 if bench.args.shape == "2shared" else 1
    processes = []
    try:
        for n in range(shards):
            port = sb.free_port()
            with bench.cgroups.placed("bgio_server", bench.server_cores), \
                    (logdir / f"bgio-{n}.log").open("ab") as err:
                process = subprocess.Popen(["node", str(PEER / "server.js"), str(port),
                                            bench.peer_url], stdout=subprocess.PIPE, stderr=err,
                                           text=True, cwd=ROOT,
                                           env={**os.environ, "NODE_ENV": "production"})
            processes.append(process)
            line = process.stdout.readline()  # type: ignore[union-attr]
            if not line.startswith("listening"):
                raise RuntimeError("boardgame.io's server did not start:\n"
                                   + (logdir / f"bgio-{n}.log").read_text(errors="replace"))
            process.stdout.close()  # type: ignore[union-attr]
        yield [f"http://127.0.0.1:{p.args[2]}" for p in processes]  # type: ignore[index]
    finally:
        for process in processes:
            stop(process, 15)


def bgio_side(bench: Bench, phases: list[Phase], logdir: Path, seed: int) -> dict[str, dict]:
    with bgio_servers(bench, logdir) as bases:

        def set_up(phase: Phase) -> SetUp:
            config = {"games": phase.bgio_games, "tiles": phase.bgio_tiles,
                      "moves_before": phase.bgio_moves_before,
                      "clients": phase.clients, "seconds": bench.args.seconds,
                      "limit": phase.moves, "connections": phase.connections,
                      "contended": phase.contended, "seed": seed + PHASES.index(phase.name)}
            config.update({"bases": bases} if len(bases) > 1 else {"base": bases[0]})
            return bench.set_up(phase, PEER / "clients.js", config, logdir)

        standing = idle(bench, "boardgame.io", "peer")
        out = run_phases(phases, set_up, lambda ready: bench.measure(
            "boardgame.io", ready, "peer", bench.peer_url, lambda: []))
    return {name: {**figures, **standing} for name, figures in out.items()}


# ---------------------------------------------------------------- reporting


ROWS = [
    # label, key, target on the ratio Marram / boardgame.io, the phases it is for
    ("total CPU a move (ms)", "total_cpu_ms", ("<=", 0.8), ("hot", "cold")),
    ("  server", "server_cpu_ms", None, ()),
    ("  PostgreSQL", "database_cpu_ms", None, ()),
    ("  clients", "clients_cpu_ms", None, ()),
    ("server and PostgreSQL a move (ms)", "server_database_cpu_ms", None, ()),
    ("moves per server core-second", "moves_per_server_core_s", (">=", 1.25), PHASES),
    ("moves/s", "moves_per_s", None, ()),
    ("mover round trip p50 (ms)", "move_p50_ms", None, ()),
    ("mover round trip p95 (ms)", "move_p95_ms", None, ()),
    ("next player can act p50 (ms)", "next_p50_ms", ("<=", 1.0), ("solo",)),
    ("next player can act p95 (ms)", "next_p95_ms", None, ()),
    ("refused submissions", "refused", None, ()),
    ("accepted share", "accepted_share", None, ()),
    ("mails delivered", "mails", None, ()),
    ("work after the last move (s)", "drain_s", None, ()),
    ("server idle (CPU ms a second)", "idle_server_ms_per_s", None, ()),
    ("others on the server cores (%)", "others_percent", None, ()),
]


def met(ratio: float, target: tuple[str, float]) -> bool:
    return ratio >= target[1] if target[0] == ">=" else ratio <= target[1]


def run_line(run: int, kind: str, side: str, phase: str, r: dict) -> str:
    line = (f"run {run + 1} {kind} {phase} {side}: {r['moves']} moves in {r['seconds']} s "
            f"({r['moves_per_s']}/s), CPU a move {r['total_cpu_ms']:.2f} ms (server "
            f"{r['server_cpu_ms']:.2f}, PostgreSQL {r['database_cpu_ms']:.2f}, clients "
            f"{r['clients_cpu_ms']:.2f}), {r['moves_per_server_core_s']} moves per server "
            f"core-s, mover p50 {r['move_p50_ms']} ms, next p50 {r['next_p50_ms']} ms, "
            f"refused {r['refused']} ({r['refused_ok']} as expected), mails {r['mails']}, "
            f"drain {r['drain_s']} s, others {r['others_percent']}%")
    if r["errors"]:
        line += f", errors {r['errors']}"
    if r.get("stalls"):
        line += f", stalls {r['stalls']}"
    if r.get("not_drained"):
        line += f", NOT DRAINED: {r['not_drained']}"
    if r.get("server_parts_ms"):
        line += "; server CPU a move by service (ms): " + ", ".join(
            f"{name} {ms:.2f}" for name, ms in r["server_parts_ms"].items())
    checks = r.get("checks")
    if checks:
        line += (f"; stored {checks['player_events']} player events "
                 f"({checks['lost_or_extra']:+d} against the accepted, {checks['doubled']} "
                 f"twice), outbox {checks['outbox']}")
        if "broken_games" in checks:
            line += f", {checks['broken_games']} of {checks['games_checked']} games broken"
    return line


def spread(values: list[float]) -> str:
    median = statistics.median(values)
    if len(values) == 1:
        return f"{median:.2f}"
    return f"{median:.2f} ({min(values):.2f}-{max(values):.2f})"


def summary(results: dict, phases: dict[str, list[Phase]], args: argparse.Namespace) -> None:
    print(f"\nMarram beside boardgame.io 0.50.2, shape {args.shape}"
          + (" (NOT the issue's two cores each: the servers share both cores with "
             "PostgreSQL and the clients)" if args.shape == "2shared" else
             " (servers on one core; PostgreSQL, the clients and the sink on the other)")
          + f", median (min-max) of {args.runs} alternating run(s)")
    for kind, by_phase in results.items():
        for phase in phases[kind]:
            runs = by_phase.get(phase.name)
            if not runs or not runs["marram"] or not runs["boardgame.io"]:
                continue
            m, b = runs["marram"], runs["boardgame.io"]
            print(f"\n{GAMES[kind]}, {phase.name}: {phase.label()}")
            print(f"{'':34}{'Marram':>24}{'boardgame.io':>24}{'ratio':>7}  target")
            for label, key, target, for_phases in ROWS:
                mv, bv = [r[key] for r in m], [r[key] for r in b]
                ratio = statistics.median(mv) / statistics.median(bv) if statistics.median(
                    bv) else None
                note = ""
                if target is not None and phase.name in for_phases and ratio is not None:
                    pairs = [x / y for x, y in zip(mv, bv, strict=False) if y]
                    hits = sum(met(p, target) for p in pairs)
                    note = (f"{target[0]} {target[1]}: {'met' if met(ratio, target) else 'NOT met'}"
                            f" ({hits} of {len(pairs)} runs)")
                shown = "-" if ratio is None else f"{ratio:.2f}"
                print(f"{label:34}{spread(mv):>24}{spread(bv):>24}{shown:>7}  {note}")
            errors = [r["errors"] for r in m + b if r["errors"]]
            checks = [r["checks"] for r in m if "checks" in r]
            print(f"errors: {errors or 'none'}; Marram's stored player events against the "
                  f"accepted moves: {[c['lost_or_extra'] for c in checks]}, twice: "
                  f"{[c['doubled'] for c in checks]}"
                  + (f", broken games: {[c['broken_games'] for c in checks]}"
                     if checks and "broken_games" in checks[0] else ""))


# ---------------------------------------------------------------- main


def logs_with_trouble(logdir: Path) -> list[str]:
    """The lines of a side-run's logs that tell of a defect: a traceback, a 5xx."""
    found = []
    for log in sorted(logdir.glob("*.log")):
        for line in log.read_text(errors="replace").splitlines():
            if "Traceback" in line or '" 50' in line or "ERROR/" in line:
                found.append(f"{log.name}: {line[:300]}")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--shape", choices=("1+1", "2shared"), default="1+1")
    parser.add_argument("--game", action="append", choices=GAMES,
                        help="a game Marram's side plays (repeat; default: all four)")
    parser.add_argument("--phase", action="append", choices=PHASES,
                        help="a phase (repeat; default: all)")
    parser.add_argument("--moves", type=int, default=400,
                        help="accepted moves of the hot, contended, short and long phases, "
                        "the same on both sides")
    parser.add_argument("--solo-moves", type=int, default=100)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--hot-games", type=int, default=100)
    parser.add_argument("--cold-games", type=int, default=2000,
                        help="games of the cold phase, each between two players of its own")
    parser.add_argument("--cold-touches", type=int, default=1,
                        help="moves a cold game gets (the cold phase's moves: games x this)")
    parser.add_argument("--cold-events", type=int, default=0,
                        help="play each cold game on to this many events before the run "
                        "(boardgame.io's matches as many moves as Marram's games take); "
                        "0: fresh games")
    parser.add_argument("--short-events", type=int, default=40)
    parser.add_argument("--long-events", type=int, default=150)
    parser.add_argument("--short-tiles", type=int, default=40)
    parser.add_argument("--long-tiles", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=600, help="longest load of a phase")
    parser.add_argument("--json", help="write every run's figures to this file")
    parser.add_argument("--keep-logs", action="store_true")
    parser.add_argument("--marram-env", action="append", metavar="NAME=VALUE",
                        help="a setting of Marram's processes beside compose's, to measure "
                        "a mechanism by switching it off (MARRAM_STATE_CACHE_SIZE=0)")
    parser.add_argument("--side", action="append", choices=SIDES,
                        help="run this side only (to check it; no ratios then)")
    args = parser.parse_args()
    args.game = args.game or list(GAMES)
    args.phase = [p for p in PHASES if p in (args.phase or PHASES)]
    if 2 * args.cold_games > STREAM_LIMIT and "cold" in args.phase:
        raise SystemExit(f"--cold-games {args.cold_games}: two streams a game would pass the "
                         f"stream server's {STREAM_LIMIT} connections")
    for var in ("DATABASE_URL", "REDIS_URL"):
        os.environ.pop(var, None)  # this benchmark's own services, every process counted

    cb.npm_install()
    from testservices import postgres, raise_on_sigterm
    from testservices import redis as redis_server

    raise_on_sigterm()
    server_cores, other_cores = shape_cores(args.shape)
    workdir = Path(tempfile.mkdtemp(prefix="fairbench-"))
    print(f"logs in {workdir}", file=sys.stderr)
    results: dict[str, dict[str, dict[str, list[dict]]]] = {}
    phases: dict[str, list[Phase]] = {}
    troubles: list[str] = []
    started = time.monotonic()
    with contextlib.ExitStack() as stack:
        cgroups = stack.enter_context(Cgroups())
        os.sched_setaffinity(0, other_cores)
        with cgroups.placed("database", other_cores):
            url = stack.enter_context(postgres())
        with cgroups.placed("marram_server", server_cores):
            redis_url = stack.enter_context(redis_server())
        redis_pid = cgroups.pids("marram_server")[0]  # nothing else runs there yet
        sink = Sink(cgroups, other_cores, workdir)
        stack.callback(sink.close)
        bench = Bench(args, cgroups, server_cores, other_cores, sink, url,
                      cb.peer_database(url), redis_url, workdir, redis_pid)
        django_setup(bench)
        preparer = Preparer(bench)
        stack.callback(preparer.close)
        for kind in args.game:
            phases[kind] = phases_for(kind, args)
            results[kind] = {p.name: {side: [] for side in SIDES} for p in phases[kind]}
            for run in range(args.runs):
                seed = 1000 * run
                made = time.monotonic()
                games = preparer.games(kind, phases[kind], seed)
                print(f"run {run + 1} {kind}: {sum(map(len, games.values()))} Marram games "
                      f"prepared in {time.monotonic() - made:.1f} s", file=sys.stderr)
                order = SIDES if run % 2 == 0 else SIDES[::-1]
                for side in (s for s in order if s in (args.side or SIDES)):
                    logdir = workdir / f"{kind}-{run + 1}-{side}"
                    logdir.mkdir()
                    if side == "marram":
                        figures = marram_side(bench, kind, phases[kind], games, logdir, seed,
                                              preparer)
                    else:
                        figures = bgio_side(bench, phases[kind], logdir, seed)
                    for name, r in figures.items():
                        results[kind][name][side].append(r)
                        print(run_line(run, kind, side, name, r), file=sys.stderr, flush=True)
                    trouble = logs_with_trouble(logdir)
                    troubles += trouble[:20]
                    if not trouble and not args.keep_logs:
                        shutil.rmtree(logdir, ignore_errors=True)
    summary(results, phases, args)
    print(f"\n{time.monotonic() - started:.0f} s in all; the sink's and this process's CPU "
          "are not counted in either side")
    if troubles:
        print(f"lines in the logs that tell of a defect (kept in {workdir}):")
        for line in troubles[:40]:
            print(f"  {line}")
    elif not args.keep_logs:
        shutil.rmtree(workdir, ignore_errors=True)
    if args.json:
        Path(args.json).write_text(json.dumps(
            {"args": vars(args), "phases": {k: [vars(p) for p in v] for k, v in phases.items()},
             "runs": results, "log_troubles": troubles}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
