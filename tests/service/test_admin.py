"""The admin lists games with their seats; events can be read there, never
added, changed or deleted."""

import pytest
from django.contrib import admin

from games.models import Event, Game
from tests.service.conftest import make_user, play, start_game


@pytest.fixture
def game(db):
    return play(start_game([make_user("ann"), make_user("bob")]), until=lambda s: s.events >= 4)


def test_games_and_their_seats_show_in_the_admin(admin_client, game):
    assert admin_client.get("/admin/games/game/").status_code == 200
    page = admin_client.get(f"/admin/games/game/{game.pk}/change/")
    assert page.status_code == 200
    assert b"ann" in page.content and b"bob" in page.content
    # the seed and the deck are not on the page
    assert game.seed.encode() not in page.content
    assert game.config["deck"][-1].encode() not in page.content


def test_events_are_read_only_in_the_admin(admin_client, admin_user, game, rf):
    event_admin = admin.site._registry[Event]
    request = rf.get("/admin/")
    request.user = admin_user  # a superuser: every permission but these
    event = Event.objects.filter(game=game).first()
    assert not event_admin.has_add_permission(request)
    assert not event_admin.has_change_permission(request, event)
    assert not event_admin.has_delete_permission(request, event)
    assert admin_client.get("/admin/games/event/").status_code == 200
    assert admin_client.get(f"/admin/games/event/{event.pk}/change/").status_code == 200
    assert admin_client.get("/admin/games/event/add/").status_code == 403
    assert admin_client.post(f"/admin/games/event/{event.pk}/delete/", {"post": "yes"}
                             ).status_code == 403
    assert Event.objects.filter(pk=event.pk).exists()
    assert Game.objects.get(pk=game.pk).seq == game.seq
