"""A move costs one request: the answer to a submission carries the game as the
mover sees it afterwards, exactly what a GET of the game would answer, so neither
a page nor an API client has to ask for it again."""

from __future__ import annotations

import uuid

import pytest

from games import services
from games.models import Event
from tests.service.conftest import body, client_for, json_strings, make_user, start_game

pytestmark = pytest.mark.django_db


def mover_of(game, clients: dict) -> tuple[str, dict]:
    for name, client in clients.items():
        view = body(client.get(f"/api/games/{game.pk}/"))
        if view["legal_actions"]:
            return name, view
    raise AssertionError("nobody may move")


def test_the_answer_to_a_move_is_the_game_as_the_mover_now_sees_it():
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob], seed="ab" * 32)
    clients = {"ann": client_for(ann), "bob": client_for(bob)}
    for _ in range(4):  # a few moves, by whoever is awaited
        name, before = mover_of(game, clients)
        action = dict(before["legal_actions"][0])
        action.pop("player")
        key = uuid.uuid4().hex
        posted = clients[name].post(f"/api/games/{game.pk}/actions/",
                                    {"seq": before["seq"], "idempotency_key": key,
                                     "action": action}, format="json")
        assert posted.status_code == 201, posted.content
        answer = body(posted)
        fetched = body(clients[name].get(f"/api/games/{game.pk}/"))
        assert answer["view"] == fetched
        assert answer["view"]["seq"] == answer["seq"] == before["seq"] + len(answer["events"])
        assert answer["view"]["you"] == before["you"]

        # the same key again: the first answer, and the game as it is now
        again = clients[name].post(f"/api/games/{game.pk}/actions/",
                                   {"seq": before["seq"], "idempotency_key": key,
                                    "action": action}, format="json")
        assert again.status_code == 200
        assert body(again)["view"] == fetched
        assert Event.objects.filter(game=game).count() == answer["seq"]


def test_the_view_in_a_move_answer_keeps_the_other_seats_secrets():
    """Animals on Board: every player keeps a tile in secret at the start; the
    answer to ann's keep shows her own choice and nobody else's."""
    ann, bob, cyd = make_user("ann"), make_user("bob"), make_user("cyd")
    created = services.game_create(user=ann, game="animals_on_board", options={}, seats=3)
    for user in (bob, cyd):
        services.game_join(game=created, user=user)
    api = client_for(bob)
    before = body(api.get(f"/api/games/{created.pk}/"))
    keep = dict(before["legal_actions"][0])
    keep.pop("player")
    answer = body(api.post(f"/api/games/{created.pk}/actions/",
                           {"seq": before["seq"], "idempotency_key": "k1", "action": keep},
                           format="json"))
    # what cyd would be told is not in bob's answer, and bob's own view is the GET's
    cyd_view = body(client_for(cyd).get(f"/api/games/{created.pk}/"))
    assert answer["view"] == body(api.get(f"/api/games/{created.pk}/"))
    cyd_tiles = {a["tile"] for a in cyd_view["legal_actions"]}
    assert len(cyd_tiles) == 3 and not cyd_tiles & set(json_strings(answer))


def page_of(user, *, csrf: bool = True):
    from django.test import Client

    page = Client(enforce_csrf_checks=True)
    page.force_login(user)
    page.get("/games/")  # the page that sets the CSRF cookie
    token = page.cookies["csrftoken"].value if csrf else "forged"
    return page, {"HTTP_X_CSRFTOKEN": token}


def test_the_game_page_moves_in_one_request_and_draws_its_answer():
    from notifications.models import GameVisit
    from notifications.services import game_viewed_forget

    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob], seed="ab" * 32)
    for user in (ann, bob):
        page, csrf = page_of(user)
        before = body(page.get(f"/games/{game.pk}/state.json"))
        if before["legal_actions"]:
            break
    action = dict(before["legal_actions"][0])
    action.pop("player")
    GameVisit.objects.all().delete()
    game_viewed_forget()  # visits are written at most every few seconds a process
    posted = page.post(f"/games/{game.pk}/actions/",
                       {"seq": before["seq"], "idempotency_key": "p1", "action": action},
                       content_type="application/json", **csrf)
    assert posted.status_code == 201, posted.content
    view = body(posted)["view"]
    fetched = body(page.get(f"/games/{game.pk}/state.json"))
    # what the page draws next: the same as state.json would tell it (the clock's
    # words aside, which the minute may move)
    for key in ("seq", "status", "state", "legal_actions", "last_move", "players", "tasks",
                "you", "your_turn_count"):
        assert view.get(key) == fetched.get(key), key
    assert view["seq"] == before["seq"] + len(body(posted)["events"])
    # the move is a visit, as the GET it spares was: no mail while the player looks
    assert GameVisit.objects.filter(user=user, game=game).exists()

    stale = page.post(f"/games/{game.pk}/actions/",
                      {"seq": before["seq"], "idempotency_key": "p2", "action": action},
                      content_type="application/json", **csrf)
    assert stale.status_code in (403, 409) and body(stale)["code"] in ("stale_seq",
                                                                      "not_your_turn")


def test_the_page_move_takes_the_session_with_its_csrf_token_only():
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob], seed="ab" * 32)
    before = Event.objects.filter(game=game).count()
    page, forged = page_of(ann, csrf=False)
    refused = page.post(f"/games/{game.pk}/actions/",
                        {"seq": game.seq, "idempotency_key": "x", "action": {"type": "pass"}},
                        content_type="application/json", **forged)
    assert refused.status_code == 403 and "CSRF" in body(refused)["message"]
    by_token = client_for(ann).post(f"/games/{game.pk}/actions/",
                                    {"seq": game.seq, "action": {"type": "pass"}},
                                    format="json")
    assert by_token.status_code in (401, 403)
    assert Event.objects.filter(game=game).count() == before
    schema = client_for(ann).get("/api/schema/?format=json")
    assert "/games/{game_id}/actions/" not in body(schema)["paths"]
