"""The database out, remembered for a moment (web.database_out): the production
web server on the suite's PostgreSQL, reached through a relay of the test's own
that can go silent, as a database host cut off does (its peers' packets dropped:
a connection attempt waits out its connect_timeout). Once a request has found the
database out, the requests that need it are refused (the outage's 503) without a
connection attempt until the moment is over; then one request tries it, the
others still refused; once it is back, the first request that tries it clears the
outage. The relay counts the attempts.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import tempfile
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import pytest
from django.db import OperationalError, connection, transaction

from tests.service.proxy_kit import get, web_server
from web.database_out import DatabaseOut, connection_failed

OUT_SECONDS = 1.5
"""MARRAM_DATABASE_OUT_SECONDS of the server under test."""


class Relay:
    """A TCP relay to the database that forwards, or goes silent: it takes each
    new connection and never answers (nor forwards) it, as a host whose link is
    down does."""

    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.silent = False
        self.attempts = 0
        self.held: list[socket.socket] = []
        self.lock = threading.Lock()
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # closed
            with self.lock:
                self.attempts += 1
                if self.silent:
                    self.held.append(client)
                    continue
            server = socket.create_connection(self.upstream)
            for source, target in ((client, server), (server, client)):
                threading.Thread(target=self.pump, args=(source, target), daemon=True).start()

    @staticmethod
    def pump(source: socket.socket, target: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                target.sendall(data)
        for end in (source, target):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)

    def seen(self) -> int:
        with self.lock:
            return self.attempts

    def close(self) -> None:
        self.listener.close()
        for held in self.held:
            held.close()


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[int, Relay]]:
    """The web server (one process, two threads, a new connection a request) on
    the relay."""
    url = urlsplit(os.environ["DATABASE_URL"])
    relay = Relay((url.hostname or "127.0.0.1", url.port or 5432))
    database = (f"postgres://{url.username}@127.0.0.1:{relay.port}{url.path}"
                "?connect_timeout=2&sslmode=disable")
    env = {"DATABASE_URL": database, "DATABASE_CONN_MAX_AGE": "0", "DJANGO_DEBUG": "0",
           "DJANGO_SETTINGS_MODULE": "marram_site.settings", "MARRAM_WEB_WORKERS": "1",
           "MARRAM_WEB_THREADS": "2", "MARRAM_DATABASE_OUT_SECONDS": str(OUT_SECONDS)}
    try:
        with tempfile.TemporaryDirectory(prefix="marram-out-") as workdir, \
                web_server(Path(workdir), env=env) as port:
            yield port, relay
    finally:
        relay.close()


def health(port: int) -> tuple[int, dict[str, str]]:
    """/healthz, which needs the database: its status and JSON."""
    status, body = get(port, "/healthz", timeout=30)
    return status, json.loads(body)


def out(answer: tuple[int, dict[str, str]]) -> bool:
    return answer[0] == 503 and answer[1]["code"] == "database_unavailable"


def test_the_database_found_out_is_not_tried_again_for_a_moment_then_by_one_request(served):
    port, relay = served
    assert health(port)[0] == 200  # up: each request connects
    relay.silent = True
    try:
        before = relay.seen()
        # the first request waits out its connect_timeout: the outage found
        assert out(health(port))
        found = relay.seen()
        assert found > before
        # the moment: refused at once, no connection attempted; the ping needs none
        assert all(out(health(port)) for _ in range(5))
        assert relay.seen() == found
        assert get(port, "/api/ping/", timeout=30)[0] == 200

        # the moment over, one request tries the database; while it waits, another
        # is refused without trying
        def until_tried() -> list[tuple[int, dict[str, str]]]:
            answers = [health(port)]
            while relay.seen() == found:
                answers.append(health(port))
            return answers  # the last one the probe's

        with ThreadPoolExecutor(1) as pool:
            asking = pool.submit(until_tried)
            while relay.seen() == found and not asking.done():
                threading.Event().wait(0.01)
            assert out(health(port))
            answers = asking.result()
        assert all(out(answer) for answer in answers)
        assert relay.seen() == found + 1
        assert out(health(port))  # the probe failed: the moment starts again
        assert relay.seen() == found + 1
        probing = found + 1
    finally:
        relay.silent = False

    # back: the first request after the moment gets through, and so do all after
    answers = []
    while (answer := health(port))[0] != 200:
        answers.append(answer)
    assert all(out(answer) for answer in answers)
    assert relay.seen() <= probing + 2  # one attempt a moment at most meanwhile
    before = relay.seen()
    assert [health(port)[0] for _ in range(3)] == [200] * 3
    assert relay.seen() == before + 3  # each connects again


@pytest.mark.django_db
def test_a_statement_that_fails_is_not_the_database_out():
    """A statement cancelled by its timeout is an OperationalError too, but not a
    connection's: it starts no outage. A connection refused does."""
    with (pytest.raises(OperationalError) as cancelled, transaction.atomic(),
          connection.cursor() as cursor):
        cursor.execute("SET LOCAL statement_timeout = 1")
        cursor.execute("SELECT pg_sleep(1)")
    assert not connection_failed(cancelled.value)

    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        closed = probe.getsockname()[1]
    with pytest.raises(psycopg.OperationalError) as refused:
        psycopg.connect(f"host=127.0.0.1 port={closed} connect_timeout=2")
    wrapped = OperationalError(str(refused.value))
    wrapped.__cause__ = refused.value  # as Django wraps a driver's error
    assert connection_failed(wrapped)
    assert not connection_failed(DatabaseOut("remembered"))
