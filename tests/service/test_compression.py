"""JSON answers are gzipped for clients that accept it (marram_site/compression.py):
a Marram game's state and a move's answer, with the same content once
decompressed and a weak ETag that still gives a 304; never an HTML page, nor a
small answer, nor a client that does not ask."""

from __future__ import annotations

import gzip
import json

import pytest

from tests.service.conftest import body, make_user, signed_in, start_game

pytestmark = pytest.mark.django_db

GZIP = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br"}


def test_a_game_state_is_gzipped_for_a_client_that_accepts_it_and_still_gives_a_304():
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    page = signed_in(ann)
    url = f"/api/games/{game.pk}/"

    plain = page.get(url)
    assert plain.status_code == 200 and not plain.has_header("Content-Encoding")
    assert "Accept-Encoding" in plain["Vary"]
    packed = page.get(url, **GZIP)
    assert packed["Content-Encoding"] == "gzip"
    assert int(packed["Content-Length"]) == len(packed.content)
    assert json.loads(gzip.decompress(packed.content)) == body(plain)
    assert len(packed.content) * 2 < len(plain.content)
    assert "Accept-Encoding" in packed["Vary"]
    assert packed["ETag"] == "W/" + plain["ETag"]
    # the browser sends the ETag it has back: nothing changed, so a 304
    again = page.get(url, HTTP_IF_NONE_MATCH=packed["ETag"], **GZIP)
    assert again.status_code == 304 and again.content == b""


def test_a_moves_answer_is_gzipped_and_html_pages_and_small_answers_are_not():
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    for user in (ann, bob):
        page = signed_in(user)
        view = body(page.get(f"/api/games/{game.pk}/"))
        if view["legal_actions"]:
            break
    action = dict(view["legal_actions"][0])
    action.pop("player")
    moved = page.post(f"/api/games/{game.pk}/actions/",
                      {"seq": view["seq"], "action": action, "idempotency_key": "k1"},
                      content_type="application/json", **GZIP)
    assert moved.status_code == 201 and moved["Content-Encoding"] == "gzip"
    answer = json.loads(gzip.decompress(moved.content))
    assert answer["seq"] > view["seq"] and answer["view"]["seq"] == answer["seq"]

    html = page.get(f"/games/{game.pk}/", **GZIP)
    assert html.status_code == 200 and html["Content-Type"].startswith("text/html")
    assert not html.has_header("Content-Encoding") and b"csrf" in html.content
    idle = page.get(f"/api/games/{game.pk}/events/?since={answer['seq']}", **GZIP)
    assert idle.status_code == 200 and len(idle.content) < 1024
    assert not idle.has_header("Content-Encoding")
