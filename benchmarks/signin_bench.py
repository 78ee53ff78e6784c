"""Sign-in benchmark: what password guessing does to everyone else.

    .venv/bin/python benchmarks/signin_bench.py [--guessers 6] [--seconds 15]

Starts a throwaway PostgreSQL and Redis (as service_bench.py does), the web server with
the production settings (3 workers x 2 threads, the real password hasher, the
cache on Redis, 127.0.0.1 trusted as a proxy so that the guessers can speak for
many clients), and an account. Then, while a probe GETs ``/api/ping/`` every 50 ms,
``--guessers`` clients post wrong passwords to ``/accounts/login/`` for
``--seconds``, in three ways:

- one client, one account (as in the issue: one address guessing at one account);
- a new address and a new name every guess (many machines: no per-address or
  per-account limit ever bites), one hashing slot a process, not waiting for
  it (the defaults) or waiting up to a second;
- the same, with as many slots as threads (hashing unbounded).

It prints, for each, the ping's p50/p95 beside the ping of an idle server, and
how the guesses were answered: 200 (checked: wrong), 429 (limited, not hashed),
503 (no free hashing slot, not hashed).
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import itertools
import os
import secrets
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import service_bench as bench  # noqa: E402  (after the path it lives on)

WORKERS, THREADS = 3, 2


@contextlib.contextmanager
def server(url: str, redis_url: str, slots: int, wait: float) -> Iterator[int]:
    os.environ["CACHE_URL"] = redis_url.rsplit("/", 1)[0] + "/1"
    os.environ["MARRAM_TRUSTED_PROXIES"] = "127.0.0.1"
    os.environ["MARRAM_PASSWORD_HASHING_SLOTS"] = str(slots)
    os.environ["MARRAM_PASSWORD_HASHING_WAIT"] = str(wait)
    with bench.web_server(url, WORKERS, THREADS) as port:
        yield port


def prepare(url: str) -> None:
    os.environ.update(bench.server_env(url))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "marram_site.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connections

    call_command("migrate", verbosity=0)
    call_command("collectstatic", verbosity=0, interactive=False)  # the pages' manifest
    if not get_user_model().objects.filter(username="ann").exists():
        get_user_model().objects.create_user("ann", password="dune-grass-42")
    connections.close_all()


def guess(conn: http.client.HTTPConnection, client: str, name: str) -> int:
    # CSRF by double submit: the same made-up secret in the cookie and the form.
    token = secrets.token_hex(16)
    form = f"csrfmiddlewaretoken={token}&username={name}&password=wrong-{secrets.token_hex(4)}"
    conn.request("POST", "/accounts/login/", body=form, headers={
        "Content-Type": "application/x-www-form-urlencoded", "Cookie": f"csrftoken={token}",
        "X-Forwarded-For": client})
    answer = conn.getresponse()
    answer.read()
    return answer.status


def attack(port: int, guessers: int, seconds: float, spread: bool) -> tuple[dict, Counter]:
    stop = threading.Event()
    timings: dict[str, list[float]] = {}
    statuses: Counter = Counter()
    lock = threading.Lock()
    numbers = itertools.count(1)

    def guesser() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        while not stop.is_set():
            n = next(numbers)
            client = f"10.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}" if spread else "198.51.100.1"
            try:
                status = guess(conn, client, f"nobody{n}" if spread else "ann")
            except (OSError, http.client.HTTPException):  # closed while kept alive
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                continue
            with lock:
                statuses[status] += 1

    threads = [threading.Thread(target=guesser) for _ in range(guessers)]
    probe = threading.Thread(target=bench.ping_under_load, args=(port, stop, timings))
    for thread in [*threads, probe]:
        thread.start()
    time.sleep(seconds)
    stop.set()
    for thread in [*threads, probe]:
        thread.join()
    return timings, statuses


def idle_ping(port: int) -> list[float]:
    timings: dict[str, list[float]] = {}
    client = bench.Client(port, timings)
    for _ in range(200):
        client.request("ping", "GET", "/api/ping/")
    return timings["ping"]


def ms(values: list[float], p: float) -> str:
    return f"{bench.percentile(values, p) * 1000:7.1f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--guessers", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=15)
    args = parser.parse_args()
    rows = []
    with bench.database() as url, bench.broker() as redis_url:
        bench.BROKER_URL = redis_url
        prepare(url)
        for label, slots, wait, spread in [
            ("one address, one account", 1, 0.0, False),
            ("new address+name a guess, 1 slot, no wait", 1, 0.0, True),
            ("new address+name a guess, 1 slot, wait 1 s", 1, 1.0, True),
            (f"new address+name a guess, {THREADS} slots", THREADS, 1.0, True),
        ]:
            with server(url, redis_url, slots, wait) as port:
                idle = idle_ping(port)
                timings, statuses = attack(port, args.guessers, args.seconds, spread)
            rows.append((label, idle, timings.get("ping_under_load", []), statuses))
            print(f"done: {label}", file=sys.stderr)
    print(f"{args.guessers} guessers for {args.seconds:.0f} s, web server {WORKERS}x{THREADS}")
    print(f"{'':46}{'idle p50':>9}{'p50':>8}{'p95':>8}   guesses answered")
    for label, idle, ping, statuses in rows:
        answers = ", ".join(f"{count} x {status}" for status, count in sorted(statuses.items()))
        print(f"{label:46}{ms(idle, 50):>9}{ms(ping, 50):>8}{ms(ping, 95):>8}   {answers}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
