"""WSGI entry point. The web service's server (marram_site.server, granian) calls
``serving_application`` once in each worker; ``application`` is the plain one for
any other WSGI server."""

import gc
import os

from django.core.handlers.wsgi import WSGIHandler
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "marram_site.settings")

application = get_wsgi_application()

GC_THRESHOLD = (10_000, 10, 10)
"""Python's default (700, 10, 10) runs the cycle collector every 700 new
objects; a request makes thousands (a game view, a move's copies), and each
collection of the older generations walks every state in the cache. Measured
with benchmarks/service_bench.py: a third of the workers' CPU went to it."""


def serving_application() -> WSGIHandler:
    """The application, for a process about to serve it: first import what the
    first requests would otherwise import while they are timed (every game's
    rules, the URL conf with its views); then leave all that was loaded out of
    every collection, and collect less often."""
    from django.urls import get_resolver

    from engine import registry

    registry.games()
    get_resolver().url_patterns  # noqa: B018  (imports the views)
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLD)
    return application
