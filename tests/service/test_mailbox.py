"""The development mail page (/mail/): each player reads the mail sent to their
address and answers it through the inbound path; off, a 404, in production."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest
from django.core import mail
from django.test import Client
from PIL import Image

from engine import marram as engine
from engine.marram.notation import format_action
from games.models import Event
from games.selectors import game_state_get
from notifications import devmail, inbound
from notifications import services as notes
from notifications.models import InboundMail, Notification
from notifications.templatetags.mailbox_tags import mail_text
from tests.service.conftest import seat_user, signed_in, start_game

ROOT = Path(__file__).resolve().parents[2]


def deliver_all() -> None:
    for pk in Notification.objects.filter(status="pending").order_by("pk") \
            .values_list("pk", flat=True):
        notes.notification_deliver(pk)



@pytest.fixture
def game(users):
    game = start_game(users[:2])
    deliver_all()
    return game


def turn_mail(game, seat: int = 0) -> Notification:
    return Notification.objects.get(game=game, seat=seat, kind="your_turn", status="sent")


@pytest.mark.django_db
def test_a_player_reads_only_the_mail_sent_to_their_address(game, users):
    ann, bob = seat_user(game, 0), seat_user(game, 1)
    hers = turn_mail(game)
    # an answer to a mail from her address that found no account is hers too
    Notification.objects.create(
        to_email=ann.email.upper(), kind="reply_refused", dedup_key="x", message_id="<x@t>",
        subject="Re: hello", body_text="Nothing has changed.", status="sent")
    page = signed_in(ann).get("/mail/")
    assert page.status_code == 200
    text = page.content.decode()
    assert f"Marram game {game.pk}: your move" in text and "Re: hello" in text
    assert f"Marram game {game.pk}: the game has begun" not in text  # bob's
    assert f'href="/mail/{hers.pk}/reply/"' in text
    assert f'src="/mail/{hers.pk}/board.png"' in text
    assert ">Mail</a>" in text  # the header's link

    theirs = signed_in(bob)
    assert f"Marram game {game.pk}: the game has begun" in theirs.get("/mail/").content.decode()
    assert f"Marram game {game.pk}: your move" not in theirs.get("/mail/").content.decode()
    for url in (f"/mail/{hers.pk}/reply/", f"/mail/{hers.pk}/board.png"):
        assert theirs.get(url).status_code == 404, url
    before = Event.objects.count()
    refused = theirs.post(f"/mail/{hers.pk}/reply/", {"to": hers.reply_to, "text": "pass"})
    assert refused.status_code == 404 and Event.objects.count() == before
    assert not InboundMail.objects.exists()
    # and nobody signed out sees any of it
    assert Client().get("/mail/").status_code == 302


@pytest.mark.django_db
def test_the_board_a_mail_showed_is_on_the_page(game):
    ann = seat_user(game, 0)
    response = signed_in(ann).get(f"/mail/{turn_mail(game).pk}/board.png")
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    assert Image.open(io.BytesIO(response.content)).width > 200
    started = Notification.objects.get(game=game, seat=1, kind="game_started")
    assert signed_in(seat_user(game, 1)).get(f"/mail/{started.pk}/board.png").status_code == 404


@pytest.mark.django_db
def test_a_reply_from_the_page_plays_through_the_inbound_path(game):
    ann = seat_user(game, 0)
    hers = turn_mail(game)
    form = signed_in(ann).get(f"/mail/{hers.pk}/reply/").content.decode()
    assert f'value="{hers.reply_to}"' in form, form
    assert f"&gt; Hello {ann.username}," in form
    move = format_action(engine.legal_actions(game_state_get(game))[0])
    mail.outbox.clear()
    with mock.patch.object(inbound, "inbound_reply_handle",
                           wraps=inbound.inbound_reply_handle) as entrance:
        response = signed_in(ann).post(f"/mail/{hers.pk}/reply/", {
            "to": hers.reply_to, "subject": f"Re: {hers.subject}",
            "text": f"{move}\n\nOn a day, marram wrote:\n> Hello {ann.username},\n"})
    assert response.status_code == 302 and response["Location"] == "/mail/"
    [call] = entrance.call_args_list
    assert call.kwargs["sender"] == ann.email and call.kwargs["recipient"] == hers.reply_to
    received = InboundMail.objects.get()
    assert (received.outcome, received.move) == ("played", move)
    answer = Notification.objects.get(in_reply_to=received.message_id)
    assert answer.status == "sent" or notes.notification_deliver(answer.pk) == "sent"
    page = signed_in(ann).get("/mail/").content.decode()
    assert f"Played in Marram game {game.pk}: {move}" in page


@pytest.mark.django_db
def test_a_refused_reply_from_the_page_is_answered_and_changes_nothing(game):
    ann = seat_user(game, 0)
    hers = turn_mail(game)
    before = Event.objects.count()
    response = signed_in(ann).post(f"/mail/{hers.pk}/reply/",
                                   {"to": hers.reply_to, "text": "place T99 up 0,0 r0"})
    assert response.status_code == 302
    assert Event.objects.count() == before
    deliver_all()
    page = signed_in(ann).get("/mail/").content.decode()
    assert "is not a face" in page and "Nothing has changed in the game." in page


@pytest.mark.django_db
def test_bad_replies_are_refused_with_a_400_and_change_nothing(game, users):
    ann = seat_user(game, 0)
    hers = turn_mail(game)
    client = signed_in(ann)
    url = f"/mail/{hers.pk}/reply/"
    for data, words in (({"to": "", "text": "pass"}, "This field is required."),
                        ({"to": hers.reply_to, "text": ""}, "This field is required."),
                        ({"to": hers.reply_to, "text": "x" * 20_001}, "at most 20000"),
                        ({"to": "y" * 251, "text": "pass"}, "at most 250")):
        response = client.post(url, data)
        assert response.status_code == 400, data
        assert words in response.content.decode(), data
    assert client.get("/mail/999999/reply/").status_code == 404
    assert not InboundMail.objects.exists()
    # an account with no address sends nothing
    ann.email = ""
    ann.save()
    response = signed_in(ann).get("/mail/")
    assert response.status_code == 200 and "your account has none" in response.content.decode()
    assert signed_in(ann).post(url, {"to": hers.reply_to, "text": "pass"}).status_code == 404
    assert not InboundMail.objects.exists()


@pytest.mark.django_db
def test_a_reply_to_an_address_that_plays_nothing_is_said_so(game):
    ann = seat_user(game, 0)
    hers = turn_mail(game)
    response = signed_in(ann).post(f"/mail/{hers.pk}/reply/",
                                   {"to": "someone@example.org", "text": "pass"}, follow=True)
    assert "nothing happened" in response.content.decode()
    assert InboundMail.objects.get().outcome == "ignored"


@pytest.mark.django_db
def test_the_mail_page_is_a_404_when_off(game, settings):
    settings.MARRAM_MAIL_INBOX_PAGE = False
    ann = seat_user(game, 0)
    hers = turn_mail(game)
    for client in (signed_in(ann), Client()):
        for url in ("/mail/", f"/mail/{hers.pk}/reply/", f"/mail/{hers.pk}/board.png"):
            assert client.get(url).status_code == 404, url
        assert client.post(f"/mail/{hers.pk}/reply/",
                           {"to": hers.reply_to, "text": "pass"}).status_code == 404
    assert ">Mail</a>" not in signed_in(ann).get("/games/").content.decode()
    assert not InboundMail.objects.exists()


@pytest.mark.parametrize("env", [{"DJANGO_SETTINGS_MODULE": "marram_site.settings_production"},
                                 {"DJANGO_SETTINGS_MODULE": "marram_site.settings",
                                  "DJANGO_ENV": "production"}])
def test_production_has_no_mail_page_whatever_the_environment_says(env):
    script = ("import django; django.setup()\n"
              "from django.conf import settings\n"
              "from django.test import Client\n"
              "from notifications.mailbox import mailbox_by_address_enabled\n"
              "print(settings.MARRAM_MAIL_INBOX_PAGE, mailbox_by_address_enabled(), "
              "settings.EMAIL_BACKEND, "
              "Client().get('/mail/', secure=True).status_code, "
              "Client().get('/mail/?to=ann@example.org', secure=True).status_code)\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, env={
                              **os.environ, **env, "MARRAM_MAIL_INBOX_PAGE": "1",
                              "EMAIL_BACKEND": "notifications.devmail.DevelopmentMailBackend",
                              "DJANGO_SECRET_KEY": "x" * 50,
                              "DJANGO_ALLOWED_HOSTS": "testserver",
                              "DATABASE_URL": os.environ.get("DATABASE_URL",
                                                             "sqlite:///unused.sqlite3")})
    assert done.returncode == 0, done.stderr
    # whatever EMAIL_BACKEND says (even the development one), no page, no mail by address
    assert done.stdout.split() == ["False", "False", "notifications.devmail.DevelopmentMailBackend",
                                   "404", "404"]


def test_the_development_settings_have_it_on():
    from django.conf import settings

    assert settings.MARRAM_MAIL_INBOX_PAGE is True


def test_production_mails_by_smtp_or_the_console_never_the_development_backend():
    script = ("import django; django.setup()\n"
              "from django.conf import settings\n"
              "print(settings.EMAIL_BACKEND)\n")
    base = {**os.environ, "DJANGO_SECRET_KEY": "x" * 50, "DJANGO_ALLOWED_HOSTS": "testserver",
            "DATABASE_URL": os.environ.get("DATABASE_URL", "sqlite:///unused.sqlite3")}
    for name in ("EMAIL_BACKEND", "EMAIL_HOST", "DJANGO_ENV"):
        base.pop(name, None)
    for env, backend in (({"DJANGO_ENV": "production"}, "console"),
                         ({"DJANGO_ENV": "production", "EMAIL_HOST": "smtp.example.org"}, "smtp"),
                         ({"EMAIL_HOST": "smtp.example.org"}, "smtp"),
                         ({}, "devmail")):
        done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                              text=True, timeout=120, env={**base, **env})
        assert done.returncode == 0, done.stderr
        assert backend in done.stdout, (env, done.stdout)


@pytest.fixture
def mail_stays_here(settings, tmp_path):
    """./dev run's mail backend, keeping its mail in a folder of the test's."""
    settings.EMAIL_BACKEND = devmail.BACKEND
    settings.MARRAM_DEV_MAIL_DIR = str(tmp_path / "dev-mail")


def reset_mail(address: str) -> None:
    response = Client().post("/accounts/password/reset/", {"email": address})
    assert response.status_code == 302, response.content.decode()


@pytest.mark.django_db
def test_mail_to_an_address_is_read_without_signing_in_where_no_mail_leaves(
        game, mail_stays_here, settings):
    ann = seat_user(game, 0)
    reset_mail(ann.email)
    Notification.objects.create(
        to_email="newcomer@example.org", kind="invitation", dedup_key="i", message_id="<i@t>",
        subject="bob invites you", body_text="Join it here: http://testserver/invitations/x/",
        status="sent")
    anonymous = Client()
    page = anonymous.get("/mail/")
    assert page.status_code == 200 and 'name="to"' in page.content.decode()
    mine = anonymous.get("/mail/", {"to": ann.email.upper()}).content.decode()
    assert "Reset your marram password" in mine
    assert f'<a href="{settings.MARRAM_BASE_URL}/accounts/password/reset/' in mine
    assert f"Marram game {game.pk}" not in mine  # her game mail needs her sign-in
    assert "/reply/" not in mine and "board.png" not in mine
    theirs = anonymous.get("/mail/", {"to": "newcomer@example.org"}).content.decode()
    assert "bob invites you" in theirs and "Reset your" not in theirs
    assert '<a href="http://testserver/invitations/x/" rel="noopener noreferrer">' in theirs
    # signed in, the kept mail to her address is in her box beside her game mail
    box = signed_in(ann).get("/mail/").content.decode()
    assert "Reset your marram password" in box and f"Marram game {game.pk}" in box
    assert anonymous.get("/mail/", {"to": "not an address"}).status_code == 400
    # the outbox's own mail is not kept twice
    assert len(list(Path(devmail._folder()).iterdir())) == 1


@pytest.mark.django_db
def test_no_mail_by_address_where_mail_is_really_sent(game, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    assert Client().get("/mail/", {"to": "newcomer@example.org"}).status_code == 404
    assert Client().get("/mail/").status_code == 302  # to sign in, as ever
    assert ">Mail</a>" not in Client().get("/games/").content.decode()


@pytest.mark.django_db
def test_the_development_backend_keeps_only_what_the_outbox_does_not_hold(
        game, mail_stays_here, monkeypatch):
    monkeypatch.setattr(devmail, "KEPT", 3)
    ann = seat_user(game, 0)
    deliver_all()
    notes.notification_deliver(Notification.objects.create(
        user=ann, kind="digest", dedup_key="d", message_id="<d@t>").pk)
    assert not Path(devmail._folder()).exists()
    for _ in range(5):
        reset_mail(ann.email)
    assert len(list(Path(devmail._folder()).iterdir())) == 3
    assert len(devmail.kept_mails(ann.email)) == 3


def test_a_mails_text_is_escaped_and_only_its_web_addresses_are_links():
    text = ('<script>alert(1)</script> & "x"\n'
            "Join it here: https://site.example/invitations/a-b_c/?x=1&y=2.\n"
            "javascript:alert(1) mailto:a@b.example data:text/html,x ftp://f.example/\n"
            '(see http://site.example/games/4/) http://"><img src=x onerror=alert(1)>\n')
    shown = str(mail_text(text))
    assert "<script>" not in shown and "&lt;script&gt;alert(1)&lt;/script&gt; &amp; " in shown
    assert ('<a href="https://site.example/invitations/a-b_c/?x=1&amp;y=2" rel="noopener '
            'noreferrer">https://site.example/invitations/a-b_c/?x=1&amp;y=2</a>.') in shown
    assert '(see <a href="http://site.example/games/4/"' in shown and "</a>)" in shown
    assert shown.count("<a ") == 2 and "<img" not in shown
    assert "javascript:alert(1) mailto:a@b.example" in shown
