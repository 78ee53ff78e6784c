"""The web pages: who sees what, the forms behind the lobby and an open game, and
the game page's moves going through the API with a session and a CSRF token,
refused as the API refuses them. The replay's JSON never shows a running
game's deck or seed."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib import admin
from django.core import mail
from django.test import Client

from engine import marram as engine
from games import services
from games.models import Event, Game
from games.selectors import game_state_get
from tests.service.conftest import (
    event_count,
    json_strings,
    make_user,
    play,
    seat_user,
    start_game,
)
from tests.service.mail_kit import eager_tasks

pytestmark = pytest.mark.django_db

SEED = "5eed" * 16  # for games whose seat order a test needs to know


def signed_in(user, *, csrf: bool = False) -> Client:
    client = Client(enforce_csrf_checks=csrf)
    client.force_login(user)
    return client


def text(response) -> str:
    return response.content.decode()


def page_csrf(response) -> str:
    """The CSRF token the page gives its script (the <meta name="csrf-token">)."""
    found = re.search(r'<meta name="csrf-token" content="([^"]+)">', text(response))
    assert found, "the page has no CSRF token for its script"
    return found.group(1)


def to_move(game: Game):
    return seat_user(game, engine.awaiting(game_state_get(game))["player"])


@pytest.fixture
def ann(db):
    return make_user("ann")


@pytest.fixture
def bob(db):
    return make_user("bob")


@pytest.fixture
def cyd(db):
    return make_user("cyd")


@pytest.fixture
def running(ann, bob) -> Game:
    return play(start_game([ann, bob]), until=lambda s: s.events >= 3)


@pytest.fixture
def finished(ann, bob) -> Game:
    game = play(start_game([ann, bob]), until=lambda s: s.events >= 6)
    services.game_resign(game=game, user=bob)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


# ---------------------------------------------------------------- who may see what


def test_anonymous_users_are_sent_to_sign_in(running):
    client = Client()
    home = client.get("/")
    assert home.status_code == 200
    assert "Sign up to play" in text(home) and "/accounts/login/" in text(home)
    for url in ("/lobby/", "/games/", "/games/finished/", f"/games/{running.pk}/",
                f"/games/{running.pk}/replay/"):
        answer = client.get(url)
        assert answer.status_code == 302, url
        assert answer["Location"] == f"/accounts/login/?next={url}"
    for url in (f"/games/{running.pk}/state.json", f"/games/{running.pk}/replay/steps.json"):
        answer = client.get(url)
        assert answer.status_code == 403
        assert json.loads(answer.content)["code"] == "not_signed_in"


def test_sign_up_signs_in_and_sign_out_signs_out(db):
    client = Client()
    assert client.get("/accounts/signup/").status_code == 200
    bad = client.post("/accounts/signup/", {"username": "eve", "email": "not-an-address",
                                            "password1": "x", "password2": "y"})
    assert bad.status_code == 400 and "error-text" in text(bad)  # refused, with why
    answer = client.post("/accounts/signup/", {
        "username": "eve", "email": "eve@example.org",
        "password1": "dune-grass-42", "password2": "dune-grass-42"})
    assert answer.status_code == 302 and answer["Location"] == "/lobby/"
    assert "eve" in text(client.get("/games/"))  # signed in: the header names her
    client.post("/accounts/logout/")
    assert client.get("/games/").status_code == 302
    answer = client.post("/accounts/login/", {"username": "eve", "password": "dune-grass-42"})
    assert answer.status_code == 302 and answer["Location"] == "/games/"


def test_home_and_nav_count_the_games_waiting_for_you(ann, bob, cyd):
    # seats in the order given: ann moves first in one game and second in the other
    first = start_game([ann, bob], seed=SEED)
    second = start_game([cyd, ann], seed=SEED)
    assert (to_move(first), to_move(second)) == (ann, cyd)
    page = text(signed_in(ann).get("/"))
    assert "1 game" in page and "wait" in page
    assert re.search(r'class="badge"[^>]*>1<', page)
    # bob moves second in his only game
    page = text(signed_in(bob).get("/"))
    assert "No game waits for your move" in page and 'class="badge"' not in page


# ---------------------------------------------------------------- lists and forms


def test_my_games_lists_the_games_waiting_for_you_first(ann, bob, cyd):
    # seats in the order given: the first player moves first
    mine = [start_game([ann, bob], seed=SEED), start_game([ann, cyd], seed=SEED)]
    theirs = [start_game([bob, ann], seed=SEED)]
    assert {to_move(g) for g in mine} == {ann} and to_move(theirs[0]) == bob
    open_game = services.game_create(user=ann, variant="pitchfork", length="short", seats=3)
    page = text(signed_in(ann).get("/games/"))
    yours, _, rest = page.partition('id="their-turn-heading"')
    for game in mine:
        assert f'data-game="{game.pk}"' in yours
        assert "Waiting for you for" in yours
    for game in theirs:
        assert f'data-game="{game.pk}"' in rest
    assert f'data-game="{open_game.pk}"' in rest
    assert "1 of 3 seats taken" in rest


def test_finished_games_are_listed_for_everyone_with_their_replays(finished, cyd):
    page = text(signed_in(cyd).get("/games/finished/"))
    assert f'data-game="{finished.pk}"' in page and "Won by ann" in page
    assert f"/games/{finished.pk}/replay/" in page
    mine = text(signed_in(seat_user(finished, 0)).get("/games/"))
    _, _, done = mine.partition('id="finished-heading"')
    assert f'data-game="{finished.pk}"' in done and "Won by ann" in done


def test_the_lobby_creates_a_game_invites_by_email_and_lets_others_join(
        ann, bob, settings, django_capture_on_commit_callbacks):
    client = signed_in(ann)
    assert "Start a game" in text(client.get("/lobby/"))
    refused = client.post("/lobby/", {"variant": "animals", "length": "short", "seats": 2})
    assert refused.status_code == 400 and "Animals is played as a long game only" in text(refused)
    assert not Game.objects.exists()
    with eager_tasks(settings), django_capture_on_commit_callbacks(execute=True):
        answer = client.post("/lobby/", {"variant": "classic", "length": "long", "seats": 2,
                                         "days_per_move": 3, "emails": "zed@example.org"})
    game = Game.objects.get()
    assert answer.status_code == 302 and answer["Location"] == f"/games/{game.pk}/"
    assert (game.options["variant"], game.seat_count, game.days_per_move) == ("classic", 2, 3)
    invite = [m for m in mail.outbox if "zed@example.org" in m.to]
    assert invite and f"/invitations/{game.invitations.get().token}/" in invite[0].body
    open_page = text(client.get(f"/games/{game.pk}/"))
    assert "Waiting for players" in open_page and "Invite players" in open_page

    lobby = text(signed_in(bob).get("/lobby/"))
    assert f'data-game="{game.pk}"' in lobby and f"Join game {game.pk}" in lobby
    joined = signed_in(bob).post(f"/games/{game.pk}/join/")
    assert joined.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING


def test_an_invitation_page_takes_the_seat(ann, bob):
    game = services.game_create(user=ann, variant="classic", length="long", seats=2)
    client = signed_in(ann)
    client.post(f"/games/{game.pk}/invite/", {"emails": "bob@example.org"})
    token = game.invitations.get().token
    anonymous = Client().get(f"/invitations/{token}/")
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    bobs = signed_in(bob)
    page = bobs.get(f"/invitations/{token}/")
    assert "ann invites you" in text(page) and "Take the seat" in text(page)
    assert bobs.post(f"/invitations/{token}/").status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING


def test_leaving_an_open_game(ann):
    game = services.game_create(user=ann, variant="classic", length="long", seats=2)
    answer = signed_in(ann).post(f"/games/{game.pk}/leave/")
    assert answer.status_code == 302 and answer["Location"] == "/lobby/"
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED


# ---------------------------------------------------------------- the game page


def test_the_game_page_and_its_state_for_the_mover_the_other_player_and_a_spectator(
        running, cyd):
    mover = to_move(running)
    other = next(u for u in (seat_user(running, 0), seat_user(running, 1)) if u != mover)
    page = signed_in(mover).get(f"/games/{running.pk}/")
    assert page.status_code == 200
    html = text(page)
    assert "Your turn: move" in html and 'id="board"' in html and "game.js" in html
    assert 'id="game-state"' in html and "Resign from this game" in html
    for seat in (0, 1):
        assert seat_user(running, seat).username in html

    state = json.loads(signed_in(mover).get(f"/games/{running.pk}/state.json").content)
    assert state["seq"] == running.seq and state["you"] is not None
    assert state["legal_actions"], "the mover is offered the legal actions"
    hands = state["state"]["hands"]
    assert set(state["state"]["hand_tiles"]) == {t for hand in hands for t in hand}
    assert state["players"] == [seat_user(running, i).username for i in (0, 1)]
    assert all(e["player"] != state["you"] for e in state["since_last_move"]["events"]
               if e["type"] in ("place", "flip"))

    waiting = json.loads(signed_in(other).get(f"/games/{running.pk}/state.json").content)
    assert waiting["legal_actions"] == []
    assert f"{mover.username} to play" in text(signed_in(other).get(f"/games/{running.pk}/"))

    watching = signed_in(cyd).get(f"/games/{running.pk}/")
    assert watching.status_code == 200 and "Resign from this game" not in text(watching)
    spectator = json.loads(signed_in(cyd).get(f"/games/{running.pk}/state.json").content)
    assert spectator["you"] is None and spectator["legal_actions"] == []


def test_a_move_from_the_page_goes_through_the_api_with_the_session(running):
    mover = to_move(running)
    client = signed_in(mover, csrf=True)
    token = page_csrf(client.get(f"/games/{running.pk}/"))
    state = json.loads(client.get(f"/games/{running.pk}/state.json").content)
    action = {k: v for k, v in state["legal_actions"][0].items() if k != "player"}
    url = f"/api/games/{running.pk}/actions/"
    body = {"seq": state["seq"], "idempotency_key": "page-move-1", "action": action}
    # without the page's token the session cannot post
    refused = client.post(url, body, content_type="application/json")
    assert refused.status_code == 403
    answer = client.post(url, body, content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert answer.status_code == 201, answer.content
    assert event_count(running) > state["seq"]


def test_a_player_without_a_seat_cannot_move_from_the_page(running, cyd):
    client = signed_in(cyd, csrf=True)
    token = page_csrf(client.get(f"/games/{running.pk}/"))
    mover = signed_in(to_move(running))
    action = json.loads(mover.get(f"/games/{running.pk}/state.json").content)["legal_actions"][0]
    action.pop("player")
    before = event_count(running)
    answer = client.post(f"/api/games/{running.pk}/actions/",
                         {"seq": running.seq, "idempotency_key": "cyd-1", "action": action},
                         content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert answer.status_code == 403
    assert json.loads(answer.content)["code"] == "not_a_player"
    assert event_count(running) == before
    running.refresh_from_db()
    assert running.seq == before


def test_a_stale_page_is_told_to_refresh_and_nothing_is_stored(running):
    waiting = next(seat_user(running, s) for s in (0, 1) if seat_user(running, s) != to_move(
        running))
    client = signed_in(waiting, csrf=True)
    token = page_csrf(client.get(f"/games/{running.pk}/"))
    stale_seq = json.loads(client.get(f"/games/{running.pk}/state.json").content)["seq"]
    # the opponent plays on until the game waits for this player
    game = play(running, until=lambda s: engine.awaiting(s)["player"] is not None
                and seat_user(running, engine.awaiting(s)["player"]) == waiting
                and s.events > stale_seq)
    action = engine.legal_actions(game_state_get(game))[0]
    before = event_count(game)
    answer = client.post(f"/api/games/{game.pk}/actions/",
                         {"seq": stale_seq, "idempotency_key": "stale-1", "action": action},
                         content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert answer.status_code == 409
    body = json.loads(answer.content)
    assert body["code"] == "stale_seq" and body["seq"] == game.seq
    assert "fetch the game and try again" in body["message"]
    assert event_count(game) == before


def test_resigning_from_the_page(running):
    player = seat_user(running, 0)
    answer = signed_in(player).post(f"/games/{running.pk}/resign/")
    assert answer.status_code == 302
    running.refresh_from_db()
    assert running.status == Game.Status.FINISHED
    page = text(signed_in(player).get(f"/games/{running.pk}/"))
    assert "Game over" in page and "Download the record" in page


# ---------------------------------------------------------------- replays


def test_a_finished_game_replays_for_everyone_signed_in(finished, cyd):
    client = signed_in(cyd)
    page = client.get(f"/games/{finished.pk}/replay/")
    assert page.status_code == 200
    html = text(page)
    assert "replay.js" in html and "Download the record" in html
    assert f"/api/games/{finished.pk}/record/?format=json" in html
    record = client.get(f"/api/games/{finished.pk}/record/?format=json")
    assert record.status_code == 200 and json.loads(record.content)["format"] == (
        "marram-game-record")

    index = json.loads(client.get(f"/games/{finished.pk}/replay/steps.json").content)
    assert index["count"] == finished.seq == len(index["steps"]) - 1
    assert index["error"] is None
    assert index["steps"][-1]["scores"] == finished.projection["scores"]
    assert index["steps"][-1]["text"].endswith("resigned")

    events = list(Event.objects.filter(game=finished).order_by("seq")
                  .values_list("payload", flat=True))
    config = engine.config_from_json(finished.config)
    for at in (0, 3, finished.seq):
        step = json.loads(client.get(f"/games/{finished.pk}/replay/steps.json?at={at}").content)
        expected = engine.replays.replay_events(config, events[:at]).state
        assert step["at"] == at
        assert len(step["view"]["board"]) == len(expected.board)
        assert step["view"]["scores"] == expected.scores
        assert "row" not in (step["event"] or {}) and "summary" not in step  # staff only
    beyond = json.loads(client.get(f"/games/{finished.pk}/replay/steps.json?at=999").content)
    assert beyond["at"] == finished.seq
    assert client.get(f"/games/{finished.pk}/replay/steps.json?at=x").status_code == 400


def test_a_running_game_replays_for_its_players_only(running, cyd):
    assert signed_in(seat_user(running, 0)).get(f"/games/{running.pk}/replay/").status_code \
        == 200
    page = signed_in(cyd).get(f"/games/{running.pk}/replay/")
    assert page.status_code == 403
    assert signed_in(cyd).get(f"/games/{running.pk}/replay/steps.json").status_code == 403
    assert "Download the record" not in text(
        signed_in(seat_user(running, 0)).get(f"/games/{running.pk}/replay/"))


def test_the_replay_of_a_running_game_never_shows_the_deck_or_the_seed(ann, bob):
    game = play(start_game([ann, bob], variant="animals"), until=lambda s: len(s.board) >= 22)
    state = game_state_get(game)
    undrawn = set(state.config.deck[state.drawn:])
    assert len(undrawn) > 40
    client = signed_in(ann)
    answers = [client.get(f"/games/{game.pk}/replay/steps.json")]
    answers += [client.get(f"/games/{game.pk}/replay/steps.json?at={n}")
                for n in range(0, game.seq + 1, 7)]
    answers += [client.get(f"/games/{game.pk}/replay/steps.json?at={game.seq + 50}"),
                client.get(f"/games/{game.pk}/state.json"), client.get(f"/games/{game.pk}/")]
    for answer in answers:
        assert answer.status_code == 200
        body = text(answer)
        assert game.seed not in body
        if answer["Content-Type"].startswith("application/json"):
            assert "seed" not in body.lower() and "deck" not in body.lower()
            leaked = undrawn & set(json_strings(json.loads(body)))
            assert not leaked, f"undrawn tiles in {answer.request['PATH_INFO']}: {leaked}"
        else:
            assert not any(f'"{tile}"' in body for tile in undrawn)
    last = json.loads(answers[-3].content)
    assert last["at"] == game.seq  # only the events so far


def test_the_game_page_shows_the_commitment_and_the_seed_only_at_the_end(running, finished):
    from engine.marram import fairness

    page = text(signed_in(seat_user(running, 0)).get(f"/games/{running.pk}/"))
    assert f"<code>{running.commitment}</code>" in page
    assert running.seed not in page and "The seed is revealed when the game is over" in page
    page = text(signed_in(seat_user(finished, 0)).get(f"/games/{finished.pk}/"))
    assert f"<code>{finished.commitment}</code>" in page and f"<code>{finished.seed}</code>" in page
    assert fairness.commitment(finished.seed) == finished.commitment


# ---------------------------------------------------------------- the admin


def test_the_admin_replays_a_game_with_the_stored_events(admin_client, running, ann):
    change = admin_client.get(f"/admin/games/game/{running.pk}/change/")
    assert f"/admin/games/game/{running.pk}/replay/" in text(change)
    page = admin_client.get(f"/admin/games/game/{running.pk}/replay/")
    assert page.status_code == 200
    html = text(page)
    assert "replay.js" in html and "agrees with the stored outcome" in html
    assert running.seed not in html
    step = json.loads(admin_client.get(
        f"/admin/games/game/{running.pk}/replay/steps.json?at=2").content)
    assert step["event"]["row"]["payload"] == Event.objects.get(game=running, seq=1).payload
    assert step["summary"]["supply"]
    index = json.loads(admin_client.get(
        f"/admin/games/game/{running.pk}/replay/steps.json").content)
    assert index["staff"] is True and index["count"] == running.seq
    # not for players
    answer = signed_in(ann).get(f"/admin/games/game/{running.pk}/replay/")
    assert answer.status_code == 302 and "/admin/login/" in answer["Location"]


def test_the_admin_verify_action_reports_a_game_that_no_longer_replays_the_same(
        admin_client, running, finished):
    url = "/admin/games/game/"
    answer = admin_client.post(url, {"action": "verify",
                                     "_selected_action": [running.pk, finished.pk]},
                               follow=True)
    page = text(answer)
    assert f"Game {running.pk}: {running.seq} events replay to the stored outcome" in page
    assert f"Game {finished.pk}: {finished.seq} events replay" in page
    # a projection that the events do not give is reported
    Game.objects.filter(pk=running.pk).update(projection={**running.projection,
                                                          "scores": [99, 0]})
    answer = admin_client.post(url, {"action": "verify", "_selected_action": [running.pk]},
                               follow=True)
    page = text(answer)
    assert f"Game {running.pk}: 1 problem(s): scores: stored [99, 0], replay gives" in page
    assert "Verify" in str(admin.site._registry[Game].get_actions(answer.wsgi_request))
