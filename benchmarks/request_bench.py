"""What a request costs outside the game: a part of it beside what it
replaced, in alternating rounds, in this process (CPU time).

    .venv/bin/python benchmarks/request_bench.py [--rounds 60] [--calls 300]

- **Input fields copied** (``games.serializers._copied``): a move's body
  validated by ``ActionSubmitSerializer``, against the same serializer with
  DRF's copies of its fields.

Each round times both ways of a part, ``--calls`` calls each, in turn (the
order swapped every other round): short rounds, so that the machine's drift
falls on both. Prints each part's medians, the median over the rounds of the
ratio new / old and in how many rounds the new way was cheaper; then, for
scale: a bare ``GET /api/ping/`` through the application (production settings,
a throwaway PostgreSQL and Redis from scripts/testservices.py), its answer read
and closed as a server would; resolving the addresses of a move, a game's read
and a poll, all three; and what one statement's round trip to PostgreSQL
costs this process, ``SELECT 1`` through Django's cursor, through psycopg
alone, and libpq's own blocking call (the kernel's work on the socket).
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


def in_process_parts() -> dict[str, tuple[Callable[[], object], Callable[[], object]]]:
    """Each in-process part: (the new way, the old way)."""
    from rest_framework import serializers

    from games.serializers import ActionSubmitSerializer

    drf_copies = type("DRFCopies", (ActionSubmitSerializer,),
                      {"get_fields": serializers.Serializer.get_fields})
    body = {"seq": 12, "idempotency_key": "0123456789abcdef0123456789abcdef",
            "action": {"type": "place", "tile": "T12", "at": [1, 2], "rotation": 1}}

    def validate(serializer_class: type) -> Callable[[], object]:
        def work() -> object:
            serializer = serializer_class(data=body)
            serializer.is_valid(raise_exception=True)
            return serializer.validated_data
        return work

    return {"a move's body validated (us)": (validate(ActionSubmitSerializer),
                                             validate(drf_copies))}


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
                        help="rounds of each part (each round times both ways, in turn)")
    parser.add_argument("--calls", type=int, default=300, help="calls of each way a round")
    args = parser.parse_args()
    import service_bench as sb

    figures: dict[str, dict[str, list[float]]] = {}
    with sb.database() as url, sb.broker() as redis_url:
        sb.BROKER_URL = redis_url
        sb.prepare(url, 0, None)  # migrate; production settings for this process too
        for part, (new, old) in in_process_parts().items():
            for _ in range(args.calls):  # warm both
                new(), old()
            runs = figures[part] = {"new": [], "old": []}
            for round_ in range(args.rounds):
                for is_new in (True, False) if round_ % 2 == 0 else (False, True):
                    runs["new" if is_new else "old"].append(
                        cpu_us(new if is_new else old, args.calls))
        floor = {name: statistics.median(cpu_us(work, args.calls) for _ in range(args.rounds))
                 for name, work in for_scale().items()}
    print(f"medians of {args.rounds} rounds of {args.calls} calls{'':16}"
          f"{'new':>9}{'old':>9}{'new/old':>9}  new lower")
    for part, runs in figures.items():
        ratios = [n / o for n, o in zip(runs["new"], runs["old"], strict=True)]
        print(f"{part:62}{statistics.median(runs['new']):9.1f}"
              f"{statistics.median(runs['old']):9.1f}{statistics.median(ratios):9.3f}"
              f"  {sum(r < 1 for r in ratios)} of {len(ratios)}")
    for name, took in floor.items():
        print(f"{name:62}{took:9.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
