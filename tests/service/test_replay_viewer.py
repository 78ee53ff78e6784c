"""The generic replay viewer serves every game: each step as the viewer knew it
(a player of a running game never reads another seat's secret choice, staff
read every stored event whole), the game's own replay module when its UI
folder names one (Marram's, Animals on Board's), its view as JSON otherwise."""

from __future__ import annotations

import json

from django.test import Client

from engine import registry
from games import services
from games.models import Game
from tests.engine.tictactoe import GAME as TICTACTOE
from tests.service.conftest import body, client_for, make_user, signed_in, start_game


def animals_with_a_secret_keep(users) -> tuple[Game, dict]:
    """An Animals on Board game in which ann has kept a tile in secret."""
    ann, bob = users[:2]
    created = client_for(ann).post("/api/games/", {"game": "animals_on_board", "seats": 2},
                                   format="json")
    game = Game.objects.get(pk=body(created)["id"])
    client_for(bob).post(f"/api/games/{game.pk}/join/", format="json")
    view = body(client_for(ann).get(f"/api/games/{game.pk}/"))
    keep = view["legal_actions"][0]
    assert keep["type"] == "keep"
    answer = client_for(ann).post(f"/api/games/{game.pk}/actions/",
                                  {"seq": view["seq"], "action": keep}, format="json")
    assert answer.status_code == 201, answer.content
    game.refresh_from_db()
    return game, keep


def steps_url(game: Game) -> str:
    return f"/games/{game.pk}/replay/steps.json"


def test_a_player_replays_a_running_game_without_the_others_secret(users):
    game, keep = animals_with_a_secret_keep(users)
    ann, bob = users[:2]
    at = game.seq  # the step after ann's keep
    secret = f'"{keep["tile"]}"'

    for_bob = signed_in(bob)
    index = for_bob.get(steps_url(game))
    step = for_bob.get(steps_url(game), {"at": at})
    assert index.status_code == step.status_code == 200
    assert secret not in index.content.decode() and secret not in step.content.decode()
    shown = step.json()["event"]
    assert shown["payload"] == {"type": "keep", "player": keep["player"]}
    assert step.json()["view"]["you"] == 1 - keep["player"]  # bob's own view of that step

    # ann knew her own keep: her step shows it, and her ark
    mine = signed_in(ann).get(steps_url(game), {"at": at}).json()
    assert mine["event"]["payload"] == keep
    assert mine["view"]["you"] == keep["player"] and keep["tile"] in mine["view"]["ark"]

    # the admin's replay reads the stored event whole
    staff = make_user("root", staff=True)
    admin = signed_in(staff).get(f"/admin/games/game/{game.pk}/replay/steps.json", {"at": at})
    assert admin.json()["event"]["row"]["payload"] == keep


def test_a_finished_game_replays_whole_for_anyone_signed_in(users):
    game, keep = animals_with_a_secret_keep(users)
    client_for(users[1]).post(f"/api/games/{game.pk}/resign/", format="json")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    cyd = signed_in(users[2])
    step = cyd.get(steps_url(game), {"at": 1}).json()
    assert step["event"]["payload"] == keep
    assert step["view"]["you"] is None  # cyd has no seat: a spectator's view
    assert step["scores"] == cyd.get(steps_url(game)).json()["steps"][1]["scores"]


def test_a_game_without_a_replay_module_gets_the_generic_step(users):
    # the tests' tic-tac-toe: Animals on Board has a replay module of its own now
    registry.register(TICTACTOE)
    try:
        game = services.game_create(user=users[0], game="tictactoe", seats=2)
        services.game_join(game=game, user=users[1])
        page = signed_in(users[0]).get(f"/games/{game.pk}/replay/")
    finally:
        registry.unregister(TICTACTOE.key)
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="replay-stage"' in html and "data-module" not in html
    assert "/static/games/replay.js" in html


def test_marram_s_replay_page_loads_its_own_module(users):
    ann, bob = users[:2]
    game = start_game([ann, bob])
    html = signed_in(ann).get(f"/games/{game.pk}/replay/").content.decode()
    assert 'data-module="/static/marram/replay.js"' in html
    module = Client().get("/static/marram/replay.js")
    assert module.status_code == 200
    assert b"export function renderReplayStep" in b"".join(module.streaming_content)


def test_animals_on_board_s_replay_page_loads_its_own_module(users):
    game, _ = animals_with_a_secret_keep(users)
    html = signed_in(users[0]).get(f"/games/{game.pk}/replay/").content.decode()
    assert 'data-module="/static/animals_on_board/replay.js"' in html
    assert "/static/animals_on_board/board.css" in html
    module = Client().get("/static/animals_on_board/replay.js")
    assert module.status_code == 200
    assert b"export async function renderReplayStep" in b"".join(module.streaming_content)


def test_a_step_beyond_any_number_of_events_is_the_last(users):
    ann, bob = users[:2]
    game = start_game([ann, bob])
    client = signed_in(ann)
    for at in ("99999999999999999999999", "-99999999999999999999"):
        answer = client.get(steps_url(game), {"at": at})
        assert answer.status_code == 200, answer.content
        assert answer.json()["at"] == (game.seq if at[0] != "-" else 0)
    assert json.loads(client.get(steps_url(game), {"at": "1.5"}).content)["field"] == "at"
