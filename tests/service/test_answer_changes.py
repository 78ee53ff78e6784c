"""A move's answer with the changes since the mover's seq instead of the whole state
(``"changes": true``): the patch turns the state the client held into the state a
GET gives, for every game; it is a fraction of the whole; and anything wrong with
the request is refused."""

import json
import random

import pytest
from rest_framework.test import APIClient

from engine import registry
from games.models import Event, Game
from live.changes import CHANGES_FROM, BadChanges, apply_changes, state_changes
from tests.service.conftest import client_for, make_user, seat_user, signed_in, start_game_of

SEED = "c4a9e5" * 10 + "c4a9"


# ---------------------------------------------------------------- the patch itself

def test_a_tile_laid_in_a_row_is_one_add_at_its_place():
    a, b, c = {"at": [0, 0]}, {"at": [1, 0]}, {"at": [0, 1]}
    new = {"at": [2, 0]}
    ops = state_changes({"board": [a, b, c], "left": 9}, {"board": [a, b, new, c], "left": 8})
    assert ops == [{"op": "add", "path": "/board/2", "value": {"at": [2, 0]}},
                   {"op": "replace", "path": "/left", "value": 8}]


def test_a_turned_tile_is_a_replace_inside_it_and_keys_come_and_go():
    old = {"board": [{"at": [0, 0], "face": "front"}, {"at": [1, 0], "face": "front"}],
           "gone": 1, "a/b~": [1, 2, 3]}
    new = {"board": [{"at": [0, 0], "face": "front"}, {"at": [1, 0], "face": "back"}],
           "come": True, "a/b~": [1, 3]}
    ops = state_changes(old, new)
    assert ops == [
        {"op": "remove", "path": "/gone"},
        {"op": "replace", "path": "/board/1/face", "value": "back"},
        {"op": "add", "path": "/come", "value": True},
        {"op": "remove", "path": "/a~1b~0/1"},
    ]
    assert apply_changes(old, ops) == new
    assert old["board"][1]["face"] == "front"  # the held state is not changed


def test_true_is_not_one_and_a_whole_new_document_is_a_replace():
    assert state_changes(1, True) == [{"op": "replace", "path": "", "value": True}]
    assert state_changes([1], {"a": 1}) == [{"op": "replace", "path": "", "value": {"a": 1}}]
    assert state_changes({"x": [1, 2]}, {"x": [1, 2]}) == []


def test_an_item_put_in_before_a_changed_one_is_an_add_and_the_other_a_change():
    row = [{"at": [x, 0], "tile": f"T{x}", "token": None} for x in range(4)]
    new = [row[0], {**row[1], "token": "ann"}, {"at": [9, 0], "tile": "T9", "token": None},
           {**row[2], "token": "bob"}, row[3]]
    assert state_changes(row, new) == [
        {"op": "replace", "path": "/1/token", "value": "ann"},
        {"op": "add", "path": "/2", "value": {"at": [9, 0], "tile": "T9", "token": None}},
        {"op": "replace", "path": "/3/token", "value": "bob"},
    ]
    assert state_changes(new, row) == [
        {"op": "replace", "path": "/1/token", "value": None},
        {"op": "remove", "path": "/2"},
        {"op": "replace", "path": "/2/token", "value": None},
    ]
    assert apply_changes(new, state_changes(new, row)) == row


def test_a_patch_that_does_not_fit_is_refused():
    with pytest.raises(BadChanges):
        apply_changes({"a": []}, [{"op": "remove", "path": "/a/0"}])
    with pytest.raises(BadChanges):
        apply_changes({"a": 1}, [{"op": "replace", "path": "/b", "value": 2}])


# ---------------------------------------------------------------- through the API

def started(kind: str, users: list) -> Game:
    options = {"variant": "animals", "length": "long"} if kind == "marram" else None
    return start_game_of(kind, users, seed=SEED, options=options)


def first_mover(kind: str) -> tuple[Game, APIClient, dict]:
    """A new game of ``kind``, the API as its first player, and the game as they see it."""
    game = started(kind, [make_user("ann"), make_user("bob")])
    client = client_for(seat_user(game, game.projection["to_act"][0]))
    return game, client, client.get(f"/api/games/{game.pk}/").json()


def awaited_seat(view: dict) -> int | None:
    seats = view["game"]["projection"].get("to_act") or []
    return seats[0] if seats else None


@pytest.mark.django_db
@pytest.mark.parametrize("kind", [g.key for g in registry.games()])
def test_the_changes_turn_the_state_held_into_the_state_a_get_gives(kind):
    users = [make_user("ann"), make_user("bob")]
    game = started(kind, users)
    clients = {seat: client_for(seat_user(game, seat)) for seat in (0, 1)}
    url = f"/api/games/{game.pk}/"
    rng = random.Random(7)
    held = clients[0].get(url).json()
    whole, sent, moves, changed, largest = 0, 0, 0, 0, 0
    while moves < 30 and held["status"] == "running":
        seat = awaited_seat(held)
        if seat is None:
            break
        if held["you"] != seat or not held["legal_actions"]:
            held = clients[seat].get(url).json()
            continue
        answer = clients[seat].post(
            f"{url}actions/", {"seq": held["seq"], "action": rng.choice(held["legal_actions"]),
                               "changes": True}, format="json")
        assert answer.status_code == 201, answer.content
        view = answer.json()["view"]
        sent += len(json.dumps(view.get("state_changes", view.get("state"))))
        if "state_changes" in view:  # else the whole state took less room
            assert "state" not in view
            changed += 1
            state = apply_changes(held["state"], view.pop("state_changes"))
        else:
            state = view.pop("state")
        fresh = clients[seat].get(url).json()
        assert state == fresh["state"]
        assert {**view, "state": state} == fresh
        whole += len(json.dumps(fresh["state"]))
        largest = max(largest, len(json.dumps(fresh["state"], separators=(",", ":"))))
        held, moves = fresh, moves + 1
    assert moves >= 10
    if largest < CHANGES_FROM:  # a few hundred bytes: sent whole
        assert (changed, sent) == (0, whole)
    else:  # what the answers carried of the state, against the whole state a GET gives
        assert changed > 0 and sent * 2 < whole


@pytest.mark.django_db
def test_a_marram_answer_carries_a_fraction_of_the_board():
    users = [make_user("ann"), make_user("bob")]
    game = started("marram", users)
    rng = random.Random(3)
    url = f"/api/games/{game.pk}/"
    clients = {seat: client_for(seat_user(game, seat)) for seat in (0, 1)}
    for _ in range(24):  # a board of some size
        game.refresh_from_db()
        seat = game.projection["to_act"][0]
        view = clients[seat].get(url).json()
        clients[seat].post(f"{url}actions/", {"seq": view["seq"], "action":
                                              rng.choice(view["legal_actions"])}, format="json")
    game.refresh_from_db()
    seat = game.projection["to_act"][0]
    view = clients[seat].get(url).json()
    action = next(a for a in view["legal_actions"] if a["type"] == "place")
    answer = clients[seat].post(f"{url}actions/", {"seq": view["seq"], "action": action,
                                                   "changes": True}, format="json").json()
    ops = answer["view"]["state_changes"]
    laid = [op for op in ops if op["path"].startswith("/board/") and op["op"] == "add"]
    assert [op["value"]["at"] for op in laid] == [action["at"]]
    assert len(json.dumps(ops)) * 4 < len(json.dumps(view["state"]))


@pytest.mark.django_db
def test_the_page_gets_the_changes_to_what_it_draws():
    users = [make_user("ann"), make_user("bob")]
    game = started("marram", users)
    seat = game.projection["to_act"][0]
    page = signed_in(seat_user(game, seat))
    held = page.get(f"/games/{game.pk}/state.json").json()
    answer = page.post(f"/games/{game.pk}/actions/", json.dumps(
        {"seq": held["seq"], "action": held["legal_actions"][0], "changes": True}),
        content_type="application/json")
    assert answer.status_code == 201, answer.content
    view = answer.json()["view"]
    fresh = page.get(f"/games/{game.pk}/state.json").json()
    assert apply_changes(held["state"], view["state_changes"]) == fresh["state"]
    assert "players" in fresh["state"]


@pytest.mark.django_db
def test_a_repeated_submission_gets_the_whole_state():
    game, client, held = first_mover("marram")
    url = f"/api/games/{game.pk}/"
    body = {"seq": held["seq"], "action": held["legal_actions"][0], "changes": True,
            "idempotency_key": "once"}
    first = client.post(f"{url}actions/", body, format="json")
    again = client.post(f"{url}actions/", body, format="json")
    assert (first.status_code, again.status_code) == (201, 200)
    assert "state_changes" in first.json()["view"]
    assert again.json()["view"]["state"] == client.get(url).json()["state"]


@pytest.mark.django_db
@pytest.mark.parametrize("value", ["yes", 1, None, [], {"deep": {"er": True}}])
def test_changes_must_be_true_or_false(value):
    game, client, held = first_mover("pond")
    answer = client.post(f"/api/games/{game.pk}/actions/", {
        "seq": held["seq"], "action": held["legal_actions"][0], "changes": value},
        format="json")
    assert answer.status_code == 400, answer.content
    assert "changes" in json.dumps(answer.json())
    assert Event.objects.filter(game=game).count() == held["seq"]


@pytest.mark.django_db
def test_the_changes_are_right_when_the_view_held_was_made_elsewhere():
    """The base is the view this process made for the mover at their seq; when it
    was made by another process (here: forgotten), it is made again."""
    from live.state_cache import states

    game, client, held = first_mover("marram")
    url = f"/api/games/{game.pk}/"
    states.clear()
    answer = client.post(f"{url}actions/", {"seq": held["seq"], "changes": True,
                                            "action": held["legal_actions"][0]}, format="json")
    view = answer.json()["view"]
    assert apply_changes(held["state"], view["state_changes"]) == client.get(url).json()["state"]


@pytest.mark.django_db
def test_the_browsable_api_shows_an_answer_with_changes():
    game, client, held = first_mover("marram")
    answer = client.post(f"/api/games/{game.pk}/actions/", {
        "seq": held["seq"], "action": held["legal_actions"][0], "changes": True},
        format="json", HTTP_ACCEPT="text/html")
    assert answer.status_code == 201
    assert b"state_changes" in answer.content
