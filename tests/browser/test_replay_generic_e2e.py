"""The replay viewer of a game whose UI folder has no replay module of its own
(Animals on Board, here): the same slider, steps, words and chart as any game,
and each step's view as JSON with each seat's score."""

from __future__ import annotations

import json

import pytest

from games.models import Game
from tests.browser.conftest import DESKTOP
from tests.service.conftest import body, client_for, make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("cold_caches")]


def test_a_game_without_a_replay_module_steps_through_its_views(visitors, live_server):
    ann, bob = make_user("ann"), make_user("bob")
    created = client_for(ann).post("/api/games/", {"game": "animals_on_board", "seats": 2},
                                   format="json")
    game = Game.objects.get(pk=body(created)["id"])
    client_for(bob).post(f"/api/games/{game.pk}/join/", format="json")
    view = body(client_for(ann).get(f"/api/games/{game.pk}/"))
    client_for(ann).post(f"/api/games/{game.pk}/actions/",
                         {"seq": view["seq"], "action": view["legal_actions"][0]}, format="json")
    client_for(bob).post(f"/api/games/{game.pk}/resign/", format="json")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED

    v = visitors(DESKTOP)
    v.sign_in("ann")
    page = v.page
    page.goto(f"{live_server.url}/games/{game.pk}/replay/")
    page.wait_for_selector("#replay[data-ready=true]")
    page.wait_for_selector(f"#replay[data-step='{game.seq}'][data-loading=false]")
    assert "resign" in page.text_content("#replay-event")
    shown = json.loads(page.text_content("#replay-view"))
    assert shown["finished"] is True
    assert page.locator("#replay-steps button.step-button").count() == game.seq + 1
    assert page.locator("#replay-chart polyline.score-line").count() == 2
    page.click('[data-go="first"]')
    page.wait_for_selector("#replay[data-step='0'][data-loading=false]")
    assert json.loads(page.text_content("#replay-view"))["finished"] is False
    assert page.text_content("#replay-event") == "The game begins"
    assert page.locator('#replay-players li[data-seat="1"] [data-stat="score"]').count() == 1
