"""Every game the engine registers is served by the platform as it is, with no
code of its own in games/ or notifications/: started from the API with its
default options, played by its players through the API (what each seat may do
comes from the API's legal_actions), and its stored events replay to the stored
outcome (verify_game)."""

from __future__ import annotations

import random

import pytest
from django.test import Client

from engine import registry
from games.management.commands.verify_game import game_problems
from games.models import Game
from tests.service.conftest import body, client_for, seat_user

MOVES = 40


@pytest.mark.parametrize("key", [g.key for g in registry.games()])
def test_each_registered_game_is_played_through_the_api(users, key):
    rules = registry.get(key)
    seats = min(rules.seat_counts)
    created = client_for(users[0]).post("/api/games/", {"game": key, "seats": seats,
                                                        "days_per_move": 2}, format="json")
    assert created.status_code == 201, created.content
    game = Game.objects.get(pk=body(created)["id"])
    for user in users[1:seats]:
        joined = client_for(user).post(f"/api/games/{game.pk}/join/", format="json")
        assert joined.status_code == 200, joined.content
    rng = random.Random(7)
    for _ in range(MOVES):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            break
        awaited = game.projection["to_act"]
        assert awaited, game.projection  # chance is drawn inline in the tests
        user = seat_user(game, awaited[0])
        view = body(client_for(user).get(f"/api/games/{game.pk}/"))
        assert view["legal_actions"], view
        answer = client_for(user).post(f"/api/games/{game.pk}/actions/", {
            "seq": view["seq"], "action": rng.choice(view["legal_actions"])}, format="json")
        assert answer.status_code == 201, answer.content
    game.refresh_from_db()
    assert game.seq > 0 and game_problems(game) == []


def test_a_secret_choice_stays_out_of_the_event_list_until_the_game_ends(users):
    # Animals on Board: every seat keeps one tile in secret at the start. The
    # keeper reads their own keep whole; the other seat and a spectator read
    # that a keep happened, not the tile, in /events/ and in the page's last move.
    ann, bob, cyd = users[:3]
    created = client_for(ann).post("/api/games/", {"game": "animals_on_board", "seats": 2},
                                   format="json")
    game = Game.objects.get(pk=body(created)["id"])
    client_for(bob).post(f"/api/games/{game.pk}/join/", format="json")
    view = body(client_for(ann).get(f"/api/games/{game.pk}/"))
    keep = view["legal_actions"][0]
    assert keep["type"] == "keep" and keep["tile"]
    answer = client_for(ann).post(f"/api/games/{game.pk}/actions/",
                                  {"seq": view["seq"], "action": keep}, format="json")
    assert answer.status_code == 201, answer.content

    def listed(user):
        return [e["event"] for e in body(client_for(user).get(
            f"/api/games/{game.pk}/events/"))["events"] if e["type"] == "keep"]

    assert listed(ann) == [keep]
    assert listed(bob) == listed(cyd) == [{"type": "keep", "player": keep["player"]}]
    browser = Client()
    browser.force_login(bob)
    page = browser.get(f"/games/{game.pk}/state.json")
    assert page.status_code == 200 and f'"{keep["tile"]}"' not in page.content.decode()
    client_for(bob).post(f"/api/games/{game.pk}/resign/", format="json")  # the game ends
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert listed(bob) == [keep]  # the record of a finished game reveals all
