"""Leaderboards, profiles, a game's rating changes and rematches: the pages and the
API, and what they refuse (a clear 4xx, nothing changed)."""

from __future__ import annotations

import re

import pytest
from django.core import mail

from games import services as game_services
from games.models import Game, Seat
from notifications.models import Notification
from ratings import services
from ratings.models import Rating, Rematch, RematchAnswer
from tests.service.conftest import body, client_for, make_user, signed_in, start_game
from tests.service.mail_kit import eager_tasks

pytestmark = pytest.mark.django_db



def text(response) -> str:
    return response.content.decode()


def over(players: list, loser) -> Game:
    """A game played on the site and ended by a resignation, its ratings updated as
    the task does."""
    game = start_game(players)
    game_services.game_resign(game=game, user=loser)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    services.ratings_update(game.pk)
    return game


def test_the_leaderboard_ranks_by_rating_page_and_api(users):
    ann, bob, cyd, _ = users
    over([ann, bob], bob)
    over([ann, cyd], cyd)
    page = signed_in(bob).get("/leaderboards/marram/")
    assert page.status_code == 200
    names = re.findall(r'<tr data-player="([^"]+)"', text(page))
    assert names[0] == "ann" and set(names) == {"ann", "bob", "cyd"}
    assert "You are in place" in text(page)
    answer = client_for(bob).get("/api/leaderboards/marram/")
    assert answer.status_code == 200
    rows = body(answer)["players"]
    assert [r["username"] for r in rows][0] == "ann" and rows[0]["place"] == 1
    assert rows[0]["games"] == 2
    assert rows[0]["rating"] == pytest.approx(rows[0]["mu"] - 3 * rows[0]["sigma"])
    index = signed_in(bob).get("/leaderboards/")
    assert index.status_code == 200 and "1. ann" in text(index)


def test_an_unknown_game_or_player_is_a_404(users):
    ann = users[0]
    assert signed_in(ann).get("/leaderboards/chess/").status_code == 404
    assert signed_in(ann).get("/players/nobody/").status_code == 404
    for url in ("/api/leaderboards/chess/", "/api/players/nobody/",
                "/api/games/999999/ratings/", "/api/games/999999/rematch/"):
        answer = client_for(ann).get(url)
        assert answer.status_code == 404, url
        assert body(answer)["code"] in {"unknown_game", "unknown_user", "no_such_game"}


def test_the_profile_shows_ratings_with_a_chart_and_the_games(users):
    ann, bob, cyd, _ = users
    first = over([ann, bob], bob)
    over([ann, cyd], ann)
    running = start_game([ann, bob])
    page = signed_in(bob).get("/players/ann/")
    assert page.status_code == 200
    html = text(page)
    assert "2 finished games played, 1 won; 1 game being played now." in html
    assert html.count("<circle") == 3  # the start value and two games
    assert re.search(r'<polyline class="rating-line" points="[\d.]+,[\d.]+ [\d.]+,[\d.]+ '
                     r'[\d.]+,[\d.]+"', html)
    assert f'data-game="{first.pk}"' in html and f'data-game="{running.pk}"' in html
    assert "People you have played" not in html  # only on your own
    mine = text(signed_in(ann).get("/players/ann/"))
    assert 'id="played-with"' in mine and "bob" in mine
    data = body(client_for(bob).get("/api/players/ann/"))
    assert (data["played"], data["won"], data["current"]) == (2, 1, 1)
    [marram] = data["ratings"]
    assert marram["games"] == 2 and len(marram["history"]) == 3
    assert marram["history"][-1]["rating"] == pytest.approx(marram["rating"])
    assert [g["id"] for g in data["current_games"]] == [running.pk]
    played = body(client_for(ann).get("/api/players/me/played/"))
    assert played == [{"username": "bob", "games": 2}, {"username": "cyd", "games": 1}]


def test_the_game_page_shows_each_players_rating_change_at_the_end(users):
    ann, bob = users[:2]
    game = over([ann, bob], bob)
    html = text(signed_in(ann).get(f"/games/{game.pk}/"))
    section = html[html.index('id="final-standings"'):]
    assert 'id="rating-changes"' in section
    rows = dict(re.findall(r'<tr data-player="(\w+)">.*?class="rating-delta">([^<]+)<',
                           section, re.S))
    assert rows["ann"].startswith("+") and rows["bob"].startswith("-")
    data = body(client_for(bob).get(f"/api/games/{game.pk}/ratings/"))
    assert data["rated"] is True
    assert {c["username"]: c["rank"] for c in data["changes"]} == {"ann": 1, "bob": 2}
    running = start_game([ann, bob])
    assert 'id="rating-changes"' not in text(signed_in(ann).get(f"/games/{running.pk}/"))
    assert body(client_for(ann).get(f"/api/games/{running.pk}/ratings/"))["rated"] is None


def test_an_unrated_game_says_why(users, monkeypatch):
    ann, computer = users[:2]
    monkeypatch.setattr(services, "is_computer", lambda user: user == computer)
    game = over([ann, computer], computer)
    html = text(signed_in(ann).get(f"/games/{game.pk}/"))
    assert "Unrated: a computer player took part" in html
    assert not Rating.objects.exists()


def test_a_rematch_offered_by_api_and_accepted_by_everyone_starts_a_new_game(
        users, settings, django_capture_on_commit_callbacks):
    ann, bob, cyd, _ = users
    game = start_game([ann, bob, cyd], length="short")
    game_services.game_resign(game=game, user=cyd)
    game_services.game_resign(game=game, user=bob)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    with eager_tasks(settings), django_capture_on_commit_callbacks(execute=True):
        answer = client_for(bob).post(f"/api/games/{game.pk}/rematch/", format="json")
    assert answer.status_code == 201, answer.content
    offer = body(answer)
    assert offer["status"] == "open" and offer["offered_by"] == "bob"
    assert {a["username"]: a["accepted"] for a in offer["answers"]} == {
        "ann": None, "bob": True, "cyd": None}
    # the others are mailed through the outbox
    assert sorted(m.to[0] for m in mail.outbox) == ["ann@example.org", "cyd@example.org"]
    assert "bob offers a rematch of Marram game" in mail.outbox[0].subject
    assert f"/games/{game.pk}/" in mail.outbox[0].body
    assert Notification.objects.filter(kind="invitation", game=game).count() == 2

    answer = client_for(ann).post(f"/api/games/{game.pk}/rematch/answer/", {"accept": True},
                                  format="json")
    assert answer.status_code == 200 and body(answer)["new_game"] is None
    answer = client_for(cyd).post(f"/api/games/{game.pk}/rematch/answer/", {"accept": True},
                                  format="json")
    done = body(answer)
    assert done["status"] == "started"
    new = Game.objects.get(pk=done["new_game"])
    assert new.status == Game.Status.RUNNING
    assert (new.game, new.options, new.seat_count, new.days_per_move) == (
        game.game, game.options, game.seat_count, game.days_per_move)
    assert new.seed != game.seed and new.commitment != game.commitment
    assert set(Seat.objects.filter(game=new).values_list("user__username", flat=True)) == {
        "ann", "bob", "cyd"}


def test_a_decline_ends_the_rematch(users):
    ann, bob = users[:2]
    game = over([ann, bob], bob)
    services.rematch_offer(game_id=game.pk, user=ann)
    answer = client_for(bob).post(f"/api/games/{game.pk}/rematch/answer/", {"accept": False},
                                  format="json")
    assert answer.status_code == 200 and body(answer)["status"] == "declined"
    games = Game.objects.count()
    late = client_for(bob).post(f"/api/games/{game.pk}/rematch/answer/", {"accept": True},
                                format="json")
    assert late.status_code == 409 and body(late)["code"] == "rematch_closed"
    assert Game.objects.count() == games


def test_bad_rematch_requests_are_refused_and_change_nothing(users):
    ann, bob, cyd, _ = users
    running = start_game([ann, bob])
    game = over([ann, bob], bob)
    before = (Rematch.objects.count(), RematchAnswer.objects.count(), Game.objects.count())

    def refused(user, url, data, status, code):
        answer = client_for(user).post(url, data, format="json")
        assert answer.status_code == status, answer.content
        assert body(answer)["code"] == code
        assert (Rematch.objects.count(), RematchAnswer.objects.count(),
                Game.objects.count()) == before

    refused(ann, f"/api/games/{running.pk}/rematch/", {}, 409, "game_not_finished")
    refused(ann, "/api/games/999999/rematch/", {}, 404, "no_such_game")
    refused(cyd, f"/api/games/{game.pk}/rematch/", {}, 403, "not_a_player")
    refused(ann, f"/api/games/{game.pk}/rematch/answer/", {"accept": True}, 404, "no_rematch")
    refused(ann, f"/api/games/{game.pk}/rematch/", {"seats": 3}, 400, "unknown_field")
    services.rematch_offer(game_id=game.pk, user=ann)
    before = (Rematch.objects.count(), RematchAnswer.objects.count(), Game.objects.count())
    # cyd answering the rematch of a game cyd did not play
    refused(cyd, f"/api/games/{game.pk}/rematch/answer/", {"accept": True}, 403, "not_a_player")
    refused(ann, f"/api/games/{game.pk}/rematch/answer/", {"accept": True}, 409,
            "already_answered")
    refused(ann, f"/api/games/{game.pk}/rematch/", {}, 409, "rematch_offered")
    refused(bob, f"/api/games/{game.pk}/rematch/answer/", {"accept": "yes"}, 400, "invalid")
    refused(bob, f"/api/games/{game.pk}/rematch/answer/", {}, 400, "invalid")
    assert RematchAnswer.objects.get(user=bob).accepted is None
    # the page's forms: the same refusals as a page with the status
    page = signed_in(cyd).post(f"/games/{game.pk}/rematch/answer/", {"answer": "accept"})
    assert page.status_code == 403 and "offered to the game" in text(page)
    page = signed_in(bob).post(f"/games/{game.pk}/rematch/answer/", {"answer": "maybe"})
    assert page.status_code == 400
    page = signed_in(ann).post(f"/games/{running.pk}/rematch/")
    assert page.status_code == 409
    assert signed_in(ann).post("/games/999999/rematch/").status_code == 404
    assert RematchAnswer.objects.get(user=bob).accepted is None
    assert Rating.objects.count() == 2


def test_the_rematch_by_the_pages(users):
    ann, bob = users[:2]
    game = over([ann, bob], bob)
    html = text(signed_in(bob).get(f"/games/{game.pk}/"))
    assert "Offer a rematch" in html
    assert text(signed_in(make_user("eve")).get(f"/games/{game.pk}/")).count(
        "Offer a rematch") == 0  # not to someone who did not play
    response = signed_in(bob).post(f"/games/{game.pk}/rematch/")
    assert response.status_code == 302
    html = text(signed_in(ann).get(f"/games/{game.pk}/"))
    assert "bob offered a rematch." in html and "Accept the rematch" in html
    response = signed_in(ann).post(f"/games/{game.pk}/rematch/answer/", {"answer": "accept"})
    new = Rematch.objects.get(game=game).new_game
    assert new is not None and response.status_code == 302
    assert response["Location"] == f"/games/{new.pk}/"


def test_the_creator_of_an_open_game_chooses_whether_a_computer_player_makes_it_unrated(
        users, monkeypatch):
    ann, bob, _, _ = users
    game = game_services.game_create(user=ann, game="marram", seats=2)
    url = f"/api/games/{game.pk}/rated/"
    assert body(client_for(bob).get(url)) == {"rated": False}
    refused = client_for(bob).put(url, {"rated": True}, format="json")
    assert refused.status_code == 403 and body(refused)["code"] == "not_the_creator"
    wrong = client_for(ann).put(url, {"rated": "yes"}, format="json")
    assert wrong.status_code == 400
    assert body(client_for(ann).get(url)) == {"rated": False}
    page = signed_in(ann).post(f"/games/{game.pk}/rated/", {"rated": "on"})
    assert page.status_code == 302
    assert body(client_for(bob).get(url)) == {"rated": True}
    # the computer joins; the game is rated as the lobby said
    monkeypatch.setattr(services, "is_computer", lambda user: user == bob)
    game_services.game_join(game=game, user=bob)
    late = client_for(ann).put(url, {"rated": False}, format="json")
    assert late.status_code == 409 and body(late)["code"] == "game_not_open"
    game_services.game_resign(game=game, user=ann)
    services.ratings_update(game.pk)
    assert Rating.objects.get(user=bob).mu > 25
    # and a rematch keeps the choice
    services.rematch_offer(game_id=game.pk, user=ann)
    rematch = Rematch.objects.get(game=game)
    assert rematch.status == "started"  # the computer says yes by itself
    assert body(client_for(ann).get(f"/api/games/{rematch.new_game_id}/rated/")) == {
        "rated": True}


def test_ratings_and_rematches_show_read_only_in_the_admin(users, admin_client):
    ann, bob = users[:2]
    game = over([ann, bob], bob)
    services.rematch_offer(game_id=game.pk, user=ann)
    for url in ("/admin/ratings/rating/", "/admin/ratings/ratedgame/",
                "/admin/ratings/rematch/",
                f"/admin/ratings/ratedgame/{game.rated.pk}/change/",
                f"/admin/ratings/rematch/{Rematch.objects.get().pk}/change/"):
        assert admin_client.get(url).status_code == 200, url
    assert admin_client.post(f"/admin/ratings/rating/{Rating.objects.first().pk}/change/",
                             {"mu": 99}).status_code == 403
    assert Rating.objects.filter(mu=99).count() == 0
