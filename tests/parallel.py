"""The suite on several processes, each against services of its own.

``./dev test`` (scripts/testservices.py) runs the whole suite on pytest-xdist
workers, one a core, and starts a PostgreSQL cluster and a Redis server for each
of them. It names them to the workers as ``DATABASE_URL_<worker>`` and
``REDIS_URL_<worker>`` (``DATABASE_URL_gw0``, ...) and loads this plugin with
``-p tests.parallel``.

Each worker must see its own as ``DATABASE_URL`` and ``REDIS_URL`` before Django's
settings are read, and the settings are read while pytest starts, before any
conftest. A plugin named with ``-p`` is imported earlier still, and xdist names
the worker (``PYTEST_XDIST_WORKER``) before it starts pytest in the worker, so
the swap is made here, once, when the module is imported. The processes the
tests start (web servers, Celery workers, streams) inherit the worker's
environment, so they use its services too.

Why a cluster and a Redis a worker, not one shared by all: Redis's publish and
subscribe channels are not kept apart by its database number, the tests' games
share ids across databases, and roles are the cluster's, not a database's.
"""

from __future__ import annotations

import os

SERVICES = ("DATABASE_URL", "REDIS_URL")


def own_services(environ: dict[str, str] | os._Environ[str]) -> None:
    """Point ``DATABASE_URL`` and ``REDIS_URL`` at this worker's services.

    Outside a worker (the controller, or a run without xdist) nothing changes.
    A worker whose services were not started is an error, not a fallback to
    another worker's: two workers on one database would fail each other's tests.
    """
    worker = environ.get("PYTEST_XDIST_WORKER")
    if not worker:
        return
    for name in SERVICES:
        own = environ.get(f"{name}_{worker}")
        if not own:
            raise RuntimeError(
                f"{name}_{worker} is not set: run the suite on several processes with "
                "./dev test, which starts services for each worker"
            )
        environ[name] = own


own_services(os.environ)
