"""The production shape's front for tests: the web server (marram_site/server.py)
with the production settings on a loopback port, and Debian's nginx on
deploy/nginx/marram.conf.template (the file docker-compose.yml mounts) in front
of one or more of them. Used by test_proxy and test_two_servers."""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NGINX = Path("/usr/sbin/nginx")
TEMPLATE = ROOT / "deploy" / "nginx" / "marram.conf.template"
STARTUP_SECONDS = 60
SERVERS: dict[int, subprocess.Popen] = {}
"""The web servers running on loopback, by port (web_server)."""


def setting(name: str) -> str:
    """A directive's value in the template, e.g. client_header_timeout's '10s'."""
    found = re.search(rf"^\s*{name}\s+([^;]+);", TEMPLATE.read_text(), re.MULTILINE)
    assert found, f"{TEMPLATE} has no {name}"
    return found.group(1)


def seconds(value: str) -> float:
    assert value.endswith("s"), value
    return float(value[:-1])


def upstream_servers(addresses: Sequence[str]) -> str:
    """The template's ${MARRAM_UPSTREAM_SERVERS}: a ``server`` directive for each
    web server, as docker-compose.yml sets it."""
    return " ".join(f"server {address};" for address in addresses)


def max_body_kib() -> int:
    """The template's ${MARRAM_MAX_BODY_KIB}: the web servers' own limit, as
    docker-compose.yml gives both the same variable."""
    from django.conf import settings

    return settings.MARRAM_MAX_BODY_KIB


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def get(port: int, path: str, timeout: float, host: str = "127.0.0.1") -> tuple[int, bytes]:
    """A normal request, as a browser behind a TLS proxy makes it."""
    conn = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        conn.request("GET", path, headers={"X-Forwarded-Proto": "https"})
        answer = conn.getresponse()
        return answer.status, answer.read()
    finally:
        conn.close()


def wait_until_up(port: int, process: subprocess.Popen, what: str, log: Path,
                  host: str = "127.0.0.1") -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while True:
        with contextlib.suppress(OSError):
            if get(port, "/api/ping/", timeout=5, host=host)[0] == 200:
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
def web_server(workdir: Path, *, name: str = "web", env: dict[str, str] | None = None,
               address: str = "127.0.0.1", port: int = 0,
               prefix: Sequence[str] = ()) -> Iterator[int]:
    """The web server as docker-compose starts it (production settings,
    marram_site/server.py: 3 workers x 2 threads unless ``env`` says otherwise),
    on a loopback port (or ``address:port``, run under ``prefix``: another host's
    namespace, hosts_kit); its output in ``workdir/<name>.log``."""
    port = port or free_port()
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "marram_site.settings_production",
        "DJANGO_SECRET_KEY": "proxy-test-only-" + uuid.uuid4().hex,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_LOG_LEVEL": "WARNING",
        "MARRAM_WEB_ACCESS_LOG": "0",
    }
    environment.pop("MARRAM_WEB_WORKERS", None)
    environment.pop("MARRAM_WEB_THREADS", None)
    environment.update(env or {})
    environment["MARRAM_WEB_BIND"] = f"{address}:{port}"
    log = workdir / f"{name}.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [*prefix, sys.executable, "-m", "marram_site.server"], cwd=ROOT, env=environment,
            stdout=out, stderr=subprocess.STDOUT)
    if not prefix:
        SERVERS[port] = process
    try:
        wait_until_up(port, process, name, log, host=address)
        yield port
    finally:
        SERVERS.pop(port, None)
        stop(process)


@contextlib.contextmanager
def nginx(workdir: Path, upstreams: Sequence[str],
          streams: Sequence[str] = ("127.0.0.1:9",), *, address: str = "127.0.0.1",
          port: int = 0, prefix: Sequence[str] = ()) -> Iterator[int]:
    """Debian's nginx on the repository's config, filled in for loopback ports with
    ``upstreams`` (web servers' host:port) as its upstream's servers and ``streams``
    as the stream servers' (by default a port nothing listens on); the rest of
    nginx.conf (what the nginx image has around its conf.d) is the least that runs
    it in a directory of its own. With ``address`` (and ``port``) it listens there,
    run under ``prefix`` (another host's namespace, hosts_kit)."""
    if not NGINX.exists():
        pytest.fail(f"{NGINX} is missing: this test runs Debian's nginx package "
                    "(apt-get install nginx; .ci/run installs it)", pytrace=False)
    port = port or free_port()
    site = TEMPLATE.read_text()
    site = site.replace("${MARRAM_LISTEN}", f"{address}:{port}")
    site = site.replace("${MARRAM_UPSTREAM_SERVERS}", upstream_servers(upstreams))
    site = site.replace("${MARRAM_STREAM_SERVERS}", upstream_servers(streams))
    site = site.replace("${MARRAM_MAX_BODY_KIB}", str(max_body_kib()))
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
        [*prefix, str(NGINX), "-p", str(workdir), "-c", str(workdir / "nginx.conf"), "-e",
         str(log), "-g", "daemon off;"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        wait_until_up(port, process, "nginx", log, host=address)
        yield port
    finally:
        stop(process)
