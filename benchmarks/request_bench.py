"""What a request costs outside the game, in this process (CPU time): the floor
that every request pays, for scale beside a move's cost.

    .venv/bin/python benchmarks/request_bench.py [--rounds 60] [--calls 300]

A bare ``GET /api/ping/`` through the application (production settings, a
throwaway PostgreSQL and Redis from scripts/testservices.py), its answer read
and closed as a server would; resolving the addresses of a move, a game's read
and a poll, all three; and what one statement's round trip to PostgreSQL costs
this process, ``SELECT 1`` through Django's cursor, through psycopg alone, and
libpq's own blocking call (the kernel's work on the socket). Each is timed in
``--rounds`` rounds of ``--calls`` calls; prints the median of the rounds.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]


def ping_environ() -> dict:
    return {"REQUEST_METHOD": "GET", "PATH_INFO": "/api/ping/", "QUERY_STRING": "",
            "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8000", "SERVER_PROTOCOL": "HTTP/1.1",
            "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(b""), "wsgi.errors": sys.stderr,
            "HTTP_HOST": "127.0.0.1", "REMOTE_ADDR": "127.0.0.1",
            "HTTP_ACCEPT": "application/json"}


def cpu_us(work: Callable[[], object], times: int) -> float:
    started = time.process_time()
    for _ in range(times):
        work()
    return 1e6 * (time.process_time() - started) / times


def for_scale() -> dict[str, Callable[[], object]]:
    """A bare ping through the application, a request's address resolved (a
    move's, a game's read, a poll's), and ``SELECT 1`` three ways."""
    from django.db import connection
    from django.urls import resolve

    from marram_site.wsgi import serving_application

    app = serving_application()

    def ping() -> bytes:
        response = app(ping_environ(), lambda status, headers: None)
        try:
            return b"".join(response)
        finally:
            if hasattr(response, "close"):  # Django's request_finished, as a server
                response.close()            # calls it (WSGI)

    addresses = ("/api/games/5/actions/", "/api/games/5/", "/api/games/5/events/")

    connection.ensure_connection()
    raw = connection.connection

    def django_cursor() -> object:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchall()

    return {"ping in-process (us)": ping,
            "a move's, a read's and a poll's address resolved (us)":
            lambda: [resolve(address) for address in addresses],
            "SELECT 1, Django's cursor (us)": django_cursor,
            "SELECT 1, psycopg alone (us)": lambda: raw.execute("SELECT 1").fetchall(),
            "SELECT 1, libpq's blocking call (us)": lambda: raw.pgconn.exec_(b"SELECT 1")}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=60,
                        help="rounds of each part")
    parser.add_argument("--calls", type=int, default=300, help="calls of each part a round")
    args = parser.parse_args()
    import service_bench as sb

    with sb.database() as url, sb.broker() as redis_url:
        sb.BROKER_URL = redis_url
        sb.prepare(url, 0, None)  # migrate; production settings for this process too
        parts = for_scale()
        for work in parts.values():  # warm each
            for _ in range(args.calls):
                work()
        floor = {name: statistics.median(cpu_us(work, args.calls) for _ in range(args.rounds))
                 for name, work in parts.items()}
    print(f"medians of {args.rounds} rounds of {args.calls} calls")
    for name, took in floor.items():
        print(f"{name:62}{took:9.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
