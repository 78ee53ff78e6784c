"""Polling benchmark: what open game pages cost the server while nothing happens.

    .venv/bin/python benchmarks/poll_bench.py [--pages 1000] [--interval 3]
        [--seconds 30] [--rounds 5] [--server-root DIR]

An open game page asks for the events since the seq it shows every few seconds;
nearly always there are none. Starts PostgreSQL, Redis and the web server as
benchmarks/service_bench.py does (production settings, the server's own layout),
creates running 2-player games and a signed-in session for each player, then:

1. One client alone, ``--rounds`` rounds of ``--requests`` requests of each kind,
   the kinds taking turns within a round so that the machine's noise falls on
   all of them alike: the bare ping (``/api/ping/``, a DRF view without
   authentication: the floor), an idle poll (``events/?since=seq``) with a
   token, one with the page's session cookie, and one with the session cookie
   and the ETag of the answer before (``If-None-Match``, what the page's browser
   sends: a 304). The median over the rounds of each kind's p50, and its ratio
   to the ping's p50 of the same round.
2. ``--pages`` open pages, each with its own keep-alive connection polling one
   game every ``--interval`` seconds as the page's browser does (session
   cookie, If-None-Match), for ``--seconds``: the polls answered and their
   latency, and the CPU the web server and PostgreSQL spent as a share of the
   machine's cores (and a poll's CPU).

``--server-root`` serves another checkout of the project (the code before a
change, say) with this same client.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import time
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))

import service_bench as sb  # noqa: E402


def sessions_for(games: list[dict]) -> dict[str, str]:
    """A signed-in session (its cookie's value) for each player of the games, as
    the sign-in page makes them."""
    from django.conf import settings
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.sessions.backends.db import SessionStore

    out = {}
    names = {name for g in games for name in g["tokens"]}
    for user in get_user_model().objects.filter(username__in=names):
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        out[user.username] = session.session_key
    return out


def with_seqs(games: list[dict]) -> None:
    """Each game's ``seq`` as the database has it now."""
    from games.models import Game

    ids = [g["id"] for g in games]
    seqs: dict[int, int] = {}
    for n in range(0, len(ids), 5000):
        seqs.update(Game.objects.filter(pk__in=ids[n:n + 5000]).values_list("id", "seq"))
    for g in games:
        g["seq"] = seqs[g["id"]]


def etag_of(head: str) -> str | None:
    return next((line.split(":", 1)[1].strip() for line in head.split("\r\n")[1:]
                 if line[:5].lower() == "etag:"), None)


def solo(port: int, game: dict, cookie: str, requests: int, rounds: int) -> dict[str, list]:
    """Each kind's p50 and p95 in each round (ms), and the ping's."""
    name = next(iter(game["tokens"]))
    token = game["tokens"][name]
    path = f"/api/games/{game['id']}/events/?since={game['seq']}"
    session = (f"Cookie: sessionid={cookie}",)
    per_round: dict[str, list] = {}
    client = sb.Client(port, {})
    etag = None
    for _ in range(50):  # warm up every worker and the token memory
        client.request("warm", "GET", path, token)
        client.request("warm", "GET", "/api/ping/")
    for _ in range(rounds):
        timings: dict[str, list[float]] = {}
        client.timings = timings
        # every kind must be what a signed-in page gets (a session the server
        # would refuse is answered an idle poll too, and would measure nothing)
        status, _ = client.request("check", "GET", f"/api/games/{game['id']}/", None, None,
                                   session)
        assert status == 200, f"the session is refused: {status}"
        for _ in range(requests):
            status, _ = client.request("ping", "GET", "/api/ping/")
            assert status == 200, status
            status, _ = client.request("poll_token", "GET", path, token)
            assert status == 200, status
            status, _ = client.request("poll_session", "GET", path, None, None, session)
            assert status == 200, status
            etag = etag_of(client.head) or etag
            status, _ = client.request("poll_304", "GET", path, None, None,
                                       session + (f"If-None-Match: {etag}",))
            assert status in (200, 304), status  # 200 from a server without ETags
        for kind, values in timings.items():
            ms = [v * 1000 for v in values]
            per_round.setdefault(kind, []).append(
                (sb.percentile(ms, 50), sb.percentile(ms, 95)))
    return per_round


async def page(port: int, game: dict, cookie: str, interval: float, start: float,
               stop: float, out: list[tuple[int, float, float]]) -> None:
    """Poll as the page's browser does until ``stop``; each answer's (status,
    seconds, loop.time() when asked) goes to ``out``. Like the page, it asks from
    the seq of the last answer on: a game that moves is not sent its events again.
    A connection the server closes is opened again, and counted
    in ``out`` as status -1."""
    loop = asyncio.get_running_loop()
    await asyncio.sleep(max(0.0, start - loop.time()))
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    etag = None
    due = loop.time()
    since = game["seq"]
    # by the clock too: a server that answers more slowly than every interval
    # would otherwise keep the page polling long after ``stop``
    while due < stop and loop.time() < stop:
        path = f"/api/games/{game['id']}/events/?since={since}"
        request = (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n"
                   f"Cookie: sessionid={cookie}\r\n"
                   + (f"If-None-Match: {etag}\r\n" if etag else "") + "\r\n")
        asked = loop.time()
        began = time.perf_counter()
        try:
            writer.write(request.encode())
            head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
            length = next((int(line.split(":", 1)[1]) for line in head.split("\r\n")[1:]
                           if line[:15].lower() == "content-length:"), 0)
            body = await reader.readexactly(length) if length else b""
        except (asyncio.IncompleteReadError, ConnectionError):
            out.append((-1, time.perf_counter() - began, asked))
            writer.close()
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            continue  # ask again at once, as a browser would
        status = int(head[9:12])
        out.append((status, time.perf_counter() - began, asked))
        if status == 200 and body:
            since = orjson.loads(body).get("seq", since)
        etag = etag_of(head) or etag
        due += interval
        await asyncio.sleep(max(0.0, due - loop.time()))
    writer.close()


async def pages(port: int, games: list[dict], cookies: dict[str, str], count: int,
                interval: float, seconds: float) -> list[tuple[int, float, float]]:
    loop = asyncio.get_running_loop()
    began = loop.time()
    out: list[tuple[int, float, float]] = []
    rng = random.Random(1)
    tasks = []
    for n in range(count):
        game = games[n % len(games)]
        name = list(game["tokens"])[n // len(games) % 2]
        # the pages open over one interval, and poll out of step with each other
        start = began + rng.uniform(0, interval)
        tasks.append(page(port, game, cookies[name], interval, start, began + seconds, out))
    await asyncio.gather(*tasks)
    return out


def held(port: int, url: str, games: list[dict], cookies: dict[str, str],
         args: argparse.Namespace) -> dict:
    db_pid = sb.postmaster(url)
    # the first interval opens the connections; measure after it
    answers: list[tuple[int, float, float]] = []
    before: dict[str, float] = {}

    async def measured() -> None:
        nonlocal answers
        run = asyncio.ensure_future(pages(port, games, cookies, args.pages, args.interval,
                                          args.seconds + 2 * args.interval))
        await asyncio.sleep(2 * args.interval)
        before.update(sb.cpu_snapshot(sb.web_server.pid, db_pid))  # type: ignore[attr-defined]
        await asyncio.sleep(args.seconds)
        before["after"] = 0.0
        after = sb.cpu_snapshot(sb.web_server.pid, db_pid)  # type: ignore[attr-defined]
        before.update({f"{k}_after": v for k, v in after.items()})
        answers = await run

    asyncio.run(measured())
    cores = os.cpu_count() or 1
    spent = {k: before[f"{k}_after"] - before[k] for k in ("server", "database", "busy", "total")}
    polls = max(len(answers) * args.seconds / (args.seconds + 2 * args.interval), 1)
    ms = [t * 1000 for code, t, _ in answers if code > 0]
    statuses: dict[int, int] = {}
    for code, _, _ in answers:
        statuses[code] = statuses.get(code, 0) + 1
    return {
        "pages": args.pages,
        "polls_per_s": round(len(answers) / (args.seconds + 2 * args.interval), 1),
        "statuses": statuses,
        "p50_ms": round(sb.percentile(ms, 50), 2),
        "p95_ms": round(sb.percentile(ms, 95), 2),
        "server_percent_of_machine": round(100 * spent["server"] / args.seconds / cores, 1),
        "postgres_percent_of_machine": round(100 * spent["database"] / args.seconds / cores, 1),
        "machine_busy_percent": round(100 * spent["busy"] / max(spent["total"], 1e-9), 1),
        "server_cpu_ms_per_poll": round(1000 * (spent["server"] + spent["database"]) / polls, 3),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument("--interval", type=float, default=3.0, help="seconds between polls")
    parser.add_argument("--seconds", type=float, default=30, help="the pages' measured time")
    parser.add_argument("--requests", type=int, default=300, help="a kind's requests a round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--server-root", help="serve this checkout instead of this one")
    args = parser.parse_args()
    if args.server_root:
        sb.ROOT = Path(args.server_root).resolve()
        sys.path.insert(0, str(sb.ROOT))

    with sb.database() as url, sb.broker() as redis_url:
        sb.BROKER_URL = redis_url
        games = sb.prepare(url, args.games, "classic")
        with_seqs(games)
        cookies = sessions_for(games)
        from django.db import connections

        connections.close_all()
        with sb.web_server(url, sb.WORKERS, sb.THREADS) as port:
            first = games[0]
            rounds = solo(port, first, cookies[next(iter(first["tokens"]))], args.requests,
                          args.rounds)
            pages_held = held(port, url, games, cookies, args)

    print(f"one client alone, {args.rounds} rounds of {args.requests} requests of each kind "
          f"(server: {sb.ROOT})")
    print(f"{'':34}{'p50 ms':>9}{'p95 ms':>9}{'x ping':>8}")
    ping = [p50 for p50, _ in rounds["ping"]]
    labels = {"ping": "GET ping (no authentication)", "poll_token": "idle poll, token",
              "poll_session": "idle poll, session cookie",
              "poll_304": "idle poll, session + If-None-Match"}
    for kind, label in labels.items():
        p50s = [p50 for p50, _ in rounds[kind]]
        ratio = statistics.median(a / b for a, b in zip(p50s, ping, strict=True))
        print(f"{label:34}{statistics.median(p50s):9.2f}"
              f"{statistics.median(p95 for _, p95 in rounds[kind]):9.2f}{ratio:8.2f}")
    h = pages_held
    print(f"{h['pages']} open pages, a poll each {args.interval:g} s, {args.seconds:g} s "
          f"measured: {h['polls_per_s']} polls/s answered {h['statuses']}, p50 {h['p50_ms']} "
          f"ms, p95 {h['p95_ms']} ms")
    print(f"CPU: web server {h['server_percent_of_machine']}% and PostgreSQL "
          f"{h['postgres_percent_of_machine']}% of the machine's {os.cpu_count()} cores "
          f"({h['server_cpu_ms_per_poll']} ms a poll); the machine was "
          f"{h['machine_busy_percent']}% busy in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
