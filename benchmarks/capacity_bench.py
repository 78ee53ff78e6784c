"""Capacity benchmark: many games, a thousand of them played, open pages polling.

    .venv/bin/python benchmarks/capacity_bench.py [--games 10000] [--active 1000]
        [--pages 2000] [--seconds 120] [--runs 1] [--json FILE]

Starts PostgreSQL, Redis and the web server as benchmarks/service_bench.py does
(production settings, the server's own layout), creates ``--games`` running games
through the services, and measures two configurations in one invocation, against
the same server, taking turns when ``--runs`` > 1:

- the baseline: service_bench's load phase on ``--baseline-games`` (100) fresh
  games, no pages: 8 keep-alive clients each playing its share of the games in
  rotation (GET the state as the awaited player, POST a random legal action),
  and the bare ping probe;
- the big configuration: the same load phase on ``--active`` (1,000) of the
  games while ``--pages`` (2,000) open pages, in a process of their own, each
  poll one game every ``--interval`` seconds as poll_bench.py's pages do
  (session cookie, If-None-Match); ``--active-pages`` (a tenth) of the pages
  show active games, the rest the other games. With ``--follow sse`` the pages
  follow their games as they do when the site runs its stream server: an event
  stream each from the stream server (uvicorn on marram_site/stream.py, started
  here, MARRAM_STREAM on), one poll on connecting, and a read of the game
  (``state.json``) when the stream says it moved on (stream_bench.py's pages).

Two pings under each load: service_bench's probe (one connection, a thread beside
the 8 clients) and one from the pages' process (a coroutine in the pages' event
loop, taking 9 connections in turn: one web server worker serves a connection
all its life, so one connection measures one worker's queue; and the pages' process
is not the one whose threads the clients keep busy). The polls are compared with
both; the second is the like-for-like one.

For each: moves/s, GET/POST p50/p95, the pings' p50 under the same load, the
polls' p50/p95 and their ratio to the pings, the CPU the web server and
PostgreSQL spent a move (in the big configuration that includes the polls), how busy the
machine was, and the game state cache's hits, catch-ups and misses (each worker
writes its counters to a file: benchmarks/server_counters.py); then each big
figure's ratio to the baseline's. Targets: moves/s no more than 20% below the
baseline, polls' p50 at most 2x the ping's.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import shutil
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import poll_bench as pb  # noqa: E402
import service_bench as sb  # noqa: E402
import stream_bench as stb  # noqa: E402

FORK = multiprocessing.get_context("fork")
COUNTERS = ("hits", "catch_ups", "misses", "snapshots")
"""``snapshots``: cold reads started from a stored snapshot, where the server has them."""
PING_CONNECTIONS = 9


def _prepare_part(job: tuple[str, int, str]) -> list[dict]:
    return sb.prepare(*job)


def prepare_many(url: str, count: int, variant: str, processes: int) -> list[dict]:
    """``count`` running games made by sb.prepare (the services, a game at a time)
    in ``processes`` forked processes: the database's share of the work overlaps."""
    if count <= 0:
        return []
    if processes <= 1 or count < 200:
        return sb.prepare(url, count, variant)
    parts = [count // processes + (n < count % processes) for n in range(processes)]
    with ProcessPoolExecutor(processes, mp_context=FORK) as pool:
        made = list(pool.map(_prepare_part, [(url, n, variant) for n in parts]))
    return [game for part in made for game in part]


def clone_games(templates: list[dict], count: int) -> list[dict]:
    """``count`` copies of the template games, made in bulk: each template's game
    row, seats, events and clocks under a new id (the rows a running game polled
    reads; what the services also made, notifications say, is not copied). A
    copy is a running game in the state its template was, seed and all."""
    from django.db import connections, transaction

    from games.models import Clock, Event, Game, Seat

    def fields(model) -> list[str]:
        return [f.attname for f in model._meta.concrete_fields
                if not f.primary_key and f.attname != "game_id"]

    ids = [t["id"] for t in templates]
    rows: dict[type, dict[int, list]] = {}
    for model in (Seat, Event, Clock):
        rows[model] = {}
        for row in model.objects.filter(game_id__in=ids):
            rows[model].setdefault(row.game_id, []).append(row)
    sources = Game.objects.in_bulk(ids)
    out: list[dict] = []
    for start in range(0, count, 1000):
        batch = [templates[(start + n) % len(templates)]
                 for n in range(min(1000, count - start))]
        with transaction.atomic():
            made = Game.objects.bulk_create([
                Game(**{f: getattr(sources[t["id"]], f) for f in fields(Game)})
                for t in batch])
            for model in (Seat, Event, Clock):
                model.objects.bulk_create([
                    model(game_id=game.pk, **{f: getattr(row, f) for f in fields(model)})
                    for game, t in zip(made, batch, strict=True)
                    for row in rows[model].get(t["id"], [])], batch_size=2000)
        out += [{"id": game.pk, "tokens": t["tokens"]}
                for game, t in zip(made, batch, strict=True)]
    connections.close_all()
    return out


def database_counters(url: str) -> dict[str, float]:
    """PostgreSQL's own counts so far: rows its sequential scans read and index
    scans made, by table, and the buffers found in its cache or read from the
    operating system."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        out: dict[str, float] = {}
        for table, seq_rows, idx in conn.execute(
                "SELECT relname, coalesce(seq_tup_read, 0), coalesce(idx_scan, 0) "
                "FROM pg_stat_user_tables"):
            out[f"seq_rows:{table}"] = seq_rows
            out[f"idx_scans:{table}"] = idx
        hit, read = conn.execute(
            "SELECT blks_hit, blks_read FROM pg_stat_database "
            "WHERE datname = current_database()").fetchone()
        out["buffers_hit"], out["buffers_read"] = hit, read
    return out


def database_per_move(before: dict[str, float], after: dict[str, float],
                      moves: int) -> dict[str, float]:
    """Each count's growth a move over a phase, the largest first (zeros left out)."""
    grown = {k: (after[k] - before.get(k, 0)) / moves for k in after}
    return {k: round(v, 2) for k, v in sorted(grown.items(), key=lambda kv: -kv[1]) if v}


def statements_reset(url: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        conn.execute("SELECT pg_stat_statements_reset()")


def statements_top(url: str, moves: int, count: int = 12) -> list[dict]:
    """The statements PostgreSQL spent most time on since ``statements_reset``:
    each one's calls and milliseconds a move, and rows a call."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT calls, total_exec_time, rows, query FROM pg_stat_statements "
            "WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) "
            "ORDER BY total_exec_time DESC LIMIT %s", [count]).fetchall()
    return [{"calls_a_move": round(calls / moves, 3), "ms_a_move": round(ms / moves, 4),
             "rows_a_call": round(n / max(calls, 1), 1), "query": " ".join(query.split())[:300]}
            for calls, ms, n, query in rows]


class Counters:
    """The state cache counters the workers write (benchmarks/server_counters.py)."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="marram-counters-"))

    def read(self) -> dict[str, int]:
        workers = set(sb.children(sb.web_server.pid))  # type: ignore[attr-defined]
        total = dict.fromkeys((*COUNTERS, "entries", "workers"), 0)
        for file in self.folder.glob("*.json"):
            if int(file.stem) not in workers:
                continue  # a worker that has gone: its counts went with it
            try:
                figures = json.loads(file.read_text())
            except (OSError, ValueError):
                continue
            for name in (*COUNTERS, "entries"):
                total[name] += figures.get(name) or 0
            total["workers"] += 1
            total["size"] = figures.get("size") or 0
        return total


async def _pinged_pages(port: int, polled: list[dict], cookies: dict[str, str],
                        interval: float, seconds: float, settled,
                        finish) -> tuple[list, list, dict]:
    """The pages, and beside them in the same event loop the bare ping every 0.05 s
    on connections of its own: a ping that waits for this process as the polls do."""
    loop = asyncio.get_running_loop()
    if STREAM["port"]:
        seconds = 24 * 3600.0  # until ``finish``
    stop = loop.time() + seconds
    pings: list[tuple[int, float, float]] = []

    async def ping() -> None:
        # several connections, taken in turn: the web server's workers each keep
        # the connections they accepted, and one connection sees one worker's queue
        connections = [await asyncio.open_connection("127.0.0.1", port)
                       for _ in range(PING_CONNECTIONS)]
        turn = 0
        while loop.time() < stop:
            reader, writer = connections[turn % len(connections)]
            turn += 1
            asked, began = loop.time(), time.perf_counter()
            try:
                writer.write(b"GET /api/ping/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                             b"Accept: application/json\r\n\r\n")
                head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
                length = next((int(line.split(":", 1)[1])
                               for line in head.split("\r\n")[1:]
                               if line[:15].lower() == "content-length:"), 0)
                if length:
                    await reader.readexactly(length)
            except (asyncio.IncompleteReadError, ConnectionError):  # closed by the server
                pings.append((-1, time.perf_counter() - began, asked))
                writer.close()
                connections[(turn - 1) % len(connections)] = await asyncio.open_connection(
                    "127.0.0.1", port)
                continue
            pings.append((int(head[9:12]), time.perf_counter() - began, asked))
            await asyncio.sleep(0.05)
        for _, writer in connections:
            writer.close()

    if STREAM["port"]:
        # the pages until the load phase is over: ``settled`` once each has connected
        # and polled, ``finish`` when the phase has ended
        counts = {"requests": 0, "connected": 0}
        work = asyncio.gather(_streamed_pages(port, polled, cookies, seconds, counts), ping())
        while not finish.is_set():
            if counts["connected"] >= len(polled):
                settled.set()
            await asyncio.sleep(0.2)
        work.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await work
        return [], pings, counts
    answers, _ = await asyncio.gather(
        pb.pages(port, polled, cookies, len(polled), interval, seconds), ping())
    return answers, pings, {}


STREAM = {"port": 0}
"""The stream server's port when the pages follow its event streams (--follow sse)."""


async def _streamed_pages(port: int, polled: list[dict], cookies: dict[str, str],
                          seconds: float, counts: dict[str, int]) -> None:
    from live import stream as live

    loop = asyncio.get_running_loop()
    began = loop.time()
    pages = [stb.Page(game, cookies[next(iter(game["tokens"]))], live.stream_token(game["id"]),
                      STREAM["port"], port, {}, counts) for game in polled]
    for page in pages:
        page.keep = False
    # the pages open over the first 3 s, as the polling pages do
    await asyncio.gather(*(page.follow("sse", began + 3.0 * n / len(pages), began + seconds)
                           for n, page in enumerate(pages)))


def worker_sockets() -> list[int]:
    """The sockets each web server worker holds, most first: its clients' connections
    and a few of its own (the listener, PostgreSQL, Redis). The kernel hands a new
    connection to whichever worker accepts first; it stays with it."""
    out = []
    for pid in sb.children(sb.web_server.pid):  # type: ignore[attr-defined]
        try:
            out.append(sum(1 for fd in Path(f"/proc/{pid}/fd").iterdir()
                           if os.readlink(fd).startswith("socket:")))
        except OSError:
            continue
    return sorted(out, reverse=True)


def _pages_process(port: int, polled: list[dict], cookies: dict[str, str], interval: float,
                   seconds: float, ready, settled, finish, results) -> None:
    ready.set()
    results.put(asyncio.run(_pinged_pages(port, polled, cookies, interval, seconds, settled,
                                          finish)))


def phase(port: int, url: str, games: list[dict], polled: list[dict],
          cookies: dict[str, str], counters: Counters, args: argparse.Namespace,
          run: int) -> dict:
    """One load phase (service_bench's), with ``polled`` pages polling alongside."""
    # the pages' process runs in every phase, without pages in the baseline, for its ping
    ready, settled, finish, results = FORK.Event(), FORK.Event(), FORK.Event(), FORK.Queue()
    # the pages open over the first interval: the load starts after two (pages on
    # event streams: once every page has connected and polled once, as pages
    # opened over a longer time would have)
    process = FORK.Process(target=_pages_process, args=(
        port, polled, cookies, args.interval, 2 * args.interval + args.seconds + 2,
        ready, settled, finish, results))
    process.start()
    ready.wait()
    if STREAM["port"]:
        settled.wait(timeout=600)
        time.sleep(1)
    else:
        time.sleep(2 * args.interval)
    pages_cpu = sb.process_cpu(process.pid)
    # the workers' counter files are written twice a second, and a PostgreSQL 15
    # backend publishes its statistics at most once a second
    time.sleep(1.1)
    before = counters.read()
    database_before = database_counters(url)
    if args.statements:
        statements_reset(url)
    started = time.monotonic()
    figures = sb.load_phase(port, url, games, args, run)
    ended = time.monotonic()
    finish.set()
    figures["worker_sockets"] = worker_sockets()
    time.sleep(1.1)
    after = counters.read()
    database_after = database_counters(url)
    cache = {name: after[name] - before[name] for name in COUNTERS}
    lookups = max(sum(cache.values()), 1)
    moves = max(figures["moves"], 1)
    figures.update({
        "games_played": len(games),
        "cache_hits": cache["hits"],
        "cache_catch_ups": cache["catch_ups"],
        "cache_misses": cache["misses"],
        "cache_snapshots": cache["snapshots"],
        "cache_misses_per_move": round(cache["misses"] / moves, 3),
        "cache_miss_percent": round(100 * cache["misses"] / lookups, 1),
        "cache_entries": after["entries"],
        "cache_workers": after["workers"],
        "database_per_move": database_per_move(database_before, database_after, moves),
    })
    if args.statements:
        figures["statements"] = statements_top(url, moves)
    pages_cpu = sb.process_cpu(process.pid) - pages_cpu
    answers, pings, streamed = results.get(timeout=args.seconds + 4 * args.interval + 120)
    process.join()
    pinged = [t * 1000 for code, t, at in pings if started <= at <= ended and code > 0]
    pages_ping = sb.percentile(pinged, 50)
    span = max(ended - started, 1e-9)
    figures.update({
        # the ping asked from the pages' process, on several connections
        "pages_ping_p50_ms": round(pages_ping, 2),
        "pages_ping_p95_ms": round(sb.percentile(pinged, 95), 2),
        "pages_client_cpu_percent": round(100 * pages_cpu / span, 1),
        # load_phase counts the pages' process among the other processes: not here
        "others_percent": round(figures["others_percent"]
                                - 100 * pages_cpu / span / (os.cpu_count() or 1), 1),
    })
    if polled and streamed:
        figures.update({
            "pages": len(polled),
            # each page's one poll on connecting, and its reads of moved games
            "page_requests": streamed["requests"],
            "page_state_reads": sum(v for k, v in streamed.items() if k.startswith("state_")),
        })
    elif polled:
        inside = [(code, t * 1000) for code, t, at in answers if started <= at <= ended]
        ms = [t for code, t in inside if code > 0]
        statuses: dict[int, int] = {}
        for code, _ in inside:
            statuses[code] = statuses.get(code, 0) + 1
        ping = figures["ping_under_load_p50_ms"]
        figures.update({
            "pages": len(polled),
            "polls": len(inside),
            "polls_per_s": round(len(inside) / span, 1),
            # -1: a connection the server closed (the page opened another)
            "poll_statuses": {str(k): v for k, v in sorted(statuses.items())},
            "poll_p50_ms": round(sb.percentile(ms, 50), 2),
            "poll_p95_ms": round(sb.percentile(ms, 95), 2),
            "poll_p50_over_ping": round(sb.percentile(ms, 50) / ping, 2),
            "poll_p50_over_pages_ping": round(sb.percentile(ms, 50) / pages_ping, 2),
        })
    return figures


def medians(runs: list[dict]) -> dict:
    out: dict = {}
    for key in runs[0]:
        if isinstance(runs[0][key], (int, float)):
            out[key] = round(statistics.median(r[key] for r in runs), 3)
    out["errors"] = {}
    for r in runs:
        for k, v in r["errors"].items():
            out["errors"][k] = out["errors"].get(k, 0) + v
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="games in the database")
    parser.add_argument("--active", type=int, default=1000, help="of them, the games played")
    parser.add_argument("--pages", type=int, default=2000, help="open pages polling")
    parser.add_argument("--active-pages", type=float, default=0.1,
                        help="the share of the pages that show an active game")
    parser.add_argument("--interval", type=float, default=3.0, help="seconds between polls")
    parser.add_argument("--baseline-games", type=int, default=100)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--workers", type=int, default=sb.WORKERS,
                        help="web server processes (the server's default: one a core)")
    parser.add_argument("--threads", type=int, default=sb.THREADS, help="threads per worker")
    parser.add_argument("--events", type=int, default=150, help="events to play a game to")
    parser.add_argument("--seconds", type=float, default=120, help="longest load phase")
    parser.add_argument("--variant", default="animals",
                        choices=("classic", "pitchfork", "animals"))
    parser.add_argument("--runs", type=int, default=1,
                        help="baseline and big phases, taking turns, each on fresh games")
    parser.add_argument("--prepare-processes", type=int, default=2,
                        help="processes creating the games")
    parser.add_argument("--templates", type=int, default=32,
                        help="games made through the services that the others not played copy")
    parser.add_argument("--no-copies", dest="copies", action="store_false",
                        help="make every game through the services (slow)")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--statements", action="store_true",
                        help="PostgreSQL's costliest statements in each phase "
                             "(pg_stat_statements; the cluster started here)")
    parser.add_argument("--follow", choices=("poll", "sse"), default="poll",
                        help="how the open pages follow their games")
    args = parser.parse_args()
    if args.active > args.games:
        parser.error("--active cannot exceed --games")

    counters = Counters()
    os.environ["MARRAM_BENCH_COUNTERS"] = str(counters.folder)
    try:
        return measure(args, counters)
    finally:
        shutil.rmtree(counters.folder, ignore_errors=True)


def measure(args: argparse.Namespace, counters: Counters) -> int:
    if args.statements:
        os.environ["TESTSERVICES_POSTGRES_OPTIONS"] = (
            "-c shared_preload_libraries=pg_stat_statements")
    if args.follow == "sse":  # every commit publishes its seq for the stream server
        os.environ["MARRAM_STREAM"] = "1"
    with sb.database() as url, sb.broker() as redis_url:
        sb.BROKER_URL = redis_url
        if args.statements:  # at once: a server started elsewhere may not load it
            statements_reset(url)
        sb.prepare(url, 0, args.variant)  # migrate and make the players, once
        t = time.perf_counter()
        # the games nobody plays here (pages poll them) serve every run; the
        # played ones, baseline and big, are fresh for each run
        idle_count = args.games - args.active
        copy_s = 0.0
        if args.copies and idle_count > args.templates:
            templates = prepare_many(url, args.templates, args.variant, 1)
            c = time.perf_counter()
            idle = templates + clone_games(templates, idle_count - len(templates))
            copy_s = time.perf_counter() - c
        else:
            idle = prepare_many(url, idle_count, args.variant, args.prepare_processes)
        actives = [prepare_many(url, args.active, args.variant, args.prepare_processes)
                   for _ in range(args.runs)]
        baselines = [prepare_many(url, args.baseline_games, args.variant,
                                  args.prepare_processes) for _ in range(args.runs)]
        made = len(idle) + sum(map(len, actives)) + sum(map(len, baselines))
        prepare_s = time.perf_counter() - t
        copied = (idle_count - args.templates) if args.copies and idle_count > args.templates \
            else 0
        print(f"created {made} {args.variant} games (2 players, started) in {prepare_s:.1f} s "
              f"({made / prepare_s:.0f} games/s; {copied} of them copies made in bulk in "
              f"{copy_s:.1f} s, the rest through the services in {args.prepare_processes} "
              "processes)",
              file=sys.stderr)
        pb.with_seqs(idle + [g for a in actives for g in a])
        cookies = pb.sessions_for(idle + [g for a in actives for g in a])
        from django.db import connections

        connections.close_all()

        on_active = round(args.pages * args.active_pages) if args.active else 0
        script = HERE / "server_counters.py"
        with contextlib.ExitStack() as stack:
            if args.follow == "sse":
                STREAM["port"], _ = stack.enter_context(stb.stream_server(url))
            port = stack.enter_context(sb.web_server(url, args.workers, args.threads,
                                                     script))
            warm = sb.Client(port, {})
            for _ in range(300):
                warm.request("ping_idle", "GET", "/api/ping/")
            base_runs, big_runs = [], []
            for run in range(args.runs):
                polled = ([actives[run][n % len(actives[run])] for n in range(on_active)]
                          + [idle[n % len(idle)] for n in range(args.pages - on_active)]
                          if idle else [])
                for name, games, pages, out in (
                        ("baseline", baselines[run], [], base_runs),
                        ("big", actives[run], polled, big_runs)):
                    out.append(phase(port, url, games, pages, cookies, counters, args, run))
                    r = out[-1]
                    print(f"run {run + 1} {name}: {r['moves_per_s']} moves/s, GET "
                          f"{r['get_state_p50_ms']} ms, POST {r['post_action_p50_ms']} ms, "
                          f"ping {r['ping_under_load_p50_ms']} ms"
                          + (f", poll {r['poll_p50_ms']} ms" if "poll_p50_ms" in r else "")
                          + (f", pages' reads {r['page_state_reads']}"
                             if "page_state_reads" in r else "")
                          + f", cache misses {r['cache_misses']}, machine "
                          f"{r['machine_busy_percent']}% busy; PostgreSQL a move: "
                          + ", ".join(f"{k} {v}" for k, v in
                                      list(r["database_per_move"].items())[:6]),
                          file=sys.stderr)

    base, big = medians(base_runs), medians(big_runs)
    figures = {
        "games": args.games, "active": args.active, "pages": args.pages,
        "pages_on_active_games": on_active, "interval_s": args.interval,
        "baseline_games": args.baseline_games, "variant": args.variant,
        "clients": args.clients, "workers": args.workers, "threads_per_worker": args.threads,
        "games_created": made, "games_copied": copied, "prepare_seconds": round(prepare_s, 1),
        "copy_seconds": round(copy_s, 1),
        "runs": args.runs, "baseline": base, "big": big,
        "baseline_runs": base_runs, "big_runs": big_runs,
    }
    print(f"{made} {args.variant} games created in {prepare_s:.1f} s ({copied} copied in "
          f"bulk in {copy_s:.1f} s); baseline: "
          f"{args.baseline_games} games played, no pages; big: {args.active} of "
          f"{args.games} games played, {args.pages} pages "
          + (f"polling every {args.interval:g} s " if args.follow == "poll"
             else "on the stream server's event streams ") +
          f"({on_active} of them on played games); {args.clients} clients, web server "
          f"{args.workers}x{args.threads}; median of {args.runs} run(s) each")

    def row(label: str, key: str, target: str = "", fmt: str = "{:.2f}") -> None:
        b, g = base.get(key), big.get(key)
        ratio = f"{g / b:.2f}" if isinstance(b, (int, float)) and b and g is not None else ""
        shown = [fmt.format(v) if isinstance(v, (int, float)) else "-" for v in (b, g)]
        print(f"{label:34}{shown[0]:>10}{shown[1]:>10}{ratio:>8}  {target}")

    print(f"{'':34}{'baseline':>10}{'big':>10}{'big/b':>8}  target")
    rate = big["moves_per_s"] / max(base["moves_per_s"], 1e-9)
    row("moves/s", "moves_per_s", f">= 0.80x: {'ok' if rate >= 0.8 else 'MISS'}", "{:.1f}")
    row("GET state p50 ms", "get_state_p50_ms")
    row("GET state p95 ms", "get_state_p95_ms")
    row("POST action p50 ms", "post_action_p50_ms")
    row("POST action p95 ms", "post_action_p95_ms")
    row("GET ping p50 ms (clients' probe)", "ping_under_load_p50_ms")
    row(f"GET ping p50 ms ({PING_CONNECTIONS} conns, pages' loop)", "pages_ping_p50_ms")
    row("GET ping p95 ms (pages' loop)", "pages_ping_p95_ms")
    if "poll_p50_ms" in big:
        over = big["poll_p50_over_ping"]
        row("poll p50 ms", "poll_p50_ms")
        row("poll p95 ms", "poll_p95_ms")
        row("poll p50 / clients' ping p50", "poll_p50_over_ping",
            f"<= 2x: {'ok' if over <= 2 else 'MISS'}")
        over = big["poll_p50_over_pages_ping"]
        row("poll p50 / pages' loop ping p50", "poll_p50_over_pages_ping",
            f"<= 2x: {'ok' if over <= 2 else 'MISS'}")
        row("polls answered a second", "polls_per_s", "", "{:.1f}")
    if "page_state_reads" in big:
        row("pages' requests (stream: poll on connecting, reads)", "page_requests", "", "{:.0f}")
        row("pages' reads of moved games", "page_state_reads", "", "{:.0f}")
    row("web server CPU ms a move", "server_cpu_ms_per_move")
    row("PostgreSQL CPU ms a move", "database_cpu_ms_per_move")
    row("machine busy %", "machine_busy_percent", "", "{:.1f}")
    row("  of it other work's %", "others_percent", "", "{:.1f}")
    row("state cache misses a move", "cache_misses_per_move", "", "{:.3f}")
    row("state cache misses % of lookups", "cache_miss_percent", "", "{:.1f}")
    row("state cache catch-ups", "cache_catch_ups", "", "{:.0f}")
    row("cold reads from a snapshot", "cache_snapshots", "", "{:.0f}")
    print("sockets a web server worker held at the end of each phase: baseline "
          f"{[r['worker_sockets'] for r in base_runs]}, big "
          f"{[r['worker_sockets'] for r in big_runs]}")
    print(f"errors: baseline {base['errors'] or 'none'}, big {big['errors'] or 'none'}; "
          f"poll answers {[r.get('poll_statuses') for r in big_runs]}; the pages' own "
          f"process used {big.get('pages_client_cpu_percent', 0)}% of a core; other work: "
          "neither the web server, PostgreSQL nor this benchmark's processes")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
