"""gunicorn's settings for the web service; docker-compose, the Dockerfile and
benchmarks/service_bench.py start it with them:

    gunicorn -c python:marram_site.gunicorn marram_site.wsgi

Environment: ``GUNICORN_BIND`` (``0.0.0.0:8000``), ``GUNICORN_WORKERS`` (3),
``GUNICORN_THREADS`` (2 a worker: one can run while another waits on the
database), ``GUNICORN_ACCESS_LOG`` (``-``: standard output; empty: none).
Command-line options override these.

On the 2-core benchmark machine (benchmarks/service_bench.py, 5 runs each) 3 x 2
gave GET state p50 medians of 9.68 and 10.06 ms in two invocations and 6 x 1
10.65 ms; 4 x 2 and 5 x 1 did no better in shorter trials. The machine's noise
is larger than these differences: about three threads a core is where to start.
"""

import gc
import os

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", "3"))
threads = int(os.environ.get("GUNICORN_THREADS", "2"))
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
