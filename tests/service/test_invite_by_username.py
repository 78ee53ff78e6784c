"""Invitations by username: each player named gets a mail of their own with a
join link, through the outbox; the people you have played are offered on the
open game's page. A bad request is a clear 4xx that invites nobody."""

from __future__ import annotations

import re

import pytest
from django.core import mail

from games import services as game_services
from games.models import Game, Invitation
from games.selectors import invitation_links
from notifications.models import Notification
from tests.service.conftest import body, client_for, signed_in, start_game
from tests.service.mail_kit import eager_tasks

pytestmark = pytest.mark.django_db



def test_invited_by_username_a_player_gets_a_link_by_mail_and_joins_with_it(
        users, settings, django_capture_on_commit_callbacks):
    ann, bob, cyd, _ = users
    game = game_services.game_create(user=ann, game="marram", seats=3)
    with eager_tasks(settings), django_capture_on_commit_callbacks(execute=True):
        answer = client_for(ann).post(f"/api/games/{game.pk}/invite/users/",
                                      {"usernames": ["bob", "cyd"]}, format="json")
    assert answer.status_code == 201, answer.content
    assert body(answer) == {"invited": ["bob", "cyd"]}
    assert sorted(m.to[0] for m in mail.outbox) == ["bob@example.org", "cyd@example.org"]
    sent = next(m for m in mail.outbox if m.to == ["bob@example.org"])
    assert sent.subject == "ann invites you to a game of Marram"
    assert "Hello bob," in sent.body
    assert set(Notification.objects.filter(kind="invitation").values_list(
        "user__username", flat=True)) == {"bob", "cyd"}
    link = re.search(r"https?://\S+/invitations/([\w-]+)/", sent.body)
    assert link is not None
    token = link.group(1)
    joined = client_for(bob).post(f"/api/invitations/{token}/", format="json")
    assert joined.status_code == 200, joined.content
    assert Invitation.objects.get(token=token).accepted_by == bob


def test_bad_invitations_by_username_invite_nobody(users):
    ann, bob, cyd, dee = users
    game = game_services.game_create(user=ann, game="marram", seats=3)
    game_services.game_join(game=game, user=bob)
    running = start_game([ann, cyd])

    def refused(user, game_id, names, status, code):
        answer = client_for(user).post(f"/api/games/{game_id}/invite/users/",
                                       {"usernames": names}, format="json")
        assert answer.status_code == status, answer.content
        assert body(answer)["code"] == code
        assert not Invitation.objects.exists()
        assert not Notification.objects.filter(kind="invitation").exists()

    refused(ann, game.pk, ["cyd", "nobody"], 404, "unknown_user")
    refused(ann, game.pk, ["bob"], 409, "already_joined")
    refused(dee, game.pk, ["cyd"], 403, "not_a_player")
    refused(ann, running.pk, ["dee"], 409, "game_not_open")
    refused(ann, 999_999, ["dee"], 404, "no_such_game")
    refused(ann, game.pk, [], 400, "invalid")
    refused(ann, game.pk, ["  "], 400, "invalid")
    page = signed_in(ann).post(f"/games/{game.pk}/invite/users/", {"usernames": "cyd, nobody"})
    assert page.status_code == 404 and "no player &#x27;nobody&#x27;" in page.content.decode()
    assert not Invitation.objects.exists()
    assert Game.objects.get(pk=game.pk).seats.count() == 2


def test_the_open_games_page_invites_by_username_and_offers_the_people_you_played(users):
    ann, bob, cyd, _ = users
    earlier = start_game([ann, cyd])
    game_services.game_resign(game=earlier, user=cyd)
    game = game_services.game_create(user=ann, game="marram", seats=2)
    html = signed_in(ann).get(f"/games/{game.pk}/").content.decode()
    assert 'id="invite-users"' in html and '<option value="cyd">' in html
    page = signed_in(ann).post(f"/games/{game.pk}/invite/users/", {"usernames": "bob"})
    assert page.status_code == 302
    assert Notification.objects.get(kind="invitation").user == bob


def test_a_personal_invitation_is_refused_to_anyone_but_its_addressee(users):
    ann, bob, cyd, dee = users
    game = game_services.game_create(user=ann, game="marram", seats=4)
    client_for(ann).post(f"/api/games/{game.pk}/invite/users/", {"usernames": ["bob"]},
                         format="json")
    by_name = Invitation.objects.get(game=game, invitee=bob)
    [by_mail] = game_services.game_invite(game=game, user=ann, emails=["dee@example.org"],
                                          url_for=str)
    for token, stranger in ((by_name.token, cyd), (by_mail.invitation.token, cyd)):
        refused = client_for(stranger).post(f"/api/invitations/{token}/", format="json")
        assert refused.status_code == 403, refused.content
        assert body(refused)["code"] == "not_the_invitee"
    assert not game.seats.filter(user=cyd).exists()
    assert not invitation_links(game, ann).exists()  # no link to pass on among them
    # the addressee takes the seat; a player who joins from the lobby answers theirs
    assert client_for(bob).post(f"/api/invitations/{by_name.token}/",
                                format="json").status_code == 200
    game_services.game_join(game=game, user=dee)
    assert Invitation.objects.get(token=by_mail.invitation.token).accepted_by == dee
    used = client_for(cyd).post(f"/api/invitations/{by_name.token}/", format="json")
    assert used.status_code == 409 and body(used)["code"] == "invitation_used"


def test_the_open_games_page_lists_who_was_invited_and_who_answered(users):
    ann, bob, cyd, _ = users
    game = game_services.game_create(user=ann, game="marram", seats=4)
    signed_in(ann).post(f"/games/{game.pk}/invite/users/", {"usernames": "bob"})
    game_services.game_invite(game=game, user=ann, emails=["eve@example.org"], url_for=str)
    game_services.game_invite(game=game, user=ann, emails=[], url_for=str)
    game_services.game_join(game=game, user=bob)
    game_services.game_join(game=game, user=cyd)  # seated: sees the list, not ann's address
    listed = {}
    for player in (ann, cyd):
        html = signed_in(player).get(f"/games/{game.pk}/").content.decode()
        items = re.findall(r'<li data-by="(\w+)">(.*?) <span', html.split('id="invited"')[1])
        listed[player.username] = items
    assert listed["ann"] == [("username", "bob, by username: took a seat"),
                             ("mail", "eve@example.org, by mail: not answered yet"),
                             ("link", "A link to pass on: not used yet")]
    assert ("mail", "someone, by mail: not answered yet") in listed["cyd"]
