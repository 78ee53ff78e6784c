"""Marram beside boardgame.io: the same machine, the same PostgreSQL, alternating runs.

    .venv/bin/python benchmarks/compare_bench.py [--runs 3] [--games 100] [--clients 8]
        [--seconds 90] [--moves N] [--game marram|pond|animals_on_board|make_a_snake]
        [--follow stream|get]

Installs boardgame.io's side first (``npm install --prefix benchmarks/peer``, into
benchmarks/peer/node_modules, pinned by its package.json and package-lock.json;
nothing else installs it: not CI, not the tests). Starts one throwaway PostgreSQL
cluster (and Redis, for Marram's Celery queue) with scripts/testservices.py
unless DATABASE_URL / REDIS_URL are set; boardgame.io's matches go to a database
of their own, ``peer``, in the same cluster. Then ``--runs`` times, the two
systems in turn (Marram first in odd runs, boardgame.io first in even ones),
each on a server started afresh for the run and fresh games:

- Marram: the web server with the production settings (as benchmarks/service_bench.py,
  whose set-up this reuses), ``--games`` games of two seats: Marram's Animals
  variant, or with ``--game`` another game of the service, its options the
  lobby's defaults. boardgame.io's side plays the same placement game for each:
  the kind of work (a turn-based game, its legal moves listed after each move)
  is the same, the rules are each game's own. A client plays its games
  in turn, one move at a time: a POST of a random legal action for the player
  the game awaits. The POST's answer carries ``view``, the game as the mover
  sees it. Each seat's client holds its seat's stream (the stream server,
  marram_site/stream.py, started here with MARRAM_STREAM on; the address from
  ``GET /api/games/<id>/stream/``), as the next player's browser would: when
  the next move is someone else's, that player's view (its legal actions) is
  the one its stream was sent. With ``--follow get`` there is no stream server,
  and the client GETs the game as that player instead. **A move's round trip
  is the POST alone** (the wait for the stream's view, or the GET, is timed
  apart and shown beside it). The server's CPU is the web server's, the
  stream server's and Redis's (its pub/sub and Celery's queue).
- boardgame.io: benchmarks/peer/server.js (boardgame.io's Server, its socket.io
  transport, bgio-postgres), ``--games`` matches of benchmarks/peer/game.js, a
  100-tile placement game whose server checks each placement's edges, scores
  it and lists every legal placement of the next player. Each seat has its own
  socket.io connection, as two browsers would. A client plays its matches in
  turn: a random legal placement from the state its socket last received, and
  **a move's round trip is from emitting the move until the mover's socket
  receives the server's update** (boardgame.io sends that update before it
  writes the move to PostgreSQL; the next move of the match waits for the
  write).

A load phase ends after ``--seconds``, or with ``--moves`` once the clients have
made that many moves in all. A move costs more as a game goes on (a bigger
board, more placements to list), so in a phase of fixed seconds the faster
system plays further into its games and pays more a move for it; ``--moves``
(with seconds enough) gives both systems the same number of moves on the same
number of games.

Each run measures, for each system: moves per second with ``--clients``
clients, the move round trip's p50 / p95 with them and with one client alone
(on 8 other games, before the load), the server's CPU a move (the web
server's processes, or node's; then PostgreSQL's, all its processes) from /proc, and
the memory an active game costs: the server's resident memory at its peak
during the load, less before it (after the one-client warm-up), over the
games. It prints each run, then the median of each figure over the runs beside
the other system's, with the ratio Marram / boardgame.io, and the three targets
(moves/s >= 1.2x, server CPU a move <= 0.8x, round-trip p50 no worse).

The clients share the server's cores (a Python process for Marram's, a Node
one for boardgame.io's); their CPU a move is shown too. The machine is shared:
``others %`` is the CPU that neither server, database nor client used.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import service_bench as sb  # noqa: E402  (its directory first on the path)
import stream_bench as stb  # noqa: E402

PEER = Path(__file__).resolve().parent / "peer"
GAMES = {"marram": "Animals", "pond": "Pond", "animals_on_board": "Animals on Board",
         "make_a_snake": "Make-a-snake"}
"""The games Marram's side may play (``--game``), each as the summary names it."""
PAGE = os.sysconf("SC_PAGE_SIZE")


def npm_install() -> None:
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        raise SystemExit("boardgame.io's side needs node and npm on the PATH")
    subprocess.run([npm, "install", "--prefix", str(PEER), "--no-audit", "--no-fund",
                    "--loglevel", "error"], check=True)


def rss(pids: list[int]) -> int:
    """Resident bytes of these processes together, from /proc."""
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            total += int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE
    return total


def tree(pid: int) -> list[int]:
    return [pid, *sb.children(pid)]


class PeakMemory:
    """Samples the resident memory of a process and its children every 0.2 s."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak = rss(tree(pid))
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._sample)

    def _sample(self) -> None:
        while not self.stop.wait(0.2):
            self.peak = max(self.peak, rss(tree(self.pid)))

    def __enter__(self) -> PeakMemory:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()
        self.peak = max(self.peak, rss(tree(self.pid)))


def cpu_figures(before: dict[str, float], after: dict[str, float], moves: int,
                client_cpu: float | None = None) -> dict[str, float]:
    cpu = {k: after[k] - before[k] for k in before}
    if client_cpu is not None:
        cpu["client"] = client_cpu
    moves = max(moves, 1)
    return {
        "server_cpu_ms": round(cpu["server"] * 1000 / moves, 2),
        "database_cpu_ms": round(cpu["database"] * 1000 / moves, 2),
        "client_cpu_ms": round(cpu["client"] * 1000 / moves, 2),
        "others_percent": round(100 * (cpu["busy"] - cpu["server"] - cpu["client"]
                                       - cpu["database"]) / max(cpu["total"], 1e-9), 1),
    }


# Marram ----------------------------------------------------------------------

def awaited(awaiting: dict) -> list[int]:
    """The seats a game awaits, from its ``awaiting``: the one seat, the seats
    awaited at once (``several``), or none (chance, the end)."""
    if "player" in awaiting:
        return [awaiting["player"]]
    return [task["seat"] for task in awaiting.get("seats", [])]


class SeatStream:
    """A seat's server-sent events (``GET /api/games/<id>/stream/`` gives the
    address), read on a socket of its own as they come: the views its client is
    sent when a move leaves it to move."""

    VIEW = b"event: view\ndata: "

    def __init__(self, port: int, path: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                          "Accept: text/event-stream\r\n\r\n".encode())
        self.raw = b""
        self.body = b""
        while b"\r\n\r\n" not in self.raw:
            self._recv()
        head, self.raw = self.raw.split(b"\r\n\r\n", 1)
        if b" 200 " not in head.split(b"\r\n", 1)[0] + b" ":
            raise RuntimeError(f"the stream refused a seat: {head[:200]!r}")
        self._unchunk()
        while b"\n\n" not in self.body:  # "retry: 3000": the seat is noted as listening
            self._recv()
            self._unchunk()

    def _recv(self) -> None:
        chunk = self.sock.recv(1 << 20)
        if not chunk:
            raise ConnectionError("the stream closed")
        self.raw += chunk

    def _unchunk(self) -> None:
        """Move the complete chunks of the chunked answer into ``body``."""
        while True:
            line_end = self.raw.find(b"\r\n")
            if line_end < 0:
                return
            size = int(self.raw[:line_end], 16)
            end = line_end + 2 + size
            if len(self.raw) < end + 2:
                return
            self.body += self.raw[line_end + 2:end]
            self.raw = self.raw[end + 2:]

    def view(self, seq: int) -> dict:
        """The first view sent at ``seq`` or later (older events are passed over)."""
        while True:
            while b"\n\n" in self.body:
                event, self.body = self.body.split(b"\n\n", 1)
                if event.startswith(self.VIEW):
                    view = json.loads(event[len(self.VIEW):])
                    if view["seq"] >= seq:
                        return view
            self._recv()
            self._unchunk()

    def close(self) -> None:
        self.sock.close()


def open_streams(port: int, stream_port: int, games: list[dict]) -> dict[tuple[int, str],
                                                                        SeatStream]:
    """A stream for every seat of these games, by (game, player), each as the
    seat's client asks for it."""
    client = sb.Client(port, {})
    streams = {}
    for game in games:
        for name, token in game["tokens"].items():
            status, answer = client.request("stream_url", "GET",
                                            f"/api/games/{game['id']}/stream/", token)
            assert status == 200 and answer["url"], (status, answer)
            streams[game["id"], name] = SeatStream(stream_port, answer["url"])
    return streams


def play_marram(port: int, games: list[dict], target: int, deadline: float, seed: int,
                timings: dict[str, list[float]], counts: dict[str, int], lock: threading.Lock,
                limit: int | None = None,
                streams: dict[tuple[int, str], SeatStream] | None = None) -> None:
    """Play these games in turn, one move at a time: a POST for a player the game
    awaits, from the view that player last had: the mover's answer, or when the
    last answer was someone else's, the view their stream was sent (with
    ``streams``), else a GET as that player; until the deadline, or until the
    clients sharing ``counts`` have made ``limit`` moves in all."""
    rng = random.Random(seed)
    client = sb.Client(port, timings)
    names = {g["id"]: list(g["tokens"]) for g in games}
    seats: dict[int, dict[int, str]] = {}
    awaiting: dict[int, list[int]] = {}
    views: dict[int, dict | None] = {}
    sent: dict[int, int] = {}  # the seq a game's view is to be sent at, by its stream
    live = list(games)

    def done() -> bool:
        return time.monotonic() >= deadline or (limit is not None and counts["moves"] >= limit)

    while live and not done():
        for game in list(live):
            gid = game["id"]
            view = views.get(gid)
            if view is None:
                name = seats.get(gid, {}).get((awaiting.get(gid) or [None])[0]) or names[gid][0]
                if streams is not None and gid in sent:
                    started = time.perf_counter()
                    view = streams[gid, name].view(sent.pop(gid))
                    timings.setdefault("stream_view", []).append(time.perf_counter() - started)
                else:
                    status, view = client.request("get_state", "GET", f"/api/games/{gid}/",
                                                  game["tokens"][name])
                    assert status == 200, (status, view)
            seats[gid] = {p["seat"]: p["name"] for p in view["game"]["players"]}
            if view["game"]["projection"] is not None:  # every game's, as the lists show it
                awaiting[gid] = awaited(view["game"]["projection"]["awaiting"])
            if view["status"] != "running" or view["seq"] >= target:
                live.remove(game)
                continue
            if view["you"] not in awaiting[gid] or not view["legal_actions"]:
                views[gid] = None  # someone else's move (or the server's): ask as them
                continue
            name = seats[gid][view["you"]]
            status, answer = sb.post_random_action(client, gid, game["tokens"][name], view, rng,
                                                   counts, lock)
            views[gid] = None
            if status == 201:
                awaiting[gid] = awaited(answer["awaiting"])
                views[gid] = answer["view"]
                if answer["view"]["you"] not in awaiting[gid] and awaiting[gid]:
                    sent[gid] = answer["seq"]  # the next player's stream is sent its view
                if answer["status"] != "running":
                    live.remove(game)
            if done():
                break


def marram_load(port: int, games: list[dict], clients: int, target: int, deadline: float,
                seed: int, timings: dict[str, list[float]], counts: dict[str, int],
                lock: threading.Lock, limit: int | None = None,
                streams: dict[tuple[int, str], SeatStream] | None = None) -> None:
    """``clients`` clients at once, each playing its share of the games
    (``play_marram``, ``limit`` moves in all at most); returns when all are done."""
    players = [threading.Thread(target=play_marram, args=(
        port, games[i::clients], target, deadline, seed + i, timings, counts, lock, limit,
        streams)) for i in range(clients)]
    for player in players:
        player.start()
    for player in players:
        player.join()


def marram_run(url: str, args: argparse.Namespace, run: int) -> dict:
    games = sb.prepare(url, args.games, "animals", args.game)
    solo_games = sb.prepare(url, 8, "animals", args.game)
    streamed = args.follow == "stream"
    with contextlib.ExitStack() as stack:
        stream_port, stream_pid = (stack.enter_context(stb.stream_server(url)) if streamed
                                   else (None, None))
        port = stack.enter_context(sb.web_server(url, args.workers, args.threads))
        pid = sb.web_server.pid  # type: ignore[attr-defined]
        # beside the web server: the stream server and Redis (its pub/sub, Celery's queue)
        redis_pid = stb.pid_of(b"redis-server",
                               int(sb.BROKER_URL.rsplit(":", 1)[1].split("/")[0]))
        helpers = {"stream": stream_pid, "redis": redis_pid}
        streams = {}
        if stream_port is not None:
            streams = open_streams(port, stream_port, [*games, *solo_games])
            stack.callback(lambda: [s.close() for s in streams.values()])
        solo: dict[str, list[float]] = {}
        warm = sb.Client(port, {})
        for _ in range(100):
            warm.request("ping", "GET", "/api/ping/")
        play_marram(port, solo_games, 10**6, time.monotonic() + 60, 99 + run, solo,
                    {"moves": 0}, threading.Lock(), limit=args.solo_moves,
                    streams=streams if streamed else None)
        before_rss = rss(tree(pid))
        timings: dict[str, list[float]] = {}
        counts = {"moves": 0}
        lock = threading.Lock()
        db_pid = sb.postmaster(url)
        cpu_before = sb.cpu_snapshot(pid, db_pid)
        helpers_before = {k: stb.server_cpu([p]) for k, p in helpers.items() if p}
        started = time.monotonic()
        deadline = started + args.seconds
        with PeakMemory(pid) as memory:
            marram_load(port, games, args.clients, args.events, deadline, 1000 * run, timings,
                        counts, lock, limit=args.moves, streams=streams if streamed else None)
        elapsed = time.monotonic() - started
        cpu_after = sb.cpu_snapshot(pid, db_pid)
        helpers_cpu = {k: stb.server_cpu([helpers[k]]) - v for k, v in helpers_before.items()}
        cpu_after["server"] += sum(helpers_cpu.values())  # the server side is all three
    ms = [v * 1000 for v in timings.get("post_action", [])]
    gets = [v * 1000 for v in timings.get("get_state", [])]
    pushed = [v * 1000 for v in timings.get("stream_view", [])]
    solo_ms = [v * 1000 for v in solo.get("post_action", [])]
    return {
        "moves": counts["moves"],
        "seconds": round(elapsed, 1),
        "moves_per_s": round(counts["moves"] / elapsed, 1),
        "p50_ms": round(sb.percentile(ms, 50), 2),
        "p95_ms": round(sb.percentile(ms, 95), 2),
        "solo_p50_ms": round(sb.percentile(solo_ms, 50), 2),
        "solo_p95_ms": round(sb.percentile(solo_ms, 95), 2),
        "get_p50_ms": round(sb.percentile(gets, 50), 2),
        "gets_per_move": round(len(gets) / max(counts["moves"], 1), 2),
        "views_per_move": round(len(pushed) / max(counts["moves"], 1), 2),
        "view_wait_p50_ms": round(sb.percentile(pushed, 50), 2) if pushed else 0.0,
        **{f"{k}_cpu_ms": round(v * 1000 / max(counts["moves"], 1), 2)
           for k, v in helpers_cpu.items()},
        "errors": {k: v for k, v in counts.items() if k.startswith("http_")},
        **cpu_figures(cpu_before, cpu_after, counts["moves"]),
        "kb_per_game": round((memory.peak - before_rss) / 1024 / args.games, 1),
        "server_rss_mb": round(memory.peak / 2**20, 1),
    }


# boardgame.io ----------------------------------------------------------------

def peer_database(url: str) -> str:
    """A database of its own for boardgame.io's matches, in the same cluster."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = 'peer'").fetchone():
            conn.execute("CREATE DATABASE peer")
    return url.rsplit("/", 1)[0] + "/peer"


def read_line(process: subprocess.Popen, timeout: float, what: str) -> str:
    """The next line the process prints; kills it if none comes within ``timeout`` s."""
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.append(process.stdout.readline()),  # type: ignore[union-attr]
                              daemon=True)
    reader.start()
    reader.join(timeout)
    if reader.is_alive() or not lines or not lines[0]:
        process.kill()
        process.wait()
        why = f"nothing in {timeout:.0f} s" if reader.is_alive() else "exited"
        raise RuntimeError(f"boardgame.io's clients: {what} ({why})")
    return lines[0]


def start_clients(port: int, clients: int, games: int, seconds: float,
                  limit: int = 0) -> tuple[subprocess.Popen, float]:
    """Starts the clients; returns once they have set their matches up."""
    config = {"base": f"http://127.0.0.1:{port}", "games": games, "clients": clients,
              "seconds": seconds, "limit": limit, "connections": "shared",
              "contended": False, "seed": 12345}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "clients.json"
        path.write_text(json.dumps(config))
        process = subprocess.Popen(["node", str(PEER / "clients.js"), str(path)],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        # each wait of the set-up is bounded in clients.js (15 s); this bounds the
        # whole (the configuration is read before the first request)
        line = read_line(process, 60 + 2 * games, "no set-up")
    if line.strip() != "ready":
        process.kill()
        process.wait()
        raise RuntimeError(f"boardgame.io's clients did not set up: {line!r}")
    return process, seconds


def finish_clients(started: tuple[subprocess.Popen, float]) -> dict:
    """Lets the clients play; their figures. A move waits at most about 14 s in
    clients.js (5 s, a sync, 2 s, twice), so 60 s past the bound is a hang."""
    process, seconds = started
    process.stdin.write("go\n")  # type: ignore[union-attr]
    process.stdin.close()  # type: ignore[union-attr]
    line = read_line(process, seconds + 60, "no figures")
    process.wait(timeout=60)
    return json.loads(line)


def peer_run(url: str, args: argparse.Namespace) -> dict:
    port = sb.free_port()
    server = subprocess.Popen(["node", str(PEER / "server.js"), str(port), url],
                              stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "NODE_ENV": "production"})
    try:
        while (line := server.stdout.readline()) and not line.startswith("listening"):  # type: ignore[union-attr]
            pass
        if not line:
            raise RuntimeError("boardgame.io's server did not start")
        solo = finish_clients(start_clients(port, 1, 8, 60, args.solo_moves))
        before_rss = rss([server.pid])
        db_pid = sb.postmaster(url)
        clients = start_clients(port, args.clients, args.games, args.seconds, args.moves or 0)
        cpu_before = sb.cpu_snapshot(server.pid, db_pid)
        with PeakMemory(server.pid) as memory:
            load = finish_clients(clients)
        cpu_after = sb.cpu_snapshot(server.pid, db_pid)
    finally:
        from testservices import stop

        stop(server, timeout=15)
    return {
        "moves": load["moves"],
        "seconds": round(load["seconds"], 1),
        "moves_per_s": round(load["moves_per_s"], 1),
        "p50_ms": round(load["move_p50_ms"], 2),
        "p95_ms": round(load["move_p95_ms"], 2),
        "solo_p50_ms": round(solo["move_p50_ms"], 2),
        "solo_p95_ms": round(solo["move_p95_ms"], 2),
        "games_over": load["games_over"],
        "stalls": load["stalls"] + solo["stalls"],
        "dropped": load["dropped"] + solo["dropped"],
        **cpu_figures(cpu_before, cpu_after, load["moves"], load["client_cpu_s"]),
        "kb_per_game": round((memory.peak - before_rss) / 1024 / args.games, 1),
        "server_rss_mb": round(memory.peak / 2**20, 1),
    }


# Both ------------------------------------------------------------------------

ROWS = [
    # label, key, target on the ratio Marram / boardgame.io ("<=" or ">=")
    ("moves/s, {clients} clients", "moves_per_s", (">=", 1.2)),
    ("move round trip p50, {clients} clients (ms)", "p50_ms", ("<=", 1.0)),
    ("move round trip p95, {clients} clients (ms)", "p95_ms", None),
    ("move round trip p50, 1 client (ms)", "solo_p50_ms", ("<=", 1.0)),
    ("move round trip p95, 1 client (ms)", "solo_p95_ms", None),
    ("server CPU a move (ms)", "server_cpu_ms", ("<=", 0.8)),
    ("PostgreSQL CPU a move (ms)", "database_cpu_ms", None),
    ("server + PostgreSQL CPU a move (ms)", "total_cpu_ms", None),
    ("client CPU a move (ms)", "client_cpu_ms", None),
    ("memory per active game (KB)", "kb_per_game", None),
    ("server resident memory, peak (MB)", "server_rss_mb", None),
    ("others' CPU during the load (%)", "others_percent", None),
]


def run_line(label: str, r: dict) -> str:
    """One run of the Marram side, as the benchmarks that alternate them print it."""
    return (f"{label}: {r['moves_per_s']:.1f} moves/s, server CPU {r['server_cpu_ms']:.2f} ms "
            f"a move, one client p50 {r['solo_p50_ms']:.2f} ms, others "
            f"{r['others_percent']:.1f}%")


def met(ratio: float, target: tuple[str, float]) -> bool:
    return ratio >= target[1] if target[0] == ">=" else ratio <= target[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--workers", type=int, default=sb.WORKERS,
                        help="web server processes (the server's default: one a core)")
    parser.add_argument("--threads", type=int, default=sb.THREADS, help="threads per worker")
    parser.add_argument("--game", default="marram", choices=GAMES,
                        help="the game Marram's side plays (Marram: its Animals variant)")
    parser.add_argument("--events", type=int, default=150,
                        help="events to play a Marram game to (boardgame.io's play to the end)")
    parser.add_argument("--solo-moves", type=int, default=200,
                        help="moves of the one client alone, before each load")
    parser.add_argument("--seconds", type=float, default=90, help="longest load phase")
    parser.add_argument("--moves", type=int, default=None,
                        help="end each load phase after this many moves in all, so that both "
                        "systems do the same work (with --seconds long enough for them)")
    parser.add_argument("--follow", choices=("stream", "get"), default="stream",
                        help="how Marram's next player learns the game: its seat's stream, "
                        "sent its view (the stream server running, MARRAM_STREAM on), or a "
                        "GET (no stream server)")
    parser.add_argument("--json", help="also write every run's figures to this file")
    args = parser.parse_args()

    npm_install()
    if args.follow == "stream":
        os.environ["MARRAM_STREAM"] = "1"  # the web server publishes each commit
    runs: dict[str, list[dict]] = {"marram": [], "boardgame.io": []}
    with sb.database() as url, sb.broker() as redis_url:
        sb.BROKER_URL = redis_url
        peer_url = peer_database(url)
        for run in range(args.runs):
            order = ["marram", "boardgame.io"] if run % 2 == 0 else ["boardgame.io", "marram"]
            for system in order:
                r = marram_run(url, args, run) if system == "marram" else peer_run(peer_url, args)
                r["total_cpu_ms"] = round(r["server_cpu_ms"] + r["database_cpu_ms"], 2)
                runs[system].append(r)
                print(f"run {run + 1} {system}: {r['moves']} moves in {r['seconds']} s, "
                      f"{r['moves_per_s']} moves/s, p50 {r['p50_ms']} ms, server CPU "
                      f"{r['server_cpu_ms']} ms a move, PostgreSQL {r['database_cpu_ms']} ms, "
                      f"{r['kb_per_game']} KB a game, others {r['others_percent']}%",
                      file=sys.stderr, flush=True)

    median = {s: {key: statistics.median(r[key] for r in rs) for _, key, _ in ROWS}
              for s, rs in runs.items()}
    m, b = runs["marram"], runs["boardgame.io"]
    print(f"\nMarram ({args.games} {GAMES[args.game]} games, web server "
          f"{args.workers}x{args.threads}) "
          f"beside boardgame.io 0.50.2 ({args.games} placement matches, bgio-postgres), "
          f"median of {args.runs} alternating run(s), each load "
          + (f"{args.moves} moves" if args.moves else f"{args.seconds:g} s"))
    print(f"{'':44}{'Marram':>10}{'bgio':>10}{'ratio':>8}  target")
    for label, key, target in ROWS:
        mv, bv = median["marram"][key], median["boardgame.io"][key]
        ratio = mv / bv if bv else float("nan")
        note = ""
        if target is not None:
            # the ratio of each run's pair, and how many pairs met the target
            pairs = [x[key] / y[key] for x, y in zip(m, b, strict=True) if y[key]]
            hits = sum(met(p, target) for p in pairs)
            note = (f"{target[0]} {target[1]}: {'met' if met(ratio, target) else 'NOT met'} "
                    f"({hits} of {len(pairs)} runs)")
        print(f"{label.format(clients=args.clients):44}{mv:10.2f}{bv:10.2f}{ratio:8.2f}  {note}")
    print(f"Marram: a move's round trip is its POST (the answer carries the mover's view); "
          f"{statistics.median(r['gets_per_move'] for r in m):.2f} GETs a move as the next "
          f"player, p50 {statistics.median(r['get_p50_ms'] for r in m):.2f} ms; "
          f"{statistics.median(r['views_per_move'] for r in m):.2f} views a move from the "
          f"next player's stream, waited for p50 "
          f"{statistics.median(r['view_wait_p50_ms'] for r in m):.2f} ms; of the server CPU "
          f"a move, the stream server's "
          f"{statistics.median(r.get('stream_cpu_ms', 0.0) for r in m):.2f} ms and Redis's "
          f"{statistics.median(r.get('redis_cpu_ms', 0.0) for r in m):.2f} ms; errors "
          f"{[r['errors'] for r in m if r['errors']] or 'none'}")
    print("boardgame.io: a move's round trip is the emit to the mover's socket receiving "
          "the update; matches finished per run "
          f"{[r['games_over'] for r in b]} of {args.games}; updates that never came "
          f"(the seat synced again after 5 s) {[r['stalls'] for r in b]}, matches left "
          f"after three {[r['dropped'] for r in b]}")
    if args.json:
        Path(args.json).write_text(json.dumps({"args": vars(args), "runs": runs}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
