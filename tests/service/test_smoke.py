"""The service boots, reaches its database and broker, and is deployable."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


def expected_vendor() -> str:
    url = os.environ.get("DATABASE_URL", "sqlite://")
    return "postgresql" if url.startswith(("postgres", "pgsql")) else url.split(":", 1)[0]


@pytest.mark.django_db
def test_database_is_the_one_in_database_url():
    # `./dev test` points DATABASE_URL at a throwaway PostgreSQL cluster.
    assert connection.vendor == expected_vendor()


@pytest.mark.django_db
def test_user_round_trips_through_the_database():
    User = get_user_model()
    User.objects.create_user("heron", email="heron@example.org", password="dune-grass-42")

    stored = User.objects.get(username="heron")

    assert stored.email == "heron@example.org"
    assert stored.check_password("dune-grass-42")


@pytest.mark.django_db
def test_healthz_answers_from_the_database(client):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": connection.vendor}


@pytest.mark.django_db
def test_admin_login_page_renders(client):
    response = client.get("/admin/login/")

    assert response.status_code == 200
    assert b"csrfmiddlewaretoken" in response.content


def test_api_schema_describes_the_api(admin_client):
    response = admin_client.get("/api/schema/")

    assert response.status_code == 200
    assert b"marram API" in response.content


def test_celery_reaches_the_broker_in_redis_url(redis_url):
    from marram_site.celery import app

    broker_url = settings.CELERY_BROKER_URL
    assert broker_url == redis_url
    with app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1)
        assert conn.connected


def test_production_settings_pass_the_deploy_check():
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "marram_site.settings_production",
        "DJANGO_SECRET_KEY": "long-random-looking-production-key-9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c",
        "DJANGO_ALLOWED_HOSTS": "marram.example.org",
        "DATABASE_URL": os.environ.get("DATABASE_URL", "sqlite:///unused.sqlite3"),
    }
    env.pop("DJANGO_DEBUG", None)

    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )

    assert result.returncode == 0, result.stderr + result.stdout


def test_the_web_server_settings_come_from_the_environment(monkeypatch):
    """What docker-compose and the Dockerfile start (python -m marram_site.server):
    the service's WSGI factory, with the layout and address the environment gives."""
    from granian.constants import Interfaces

    from marram_site import server

    monkeypatch.setenv("MARRAM_WEB_BIND", "127.0.0.1:8123")
    monkeypatch.setenv("MARRAM_WEB_WORKERS", "4")
    monkeypatch.setenv("MARRAM_WEB_THREADS", "3")
    monkeypatch.setenv("MARRAM_WEB_ACCESS_LOG", "0")
    web = server.server()
    assert (web.bind_addr, web.bind_port, web.workers, web.blocking_threads) == (
        "127.0.0.1", 8123, 4, 3)
    assert web.interface == Interfaces.WSGI and web.factory and web.target == server.APPLICATION
    assert not web.log_access and web.respawn_failed_workers
    for name in ("MARRAM_WEB_BIND", "MARRAM_WEB_WORKERS", "MARRAM_WEB_THREADS",
                 "MARRAM_WEB_ACCESS_LOG"):
        monkeypatch.delenv(name)
    web = server.server()
    # a process a core, as many as this process may run on
    assert (web.bind_addr, web.bind_port, web.workers, web.blocking_threads) == (
        "0.0.0.0", 8000, len(os.sched_getaffinity(0)), 2)
    assert web.log_access
    monkeypatch.setenv("MARRAM_WEB_WORKERS", "")  # docker-compose's default
    assert server.server().workers == len(os.sched_getaffinity(0))


def test_the_web_server_loads_the_application_under_production_settings():
    """The factory each worker calls, in a fresh process with production settings:
    it gives the application, answering with whole bodies (a ping's, already
    closed), with the games' rules and the views imported, frozen out of the
    collector, which now runs less often."""
    env = {**os.environ, "DJANGO_ENV": "production", "DJANGO_SECRET_KEY": "x" * 50,
           "DJANGO_ALLOWED_HOSTS": "localhost", "DJANGO_SECURE_SSL_REDIRECT": "0"}
    check = (
        "import gc, io, sys\n"
        "from marram_site import server, wsgi\n"
        "module, _, name = server.APPLICATION.partition(':')\n"
        "app = getattr(sys.modules[module], name)()\n"
        "ping = {'REQUEST_METHOD': 'GET', 'PATH_INFO': '/api/ping/', 'QUERY_STRING': '',\n"
        "        'SERVER_NAME': 'localhost', 'SERVER_PORT': '8000', 'HTTP_HOST': 'localhost',\n"
        "        'wsgi.url_scheme': 'http', 'wsgi.input': io.BytesIO(), 'REMOTE_ADDR': '::1'}\n"
        "statuses = []\n"
        "body = app(ping, lambda status, headers, exc_info=None: statuses.append(status))\n"
        "assert statuses == ['200 OK'] and body == [b'{\"ping\":\"pong\"}'], (statuses, body)\n"
        "assert gc.get_threshold() == wsgi.GC_THRESHOLD, gc.get_threshold()\n"
        "assert gc.get_freeze_count() > 100_000, gc.get_freeze_count()\n"
        "assert 'games.api' in sys.modules and 'engine.marram.rules' in sys.modules\n"
    )
    done = subprocess.run([sys.executable, "-c", check], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_web_worker_that_dies_is_replaced_and_the_server_goes_on(tmp_path):
    import signal
    import time

    from tests.service.proxy_kit import SERVERS, get, web_server

    def workers(pid: int) -> set[int]:
        tasks = Path(f"/proc/{pid}/task")
        return {int(child) for task in tasks.iterdir()
                for child in (task / "children").read_text().split()}

    def started(count: int) -> None:
        """Until the server's log says ``count`` workers have started serving."""
        deadline = time.monotonic() + 30
        while (tmp_path / "web.log").read_text().count("Started worker-") < count:
            assert time.monotonic() < deadline, (tmp_path / "web.log").read_text()
            time.sleep(0.1)

    with web_server(tmp_path, env={"MARRAM_WEB_WORKERS": "2", "MARRAM_WEB_THREADS": "1"}) as port:
        main = SERVERS[port].pid
        started(2)
        first = workers(main)
        assert len(first) == 2
        victim = min(first)
        os.kill(victim, signal.SIGKILL)
        started(3)
        now = workers(main)
        assert victim not in now and len(now) == 2
        for _ in range(6):  # whichever worker takes the connection answers
            assert get(port, "/api/ping/", timeout=10) == (200, b'{"ping":"pong"}')
