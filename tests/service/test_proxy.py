"""The production shape's front: Debian's nginx on deploy/nginx/marram.conf.template
(the file docker-compose.yml mounts), in front of the web server with the
production settings (marram_site/server.py). Twelve clients that send a header
line every two seconds, twice the server's 3 workers x 2 threads: behind nginx a
normal request is still answered while they hang, and nginx closes them when its
header timeout runs out. A body over the limit is refused by nginx itself, with the
app's own limit (MARRAM_MAX_BODY_KIB) and a JSON 413, and a body the app answers
without reading is read to its end first, so nginx never sees a web server close
on it (a 502, and the server out of turns)."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import socket
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from rest_framework.authtoken.models import Token

from tests.service import test_celery_worker as real
from tests.service.conftest import make_user
from tests.service.proxy_kit import get, max_body_kib, nginx, seconds, setting, web_server

process_env, smtp = real.process_env, real.smtp

SLOW_CLIENTS = 12  # twice the web server's 3 workers x 2 threads
TRICKLE_SECONDS = 2.0
HEADER_TIMEOUT = seconds(setting("client_header_timeout"))


@pytest.fixture(scope="module")
def proxied() -> Iterator[int]:
    """nginx's port, with the web server behind it."""
    with tempfile.TemporaryDirectory(prefix="marram-proxy-") as name:
        workdir = Path(name)
        with web_server(workdir) as upstream, nginx(workdir, [f"127.0.0.1:{upstream}"]) as port:
            yield port


class SlowClients:
    """Connections that send a request's first line and then one header line every
    TRICKLE_SECONDS, never the blank line that ends the headers."""

    def __init__(self, port: int, count: int) -> None:
        self.sockets = []
        for _ in range(count):
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            sock.sendall(b"GET /api/ping/ HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            self.sockets.append(sock)
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._trickle, daemon=True)
        self.thread.start()

    def _trickle(self) -> None:
        line = 0
        while not self.done.wait(TRICKLE_SECONDS):
            line += 1
            for sock in self.sockets:
                with contextlib.suppress(OSError):  # closed by the server: see closed()
                    sock.sendall(f"X-Slow-{line}: still typing\r\n".encode())

    def waiting(self) -> list[bool]:
        """Whether each connection is open and has had no answer yet."""
        states = []
        for sock in self.sockets:
            sock.setblocking(False)
            try:
                sock.recv(1)  # an answer, or the end of the stream
                states.append(False)
            except BlockingIOError:
                states.append(True)
            except OSError:
                states.append(False)
            finally:
                sock.setblocking(True)
        return states

    def closed_by_server(self, within: float) -> list[bool]:
        """Whether each connection is closed by the server (an end of stream or a
        reset, with no answer) within ``within`` seconds from now."""
        deadline = time.monotonic() + within
        states = []
        for sock in self.sockets:
            sock.settimeout(max(deadline - time.monotonic(), 0.01))
            try:
                states.append(sock.recv(4096) == b"")
            except ConnectionResetError:
                states.append(True)
            except OSError:  # a timeout: still open
                states.append(False)
        return states

    def close(self) -> None:
        self.done.set()
        self.thread.join()
        for sock in self.sockets:
            sock.close()


def test_a_request_is_answered_while_slow_clients_hang_and_they_are_cut_off(proxied):
    slow = SlowClients(proxied, SLOW_CLIENTS)
    try:
        # held by nginx: normal requests get through, and the web server never
        # sees the slow clients' requests
        for _ in range(3):
            status, body = get(proxied, "/healthz", timeout=HEADER_TIMEOUT)
            assert status == 200 and json.loads(body)["status"] == "ok"
            status, body = get(proxied, "/api/ping/", timeout=HEADER_TIMEOUT)
            assert status == 200 and json.loads(body) == {"ping": "pong"}
        assert slow.waiting() == [True] * SLOW_CLIENTS
        # however they trickle, their headers get HEADER_TIMEOUT in all
        assert slow.closed_by_server(within=HEADER_TIMEOUT + 5) == [True] * SLOW_CLIENTS
    finally:
        slow.close()
    assert get(proxied, "/api/ping/", timeout=HEADER_TIMEOUT)[0] == 200


def test_a_body_over_the_limit_is_refused_by_the_proxy(proxied):
    limit_kib = max_body_kib()
    assert setting("client_max_body_size") == "${MARRAM_MAX_BODY_KIB}k"
    conn = http.client.HTTPConnection("127.0.0.1", proxied, timeout=HEADER_TIMEOUT)
    try:
        conn.request("POST", "/api/games/", body=b"{" + b" " * (limit_kib * 1024) + b"}",
                     headers={"Content-Type": "application/json",
                              "X-Forwarded-Proto": "https"})
        answer = conn.getresponse()
        assert answer.status == 413
        assert json.loads(answer.read())["code"] == "too_large"
    finally:
        conn.close()


# ---------------------------------------------------------------- bodies the app does not read

SENDERS = 16  # at once: a web server closing on a body it left unread showed as
ROUNDS = 4    # 502s in 2 of 15 such requests one by one, most of them at once


@pytest.fixture(scope="module")
def two_behind_proxy(process_env) -> Iterator[tuple[int, list[int], Path]]:
    """nginx's port, the web servers' ports and the directory of their logs: two web
    servers (a worker each) on the test database behind nginx, as docker-compose.yml
    runs web and web2. A server nginx counts as failed is out of turns for 10 s (its
    max_fails=1, fail_timeout=10s), and nginx's log says so."""
    env = {name: value for name, value in process_env.items() if os.environ.get(name) != value}
    env["MARRAM_WEB_WORKERS"] = "1"
    with tempfile.TemporaryDirectory(prefix="marram-proxy-bodies-") as name:
        workdir = Path(name)
        with web_server(workdir, name="web", env=env) as web, \
                web_server(workdir, name="web2", env=env) as web2, \
                nginx(workdir, [f"127.0.0.1:{web}", f"127.0.0.1:{web2}"]) as port:
            yield port, [web, web2], workdir


def post(port: int, path: str, body: bytes, token: str | None = None
         ) -> tuple[int, str, bytes]:
    headers = {"Content-Type": "application/json", "X-Forwarded-Proto": "https"}
    if token:
        headers["Authorization"] = f"Token {token}"
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("POST", path, body=body, headers=headers)
        answer = conn.getresponse()
        return answer.status, answer.getheader("Content-Type", ""), answer.read()
    finally:
        conn.close()


def proxy_failures(workdir: Path) -> list[str]:
    """nginx's log lines of a web server it could not send a request to or read an
    answer from, or took out of turns."""
    return [line for line in (workdir / "error.log").read_text().splitlines()
            if "upstream" in line and ("[error]" in line or "[warn]" in line)]


def body_of(kib: int) -> bytes:
    """A JSON document of ``kib`` KiB (an object padded with spaces)."""
    return b"{" + b" " * (kib * 1024 - 2) + b"}"


@pytest.mark.django_db(transaction=True)
def test_bodies_over_the_limit_are_a_json_413_and_no_server_is_taken_out(two_behind_proxy):
    """300 and 600 KiB bodies, with a token and without, many at once: each is a
    JSON 413 ``too_large``, nginx never fails to reach a web server, and the next
    requests are answered."""
    port, _, workdir = two_behind_proxy
    token = Token.objects.create(user=make_user("heavy")).key
    sends = [(kib, who) for kib in (300, 600) for who in (token, None)] * (SENDERS * ROUNDS // 4)
    with ThreadPoolExecutor(SENDERS) as pool:
        answers = list(pool.map(lambda send: post(port, "/api/games/", body_of(send[0]),
                                                  send[1]), sends))
    statuses = Counter((kib, status) for (kib, _), (status, _, _) in zip(sends, answers,
                                                                         strict=True))
    assert statuses == {(300, 413): len(sends) // 2, (600, 413): len(sends) // 2}
    for (kib, _), (status, kind, body) in zip(sends, answers, strict=True):
        assert kind == "application/json", (kib, status, kind, body[:200])
        assert json.loads(body) == {"code": "too_large",
                                    "message": f"the request body is over {max_body_kib()} KiB"}
    assert proxy_failures(workdir) == []
    for _ in range(4):  # each server's turn, twice
        assert get(port, "/api/ping/", timeout=HEADER_TIMEOUT)[0] == 200
    status, _, body = post(port, "/api/games/", b'{"game": "no-such-game"}', token)
    assert status == 400 and json.loads(body)["field"] == "game"


def test_a_body_the_app_answers_unread_is_read_first(two_behind_proxy):
    """A body under the limit that the app answers without reading (no credentials:
    a 401): the web server reads it to the end first, so nginx, sending it while
    the answer comes, never meets a closed connection. Many at once through nginx;
    then one straight to a web server, its body sent in two parts with a pause
    between, and a second request on the same connection."""
    port, web_ports, workdir = two_behind_proxy
    kib = max_body_kib() - 1
    with ThreadPoolExecutor(SENDERS) as pool:
        answers = list(pool.map(lambda _: post(port, "/api/games/", body_of(kib)),
                                range(SENDERS * ROUNDS)))
    assert Counter(status for status, _, _ in answers) == {401: len(answers)}
    assert all(json.loads(body)["code"] == "not_authenticated" for _, _, body in answers)
    assert proxy_failures(workdir) == []

    body = body_of(kib)
    with socket.create_connection(("127.0.0.1", web_ports[0]), timeout=10) as sock:
        sock.sendall(b"POST /api/games/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"X-Forwarded-Proto: https\r\nContent-Type: application/json\r\n"
                     b"Content-Length: %d\r\n\r\n" % len(body) + body[:1024])
        time.sleep(0.5)  # long enough for the app to answer
        sock.sendall(body[1024:])  # a connection closed on it: BrokenPipe, a reset
        sock.sendall(b"GET /api/ping/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"X-Forwarded-Proto: https\r\n\r\n")
        received = b""
        while b"pong" not in received:
            chunk = sock.recv(65536)
            assert chunk, f"the web server closed the connection after {received[:300]!r}"
            received += chunk
    assert received.startswith(b"HTTP/1.1 401 ")
    assert received.count(b"HTTP/1.1 ") == 2 and b"HTTP/1.1 200 OK" in received
