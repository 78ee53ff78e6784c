"""Every game the engine registers is served by the platform as it is, with no
code of its own in games/ or notifications/: started from the API with its
default options, played by its players through the API (what each seat may do
comes from the API's legal_actions), and its stored events replay to the stored
outcome (verify_game)."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client

from engine import registry
from engine.animals_on_board import GAME
from games.management.commands.verify_game import game_problems
from games.models import Game
from notifications import services as notes
from notifications.board_mail import picture_alt
from notifications.models import Notification
from tests.service.aob_kit import hunting_action, seen_tiles, start_animals, state_of, submit
from tests.service.conftest import body, client_for, seat_user

pytestmark = pytest.mark.long

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


TILE = re.compile(r"(?<![A-Za-z0-9])([A-L][1-5])(?![A-Za-z0-9])")


def everything_shown(game: Game, user, bodies_seen: set[int]) -> dict[str, str]:
    """Every answer ``user`` (a player or a spectator) can get about the running
    game, by where it came from: the page, its state, the API's state, events
    and named queries, the replay (its steps), and the user's mails (bodies and
    the picture's alt text)."""
    browser = Client()
    browser.force_login(user)
    api = client_for(user)
    got: dict[str, str] = {}
    for url in (f"/games/{game.pk}/", f"/games/{game.pk}/state.json",
                f"/games/{game.pk}/replay/", f"/games/{game.pk}/replay/steps.json",
                "/games/", "/lobby/"):
        answer = browser.get(url)
        assert answer.status_code in (200, 403), (url, answer.status_code)
        got[url] = answer.content.decode()
    for url in (f"/api/games/{game.pk}/", f"/api/games/{game.pk}/events/", "/api/games/",
                f"/api/games/{game.pk}/record/",  # refused until the game is over
                *(f"/api/games/{game.pk}/query/{name}/"
                  for name in registry.get(game.game).queries)):
        answer = api.get(url)
        assert answer.status_code in (200, 409), (url, answer.status_code)
        got[url] = answer.content.decode()
    # the newest step: an earlier one was searched when it was the newest, and a
    # step of a running game never changes while what its reader has seen only grows
    url = f"/games/{game.pk}/replay/steps.json?at={game.seq}"
    got[url] = browser.get(url).content.decode()
    for pk in Notification.objects.filter(status="pending").values_list("pk", flat=True):
        notes.notification_deliver(pk)
    for n in Notification.objects.filter(user=user, game=game):
        if n.pk in bodies_seen:
            continue
        bodies_seen.add(n.pk)
        got[f"mail {n.pk} ({n.kind})"] = n.subject + n.body_text + n.body_html
        got[f"mail {n.pk} picture"] = picture_alt(n)
    return got


def test_no_answer_during_a_running_game_shows_a_tile_its_reader_has_not_seen(users):
    # Animals on Board, 3 players and a spectator (dee). After every event until
    # the game ends, everything each of them can read is searched for the tiles
    # they have never seen: the others' secret keeps and arks' hidden tiles, the
    # face-down tile (taken often here, by hunting_action), the stack's order.
    ann, bob, cyd, dee = users
    game = start_animals([ann, bob, cyd])
    readers = {0: ann, 1: bob, 2: cyd, None: dee}
    mails: dict[int | None, set[int]] = {s: set() for s in readers}
    rng = random.Random(3)
    searched = set()
    face_down_taken = False
    for _ in range(200):
        state = state_of(game)
        if state.finished:  # the record of a finished game reveals all
            break
        seen = seen_tiles(game, 3)
        every = {t for t in state.config.deck}
        for seat, user in readers.items():
            hidden = every - seen[seat]
            for where, text in everything_shown(game, user, mails[seat]).items():
                leaked = {m for m in TILE.findall(text)} & hidden
                assert not leaked, (f"seat {seat} reads {sorted(leaked)} in {where} "
                                    f"after {game.seq} events")
                searched.add(where.split("?")[0] if where.startswith("/") else "mail")
        action = hunting_action(state, GAME.awaiting(state).players[0], rng)
        face_down_taken |= action["type"] == "take" and "?" in GAME.view(
            state, None)["middle"][action["group"]]
        submit(game, action)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED, "the game should have ended"
    assert face_down_taken
    assert {f"/games/{game.pk}/replay/steps.json", f"/api/games/{game.pk}/events/",
            f"/games/{game.pk}/state.json", "mail"} <= searched
