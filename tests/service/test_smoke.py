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


def test_the_gunicorn_settings_load_the_application():
    """The settings docker-compose and the Dockerfile start gunicorn with: valid, and
    the application imports under them with production settings."""
    env = {**os.environ, "DJANGO_ENV": "production", "DJANGO_SECRET_KEY": "x" * 50,
           "DJANGO_ALLOWED_HOSTS": "localhost"}
    done = subprocess.run(
        [str(Path(sys.executable).parent / "gunicorn"), "--config", "python:marram_site.gunicorn",
         "--check-config", "marram_site.wsgi"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


def test_gunicorn_workers_collect_garbage_less_often(monkeypatch):
    import gc

    from marram_site import gunicorn

    frozen = []
    monkeypatch.setattr(gc, "freeze", lambda: frozen.append(True))
    before = gc.get_threshold()
    try:
        gunicorn.post_worker_init(worker=None)
        assert gc.get_threshold() == gunicorn.GC_THRESHOLD and frozen == [True]
    finally:
        gc.set_threshold(*before)
