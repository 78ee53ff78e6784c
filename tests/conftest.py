"""Settings shared by the whole suite.

Engine tests (tests/engine/) use no database: pytest-django refuses database
access to any test that does not ask for it with ``@pytest.mark.django_db`` or
the ``db`` fixture, so they stay as pure as the engine they test.
"""

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

ARTIFACTS_DIR = Path(__file__).resolve().parent / "artifacts"


def pytest_report_header(config: pytest.Config) -> list[str]:
    from django.conf import settings

    database = settings.DATABASES["default"]
    return [
        f"marram: database {database['ENGINE'].rsplit('.', 1)[-1]} "
        f"{database.get('HOST') or database['NAME']}:{database.get('PORT') or ''}".rstrip(":"),
        f"marram: celery broker {settings.CELERY_BROKER_URL}, "
        f"eager={settings.CELERY_TASK_ALWAYS_EAGER}",
    ]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "long: a module of minutes, started first (see pytest_collection_modifyitems)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The modules marked ``long`` first, the rest in their order. On several
    processes (tests/parallel.py) each takes whole files, in this order: a long
    module started last would leave the other workers idle until it ends."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


@pytest.fixture
def artifacts_dir(request: pytest.FixtureRequest) -> Path:
    """A folder under tests/artifacts/ for this test's screenshots and dumps (kept, gitignored)."""
    path = ARTIFACTS_DIR / request.node.name.replace("/", "_")
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="session")
def redis_url() -> str:
    """The Redis the suite runs against. Not there is a failure, not a skip: ./dev test
    starts one and CI provides one, so a missing Redis is a broken setup."""
    url = os.environ.get("REDIS_URL")
    if not url:
        pytest.fail("REDIS_URL is not set: run the suite with ./dev test, which starts a "
                    "throwaway Redis (or set REDIS_URL to one)", pytrace=False)
    return url


# The trigger of migration 0003 that refuses TRUNCATE on the event log.
EVENT_TRUNCATE_TRIGGER = ("games_event", "games_event_no_truncate")


@contextlib.contextmanager
def event_log_truncatable(aliases: Iterator[str]) -> Iterator[None]:
    """The event log's TRUNCATE trigger disabled, as only its owner may: the way a
    transactional test's teardown (``flush``) empties the test database."""
    from django.db import connections

    postgres = [connections[a] for a in aliases if connections[a].vendor == "postgresql"]
    table, trigger = EVENT_TRUNCATE_TRIGGER
    for connection in postgres:
        with connection.cursor() as cursor:
            cursor.execute(f"ALTER TABLE {table} DISABLE TRIGGER {trigger}")
    try:
        yield
    finally:
        for connection in postgres:
            with connection.cursor() as cursor:
                cursor.execute(f"ALTER TABLE {table} ENABLE TRIGGER {trigger}")


@pytest.fixture(scope="session", autouse=True)
def transactional_tests_may_empty_the_event_log() -> Iterator[None]:
    """pytest-django empties the database after each transactional test (those with
    ``transactional_db`` or ``live_server``) with ``flush``, a TRUNCATE, which the
    event log refuses. Only that teardown gets the trigger out of the way; a
    ``flush`` anywhere else is still refused (tests/service/test_database_roles.py)."""
    from django.test import TransactionTestCase

    flush = TransactionTestCase._fixture_teardown

    def teardown(self: TransactionTestCase) -> None:
        with event_log_truncatable(self._databases_names(include_mirrors=False)):
            flush(self)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(TransactionTestCase, "_fixture_teardown", teardown)
        yield
