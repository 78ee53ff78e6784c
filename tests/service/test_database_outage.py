"""The database stopped under a running web server: the API answers a JSON 503
``{"code": "database_unavailable", "message"}`` with Retry-After, the pages a
plain 503 page, never Django's 500; and once the database is back, so are the
answers.

The web server is the production one (marram_site/server.py, DEBUG off, kept
connections as docker-compose keeps them) on a PostgreSQL cluster
of the test's own, made the way ./dev test makes the shared one
(scripts/testservices.py), so that stopping it stops nothing else.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from scripts import testservices
from tests.service.proxy_kit import ROOT, free_port, web_server

DEADLINE = 60.0
TRIES = 6  # of each request while the database is down: every thread of the server,
# first with its kept connection (broken), then with none (refused)


class OwnPostgres:
    """A PostgreSQL cluster of the test's own, which it may stop and start again."""

    def __init__(self, workdir: Path) -> None:
        self.owner = testservices.cluster_owner()
        self.workdir = workdir
        self.datadir, self.sockdir = workdir / "data", workdir / "sock"
        self.log = workdir / "postgres.log"
        self.port = free_port()
        self.url = f"postgres://{testservices.DATABASE_USER}@127.0.0.1:{self.port}/marram"
        self.sockdir.mkdir()
        if self.owner is not None:
            shutil.chown(workdir, self.owner)
            shutil.chown(self.sockdir, self.owner)
        testservices.run_quietly(testservices.as_owner(self.owner, [
            testservices.postgres_bin("initdb"), f"--pgdata={self.datadir}",
            f"--username={testservices.DATABASE_USER}", "--auth=trust", "--encoding=UTF8",
            "--locale=C", "--no-sync"]), "initdb", workdir)

    def pg_ctl(self, *args: str) -> None:
        testservices.run_quietly(testservices.as_owner(self.owner, [
            testservices.postgres_bin("pg_ctl"), *args, f"--pgdata={self.datadir}"]),
            f"pg_ctl {args[0]}", self.workdir)

    def start(self) -> None:
        options = (f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.sockdir} "
                   "-c fsync=off -c synchronous_commit=off -c full_page_writes=off")
        self.pg_ctl("start", "--wait", "--timeout=30", f"--log={self.log}",
                    f"--options={options}")

    def stop(self) -> None:
        """As an operator's restart does: sessions are ended, the server goes."""
        self.pg_ctl("stop", "--mode=fast", "--wait")

    def remove(self) -> None:
        subprocess.run(testservices.as_owner(self.owner, [
            testservices.postgres_bin("pg_ctl"), "stop", f"--pgdata={self.datadir}",
            "--mode=immediate", "--wait"]), cwd=self.workdir, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)


@dataclass(frozen=True)
class Outage:
    database: OwnPostgres
    port: int
    token: str
    session: str


def manage(env: dict[str, str], *args: str) -> str:
    result = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


@pytest.fixture(scope="module")
def outage() -> Iterator[Outage]:
    """The test's own PostgreSQL (migrated, with a player, their token and a session
    signed in), and the web server on it."""
    with tempfile.TemporaryDirectory(prefix="marram-outage-", dir="/tmp") as name:
        workdir = Path(name)
        workdir.chmod(0o755)  # the cluster's owner (postgres, under root) enters it
        (workdir / "pg").mkdir()
        database = OwnPostgres(workdir / "pg")
        database.start()
        try:
            testservices.run_quietly([
                testservices.postgres_bin("createdb"), "--host=127.0.0.1",
                f"--port={database.port}", f"--username={testservices.DATABASE_USER}",
                "marram"], "createdb", workdir)
            env = {**os.environ, "DATABASE_URL": database.url,
                   "DJANGO_SETTINGS_MODULE": "marram_site.settings"}
            env.pop("DJANGO_ENV", None)
            manage(env, "migrate", "--no-input", "-v", "0")
            secret = "outage-test-only-" + uuid.uuid4().hex
            made = manage({**env, "DJANGO_SECRET_KEY": secret}, "shell", "-c", (
                "from django.contrib.auth import get_user_model\n"
                "from rest_framework.authtoken.models import Token\n"
                "from accounts.sessions import SessionStore\n"
                "user = get_user_model().objects.create_user('dunes', password='x' * 12)\n"
                "session = SessionStore()\n"
                "session['_auth_user_id'] = str(user.pk)\n"
                "session['_auth_user_backend'] = 'accounts.signin.ThrottledModelBackend'\n"
                "session['_auth_user_hash'] = user.get_session_auth_hash()\n"
                "session.create()\n"
                "print(Token.objects.create(user=user).key, session.session_key)"))
            token, session = made.split()[-2:]
            # the production settings but for the static files' manifest, which only
            # a deployment's collectstatic makes (and the pages need)
            server_env = {"DATABASE_URL": database.url, "MARRAM_WEB_WORKERS": "1",
                          "MARRAM_WEB_THREADS": "2", "DATABASE_CONN_MAX_AGE": "60",
                          "DJANGO_SECRET_KEY": secret, "DJANGO_DEBUG": "0",
                          "DJANGO_SETTINGS_MODULE": "marram_site.settings"}
            with web_server(workdir, env=server_env) as port:
                yield Outage(database, port, token, session)
        finally:
            database.remove()


def request(port: int, method: str, path: str, token: str | None = None,
            body: dict | None = None, accept: str = "*/*", session: str | None = None,
            ) -> tuple[int, dict[str, str], bytes]:
    headers = {"X-Forwarded-Proto": "https", "Accept": accept}
    if token:
        headers["Authorization"] = f"Token {token}"
    if session:
        headers["Cookie"] = f"sessionid={session}"
    if body is not None:
        headers["Content-Type"] = "application/json"
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path, body=None if body is None else json.dumps(body),
                     headers=headers)
        answer = conn.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
    finally:
        conn.close()


API = [("GET", "/api/games/"), ("GET", "/api/games/1/"), ("POST", "/api/games/")]
PAGES = ["/lobby/", "/games/", "/leaderboards/", "/games/finished/"]


def test_the_database_stopped_is_a_503_in_json_for_the_api_and_a_page_for_pages(outage):
    port, token, session = outage.port, outage.token, outage.session
    new_game = {"game": "marram", "seats": 2}

    def page(path: str) -> tuple[int, dict[str, str], bytes]:
        return request(port, "GET", path, accept="text/html", session=session)

    # up: the requests are answered as usual
    assert request(port, "GET", "/api/games/", token)[0] == 200
    assert request(port, "GET", "/api/games/1/", token)[0] == 404
    up = [page(path) for path in PAGES]
    assert [status for status, _, _ in up] == [200] * len(PAGES), up[0][2][-300:]
    assert request(port, "GET", "/healthz")[0] == 200

    outage.database.stop()
    try:
        for _ in range(TRIES):
            for method, path in API:
                status, headers, body = request(port, method, path, token,
                                                new_game if method == "POST" else None)
                assert status == 503, (method, path, status, body[:300])
                assert headers["content-type"] == "application/json", (path, headers)
                assert int(headers["retry-after"]) > 0
                answer = json.loads(body)
                assert set(answer) == {"code", "message"}
                assert answer["code"] == "database_unavailable"
            for path in PAGES:
                status, headers, body = page(path)
                assert status == 503, (path, status, body[:300])
                assert headers["content-type"].startswith("text/html"), (path, headers)
                assert int(headers["retry-after"]) > 0
                assert b"Server Error" not in body and b"<h1>" in body
            status, headers, body = request(port, "GET", "/healthz")
            assert (status, headers["content-type"]) == (503, "application/json")
            assert json.loads(body)["code"] == "database_unavailable"
            # what needs no database still answers
            assert request(port, "GET", "/api/ping/")[0] == 200
    finally:
        outage.database.start()

    # back: every thread's next request that needs the database is answered
    deadline = time.monotonic() + DEADLINE
    seen: list[int] = []
    while time.monotonic() < deadline:
        seen.append(request(port, "GET", "/api/games/", token)[0])
        if seen[-TRIES:] == [200] * TRIES:
            break
        time.sleep(0.1)
    assert seen[-TRIES:] == [200] * TRIES and set(seen) <= {200, 503}, seen
    assert [page(path)[0] for path in PAGES] == [200] * len(PAGES)


def test_any_other_fault_is_a_500_in_json_for_the_api_and_django_s_page_elsewhere(rf):
    """The handler the outage goes through keeps every other fault a 500: JSON for
    the API (no HTML page in an API client's answer), Django's page for the pages."""
    from django.db import OperationalError

    from marram_site.views import server_error

    def answer(path: str, fault: Exception):
        try:
            raise fault
        except Exception:
            return server_error(rf.get(path))

    api = answer("/api/games/", RuntimeError("a fault"))
    assert (api.status_code, api["Content-Type"]) == (500, "application/json")
    assert json.loads(api.content)["code"] == "server_error"
    page = answer("/lobby/", RuntimeError("a fault"))
    assert page.status_code == 500 and page["Content-Type"].startswith("text/html")
    out = answer("/games/7/state.json", OperationalError("connection refused"))
    assert (out.status_code, out["Retry-After"]) == (503, "5")
    assert json.loads(out.content)["code"] == "database_unavailable"
