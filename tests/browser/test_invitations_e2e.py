"""Invitations as people meet them: a personal invitation (by username, or by
mail) is for its addressee alone, and its link is never offered as one to pass
on; anybody else who opens it is told so, and a used one says who took the seat
before any click. A link to pass on is made on request, and the open game's page
lists who was invited and who answered."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest

from games import services as game_services
from games.models import Game, Invitation
from tests.service.conftest import make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("cold_caches")]


def signed_in(visitors: Any, username: str) -> Any:
    visitor = visitors()
    visitor.sign_in(username)
    return visitor.page


def invited_list(page: Any) -> list[str]:
    return [line.split(" · ")[0] for line in page.locator("#invited li").all_inner_texts()]


def test_an_invitation_by_username_is_for_that_player_alone(visitors, live_server):
    ann, bob, _ = make_user("ann"), make_user("bob"), make_user("cyd")
    game = game_services.game_create(user=ann, game="marram", seats=3)
    a = signed_in(visitors, "ann")
    a.goto(f"{live_server.url}/games/{game.pk}/")
    a.get_by_label("Or by username").fill("bob")
    a.get_by_role("button", name="Invite by username").click()
    a.wait_for_url(f"{live_server.url}/games/{game.pk}/")
    token = Invitation.objects.get(game=game, invitee=bob).token
    # bob's link is his: never shown as a link to pass on
    assert a.locator("#invite-links input.copy-source").count() == 0
    assert token not in a.content()
    assert invited_list(a) == ["bob, by username: not answered yet"]

    c = signed_in(visitors, "cyd")
    c.goto(f"{live_server.url}/invitations/{token}/")
    said = c.locator(".invitation-state").inner_text()
    assert said.startswith("This invitation is for bob, and you are signed in as cyd"), said
    assert c.get_by_role("button", name="Take the seat").count() == 0

    b = signed_in(visitors, "bob")
    b.goto(f"{live_server.url}/invitations/{token}/")
    b.get_by_role("button", name="Take the seat").click()
    b.wait_for_url(f"{live_server.url}/games/{game.pk}/")
    assert game.seats.filter(user=bob).exists()

    a.reload()
    assert invited_list(a) == ["bob, by username: took a seat"]
    c.goto(f"{live_server.url}/invitations/{token}/")  # used: said before any click
    said = c.locator(".invitation-state").inner_text()
    assert said.startswith("This invitation has been used: bob took the seat"), said
    assert c.get_by_role("button", name="Take the seat").count() == 0


def test_a_mailed_invitation_is_for_the_account_of_that_address_and_a_link_is_anybodys(
        visitors, live_server):
    ann, cyd, dee = make_user("ann"), make_user("cyd"), make_user("dee")
    game = game_services.game_create(user=ann, game="marram", seats=3)
    a = signed_in(visitors, "ann")
    a.goto(f"{live_server.url}/games/{game.pk}/")
    a.get_by_label("Invite by email").fill("cyd@example.org")
    a.get_by_role("button", name="Send invitations").click()
    a.wait_for_url(f"{live_server.url}/games/{game.pk}/")
    mailed = Invitation.objects.get(game=game, email="cyd@example.org").token
    assert a.locator("#invite-links input.copy-source").count() == 0
    a.get_by_role("button", name="Make a link to pass on").click()
    a.wait_for_url(f"{live_server.url}/games/{game.pk}/")
    [link] = a.locator("#invite-links input.copy-source").all()
    passed_on = link.input_value()
    assert mailed not in passed_on

    d = signed_in(visitors, "dee")
    d.goto(f"{live_server.url}/invitations/{mailed}/")
    said = d.locator(".invitation-state").inner_text()
    assert said.startswith("This invitation was mailed to another address than your "
                           "account's"), said
    assert d.get_by_role("button", name="Take the seat").count() == 0
    d.goto(live_server.url + urlsplit(passed_on).path)  # the link to pass on is anybody's
    d.get_by_role("button", name="Take the seat").click()
    d.wait_for_url(f"{live_server.url}/games/{game.pk}/")

    c = signed_in(visitors, "cyd")
    c.goto(f"{live_server.url}/invitations/{mailed}/")
    c.get_by_role("button", name="Take the seat").click()
    c.wait_for_url(f"{live_server.url}/games/{game.pk}/")
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    assert {s.user for s in game.seats.all()} == {ann, cyd, dee}
