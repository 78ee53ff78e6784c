"""The one-time notices of the site's pages ("Note kept: only you can see it.",
"Game 12 has started."), their store made only when a request uses it.

Django's MessageMiddleware makes each request's store (a cookie store beside a
session store, the cookie's signer with them) before the view runs: 7% of the
CPU of a bare ``GET /api/ping/`` in a profile, for every API call, none of which
shows a notice (benchmarks/request_bench.py: 405 against 453 µs a ping, cheaper
in 45 of 60 rounds). Here the store is made the first time a view adds a
notice or a page reads them; a request that did neither has nothing to store,
as Django's own store would have found.
"""

from __future__ import annotations

from django.contrib.messages.middleware import MessageMiddleware
from django.contrib.messages.storage import default_storage
from django.http import HttpRequest, HttpResponse
from django.utils.functional import SimpleLazyObject, empty


class _LazyStore(SimpleLazyObject):
    """A request's store of notices, made when first used."""

    _wrapped: object
    """LazyObject's: ``empty`` until the store is made."""


class LazyMessageMiddleware(MessageMiddleware):
    def process_request(self, request: HttpRequest) -> None:
        # MessageMiddleware's own attribute, which HttpRequest does not declare
        request._messages = _LazyStore(  # type: ignore[attr-defined]
            lambda: default_storage(request))

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        store = getattr(request, "_messages", None)
        # type(), not isinstance: asking a lazy object its class would make the store
        if type(store) is _LazyStore and store._wrapped is empty:
            return response
        return super().process_response(request, response)
