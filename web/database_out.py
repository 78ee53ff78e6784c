"""The database out, remembered for a moment.

A web process whose database cannot be reached (its host cut off, stopped,
failing over) spends a connection attempt on every request that needs it: up to
the connection string's ``connect_timeout``, or its ``tcp_user_timeout`` on a kept
connection whose peer went silent. A process serves a few requests at a time (two
threads), so those behind wait their turn, and in a long outage a refusal takes
many times one attempt. Once a request has found the database out, the process
remembers it for MARRAM_DATABASE_OUT_SECONDS: every request for a view that needs
the database is refused at once, with the same 503 and Retry-After as any outage
(``DatabaseOut`` is an OperationalError: marram_site.views.server_error), without
trying to connect. When the moment is over, one request (the probe) tries the
database while the others are still refused; if it gets through, the process
forgets the outage, and if it fails, the moment starts again.

What counts as the database out is a connection's failure, not a statement's:
psycopg's OperationalError with no SQLSTATE (refused, timed out, closed under
it, read-only where read-write was asked) or with one of class 08 (connection
exception, which PgBouncer reports) or 57P (the server shutting down or not
accepting connections yet), or its InterfaceError (the connection already
closed). A deadlock, a serialization failure or a statement timed out is an
OperationalError too, but says nothing about the next request.

Views that need no database (``needs_no_database``: the ping, the site's icon)
answer as ever. The memory is the process's own: each web process finds the
outage, and its end, by itself.
"""

from __future__ import annotations

import sys
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import psycopg
from django.conf import settings
from django.core.signals import got_request_exception
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse

View = Callable[..., HttpResponse]

NO_DATABASE: weakref.WeakSet[View] = weakref.WeakSet()
"""The views that answer without the database (``needs_no_database``)."""


def needs_no_database(view: View) -> View:
    """Mark a view that answers without the database: it is served while the
    database is remembered out."""
    NO_DATABASE.add(view)
    return view


class DatabaseOut(OperationalError):
    """Raised in place of a connection attempt while the database is remembered
    out: answered as the outage itself is (a 503 with Retry-After)."""


def connection_failed(error: BaseException | None) -> bool:
    """Whether ``error`` (Django's wrap of psycopg's, which it keeps as the cause)
    is the failure of a connection to the database, not of a statement."""
    if isinstance(error, DatabaseOut) or not isinstance(error, (OperationalError,
                                                                InterfaceError)):
        return False
    cause = error.__cause__
    if isinstance(cause, psycopg.InterfaceError):
        return True
    if not isinstance(cause, psycopg.OperationalError):
        return False
    return cause.sqlstate is None or cause.sqlstate.startswith(("08", "57P"))


@dataclass
class Outage:
    """What the process knows of the database: whether it is out, when a request
    may try it again, and which request is trying it."""

    out: bool = False
    retry_at: float = 0.0
    probe: HttpRequest | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    def admit(self, request: HttpRequest, now: float) -> bool:
        """Whether ``request`` may use the database: always while it is not out;
        while it is, only the one request that tries it once the moment is over."""
        with self.lock:
            if not self.out:
                return True
            if self.probe is not None or now < self.retry_at:
                return False
            self.probe = request
            return True

    def failed(self, now: float, seconds: float) -> None:
        """The database found out: requests are refused for ``seconds``."""
        with self.lock:
            self.out, self.retry_at, self.probe = True, now + seconds, None

    def finished(self, request: HttpRequest) -> None:
        """A request answered: if it was the probe and did not fail, the database
        is back."""
        if self.probe is not request:
            return
        with self.lock:
            if self.probe is request:
                self.out, self.probe = False, None


OUTAGE = Outage()
"""The process's own."""


def remember_failure(sender: Any, request: HttpRequest | None = None, **kwargs: Any) -> None:
    """got_request_exception's receiver (sent while the exception is handled, so
    ``sys.exc_info`` holds it): a connection that failed starts the moment; the
    probe failing in any way the database can (marram_site.views) starts it
    again."""
    error = sys.exc_info()[1]
    if isinstance(error, DatabaseOut):
        return
    probing = request is not None and OUTAGE.probe is request
    if connection_failed(error) or (probing and isinstance(error, (OperationalError,
                                                                    InterfaceError))):
        OUTAGE.failed(time.monotonic(), settings.MARRAM_DATABASE_OUT_SECONDS)


got_request_exception.connect(remember_failure, dispatch_uid="web.database_out")


class DatabaseOutMiddleware:
    """Refuses at once the requests that need the database while it is
    remembered out (``Outage``); early in MIDDLEWARE, before any middleware whose
    view hook reads the database."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            return self.get_response(request)
        finally:
            OUTAGE.finished(request)

    def process_view(self, request: HttpRequest, view: View, args: Any,
                     kwargs: Any) -> HttpResponse | None:
        if view in NO_DATABASE or OUTAGE.admit(request, time.monotonic()):
            return None
        raise DatabaseOut("the database was out a moment ago; it is tried again "
                          f"every {settings.MARRAM_DATABASE_OUT_SECONDS:g} s")
