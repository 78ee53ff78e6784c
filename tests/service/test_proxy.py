"""The production shape's front: Debian's nginx on deploy/nginx/marram.conf.template
(the file docker-compose.yml mounts), in front of gunicorn with the production
settings and marram_site/gunicorn.py. Twelve clients that send a header line every
two seconds would hold every one of gunicorn's six threads; behind nginx a
normal request is still answered while they hang, and nginx closes them when
its header timeout runs out. A body over the limit is refused by nginx itself."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NGINX = Path("/usr/sbin/nginx")
TEMPLATE = ROOT / "deploy" / "nginx" / "marram.conf.template"
SLOW_CLIENTS = 12  # twice gunicorn's 3 workers x 2 threads
TRICKLE_SECONDS = 2.0
STARTUP_SECONDS = 60


def setting(name: str) -> str:
    """A directive's value in the template, e.g. client_header_timeout's '10s'."""
    found = re.search(rf"^\s*{name}\s+([^;]+);", TEMPLATE.read_text(), re.MULTILINE)
    assert found, f"{TEMPLATE} has no {name}"
    return found.group(1)


def seconds(value: str) -> float:
    assert value.endswith("s"), value
    return float(value[:-1])


HEADER_TIMEOUT = seconds(setting("client_header_timeout"))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def get(port: int, path: str, timeout: float) -> tuple[int, bytes]:
    """A normal request, as a browser behind a TLS proxy makes it."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path, headers={"X-Forwarded-Proto": "https"})
        answer = conn.getresponse()
        return answer.status, answer.read()
    finally:
        conn.close()


def wait_until_up(port: int, process: subprocess.Popen, what: str, log: Path) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while True:
        with contextlib.suppress(OSError):
            if get(port, "/api/ping/", timeout=5)[0] == 200:
                return
        if process.poll() is not None or time.monotonic() > deadline:
            detail = log.read_text() if log.exists() else "(no log)"
            pytest.fail(f"{what} did not start:\n{detail}", pytrace=False)
        time.sleep(0.2)


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@contextlib.contextmanager
def gunicorn(workdir: Path) -> Iterator[int]:
    """gunicorn as docker-compose starts it (production settings, the project's
    gunicorn.py: 3 workers x 2 threads), on a loopback port."""
    port = free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "marram_site.settings_production",
        "DJANGO_SECRET_KEY": "proxy-test-only-" + uuid.uuid4().hex,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_LOG_LEVEL": "WARNING",
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "GUNICORN_ACCESS_LOG": "",
    }
    env.pop("GUNICORN_WORKERS", None)
    env.pop("GUNICORN_THREADS", None)
    log = workdir / "gunicorn.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "python:marram_site.gunicorn",
             "marram_site.wsgi"], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_until_up(port, process, "gunicorn", log)
        yield port
    finally:
        stop(process)


@contextlib.contextmanager
def nginx(workdir: Path, upstream: str) -> Iterator[int]:
    """Debian's nginx on the repository's config, filled in for loopback ports; the
    rest of nginx.conf (what the nginx image has around its conf.d) is the least
    that runs it in a directory of its own."""
    if not NGINX.exists():
        pytest.fail(f"{NGINX} is missing: this test runs Debian's nginx package "
                    "(apt-get install nginx; .ci/run installs it)", pytrace=False)
    port = free_port()
    site = TEMPLATE.read_text()
    site = site.replace("${MARRAM_LISTEN}", f"127.0.0.1:{port}")
    site = site.replace("${MARRAM_UPSTREAM}", upstream)
    assert "${" not in site, "the template has a placeholder this test does not fill"
    (workdir / "marram.conf").write_text(site)
    temp = [f"{kind}_temp_path {workdir / kind};"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")]
    (workdir / "nginx.conf").write_text("\n".join([
        "worker_processes 1;",
        f"pid {workdir / 'nginx.pid'};",
        f"error_log {workdir / 'error.log'} info;",
        "events { worker_connections 256; }",
        "http {",
        "    default_type application/octet-stream;",
        "    access_log off;",
        *(f"    {line}" for line in temp),
        f"    include {workdir / 'marram.conf'};",
        "}",
    ]))
    workdir.chmod(0o755)  # nginx's workers run as nobody when it is started as root
    log = workdir / "error.log"
    process = subprocess.Popen(
        [str(NGINX), "-p", str(workdir), "-c", str(workdir / "nginx.conf"), "-e", str(log),
         "-g", "daemon off;"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        wait_until_up(port, process, "nginx", log)
        yield port
    finally:
        stop(process)


@pytest.fixture(scope="module")
def proxied() -> Iterator[int]:
    """nginx's port, with gunicorn behind it."""
    with tempfile.TemporaryDirectory(prefix="marram-proxy-") as name:
        workdir = Path(name)
        with gunicorn(workdir) as upstream, nginx(workdir, f"127.0.0.1:{upstream}") as port:
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
        # held by nginx, not by gunicorn: normal requests get through (straight to
        # gunicorn, most of them would wait as long as the slow clients trickle)
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
