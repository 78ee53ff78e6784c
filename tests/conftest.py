"""Settings shared by the whole suite.

Engine tests (tests/engine/) use no database: pytest-django refuses database
access to any test that does not ask for it with ``@pytest.mark.django_db`` or
the ``db`` fixture, so they stay as pure as the engine they test.
"""

import os
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
