"""WSGI entry point. The web service's server (marram_site.server, granian) calls
``serving_application`` once in each worker; ``application`` is the plain one for
any other WSGI server."""

import gc
import os
from collections.abc import Callable, Iterable
from typing import Any

from django.core.handlers.wsgi import WSGIHandler
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "marram_site.settings")

application = get_wsgi_application()

WSGIApplication = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]

GC_THRESHOLD = (10_000, 10, 10)
"""Python's default (700, 10, 10) runs the cycle collector every 700 new
objects; a request makes thousands (a game view, a move's copies), and each
collection of the older generations walks every state in the cache. Measured
with benchmarks/service_bench.py: a third of the workers' CPU went to it."""


def whole_bodies(app: WSGIHandler) -> WSGIApplication:
    """``app``, handing the server the body of every answer that is not streamed
    as a list of one bytes object, the answer already closed (Django's
    ``request_finished`` sent). granian writes a list in one call; any other
    iterable (a Django response is one) it walks an item at a time from its own
    thread, taking the interpreter's lock for each: 0.06-0.10 ms of CPU more a
    request (a bare ``GET /api/ping/`` cost 0.70 ms against 0.77 ms, 2 x 2
    workers, docs/performance.md). A streamed answer (a file, an event stream)
    is handed over as it is, and closed by the server."""

    def serve(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        response = app(environ, start_response)
        if response.streaming:
            return response
        try:
            return [response.content]
        finally:
            response.close()

    serve.__wrapped__ = app  # type: ignore[attr-defined]
    return serve


def serving_application() -> WSGIApplication:
    """The application, for a process about to serve it: first import what the
    first requests would otherwise import while they are timed (every game's
    rules, the URL conf with its views); then leave all that was loaded out of
    every collection, and collect less often. Bodies are handed over whole
    (``whole_bodies``)."""
    from django.urls import get_resolver

    from engine import registry

    registry.games()
    get_resolver().url_patterns  # noqa: B018  (imports the views)
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLD)
    return whole_bodies(application)
