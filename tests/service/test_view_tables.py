"""The tables a game's views refer to by key (Marram's tile drawings): served once
by the API for anyone, kept by clients, asked again only whether they changed; and
a game's view names its tiles' drawings from that table."""

import json

import pytest
from rest_framework.test import APIClient

from engine.marram.catalogue import standard
from engine.marram.view import drawings
from tests.service.conftest import body, client_for, make_user, start_game

DRAWINGS = "/api/games/kinds/marram/tables/drawings/"


@pytest.mark.django_db
def test_the_drawings_are_the_engines_for_anyone_with_an_etag_and_a_304():
    answer = APIClient().get(DRAWINGS)  # no account needed: nothing in it is secret
    assert answer.status_code == 200 and answer["Content-Type"] == "application/json"
    table = json.loads(answer.content)
    assert table == json.loads(json.dumps(drawings(standard())))
    assert "public" in answer["Cache-Control"] and "no-cache" in answer["Cache-Control"]
    etag = answer["ETag"]
    again = APIClient().get(DRAWINGS, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b""
    stale = APIClient().get(DRAWINGS, HTTP_IF_NONE_MATCH='"another"')
    assert stale.status_code == 200 and stale["ETag"] == etag


@pytest.mark.django_db
@pytest.mark.parametrize("path", [
    "/api/games/kinds/marram/tables/deck/",
    "/api/games/kinds/pond/tables/drawings/",
    "/api/games/kinds/chess/tables/drawings/",
])
def test_a_table_no_game_has_is_a_404_with_a_message(path):
    answer = APIClient().get(path)
    assert answer.status_code == 404
    assert body(answer)["code"] == "not_found" and "no table" in body(answer)["message"]


@pytest.mark.django_db
def test_a_games_board_names_drawings_the_table_has_and_hides_no_less():
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob], variant="animals")
    table = json.loads(APIClient().get(DRAWINGS).content)
    seen = body(client_for(ann).get(f"/api/games/{game.pk}/"))
    board = seen["state"]["board"]
    assert board and all(tile["drawing"] in table for tile in board)
    starter = board[0]
    assert starter["drawing"] == f"{starter['tile']}.{starter['face']}.{starter['rotation']}"
    assert not {"terrain", "regions", "items"} & set(starter)
    # the table is the whole catalogue, the same for every game: it says nothing of
    # any deck, and a view still names no tile that is not on the board or in a hand
    shown = {t["tile"] for t in board} | {t for hand in seen["state"]["hands"] for t in hand}
    named = {key.split(".")[0] for key in table}
    assert named == set(standard().tiles)
    text = json.dumps(seen)
    assert not any(f'"{tile}"' in text for tile in set(standard().tiles) - shown)
