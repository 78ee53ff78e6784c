"""The production shape's front: Debian's nginx on deploy/nginx/marram.conf.template
(the file docker-compose.yml mounts), in front of the web server with the
production settings (marram_site/server.py). Twelve clients that send a header
line every two seconds, twice the server's 3 workers x 2 threads: behind nginx a
normal request is still answered while they hang, and nginx closes them when its
header timeout runs out. A body over the limit is refused by nginx itself."""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.service.proxy_kit import get, nginx, seconds, setting, web_server

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
    limit_kib = int(setting("client_max_body_size").rstrip("k"))
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
