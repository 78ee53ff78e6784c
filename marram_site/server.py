"""The web service's HTTP server: granian, serving marram_site.wsgi. docker-compose,
the Dockerfile, the proxy tests and the benchmarks start it so:

    python -m marram_site.server

Environment: ``MARRAM_WEB_BIND`` (``0.0.0.0:8000``), ``MARRAM_WEB_WORKERS`` (a
process for each core the server may use), ``MARRAM_WEB_THREADS`` (2 a worker:
one can run while another waits on the database), ``MARRAM_WEB_ACCESS_LOG`` (1:
a line a request on standard output; 0: none).

granian reads and writes HTTP in Rust, off the interpreter's lock; a worker's
Python threads only run the application. Beside gunicorn's gthread worker (which
parses in Python and hands each keep-alive request from its poller to a thread
and back) a bare ``GET /api/ping/`` cost 0.94 ms of CPU against 1.09-1.66 ms and
a state GET 2.80 ms against 3.64 ms, with the same 3 x 2 layout (docs/performance.md).
A process a core, each of 2 threads (one can run while the other waits on the
database), fits any machine the service is put on, where a fixed count would
not. On the 2-core benchmark machine it is as good as the 3 x 2 used before:
seven alternating pairs of runs of the same work (benchmarks/compare_bench.py's
Marram clients, 4,800 moves a run) gave 7.87 ms of server CPU a move for 2 x 2
against 7.74 ms (the median of the pairs' ratios 0.96, from 0.81 to 1.08) and
the server's peak resident memory fell from 362 to 264 MB (docs/performance.md).

A worker that dies is started again, as gunicorn's arbiter did. A request that
never ends holds its thread, as it did under gunicorn's gthread workers (their
heartbeat comes from the worker's loop, not from its threads, so the arbiter's
timeout never fired for one stuck thread): nginx's ``proxy_read_timeout``
(deploy/nginx/) answers its client 504 after 60 s.
"""

from __future__ import annotations

import os

from granian import Granian
from granian.constants import HTTPModes, Interfaces
from granian.http import HTTP1Settings
from granian.server import MPServer, MTServer

APPLICATION = "marram_site.wsgi:serving_application"
"""A factory, called once in each worker before it serves (marram_site.wsgi)."""
THREADS = 2
"""Threads a worker, unless ``MARRAM_WEB_THREADS`` says otherwise."""


def default_workers() -> int:
    """Worker processes unless ``MARRAM_WEB_WORKERS`` says otherwise: one for each
    core this process may run on."""
    return len(os.sched_getaffinity(0))


def server(target: str = APPLICATION) -> MPServer | MTServer:
    """granian with the service's settings, read from the environment; ``target``
    another factory (a benchmark's, which wraps this one's)."""
    host, _, port = os.environ.get("MARRAM_WEB_BIND", "0.0.0.0:8000").rpartition(":")
    return Granian(
        target,
        address=host or "0.0.0.0",
        port=int(port),
        interface=Interfaces.WSGI,
        factory=True,
        workers=int(os.environ.get("MARRAM_WEB_WORKERS") or default_workers()),
        blocking_threads=int(os.environ.get("MARRAM_WEB_THREADS") or THREADS),
        # the connections a worker holds at once, idle keep-alive ones included
        # (granian's backpressure; by default 1,024 among all the workers): nginx
        # holds the players' own connections, so few reach a worker in production
        backpressure=int(os.environ.get("MARRAM_WEB_CONNECTIONS") or 0) or None,
        # a thread keeps its database connection: let an idle one live long
        blocking_threads_idle_timeout=600,
        # nginx speaks HTTP/1.1 to its upstreams; no sniffing for HTTP/2
        http=HTTPModes.http1,
        websockets=False,
        # keep-alive connections from nginx; a client that sends no header in 30 s
        # is dropped (nginx has long had the whole request by then)
        http1_settings=HTTP1Settings(keep_alive=True, header_read_timeout=30_000),
        log_access=os.environ.get("MARRAM_WEB_ACCESS_LOG", "1") not in ("0", ""),
        respawn_failed_workers=True,
        respawn_interval=1.0,
        # a stop waits this long for requests under way, then kills the workers
        workers_kill_timeout=30,
    )


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "marram_site.settings")
    server().serve()


if __name__ == "__main__":
    main()
