"""Before and at the start: create, invite, join, leave; the start draws the
seat order and the seed, publishes the commitment and deals from the seed's
deck. Resigning: the others play on; the last one left wins."""

import json
import smtplib

import pytest
from django.core import mail

from engine import marram as engine
from engine.marram import fairness
from games import services
from games.mail import NoMail
from games.models import Event, Game, Invitation
from games.selectors import game_state_get
from notifications import services as notes
from notifications.models import Notification
from tests.service.conftest import body, client_for, start_game
from tests.service.mail_kit import eager_tasks
from web.errors import Conflict, Forbidden


@pytest.mark.django_db
def test_the_last_seat_taken_starts_the_game(users):
    ann, bob, cyd = users[:3]
    game = services.game_create(user=ann, variant="pitchfork", length="long", seats=3,
                                days_per_move=2)
    assert game.status == Game.Status.OPEN and game.rules_version == engine.RULES_VERSION
    services.game_join(game=game, user=bob)
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN and not game.seed and game.config is None

    services.game_join(game=game, user=cyd)

    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING and game.started_at is not None
    assert sorted(game.seats.values_list("index", flat=True)) == [0, 1, 2]
    assert game.commitment == fairness.commitment(game.seed)
    assert game.config["deck"] == fairness.deck_from_seed(game.seed,
                                                          engine.standard().deck_ids())
    names = [s.name for s in game.seats.order_by("index")]
    assert game.config["players"] == names
    state = game_state_get(game)
    assert state.hands[0] == game.config["deck"][:3]
    assert game.projection["awaiting"] == {"kind": "move", "player": 0, "move": 1}


@pytest.mark.django_db
def test_joining_is_refused_when_it_makes_no_sense(users):
    ann, bob, cyd = users[:3]
    game = services.game_create(user=ann, variant="classic", length="short", seats=2)
    with pytest.raises(Conflict, match="already"):
        services.game_join(game=game, user=ann)
    services.game_join(game=game, user=bob)
    with pytest.raises(Conflict) as refused:
        services.game_join(game=game, user=cyd)
    assert refused.value.code == "game_not_open"
    with pytest.raises(Conflict, match="resign"):
        services.game_leave(game=game, user=bob)


@pytest.mark.django_db
def test_leaving_an_open_game_and_abandoning_it(users):
    ann, bob = users[:2]
    game = services.game_create(user=ann, variant="classic", length="long", seats=3)
    services.game_join(game=game, user=bob)
    services.game_leave(game=game, user=bob)
    assert list(game.seats.values_list("user__username", flat=True)) == ["ann"]
    with pytest.raises(Forbidden):
        services.game_leave(game=game, user=bob)
    response = client_for(ann).post(f"/api/games/{game.pk}/leave/")
    assert response.status_code == 200 and body(response)["status"] == "abandoned"
    assert game.pk not in [g["id"] for g in body(client_for(ann).get("/api/games/"))["results"]]


@pytest.mark.django_db
def test_invitations_by_email_and_by_link(users, settings, django_capture_on_commit_callbacks):
    ann, bob, cyd, dee = users
    game = services.game_create(user=ann, variant="classic", length="long", seats=4)
    client = client_for(ann)

    # the mail goes through the outbox: a row with the invitations, a task after the commit
    with eager_tasks(settings), django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/api/games/{game.pk}/invite/",
                               {"emails": ["bob@example.org", "cyd@example.org"]}, format="json")

    assert response.status_code == 201, response.content
    invited = body(response)
    assert [i["email"] for i in invited] == ["bob@example.org", "cyd@example.org"]
    assert [m.to for m in mail.outbox] == [["bob@example.org"], ["cyd@example.org"]]
    assert invited[0]["url"] in mail.outbox[0].body
    assert mail.outbox[0].subject == "ann invites you to a game of Marram"
    assert "ann has started a game of Marram (Classic · Long game, 4 players)" in \
        mail.outbox[0].body
    assert set(Notification.objects.filter(kind="invitation").values_list(
        "to_email", "status")) == {("bob@example.org", "sent"), ("cyd@example.org", "sent")}
    with eager_tasks(settings), django_capture_on_commit_callbacks(execute=True):
        link = body(client.post(f"/api/games/{game.pk}/invite/", {}, format="json"))
    assert len(link) == 1 and link[0]["email"] == "" and len(mail.outbox) == 2

    # bob follows his mail's link; dee joins by the shared link's token
    token = invited[0]["token"]
    shown = client_for(bob).get(f"/api/invitations/{token}/")
    assert shown.status_code == 200 and body(shown)["id"] == game.pk
    assert client_for(bob).post(f"/api/invitations/{token}/").status_code == 200
    assert Invitation.objects.get(token=token).accepted_by == bob
    joined = client_for(dee).post(f"/api/games/{game.pk}/join/", {"token": link[0]["token"]},
                                  format="json")
    assert joined.status_code == 200
    # a used invitation is not someone else's ticket
    used = client_for(cyd).post(f"/api/invitations/{token}/")
    assert used.status_code == 409 and body(used)["code"] == "invitation_used"
    bad = client_for(cyd).post(f"/api/games/{game.pk}/join/", {"token": "nope"}, format="json")
    assert bad.status_code == 404
    # only players invite
    assert client_for(cyd).post(f"/api/games/{game.pk}/invite/", {}, format="json"
                                ).status_code == 403


@pytest.mark.django_db
def test_a_mail_server_failing_does_not_fail_the_invitation(users, settings, monkeypatch,
                                                            django_capture_on_commit_callbacks):
    ann = users[0]
    game = services.game_create(user=ann, variant="classic", length="long", seats=2)

    def refuse(self, *args, **kwargs):
        raise smtplib.SMTPServerDisconnected("the server went away")

    monkeypatch.setattr("django.core.mail.EmailMessage.send", refuse)
    with eager_tasks(settings), django_capture_on_commit_callbacks(execute=True):
        response = client_for(ann).post(f"/api/games/{game.pk}/invite/",
                                        {"emails": ["zed@example.org"]}, format="json")
    assert response.status_code == 201, response.content
    [invitation] = Invitation.objects.filter(game=game)
    [row] = Notification.objects.filter(kind="invitation")
    # kept in the outbox to be tried again (the sweep enqueues it when it is due)
    assert (row.to_email, row.status, row.attempts) == ("zed@example.org", "pending", 1)
    assert "the server went away" in row.note
    monkeypatch.undo()
    assert notes.notification_deliver(row.pk) == "sent"
    [sent] = mail.outbox
    assert sent.to == ["zed@example.org"] and f"/invitations/{invitation.token}/" in sent.body


@pytest.mark.django_db
def test_in_a_three_player_game_the_others_play_on_after_a_resignation(users):
    ann, bob, cyd = users[:3]
    game = start_game([ann, bob, cyd])
    mover = game.seats.get(index=0).user
    services.game_resign(game=game, user=mover)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    assert game.seats.get(index=0).resigned
    assert game.projection["awaiting"]["player"] == 1 and game.projection["resigned"] == [0]
    with pytest.raises(Conflict, match="already resigned"):
        services.game_resign(game=game, user=mover)
    services.game_resign(game=game, user=game.seats.get(index=2).user)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.projection["winners"] == [1]
    assert [e.type for e in Event.objects.filter(game=game)] == ["resign", "resign"]


@pytest.mark.django_db
def test_a_resignation_through_the_actions_endpoint(users):
    ann, bob = users[:2]
    game = start_game([ann, bob])
    waiting = game.seats.get(index=1).user  # not their turn: resigning is still allowed
    response = client_for(waiting).post(
        f"/api/games/{game.pk}/actions/", {"seq": 0, "action": {"type": "resign"}},
        format="json")
    assert response.status_code == 201, response.content
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.projection["winners"] == [0]


@pytest.mark.django_db
def test_game_lists(users):
    ann, bob, cyd = users[:3]
    running = start_game([ann, bob])
    open_game = services.game_create(user=cyd, variant="classic", length="long", seats=2)
    done = start_game([bob, cyd])
    services.game_resign(game=done, user=cyd)

    def ids(user, which):
        return [g["id"] for g in body(client_for(user).get(f"/api/games/?list={which}"))[
            "results"]]

    assert set(ids(bob, "mine")) == {running.pk, done.pk}
    assert ids(ann, "open") == [open_game.pk]
    assert ids(ann, "finished") == [done.pk]
    bad = client_for(ann).get("/api/games/?list=everything")
    assert bad.status_code == 400 and body(bad)["field"] == "list"
    listed = body(client_for(ann).get("/api/games/?list=mine"))["results"][0]
    assert listed["projection"]["scores"] == [0, 0]
    assert "seed" not in json.dumps(listed) and "config" not in listed


class MailStoreDown(NoMail):
    def invitations_made(self, **_):
        raise RuntimeError("the outbox cannot be written")


@pytest.mark.django_db
def test_a_game_and_its_invitations_are_made_together_or_not_at_all(users, settings):
    outbox, settings.MARRAM_GAME_MAIL = (settings.MARRAM_GAME_MAIL,
                                         "tests.service.test_lobby.MailStoreDown")
    with pytest.raises(RuntimeError):
        services.game_create(user=users[0], variant="classic", length="long", seats=2,
                             invite=["bob@example.org"], url_for=lambda token: token)
    settings.MARRAM_GAME_MAIL = outbox
    assert not Game.objects.exists() and not Invitation.objects.exists()
    game = services.game_create(user=users[0], variant="classic", length="long", seats=2,
                                invite=["bob@example.org"], url_for=lambda token: f"/j/{token}")
    assert list(game.invitations.values_list("email", flat=True)) == ["bob@example.org"]
