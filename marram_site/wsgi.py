"""WSGI entry point. The web service's server (marram_site.server, granian) calls
``serving_application`` once in each worker; ``application`` is the plain one for
any other WSGI server."""

import gc
import logging
import os
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.core.handlers.wsgi import WSGIHandler
from django.core.wsgi import get_wsgi_application
from django.http import HttpResponse

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "marram_site.settings")

application = get_wsgi_application()

GC_THRESHOLD = (10_000, 10, 10)
"""Python's default (700, 10, 10) runs the cycle collector every 700 new
objects; a request makes thousands (a game view, a move's copies), and each
collection of the older generations walks every state in the cache. Measured
with benchmarks/service_bench.py: a third of the workers' CPU went to it."""


DRAIN_CHUNK = 64 * 1024

log = logging.getLogger(__name__)

WSGIApplication = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def drain_body(environ: dict[str, Any]) -> None:
    """Read and drop what the application left unread of the request's body, up to
    DATA_UPLOAD_MAX_MEMORY_SIZE bytes (nginx passes no larger body). A request
    refused before its body is read (a 401, a 413 from the Content-Length alone)
    would otherwise be answered while nginx is still sending it: granian closes the
    connection on the unread rest, nginx's write or read meets a reset, and it
    answers its client 502 and counts the web server as failed (out of turns for
    10 s, deploy/nginx/). A body larger than the limit, from a client that reached
    the server without nginx, is left unread and its connection closed."""
    if (environ.get("CONTENT_LENGTH") in (None, "", "0")
            and "HTTP_TRANSFER_ENCODING" not in environ):
        return
    stream = environ.get("wsgi.input")
    if stream is None:
        return
    left = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    try:
        while left > 0:
            chunk = stream.read(min(DRAIN_CHUNK, left))
            if not chunk:
                return
            left -= len(chunk)
    except Exception:  # the client went away (granian's error): the answer stands
        return


def whole_answers(app: WSGIHandler) -> WSGIApplication:
    """``app`` answering with its whole body at once: a response that is not
    streamed is read and closed here (``request_finished``: the publish of the
    request's commits, live.stream) and handed to the server as a list of one
    bytes string. granian sends such a body from its own side at once; given the
    response itself, it iterates it and closes it through its runtime, taking
    the interpreter's lock back for each step. In alternating whole-server runs
    of Pond (benchmarks/compare_bench.py's clients, 8 pairs) this took 0.92x the
    server's CPU a move (docs/performance.md). A streamed response (a file) is
    handed over as it is. Either way, what is left of the request's body is read
    first (``drain_body``)."""

    def serve(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        response = app(environ, start_response)
        drain_body(environ)
        if not isinstance(response, HttpResponse):  # streamed (a file)
            return response
        content = response.content
        try:
            response.close()
        except Exception:  # the answer is made and stands; what came after it failed
            log.exception("closing the answer to %s %s failed", environ.get("REQUEST_METHOD"),
                          environ.get("PATH_INFO"))
        return [content]

    return serve


def serving_application() -> WSGIApplication:
    """The application, for a process about to serve it: first import what the
    first requests would otherwise import while they are timed (every game's
    rules, the URL conf with its views); then leave all that was loaded out of
    every collection, and collect less often; and answer with whole bodies
    (``whole_answers``)."""
    from django.urls import get_resolver

    from engine import registry

    registry.games()
    get_resolver().url_patterns  # noqa: B018  (imports the views)
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLD)
    return whole_answers(application)
