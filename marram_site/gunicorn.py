"""gunicorn's settings for the web service; docker-compose, the Dockerfile and
benchmarks/service_bench.py start it with them:

    gunicorn -c python:marram_site.gunicorn marram_site.wsgi

Environment: ``GUNICORN_BIND`` (``0.0.0.0:8000``), ``GUNICORN_WORKERS`` (6),
``GUNICORN_THREADS`` (1), ``GUNICORN_ACCESS_LOG`` (``-``: standard output;
empty: none). Command-line options override these.

Six single-threaded workers on two cores: a worker waiting on the database
leaves the core to another, and no two requests of one worker fight over its
interpreter lock. On the 2-core benchmark machine (benchmarks/service_bench.py,
8 clients, 3 runs each) this gave GET state p50 8.7-9.3 ms against 9.1-10.1 ms
for 4 workers x 2 threads and 10.8-11.1 ms for 5 x 1; about three workers a core
is the rule to start from elsewhere.
"""

import gc
import os

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", "6"))
threads = int(os.environ.get("GUNICORN_THREADS", "1"))
worker_class = "gthread"
keepalive = 30
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-") or None

GC_THRESHOLD = (10_000, 10, 10)
"""Python's default (700, 10, 10) runs the cycle collector every 700 new
objects; a request makes thousands (a game view, a move's copies), and each
collection of the older generations walks every state in the cache. Measured
with benchmarks/service_bench.py: a third of the workers' CPU went to it."""


def post_worker_init(worker):
    """Once the application is loaded: leave what loading made (modules, settings,
    the tile catalogue) out of every collection, and collect less often."""
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLD)
