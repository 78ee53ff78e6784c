"""Mail from strangers: the server answers refusals only to the player a reply
address was mailed to, at most ten an hour per sender and per player, never
repeats a stranger's words, and reads any bytes a mail may carry (NUL, encoded
CR/LF) without an error; the SMTP listener tells a sender to retry only when a
retry can help."""

from __future__ import annotations

import json
import smtplib

import pytest
from django.core import mail
from django.db import OperationalError, connection
from django.db.migrations.executor import MigrationExecutor

from notifications import services as notes
from notifications.inbound import ANSWERS_PER_HOUR, inbound_mail_handle
from notifications.management.commands import mail_listener
from notifications.models import InboundMail, Notification
from notifications.signing import reply_address
from tests.service.conftest import seat_user, start_game
from tests.service.mail_kit import MAIL_DEAL, first_move_text, freeze_time
from tests.service.test_celery_worker import free_port


@pytest.fixture
def game(users):
    return start_game(users[:2], seed=MAIL_DEAL)


@pytest.fixture
def now(monkeypatch):
    return freeze_time(monkeypatch)


def raw_mail(*, sender: str, to: str, message_id: str, body: str = "pass",
             subject: str = "Re: your move", extra: str = "") -> bytes:
    """A mail as it comes over SMTP, bytes and all (headers written by hand: an
    EmailMessage would refuse the hostile ones)."""
    return (f"From: {sender}\r\nTo: {to}\r\nSubject: {subject}\r\nMessage-ID: {message_id}\r\n"
            f"{extra}Content-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n").encode()


def refusals() -> list[Notification]:
    return list(Notification.objects.filter(kind="reply_refused").order_by("pk"))


@pytest.mark.django_db
def test_a_forged_reply_address_is_answered_to_nobody_whatever_the_from(game):
    victim = "victim@example.net"
    good = reply_address(game.pk, 0, game.seq)
    for i, forged in enumerate([good[:-len("@marram.localhost")] + "0@marram.localhost",
                                good.replace(f"move+{game.pk}.0.", f"move+{game.pk}.1."),
                                "move+1.2.3.abc@marram.localhost",
                                f"move+{game.pk}.0.{game.seq}.{'0' * 20}@marram.localhost"]):
        result = inbound_mail_handle(raw_mail(sender=victim, to=forged,
                                              message_id=f"<f{i}@evil>",
                                              subject=f"Buy now {i}"))
        assert result.outcome == "refused", forged
    assert refusals() == []
    assert list(InboundMail.objects.values_list("answered", flat=True)) == [False] * 4


@pytest.mark.django_db
def test_a_players_refusals_are_mailed_ten_an_hour(game, now):
    player = seat_user(game, 0)
    to = reply_address(game.pk, 0, game.seq)
    for i in range(ANSWERS_PER_HOUR + 2):
        result = inbound_mail_handle(raw_mail(sender=player.email, to=to, body="hello?",
                                              message_id=f"<h{i}@client>"))
        assert result.code == "unreadable"
        now.advance(minutes=1)
    assert len(refusals()) == ANSWERS_PER_HOUR
    answered = InboundMail.objects.order_by("pk").values_list("answered", flat=True)
    assert list(answered) == [True] * ANSWERS_PER_HOUR + [False, False]
    now.advance(minutes=60 - ANSWERS_PER_HOUR)  # the first answers are over an hour old
    inbound_mail_handle(raw_mail(sender=player.email, to=to, body="hello?",
                                 message_id="<later@client>"))
    assert len(refusals()) == ANSWERS_PER_HOUR + 1


@pytest.mark.django_db
def test_strangers_using_a_players_reply_address_reach_the_player_ten_times_an_hour(game, now):
    player = seat_user(game, 0)
    to = reply_address(game.pk, 0, game.seq)
    for i in range(ANSWERS_PER_HOUR + 5):  # a new From each time
        result = inbound_mail_handle(raw_mail(sender=f"s{i}@evil.example", to=to,
                                              message_id=f"<s{i}@evil>"))
        assert result.code == "wrong_sender"
    found = refusals()
    assert len(found) == ANSWERS_PER_HOUR
    assert {(n.user, n.to_email) for n in found} == {(player, player.email)}
    for n in found:
        notes.notification_deliver(n.pk)
    assert {tuple(m.to) for m in mail.outbox} == {(player.email,)}


@pytest.mark.django_db
def test_what_a_player_wrote_comes_back_on_one_line_and_escaped(game):
    player = seat_user(game, 0)
    subject = "=?utf-8?q?Re:_my_move=0D=0ABcc:_victim@example.net=00?= " + "x" * 600
    body = "<script>alert(1)</script> pl\x00ace\r\n"
    result = inbound_mail_handle(raw_mail(sender=player.email, subject=subject, body=body,
                                          to=reply_address(game.pk, 0, game.seq),
                                          message_id="<mine@client>"))
    assert result.code == "unreadable"
    [answer] = refusals()
    assert notes.notification_deliver(answer.pk) == "sent"
    [sent] = mail.outbox
    assert sent.subject.startswith("Re: my move Bcc: victim@example.net xxx")
    assert "\r" not in sent.subject and "\n" not in sent.subject and len(sent.subject) <= 200
    assert sent.to == [player.email] and sent.bcc == []
    html = sent.alternatives[0][0]
    assert "&lt;script&gt;alert(1)&lt;/script&gt; place" in html and "<script>" not in html
    assert "\x00" not in sent.body and "<script>alert(1)</script> place" in sent.body
    message = sent.message().as_bytes()  # what would go over the wire: the same, once
    assert message.count(b"\nSubject:") == 1 and b"\nBcc:" not in message


@pytest.mark.django_db
def test_nul_and_encoded_line_breaks_anywhere_are_read_not_errors(game):
    player = seat_user(game, 0)
    to = reply_address(game.pk, 0, game.seq)
    hostile = [
        raw_mail(sender="=?utf-8?q?Eve=0D=0ABcc:_x@y.org?= <eve@example.net>", to=to,
                 message_id="<crlf-name@evil>"),
        raw_mail(sender='"Ev\x00e" <eve@example.net>', to=to, message_id="<nul-name@evil>"),
        raw_mail(sender="eve@example.net", to=to, message_id="<nul\x00id@evil>",
                 body="pa\x00ss", subject="=?utf-8?q?a=00b?="),
        raw_mail(sender="eve@example.net", to=to, message_id="=?utf-8?q?<a=0D=0A@evil>?="),
        raw_mail(sender="eve@" + "e" * 70 + ".example", to=to, message_id="<label@evil>"),
    ]
    for raw in hostile:
        assert inbound_mail_handle(raw).code == "wrong_sender", raw
    for row in InboundMail.objects.all():
        assert "\x00" not in row.message_id + row.sender + row.detail
        assert "\r" not in row.message_id and "\n" not in row.message_id
    for n in refusals():  # each to the player, each sendable
        assert notes.notification_deliver(n.pk) == "sent"
    assert {tuple(m.to) for m in mail.outbox} == {(player.email,)}
    # the player's own mail client may write a display name like that too: it plays
    move = first_move_text(game)
    played = inbound_mail_handle(raw_mail(
        sender=f"=?utf-8?q?Ann=0D=0A?= <{player.email}>", to=to, message_id="<mine@client>",
        body=move))
    assert (played.outcome, played.message) == ("played", move)


@pytest.mark.django_db
def test_the_webhook_refuses_a_nul_in_any_field_and_reads_a_cr_lf_without_a_500(
        game, client, settings):
    settings.MAIL_WEBHOOK_SECRET = "s3cret"
    player = seat_user(game, 0)

    def post(payload):
        return client.post("/mail/inbound/", data=json.dumps(payload),
                           content_type="application/json",
                           HTTP_X_MARRAM_WEBHOOK_SECRET="s3cret")

    payload = {"recipient": reply_address(game.pk, 0, game.seq), "sender": "Ev\r\ne <e@x.org>",
               "message_id": "<w@provider>", "text": "pass\n", "subject": "a\r\nb"}
    # a NUL anywhere: the webhook's JSON is refused as all JSON with one (a 400 the
    # provider will not retry), before anything is stored or mailed
    for field in ("sender", "message_id", "text", "subject"):
        refused = post({**payload, field: payload[field][:2] + "\x00" + payload[field][2:]})
        assert (refused.status_code, refused.json()["code"]) == (400, "nul_character")
    assert not InboundMail.objects.exists() and refusals() == []
    # CR/LF in the display name and the subject: read, and refused as a stranger's
    answer = post(payload)
    assert answer.status_code == 200 and answer.json()["code"] == "wrong_sender"
    [refusal] = refusals()
    assert refusal.user == player and "\n" not in refusal.subject


@pytest.mark.parametrize("failure, code", [
    (OperationalError("could not connect to server: Connection refused"), 451),
    (ValueError("something in the message itself"), 554),
    (RecursionError("maximum recursion depth exceeded"), 554),
])
def test_the_listener_asks_for_a_retry_only_when_one_can_help(monkeypatch, failure, code):
    def fail(raw, recipients, **envelope):
        raise failure

    monkeypatch.setattr(mail_listener, "inbound_mail_handle", fail)
    port = free_port()
    controller = mail_listener.listener("127.0.0.1", port)
    controller.start()
    try:
        with smtplib.SMTP("127.0.0.1", port, timeout=10) as client, \
                pytest.raises(smtplib.SMTPDataError) as refused:
            client.sendmail("ann@example.org", ["move+1.0.0.abc@marram.localhost"],
                            b"Subject: x\r\n\r\npass\r\n")
    finally:
        controller.stop()
    assert refused.value.smtp_code == code


@pytest.mark.django_db
def test_the_mail_page_says_when_a_refusal_was_not_mailed(game, client):
    player = seat_user(game, 0)
    client.force_login(player)
    [hers] = Notification.objects.filter(game=game, seat=0, kind="your_turn")
    notes.notification_deliver(hers.pk)
    hers.refresh_from_db()
    altered = hers.reply_to.replace(f"move+{game.pk}.0.", f"move+{game.pk}.1.")
    page = client.post(f"/mail/{hers.pk}/reply/", {"to": altered, "text": "pass"}, follow=True)
    said = page.content.decode()
    assert "cannot be used to play); no answer was mailed" in said
    assert "Refused (not answered)" in said
    assert refusals() == []
    page = client.post(f"/mail/{hers.pk}/reply/", {"to": hers.reply_to, "text": "hello"},
                       follow=True)
    assert "; its answer is below" in page.content.decode()


@pytest.mark.django_db(transaction=True)
def test_the_migration_carries_the_mail_received_and_the_outbox_over(users):
    ann = users[0]
    executor = MigrationExecutor(connection)
    # every app's latest: going back unapplies the games migrations that follow
    # the notifications ones they depend on
    latest = executor.loader.graph.leaf_nodes()
    before = [("notifications", "0002_invitation_mail")]
    executor.migrate(before)
    try:
        old = executor.loader.project_state(before).apps
        received = old.get_model("notifications", "InboundMail")
        for outcome in ("played", "refused", "ignored"):
            received.objects.create(message_id=f"<{outcome}@x>", sender="ann@example.org",
                                    recipient="move+1.0.0.x@marram.localhost", outcome=outcome)
        outbox = old.get_model("notifications", "Notification")
        for key, user_id, to in (("to-a-from-line", None, "eve@example.net"),
                                 ("to-a-player", ann.pk, ""), ("invitation", None, "zed@x.org")):
            outbox.objects.create(kind="invitation" if key == "invitation" else "reply_refused",
                                  user_id=user_id, to_email=to, dedup_key=key,
                                  message_id=f"<{key}@x>", subject="Re: hi", body_text="x")
        executor = MigrationExecutor(connection)
        executor.migrate(latest)
    finally:
        MigrationExecutor(connection).migrate(latest)
    answered = dict(InboundMail.objects.values_list("outcome", "answered"))
    assert answered == {"played": True, "refused": True, "ignored": False}
    statuses = dict(Notification.objects.values_list("dedup_key", "status"))
    assert statuses == {"to-a-from-line": "skipped", "to-a-player": "pending",
                        "invitation": "pending"}
