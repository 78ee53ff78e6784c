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


def test_a_started_game_cannot_be_edited_or_deleted_in_the_admin(admin_client, game):
    # its seats, status and outcome follow from its events
    url = f"/admin/games/game/{game.pk}/change/"
    page = admin_client.get(url)
    assert page.status_code == 200
    form = page.context["adminform"].form
    assert not {"status", "variant", "seat_count", "days_per_move"} & set(form.fields)
    [seats, invitations] = page.context["inline_admin_formsets"]
    assert not seats.has_add_permission and not seats.has_change_permission
    assert not seats.has_delete_permission
    seat = game.seats.get(index=0)
    forged = {
        "status": "finished", "variant": "pitchfork", "seat_count": "3",
        "seats-TOTAL_FORMS": "2", "seats-INITIAL_FORMS": "2", "seats-MIN_NUM_FORMS": "0",
        "seats-MAX_NUM_FORMS": "1000",
        "seats-0-id": str(seat.pk), "seats-0-game": str(game.pk), "seats-0-index": "1",
        "seats-0-name": "mallory", "seats-0-resigned": "on", "seats-0-DELETE": "on",
        "invitations-TOTAL_FORMS": "0", "invitations-INITIAL_FORMS": "0",
        "invitations-MIN_NUM_FORMS": "0", "invitations-MAX_NUM_FORMS": "1000",
        "_save": "Save",
    }
    admin_client.post(url, forged)
    after = Game.objects.get(pk=game.pk)
    assert (after.status, after.options, after.seat_count) == (
        Game.Status.RUNNING, game.options, game.seat_count)
    seat.refresh_from_db()
    assert (seat.index, seat.name, seat.resigned) == (0, game.config["players"][0], False)
    # nor deleted: its events cannot be
    assert admin_client.post(f"/admin/games/game/{game.pk}/delete/", {"post": "yes"}
                             ).status_code == 403
    assert Game.objects.filter(pk=game.pk).exists()
    assert admin_client.get(url).status_code == 200


def test_an_open_game_can_be_abandoned_but_not_started_in_the_admin(admin_client, db):
    from games import services

    game = services.game_create(user=make_user("cyd"), variant="classic", length="long",
                                seats=2)
    url = f"/admin/games/game/{game.pk}/change/"
    fields = {"variant": "classic", "length": "long", "seat_count": "2",
              "created_by": str(game.created_by_id),
              "seats-TOTAL_FORMS": "0", "seats-INITIAL_FORMS": "0",
              "seats-MIN_NUM_FORMS": "0", "seats-MAX_NUM_FORMS": "1000",
              "invitations-TOTAL_FORMS": "0", "invitations-INITIAL_FORMS": "0",
              "invitations-MIN_NUM_FORMS": "0", "invitations-MAX_NUM_FORMS": "1000"}
    refused = admin_client.post(url, {**fields, "status": "running"})
    assert refused.status_code == 200 and b"can only be abandoned" in refused.content
    assert Game.objects.get(pk=game.pk).status == Game.Status.OPEN
    assert admin_client.post(url, {**fields, "status": "abandoned"}).status_code == 302
    assert Game.objects.get(pk=game.pk).status == Game.Status.ABANDONED
