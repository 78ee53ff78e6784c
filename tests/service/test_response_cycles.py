"""An answer of the API is freed as soon as the server closes it
(marram_site.cycles), not left to Python's cycle collector with the whole tree of
its data: a game's view, a move's answer with the view after it, a refused
move's error. Each is served by the WSGI application as a server calls it, with
the collector off, and must be gone once the server lets it go."""

from __future__ import annotations

import gc
import io
import json
import sys
import weakref
from collections.abc import Iterator

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from rest_framework.authtoken.models import Token

from tests.service.conftest import make_user, seat_user, start_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def no_collector() -> Iterator[None]:
    """The collector off; and the test's database connection kept open at the end
    of each request, as Django's test client keeps it."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def serve(app: WSGIHandler, method: str, path: str, token: str,
          body: bytes = b"") -> tuple[weakref.ref, int, dict]:
    """The answer as a server gets it: called, read, closed and dropped. A weak
    reference to it, its status and its JSON."""
    environ = {
        "REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": "",
        "SERVER_NAME": "testserver", "SERVER_PORT": "80", "SERVER_PROTOCOL": "HTTP/1.1",
        "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(body), "wsgi.errors": sys.stderr,
        "HTTP_HOST": "testserver", "REMOTE_ADDR": "127.0.0.1",
        "HTTP_ACCEPT": "application/json", "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": str(len(body)), "HTTP_AUTHORIZATION": f"Token {token}"}
    statuses: list[str] = []
    answer = app(environ, lambda status, headers, exc_info=None: statuses.append(status))
    content = b"".join(answer)
    answer.close()
    ref = weakref.ref(answer)
    del answer
    return ref, int(statuses[0].split()[0]), json.loads(content)


def test_a_view_a_move_and_a_refused_move_are_freed_when_closed(no_collector):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    app = WSGIHandler()
    mover = seat_user(game, 0)
    token = Token.objects.create(user=mover).key
    path = f"/api/games/{game.pk}/"

    read, status, view = serve(app, "GET", path, token)
    assert status == 200 and view["legal_actions"]
    assert read() is None

    move = json.dumps({"action": view["legal_actions"][0], "seq": view["seq"]}).encode()
    moved, status, answer = serve(app, "POST", f"{path}actions/", token, move)
    assert status == 201 and answer["view"]["seq"] == view["seq"] + 1
    assert moved() is None

    # the same move again, now stale: an error answer, from DRF's exception handler
    refused, status, error = serve(app, "POST", f"{path}actions/", token, move)
    assert status == 409 and error["code"]
    assert refused() is None
