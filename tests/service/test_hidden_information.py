"""Nobody sees the deck order, the seed or a draw before it happens: not the
players, not a spectator, in no API answer. Hands are public. The record, with
the seed, is published once the game is over."""

import json

import pytest

from engine import marram as engine
from games import services
from games.selectors import game_state_get
from games.snapshots import game_snapshots_rebuild
from tests.service.conftest import (
    client_for,
    json_strings,
    make_user,
    play,
    seat_user,
    start_game,
)


def secrets_of(game) -> tuple[str, set[str]]:
    """The seed and the ids of the tiles nobody has drawn yet."""
    state = game_state_get(game)
    return game.seed, set(state.config.deck[state.drawn:])


def assert_hides(response, seed: str, undrawn: set[str]) -> None:
    text = response.content.decode()
    assert "seed" not in text.lower() and "deck" not in text.lower(), text[:2000]
    assert "snapshot" not in text.lower(), text[:2000]  # the server's alone: every hand
    assert seed not in text
    data = json.loads(text)
    leaked = undrawn & set(json_strings(data))
    assert not leaked, f"undrawn tiles in {response.request['PATH_INFO']}: {leaked}"


@pytest.mark.django_db
def test_no_answer_about_a_running_game_shows_the_deck_or_the_seed(settings):
    ann, bob, cyd = make_user("ann"), make_user("bob"), make_user("cyd")
    game = start_game([ann, bob], variant="animals")
    game = play(game, until=lambda s: len(s.board) >= 22)  # the fly is on the board
    settings.MARRAM_SNAPSHOT_EVERY = 5
    assert game_snapshots_rebuild(game) > 0  # stored snapshots hold the deck's order
    seed, undrawn = secrets_of(game)
    assert len(undrawn) > 40
    mover = seat_user(game, engine.awaiting(game_state_get(game))["player"])
    gid = game.pk
    for user in (ann, bob, cyd):  # two players and a spectator
        client = client_for(user)
        for url in (f"/api/games/{gid}/", f"/api/games/{gid}/events/",
                    f"/api/games/{gid}/record/", "/api/games/?list=mine",
                    "/api/games/?list=open", "/api/games/?list=finished"):
            assert_hides(client.get(url), seed, undrawn)
    client = client_for(mover)
    view = json.loads(client.get(f"/api/games/{gid}/").content)
    assert view["state"]["hands"] and view["state"]["tiles_left"] == len(undrawn)
    assert view["fairness"] == {"commitment": game.commitment}
    action = {**view["legal_actions"][0]}
    if action["type"] in ("place", "flip"):
        assert_hides(client.get(f"/api/games/{gid}/claims/", {"action": json.dumps(action)}),
                     seed, undrawn)
    answer = client.post(f"/api/games/{gid}/actions/", {"seq": view["seq"], "action": action},
                         format="json")
    assert answer.status_code == 201
    game.refresh_from_db()
    _, still_undrawn = secrets_of(game)
    assert_hides(answer, seed, still_undrawn)


@pytest.mark.django_db
def test_the_record_and_the_seed_come_out_when_the_game_is_over():
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    record = client_for(ann).get(f"/api/games/{game.pk}/record/")
    assert record.status_code == 409
    assert json.loads(record.content) == {
        "code": "game_running", "message": json.loads(record.content)["message"],
        "commitment": game.commitment}

    services.game_resign(game=game, user=bob)

    record = json.loads(client_for(bob).get(f"/api/games/{game.pk}/record/").content)
    assert record["fairness"] == {"seed": game.seed, "commitment": game.commitment}
    assert len(record["config"]["deck"]) == len(engine.standard().deck_ids())
    view = json.loads(client_for(bob).get(f"/api/games/{game.pk}/").content)
    assert view["fairness"] == {"seed": game.seed, "commitment": game.commitment}


@pytest.mark.django_db
def test_the_events_show_only_what_happened():
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    game = play(game, until=lambda s: s.events >= 6)
    events = json.loads(client_for(make_user("cyd")).get(f"/api/games/{game.pk}/events/").content)
    assert len(events["events"]) == game.seq
    for item in events["events"]:
        assert set(item) == {"seq", "type", "event", "actor", "created_at"}
