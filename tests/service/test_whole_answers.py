"""The web server is handed each answer whole (marram_site.wsgi.whole_answers): a
response that is not streamed comes as a list of its one body, already closed,
so the request's commits are published (``request_finished``) before the server
has it; a streamed one comes as it is, for the server to read and close; and a
close that fails is logged without losing the answer."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from django.core.signals import request_finished
from django.http import HttpResponse, StreamingHttpResponse

from marram_site.wsgi import whole_answers

# closing an answer runs every request_finished receiver, Django's
# close_old_connections among them: once an earlier test has opened the
# database, that one needs leave to touch it
pytestmark = pytest.mark.django_db


def call(app: Any) -> tuple[Any, list[str]]:
    statuses: list[str] = []
    return app({"PATH_INFO": "/x", "REQUEST_METHOD": "GET"},
               lambda status, headers, exc_info=None: statuses.append(status)), statuses


@pytest.fixture
def finished() -> Any:
    seen: list[str] = []

    def note(**kwargs: Any) -> None:
        seen.append("finished")

    request_finished.connect(note, dispatch_uid="test_whole_answers")
    yield seen
    request_finished.disconnect(dispatch_uid="test_whole_answers")


def answering(response: HttpResponse | StreamingHttpResponse) -> Any:
    def app(environ: dict, start_response: Any) -> Any:
        start_response(f"{response.status_code} {response.reason_phrase}",
                       list(response.items()))
        return response
    return app


def test_an_answer_comes_whole_and_already_closed(finished):
    response = HttpResponse(b'{"seq": 12}', status=201, content_type="application/json")
    body, statuses = call(whole_answers(answering(response)))
    assert body == [b'{"seq": 12}']
    assert statuses == ["201 Created"]
    assert finished == ["finished"]  # the publish ran before the server got the body


def test_a_streamed_answer_is_left_for_the_server_to_read_and_close(finished):
    response = StreamingHttpResponse(iter([b"one ", b"two"]))
    body, _ = call(whole_answers(answering(response)))
    assert body is response and finished == []
    assert b"".join(body) == b"one two"
    body.close()
    assert finished == ["finished"]


def test_a_close_that_fails_is_logged_and_the_answer_stands(finished, caplog):
    def fail(**kwargs: Any) -> None:
        raise RuntimeError("the stream's Redis went away")

    request_finished.connect(fail, dispatch_uid="test_whole_answers_fail")
    try:
        response = HttpResponse(b"made", status=200)
        with caplog.at_level(logging.ERROR, logger="marram_site.wsgi"):
            body, _ = call(whole_answers(answering(response)))
    finally:
        request_finished.disconnect(dispatch_uid="test_whole_answers_fail")
    assert body == [b"made"]
    assert "closing the answer to GET /x failed" in caplog.text
