"""Live updates for open game pages: the stream server (marram_site/stream.py,
under uvicorn as docker-compose runs it) on a Redis of this module's own, fed by
the moves this process commits (live.stream). Many open pages hear of each move
at once over server-sent events; a long poll answers at the move or after its
wait; bad requests are refused and hold nothing; a full server says 503 (the
page then polls); a lost Redis makes every page read its game again; nginx
passes the stream on unbuffered."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.db import transaction
from django.test import override_settings

from games.models import Game
from games.panels import panels_changed
from live import stream as live
from tests.service.conftest import body, make_user, signed_in, start_game
from tests.service.proxy_kit import ROOT, free_port, nginx, stop
from tests.service.test_polling import first_move

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 1.5  # the stream servers' long-poll wait, seconds
PAGES = 200  # open pages of one game in the first test


@contextlib.contextmanager
def redis_server(port: int) -> Iterator[str]:
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.fail("redis-server is missing (./dev test installs it)", pytrace=False)
    process = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1",
                                "--save", "", "--appendonly", "no"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
                break
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        stop(process)


@contextlib.contextmanager
def stream_server(redis_url: str, *, limit: int = 1000,
                  token_age: int | None = None) -> Iterator[int]:
    """uvicorn on the stream app, as docker-compose starts it, with this process's
    secret key (so the pages' tokens are good) and short heartbeats and waits
    (and with ``token_age``, tokens good for that many seconds)."""
    port = free_port()
    env = {**os.environ, "REDIS_URL": redis_url, "DJANGO_SECRET_KEY": settings.SECRET_KEY,
           "MARRAM_STREAM_MAX_CONNECTIONS": str(limit), "MARRAM_STREAM_HEARTBEAT": "1",
           "MARRAM_STREAM_WAIT": str(WAIT)}
    if token_age is not None:
        env["MARRAM_STREAM_TOKEN_AGE"] = str(token_age)
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "marram_site.stream:app", "--host", "127.0.0.1",
             "--port", str(port), "--no-access-log", "--timeout-graceful-shutdown", "1"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 30
            while not (health(port) or {}).get("subscribed"):
                if process.poll() is not None or time.monotonic() > deadline:
                    log.seek(0)
                    pytest.fail(f"the stream server did not start:\n{log.read().decode()}",
                                pytrace=False)
                time.sleep(0.1)
            yield port
        finally:
            stop(process)


def health(port: int) -> dict | None:
    try:
        status, payload = request(port, "/stream/health")
    except OSError:
        return None
    return payload if status == 200 else None


def request(port: int, path: str, method: str = "GET",
            timeout: float = 10) -> tuple[int, dict]:
    page = Held(port, path, method=method, timeout=timeout)
    try:
        head, rest = page.read_until(b"\r\n\r\n")
        length = int(re.search(rb"(?i)content-length: *(\d+)", head).group(1))
        while len(rest) < length:
            rest += page.sock.recv(65536)
        return page.status, json.loads(rest[:length])
    finally:
        page.close()


class Held:
    """One open page's connection to the stream, read as it comes."""

    def __init__(self, port: int, path: str, *, method: str = "GET", timeout: float = 10):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.sock.sendall(f"{method} {path} HTTP/1.1\r\nHost: marram.test\r\n"
                          "Accept: text/event-stream\r\n\r\n".encode())
        self.seen = b""

    @property
    def status(self) -> int:
        return int(self.seen.split(b" ", 2)[1])

    def read_until(self, marker: bytes, *, within: float = 10) -> tuple[bytes, bytes]:
        """Read until ``marker`` (within ``within`` seconds, keep-alive comments or
        not); the bytes up to and after it."""
        deadline = time.monotonic() + within
        while marker not in self.seen:
            if time.monotonic() > deadline:
                raise AssertionError(f"no {marker!r} within {within} s: {self.seen[-300:]!r}")
            chunk = self.sock.recv(65536)
            if not chunk:
                raise AssertionError(f"closed before {marker!r}: {self.seen!r}")
            self.seen += chunk
        before, _, after = self.seen.partition(marker)
        return before, after

    def events(self) -> list[str]:
        """The data lines and event names received so far, in order."""
        lines = re.findall(rb"^(data: \d+|event: \w+)$", self.seen, re.MULTILINE)
        return [line.decode() for line in lines]

    def close(self) -> None:
        self.sock.close()


def events_path(game: Game, token: str | None = None) -> str:
    return f"/stream/games/{game.pk}/events?t={token or live.stream_token(game.pk)}"


@pytest.fixture(scope="module")
def own_redis() -> Iterator[str]:
    with redis_server(free_port()) as url:
        yield url


@pytest.fixture(scope="module")
def stream(own_redis) -> Iterator[int]:
    with stream_server(own_redis) as port:
        yield port


@pytest.fixture
def publishing(own_redis) -> Iterator[None]:
    """This process publishes its commits, as the web and worker processes do."""
    with override_settings(MARRAM_STREAM=True, REDIS_URL=own_redis):
        yield


def settled(port: int, connections: int) -> None:
    deadline = time.monotonic() + 10
    while health(port)["connections"] != connections:
        assert time.monotonic() < deadline, health(port)
        time.sleep(0.05)


def test_every_open_page_hears_each_move_at_once_and_only_its_own_games(stream, publishing):
    ann, bob = make_user("ann"), make_user("bob")
    game, other = start_game([ann, bob]), start_game([ann, bob])
    pages = [Held(stream, events_path(game)) for _ in range(PAGES)]
    try:
        for page in pages:
            page.read_until(b"retry: 3000\n\n")
            assert page.status == 200
            assert b"content-type: text/event-stream" in page.seen.lower()
        settled(stream, PAGES)

        first_move(other)  # another game's move: not sent to these pages
        first_move(game)
        game.refresh_from_db()
        for page in pages:
            page.read_until(b"data: %d\n\n" % game.seq)
            assert page.events() == [f"data: {game.seq}"]
        # while nothing happens, a comment keeps the connection open
        pages[0].read_until(b": still here\n\n")
    finally:
        for page in pages:
            page.close()
    settled(stream, 0)


def test_a_change_beside_the_record_is_sent_to_every_page_of_the_game(stream, publishing):
    """A chat message, a rematch, the rating changes (games.panels): each page of
    the game hears the new panels seq, and no new seq."""
    ann, bob = make_user("ann"), make_user("bob")
    game, other = start_game([ann, bob]), start_game([ann, bob])
    pages = [Held(stream, events_path(game)) for _ in range(3)]
    elsewhere = Held(stream, events_path(other))
    try:
        for page in [*pages, elsewhere]:
            page.read_until(b"retry: 3000\n\n")
        settled(stream, 4)
        with transaction.atomic():
            panels_changed(game.pk)
        for page in pages:
            page.read_until(b"event: panels\ndata: 1\n\n")
        first_move(game)
        game.refresh_from_db()
        for page in pages:
            deadline = time.monotonic() + 10
            while len(page.events()) < 3:  # the seq after the panels' (both "data: 1")
                assert time.monotonic() < deadline, page.seen
                page.seen += page.sock.recv(65536)
            assert page.events() == ["event: panels", "data: 1", f"data: {game.seq}"]
        elsewhere.read_until(b": still here\n\n")
        assert elsewhere.events() == []
    finally:
        for page in [*pages, elsewhere]:
            page.close()


def test_a_long_poll_answers_at_the_move_or_after_its_wait(stream, publishing):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    token = live.stream_token(game.pk)
    path = f"/stream/games/{game.pk}/wait?t={token}&since={game.seq}"
    answers: list[tuple[int, dict]] = []
    waiting = threading.Thread(target=lambda: answers.append(request(stream, path)))
    waiting.start()
    settled(stream, 1)
    first_move(game)
    waiting.join(10)
    game.refresh_from_db()
    assert answers == [(200, {"seq": game.seq})]

    # a poll that starts late hears at once of what the server already knows
    assert request(stream, path) == (200, {"seq": game.seq})
    # nothing new: the answer comes after the wait, with no seq
    started = time.monotonic()
    assert request(stream, f"/stream/games/{game.pk}/wait?t={token}&since={game.seq}") \
        == (200, {"seq": None})
    assert WAIT - 0.2 <= time.monotonic() - started < WAIT + 3


def test_bad_requests_are_refused_and_hold_nothing(stream):
    ann, bob = make_user("ann"), make_user("bob")
    game, other = start_game([ann, bob]), start_game([ann, bob])
    token = live.stream_token(game.pk)
    forged = token[:-2] + ("AA" if not token.endswith("AA") else "BB")
    refused = {
        events_path(game, forged): (403, "forbidden"),
        events_path(game, live.stream_token(other.pk)): (403, "forbidden"),
        f"/stream/games/{game.pk}/events": (403, "forbidden"),
        f"/stream/games/{game.pk}/wait?t={token}&since=abc": (400, "invalid"),
        f"/stream/games/{game.pk}/wait?t={token}&since=-1": (400, "invalid"),
        f"/stream/games/{game.pk}/wait?t={token}&since={'9' * 40}": (400, "invalid"),
        f"/stream/games/{'9' * 40}/events?t={token}": (404, "not_found"),
        f"/stream/games/{game.pk}/other?t={token}": (404, "not_found"),
        "/stream/": (404, "not_found"),
    }
    for path, (status, code) in refused.items():
        answer = request(stream, path)
        assert answer[0] == status and answer[1]["code"] == code, (path, answer)
    status, answer = request(stream, events_path(game), method="POST")
    assert (status, answer["code"]) == (405, "method_not_allowed")
    # an expired token: good for a while only
    assert live.token_listening(token, max_age=-1) is None
    assert live.token_listening(token) == live.Listening(game.pk)
    settled(stream, 0)


def test_a_full_server_refuses_with_503_until_a_page_leaves(own_redis):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    with stream_server(own_redis, limit=3) as port:
        pages = [Held(port, events_path(game)) for _ in range(3)]
        for page in pages:
            page.read_until(b"retry: 3000\n\n")
        status, answer = request(port, events_path(game))
        assert (status, answer["code"]) == (503, "busy")
        pages.pop().close()
        settled(port, 2)
        again = Held(port, events_path(game))
        again.read_until(b"retry: 3000\n\n")
        assert again.status == 200
        for page in [*pages, again]:
            page.close()


def test_a_lost_redis_makes_every_page_read_its_game_again():
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    port = free_port()
    with contextlib.ExitStack() as stack:
        url = stack.enter_context(redis_server(port))
        stack.enter_context(override_settings(MARRAM_STREAM=True, REDIS_URL=url))
        stream_port = stack.enter_context(stream_server(url))
        page = Held(stream_port, events_path(game))
        page.read_until(b"retry: 3000\n\n")
        settled(stream_port, 1)
        # Redis goes away, and comes back at the same address
        with contextlib.suppress(redis.ConnectionError):
            redis.Redis.from_url(url).shutdown(nosave=True)
        stack.enter_context(redis_server(port))
        page.read_until(b"event: resync\n")
        first_move(game)
        game.refresh_from_db()
        page.read_until(b"data: %d\n\n" % game.seq)
        page.close()


def test_the_page_carries_its_stream_once_the_game_has_started_and_streams_are_on(
        own_redis, stream):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    page = signed_in(bob)
    with override_settings(MARRAM_STREAM=False):
        assert b"data-stream-url" not in page.get(f"/games/{game.pk}/").content
    with override_settings(MARRAM_STREAM=True, REDIS_URL=own_redis):
        html = page.get(f"/games/{game.pk}/").content.decode()
        [url] = re.findall(r'data-stream-url="([^"]+)"', html)
        url = url.replace("&amp;", "&")
        assert url.startswith(f"/stream/games/{game.pk}/events?t=")
        held = Held(stream, url)  # the page's own address is good at the stream server
        held.read_until(b"retry: 3000\n\n")
        assert held.status == 200
        held.close()
        # a finished game's page follows its chat and rematch
        Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
        assert b"data-stream-url" in page.get(f"/games/{game.pk}/").content
        waiting = start_game([ann, bob])
        Game.objects.filter(pk=waiting.pk).update(status=Game.Status.OPEN)
        assert b"data-stream-url" not in page.get(f"/games/{waiting.pk}/").content
    assert body(page.get(f"/api/games/{game.pk}/events/?since=0"))["seq"] == game.seq


def test_nginx_passes_the_stream_on_unbuffered(stream, publishing, live_server):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    address = live_server.url.removeprefix("http://")
    with tempfile.TemporaryDirectory(prefix="marram-stream-") as name:
        workdir = Path(name)
        with nginx(workdir, [address], streams=[f"127.0.0.1:{stream}"]) as front:
            page = Held(front, events_path(game))
            page.read_until(b"retry: 3000\n\n")
            assert page.status == 200
            settled(stream, 1)
            first_move(game)
            game.refresh_from_db()
            page.read_until(b"data: %d\n\n" % game.seq, within=3)  # not when a buffer fills
            page.close()
