"""One account cannot flood the lobby: a player may have only so many games waiting
for players (MARRAM_MAX_OPEN_GAMES) and start only so many an hour (a throttle),
and every list comes a page at a time, with links between the pages."""

from __future__ import annotations

import re
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games import services
from games.models import Game
from tests.service.conftest import body, client_for, make_user, signed_in, start_game

SEED = "5eed" * 16
NEW_GAME = {"variant": "classic", "length": "long", "seats": 2}



def listed(response) -> list[int]:
    """The games a page lists, in order (each card carries data-game)."""
    return [int(n) for n in re.findall(r'data-game="(\d+)"', response.content.decode())]


def open_games(user, count: int) -> list[Game]:
    return [services.game_create(user=user, variant="classic", length="long", seats=2)
            for _ in range(count)]


# ---------------------------------------------------------------- open games a player


@pytest.mark.django_db
def test_a_player_may_have_only_so_many_open_games(settings):
    settings.MARRAM_MAX_OPEN_GAMES = 3
    ann, bob = make_user("ann"), make_user("bob")
    api = client_for(ann)
    made = [api.post("/api/games/", NEW_GAME, format="json") for _ in range(3)]
    assert [r.status_code for r in made] == [201, 201, 201]

    refused = api.post("/api/games/", NEW_GAME, format="json")
    assert refused.status_code == 409
    assert body(refused)["code"] == "too_many_open_games" and body(refused)["limit"] == 3
    assert "you have started 3 games that are still waiting for players" in \
        body(refused)["message"]
    page = signed_in(ann).post("/lobby/", NEW_GAME)
    assert page.status_code == 409
    assert "You have started 3 games that are still waiting for players" in \
        page.content.decode()
    assert Game.objects.filter(created_by=ann).count() == 3

    # another player is not held back by ann's games
    assert client_for(bob).post("/api/games/", NEW_GAME, format="json").status_code == 201
    # once one of ann's games starts, she may open another
    services.game_join(game=body(made[0])["id"], user=bob)
    assert api.post("/api/games/", NEW_GAME, format="json").status_code == 201
    assert Game.objects.filter(created_by=ann, status=Game.Status.OPEN).count() == 3


@pytest.mark.django_db(transaction=True)
def test_simultaneous_games_from_one_player_count_one_after_the_other(settings):
    settings.MARRAM_MAX_OPEN_GAMES = 3
    ann = make_user("ann")
    open_games(ann, 2)
    clients = 6
    barrier = threading.Barrier(clients)
    statuses: list[int] = []
    errors: list[BaseException] = []

    def create() -> None:
        try:
            client = client_for(ann)
            barrier.wait(timeout=30)
            statuses.append(client.post("/api/games/", NEW_GAME, format="json").status_code)
        except BaseException as e:  # reported below: a thread cannot fail the test itself
            errors.append(e)
        finally:
            connection.close()

    threads = [threading.Thread(target=create) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors, errors
    assert sorted(statuses) == [201] + [409] * (clients - 1)
    assert Game.objects.filter(created_by=ann, status=Game.Status.OPEN).count() == 3


# ---------------------------------------------------------------- how often


@pytest.mark.django_db
def test_starting_games_is_throttled_per_player(settings):
    settings.MARRAM_THROTTLE_RATES = {**settings.MARRAM_THROTTLE_RATES, "game_create": "2/hour"}
    ann, bob = make_user("ann"), make_user("bob")
    api = client_for(ann)
    for _ in range(2):
        assert api.post("/api/games/", NEW_GAME, format="json").status_code == 201
    refused = api.post("/api/games/", NEW_GAME, format="json")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert body(refused)["code"] == "throttled"
    assert body(refused)["message"].startswith("you have started too many games lately: "
                                               "try again in")
    page = signed_in(ann).post("/lobby/", NEW_GAME)
    assert page.status_code == 429
    assert "You have started too many games lately" in page.content.decode()
    assert Game.objects.filter(created_by=ann).count() == 2
    # reading the lists is not counted, and bob has his own count
    assert api.get("/api/games/?list=open").status_code == 200
    assert client_for(bob).post("/api/games/", NEW_GAME, format="json").status_code == 201


# ---------------------------------------------------------------- a page at a time


@pytest.mark.django_db
def test_the_api_lists_come_fifty_a_page(settings):
    settings.MARRAM_MAX_OPEN_GAMES = 100
    ann = make_user("ann")
    games = open_games(ann, 55)
    api = client_for(ann)
    first = body(api.get("/api/games/?list=open"))
    assert first["count"] == 55 and len(first["results"]) == 50
    assert first["results"][0]["id"] == games[-1].pk  # newest first
    assert first["next"].endswith("/api/games/?list=open&page=2") and first["previous"] is None
    second = body(api.get(first["next"]))
    assert [g["id"] for g in second["results"]] == [g.pk for g in reversed(games[:5])]
    missing = api.get("/api/games/?list=open&page=3")
    assert missing.status_code == 404 and body(missing)["code"] == "not_found"
    assert body(missing)["message"].startswith("there is no page 3 of this list")
    for page in ("0", "two"):
        bad = api.get(f"/api/games/?list=open&page={page}")
        assert bad.status_code == 400 and body(bad)["field"] == "page"


@pytest.mark.django_db
def test_the_lobby_lists_open_games_a_page_at_a_time(settings):
    settings.MARRAM_LIST_PAGE_SIZE = 5
    ann, bob, cyd = make_user("ann"), make_user("bob"), make_user("cyd")
    games = open_games(ann, 6) + open_games(bob, 6)
    newest_first = [g.pk for g in reversed(games)]
    client = signed_in(cyd)

    first = client.get("/lobby/")
    assert listed(first) == newest_first[:5]
    text = first.content.decode()
    assert "Page 1 of 3 (12 games)" in text and 'href="?page=2" rel="next"' in text
    assert 'href="?page=3">Last' in text and 'rel="prev"' not in text
    last = client.get("/lobby/?page=3")
    assert listed(last) == newest_first[10:]
    assert 'href="?page=2" rel="prev"' in last.content.decode()
    for page in ("4", "0", "x"):
        missing = client.get(f"/lobby/?page={page}")
        assert missing.status_code == 404 and "No such page" in missing.content.decode()


@pytest.mark.django_db
def test_finished_games_come_a_page_at_a_time(settings):
    settings.MARRAM_LIST_PAGE_SIZE = 2
    ann, bob = make_user("ann"), make_user("bob")
    games = [start_game([ann, bob]) for _ in range(3)]
    # only their status matters to the list
    Game.objects.filter(pk__in=[g.pk for g in games]).update(status=Game.Status.FINISHED,
                                                              finished_at=timezone.now())
    client = signed_in(bob)
    assert listed(client.get("/games/finished/")) == [games[2].pk, games[1].pk]
    assert listed(client.get("/games/finished/?page=2")) == [games[0].pk]
    assert client.get("/games/finished/?page=3").status_code == 404


@pytest.mark.django_db
def test_my_games_come_a_page_at_a_time_those_waiting_for_me_first(settings):
    settings.MARRAM_LIST_PAGE_SIZE = 2
    ann, bob = make_user("ann"), make_user("bob")
    # seats in the order given: the first player moves first
    mine = [start_game([ann, bob], seed=SEED) for _ in range(3)]
    theirs = [start_game([bob, ann], seed=SEED) for _ in range(2)]
    waiting = open_games(ann, 2)
    now = timezone.now()
    # no move yet: each has waited since its start, mine[2] the longest, theirs[1] the least
    for hours, game in zip([5, 9, 30], mine, strict=True):
        Game.objects.filter(pk=game.pk).update(started_at=now - timedelta(hours=hours))
    for hours, game in zip([8, 2], theirs, strict=True):
        Game.objects.filter(pk=game.pk).update(started_at=now - timedelta(hours=hours))
    expected = [mine[2], mine[1], mine[0], theirs[1], theirs[0], waiting[1], waiting[0]]

    client = signed_in(ann)
    pages = [client.get(f"/games/?page={n}") for n in (1, 2, 3, 4)]
    assert [pk for page in pages for pk in listed(page)] == [g.pk for g in expected]
    third = pages[2].content.decode()
    # every page counts all the games waiting for ann, and says where the others are
    assert "Waiting for you <span class=\"count\">(3)</span>" in third
    yours, _, rest = third.partition('id="their-turn-heading"')
    assert "On other pages of this list." in yours
    assert "Page 3 of 4 (7 games)" in third
    assert client.get("/games/?page=5").status_code == 404
