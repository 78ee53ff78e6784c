"""Bad input never changes anything and always gets a clear answer: the status,
a stable code, and a message naming what is wrong. Every case checks that no
event was stored."""

import json

import pytest
from django.conf import settings
from django.urls import Resolver404, resolve

from games import services
from games.models import Event, Game
from tests.service.conftest import body, client_for, custom_game, make_user, tile

GRASS = tile("GGGGGGGG")
SAND = tile("SSSSSSSS")
TILES = {"S0": GRASS, **{f"G{i}": GRASS for i in range(1, 13)},
         **{f"S{i}": SAND for i in range(1, 4)}}
# ann (seat 0) holds G1 G2 S1, bob G3 G4 G5: a sand tile cannot touch the grass starter
DECK = ["G1", "G2", "S1", "G3", "G4", "G5", *[f"G{i}" for i in range(6, 13)]]
PLACE = {"type": "place", "tile": "G1", "face": "front", "at": [1, 0], "rotation": 0}


@pytest.fixture
def setup(db):
    ann, bob, cyd = make_user("ann"), make_user("bob"), make_user("cyd")
    game = custom_game([ann, bob], TILES, DECK)
    return game, ann, bob, cyd


def post_action(client, game, payload, **kwargs):
    return client.post(f"/api/games/{game.pk}/actions/", payload, format="json", **kwargs)


def assert_error(response, status: int, code: str | None = None):
    assert response.status_code == status, response.content
    data = body(response)
    assert isinstance(data, dict) and data.get("message"), data
    if code is not None:
        assert data["code"] == code, data
    return data


@pytest.fixture
def unchanged():
    """Assert that the event table is the same after the test's request."""
    before = Event.objects.count()
    yield
    assert Event.objects.count() == before


def test_a_good_action_is_stored(setup):
    game, ann, *_ = setup
    response = post_action(client_for(ann), game, {"seq": 0, "action": PLACE})
    assert response.status_code == 201, response.content
    assert body(response)["seq"] == 1, body(response)
    assert Event.objects.filter(game=game).count() == 1


def test_malformed_json(setup, unchanged):
    game, ann, *_ = setup
    response = client_for(ann).post(f"/api/games/{game.pk}/actions/", '{"seq": 0, "action": {',
                                    content_type="application/json")
    assert_error(response, 400, "malformed_json")


def test_unknown_top_level_field(setup, unchanged):
    game, ann, *_ = setup
    response = post_action(client_for(ann), game, {"seq": 0, "action": PLACE, "force": True})
    data = assert_error(response, 400, "unknown_field")
    assert data["field"] == "force" and "force" in data["message"]


def test_unknown_field_in_the_action(setup, unchanged):
    game, ann, *_ = setup
    response = post_action(client_for(ann), game, {"seq": 0, "action": {**PLACE, "fast": 1}})
    data = assert_error(response, 400, "unknown_field")
    assert data["field"] == "action.fast"


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"seq": "0", "action": PLACE}, "seq"),
        ({"seq": True, "action": PLACE}, "seq"),
        ({"seq": 0.5, "action": PLACE}, "seq"),
        ({"seq": -1, "action": PLACE}, "seq"),
        ({"action": PLACE}, "seq"),
        ({"seq": 0, "action": "pass"}, "action"),
        ({"seq": 0, "action": [PLACE]}, "action"),
        ({"seq": 0}, "action"),
        ({"seq": 0, "action": PLACE, "idempotency_key": 12}, "idempotency_key"),
        ({"seq": 0, "action": PLACE, "idempotency_key": "k" * 101}, "idempotency_key"),
        ([0, PLACE], None),
    ],
)
def test_wrong_types_name_the_field(setup, unchanged, payload, field):
    game, ann, *_ = setup
    data = assert_error(post_action(client_for(ann), game, payload), 400)
    if field is not None:
        assert data["field"] == field, data
        assert field in data["message"]


def test_unknown_action_type(setup, unchanged):
    game, ann, *_ = setup
    response = post_action(client_for(ann), game,
                           {"seq": 0, "action": {"type": "hop", "creature": "fly", "to": [0, 0]}})
    assert_error(response, 400, "not_a_player_action")


def test_illegal_action_gets_the_engines_code_and_message(setup, unchanged):
    game, ann, *_ = setup
    sand = {**PLACE, "tile": "S1"}
    data = assert_error(post_action(client_for(ann), game, {"seq": 0, "action": sand}), 400,
                        "edge_mismatch")
    assert set(data) == {"code", "message"} and "S1" in data["message"]


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({**PLACE, "tile": "G9"}, "tile_not_in_hand"),
        ({**PLACE, "at": [0, 0]}, "occupied"),
        ({**PLACE, "at": [5, 5]}, "detached"),
        ({**PLACE, "rotation": 4}, "bad_rotation"),
        ({**PLACE, "at": "here"}, "bad_event"),
        ({**PLACE, "claim": {"arc": 9}}, "bad_claim"),
        ({"type": "pass"}, "must_place"),
        ({"type": "guess", "creature": "fly", "hops": 3}, "not_pending"),
    ],
)
def test_each_illegal_action_is_a_400_with_its_code(setup, unchanged, action, code):
    game, ann, *_ = setup
    assert_error(post_action(client_for(ann), game, {"seq": 0, "action": action}), 400, code)


def test_not_your_seat(setup, unchanged):
    game, ann, *_ = setup
    response = post_action(client_for(ann), game, {"seq": 0, "action": {**PLACE, "player": 1}})
    assert_error(response, 403, "not_your_seat")


def test_not_your_turn(setup, unchanged):
    game, _, bob, _ = setup
    response = post_action(client_for(bob), game,
                           {"seq": 0, "action": {**PLACE, "tile": "G3"}})
    assert_error(response, 403, "not_your_turn")


def test_not_a_player(setup, unchanged):
    game, _, _, cyd = setup
    assert_error(post_action(client_for(cyd), game, {"seq": 0, "action": PLACE}), 403,
                 "not_a_player")


def test_stale_seq_is_a_409_with_the_current_seq(setup):
    game, ann, *_ = setup
    client = client_for(ann)
    assert post_action(client, game, {"seq": 0, "action": PLACE}).status_code == 201
    before = Event.objects.count()
    second = {**PLACE, "tile": "G2", "at": [2, 0]}
    data = assert_error(post_action(client, game, {"seq": 0, "action": second}), 409,
                        "stale_seq")
    assert data["seq"] == 1
    assert_error(post_action(client, game, {"seq": 7, "action": second}), 409, "stale_seq")
    assert Event.objects.count() == before


def test_a_finished_game_is_a_409(setup):
    game, ann, bob, _ = setup
    services.game_resign(game=game, user=bob)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    before = Event.objects.count()
    response = post_action(client_for(ann), game, {"seq": game.seq - 1, "action": PLACE})
    # the refusal says where the game ended, as a stale move's says where it is
    assert assert_error(response, 409, "game_finished")["seq"] == game.seq
    assert_error(client_for(ann).post(f"/api/games/{game.pk}/resign/"), 409, "game_finished")
    claims = client_for(ann).get(f"/api/games/{game.pk}/claims/",
                                 {"action": json.dumps(PLACE)})
    assert_error(claims, 409, "game_finished")
    assert Event.objects.count() == before


def test_an_oversized_body_is_a_413(setup, unchanged):
    game, ann, *_ = setup
    padding = "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
    response = post_action(client_for(ann), game,
                           {"seq": 0, "action": PLACE, "idempotency_key": padding})
    assert_error(response, 413, "too_large")


def test_an_oversized_body_is_refused_before_it_is_parsed(setup, unchanged):
    # not even JSON, and over the limit: the size is what the answer is about
    game, ann, *_ = setup
    payload = "{" + "x" * settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    response = client_for(ann).generic("POST", f"/api/games/{game.pk}/actions/", payload,
                                       content_type="application/json",
                                       CONTENT_LENGTH=str(len(payload)))
    assert len(payload) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    assert_error(response, 413, "too_large")


def test_deeply_nested_json_is_a_400(setup, unchanged):
    game, ann, *_ = setup
    payload = '{"seq": 0, "action": ' + "[" * 100_000 + "]" * 100_000 + "}"
    response = client_for(ann).post(f"/api/games/{game.pk}/actions/", payload,
                                    content_type="application/json")
    assert_error(response, 400)


def test_form_bodies_are_refused(setup, unchanged):
    game, ann, *_ = setup
    response = client_for(ann).post(f"/api/games/{game.pk}/actions/", {"seq": "0"})
    assert_error(response, 415)


def test_no_credentials_is_a_401(setup, unchanged):
    from rest_framework.test import APIClient

    game, *_ = setup
    response = post_action(APIClient(), game, {"seq": 0, "action": PLACE})
    assert_error(response, 401)


def test_an_unknown_game_is_a_404(setup, unchanged):
    _, ann, *_ = setup
    assert_error(post_action(client_for(ann), Game(pk=999_999), {"seq": 0, "action": PLACE}),
                 404, "not_found")
    assert_error(client_for(ann).get("/api/games/999999/"), 404, "not_found")


def test_claims_for_an_illegal_move_are_a_400(setup, unchanged):
    game, ann, *_ = setup
    client = client_for(ann)
    ok = client.get(f"/api/games/{game.pk}/claims/", {"action": json.dumps(PLACE)})
    assert ok.status_code == 200 and body(ok)["claims"] == [{"arc": 0}]
    bad = client.get(f"/api/games/{game.pk}/claims/",
                     {"action": json.dumps({**PLACE, "tile": "S1"})})
    assert_error(bad, 400, "edge_mismatch")
    assert_error(client.get(f"/api/games/{game.pk}/claims/", {"action": "{"}), 400,
                 "malformed_json")
    posted = client.post(f"/api/games/{game.pk}/claims/", {"action": PLACE, "x": 1},
                         format="json")
    assert_error(posted, 400, "unknown_field")


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"variant": "chess", "length": "long", "seats": 2}, "variant"),
        ({"variant": "classic", "length": "long", "seats": 5}, "seats"),
        ({"variant": "classic", "length": "long", "seats": "two"}, "seats"),
        ({"variant": "classic", "length": "long", "seats": 2, "private": True}, "private"),
        ({"variant": "classic", "seats": 2}, "length"),
        ({"variant": "classic", "length": "long", "seats": 2, "days_per_move": 0},
         "days_per_move"),
    ],
)
def test_create_refuses_bad_input(setup, payload, field):
    _, ann, *_ = setup
    games = Game.objects.count()
    data = assert_error(client_for(ann).post("/api/games/", payload, format="json"), 400)
    assert data["field"] == field
    assert Game.objects.count() == games


def test_animals_is_long_only(setup):
    _, ann, *_ = setup
    response = client_for(ann).post(
        "/api/games/", {"variant": "animals", "length": "short", "seats": 2}, format="json")
    assert_error(response, 400, "bad_config")


def test_signup_refuses_bad_input(db):
    from rest_framework.test import APIClient

    client = APIClient()
    ok = {"username": "heron", "email": "heron@example.org", "password": "dune-grass-42"}
    assert_error(client.post("/api/auth/signup/", {**ok, "password": "123"}, format="json"),
                 400)
    assert_error(client.post("/api/auth/signup/", {**ok, "email": "no"}, format="json"), 400)
    assert_error(client.post("/api/auth/signup/", {**ok, "admin": 1}, format="json"), 400,
                 "unknown_field")
    assert client.post("/api/auth/signup/", ok, format="json").status_code == 201
    data = assert_error(client.post("/api/auth/signup/", ok, format="json"), 400)
    assert data["field"] == "username"


@pytest.mark.parametrize("path", [
    "/api/games/99999999999999999999/", "/api/games/99999999999999999999/events/",
    "/games/99999999999999999999/", "/mail/99999999999999999999/board.png",
])
def test_an_id_no_database_column_holds_is_a_404_at_routing(setup, path):
    # 20 digits: past 2**63, which SQLite (./dev run) cannot hold and answered with a 500
    with pytest.raises(Resolver404):
        resolve(path)
    _, ann, _, _ = setup
    assert client_for(ann).get(path).status_code == 404
