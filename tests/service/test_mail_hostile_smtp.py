"""Hostile mail against the real parts: a Celery worker on the test database, an
SMTP server collecting what it sends (with each message's envelope), and the
SMTP listener, sent to with smtplib as any MTA would. Nothing is mocked.

Uses the worker, listener and SMTP fixtures of test_celery_worker.
"""

from __future__ import annotations

import smtplib
import sys
from collections.abc import Iterator
from datetime import timedelta
from urllib.parse import urlsplit, urlunsplit

import pytest
from aiosmtpd.controller import Controller
from django.utils import timezone

from games.models import Event
from notifications import services as notes
from notifications.models import InboundMail, Notification
from notifications.signing import reply_address
from tests.service import test_celery_worker as real
from tests.service.conftest import make_user, seat_user, start_game
from tests.service.mail_kit import MAIL_DEAL, first_move_text
from tests.service.test_celery_worker import Collector, Process, free_port, sent_for, wait_for

# The real parts' fixtures, found by these names (the worker's "quiet" check after
# each test included).
worker, listener, process_env, mailbox = real.worker, real.listener, real.process_env, \
    real.mailbox
quiet_worker, fresh_visits = real.quiet_worker, real.fresh_visits

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("redis_url")]


class Envelopes(Collector):
    """The collector, keeping each message's envelope recipients as ``rcpt_tos``."""

    async def handle_DATA(self, server, session, envelope) -> str:
        kept = len(self.messages)
        answer = await super().handle_DATA(server, session, envelope)
        if len(self.messages) > kept:
            self.messages[-1].rcpt_tos = list(envelope.rcpt_tos)
        return answer


@pytest.fixture(scope="module")
def smtp() -> Iterator[tuple[Collector, int]]:
    collector, port = Envelopes(), free_port()
    controller = Controller(collector, hostname="127.0.0.1", port=port)
    controller.start()
    yield collector, port
    controller.stop()


def smtp_send(port: int, sender: str, to: str, raw: bytes) -> None:
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as client:
        client.sendmail(sender, [to], raw)


def raw_mail(*, sender: str, to: str, message_id: str, body: str = "pass",
             subject: str = "Re: your move") -> bytes:
    return (f"From: {sender}\r\nTo: {to}\r\nSubject: {subject}\r\nMessage-ID: {message_id}\r\n"
            f"Content-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n").encode()


def test_mail_that_can_never_be_sent_does_not_hold_back_mail_that_can(worker, mailbox,
                                                                       monkeypatch):
    # Refusals as the outbox held them before (a subject with an encoded CR/LF in
    # it, an over-long domain label), more than a sweep takes, older than two real
    # mails: 520 behind a batch of 500 in the issue, a tenth of that here.
    monkeypatch.setattr(notes, "SWEEP_BATCH", 50)
    hour_ago = timezone.now() - timedelta(hours=1)
    poison = [Notification(
        kind="reply_refused", dedup_key=f"poison:{i}", message_id=f"<poison-{i}@test>",
        to_email="eve@example.net" if i % 2 else "eve@" + "e" * 64 + ".example",
        subject="Re: prize\r\nBcc: victim@example.net", body_text="Your mail was not played.")
        for i in range(52)]
    Notification.objects.bulk_create(poison)
    Notification.objects.filter(dedup_key__startswith="poison:").update(next_attempt_at=hour_ago)
    real = [Notification.objects.create(
        kind="reply_refused", dedup_key=f"real:{name}", message_id=f"<real-{name}@test>",
        to_email=f"{name}@example.org", subject="Re: my move", body_text="Not played.")
        for name in ("ann", "bob")]
    Notification.objects.filter(pk__in=[r.pk for r in real]).update(
        next_attempt_at=hour_ago + timedelta(minutes=50))
    # beat's sweep, once a minute: the 500 due longest, then the rest
    assert notes.outbox_sweep()["mail"] == notes.SWEEP_BATCH
    assert notes.outbox_sweep()["mail"] == 4
    wait_for(lambda: sent_for(real)(mailbox), "the two real mails", timeout=180)
    wait_for(lambda: not Notification.objects.filter(status="pending").exists(),
             "every poisoned row to be settled", timeout=180)
    rows = Notification.objects.filter(dedup_key__startswith="poison:")
    assert set(rows.values_list("status", flat=True)) == {"failed"}
    reasons = {note.split(" (got")[0] for note in rows.values_list("note", flat=True)}
    assert reasons == {"not sent: a label of the domain is longer than 63 characters",
                       "cannot be sent: BadHeaderError: Header values can't contain newlines"}
    assert set(rows.values_list("attempts", flat=True)) <= {0, 1}
    assert sorted(m["Message-ID"] for m in mailbox.messages) == ["<real-ann@test>",
                                                                 "<real-bob@test>"]
    assert notes.outbox_sweep()["mail"] == 0  # nothing left to try


def test_by_smtp_a_forged_address_answers_nobody_and_a_stranger_reaches_only_the_player(
        worker, listener, mailbox):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    player = seat_user(game, 0)
    wait_for(lambda: len(mailbox.messages) == 2, "the mails of the start")
    victim = "victim@example.net"
    good = reply_address(game.pk, 0, game.seq)
    forged = good.replace(f".0.{game.seq}.", f".1.{game.seq}.")
    smtp_send(listener, victim, forged, raw_mail(
        sender=victim, to=forged, message_id="<forged@evil>",
        subject="=?utf-8?q?You_won=0D=0ABcc:_other@example.net?="))
    smtp_send(listener, victim, good, raw_mail(
        sender=victim, to=good, message_id="<stranger@evil>", body="Cheap pills here",
        subject="=?utf-8?q?You_won=0D=0ABcc:_other@example.net?="))
    [told] = wait_for(lambda: [m for m in mailbox.to(player.email)
                               if "not played" in m["Subject"]], "the player's refusal")
    assert told["Subject"] == f"Marram game {game.pk}: a mail to your reply address was not played"
    assert told.rcpt_tos == [player.email] and told["Bcc"] is None
    text = " ".join(told.get_body(("plain",)).get_content().split())  # (wrapped at 78)
    assert "came from victim@example.net" in text and "pills" not in text
    received = dict(InboundMail.objects.values_list("message_id", "answered"))
    assert received == {"<forged@evil>": False, "<stranger@evil>": True}
    answers = Notification.objects.filter(kind="reply_refused")
    # the server has the mail before the worker commits its row: wait for that too
    wait_for(lambda: all(n.status == "sent" for n in answers.all()), "the refusal marked sent")
    assert [(n.user, n.status) for n in answers] == [(player, "sent")]
    assert all(m.rcpt_tos in ([ann.email], [bob.email]) for m in mailbox.messages)


def test_by_smtp_a_nul_or_a_line_break_in_a_display_name_is_accepted_not_deferred(
        worker, listener, mailbox):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob], seed=MAIL_DEAL)
    player = seat_user(game, 0)
    move = first_move_text(game)
    to = reply_address(game.pk, 0, game.seq)
    # The player's own client: an encoded CR/LF in the display name. Accepted (a
    # 451 would raise here) and played.
    smtp_send(listener, player.email, to, raw_mail(
        sender=f"=?utf-8?q?Ann=0D=0AMarram?= <{player.email}>", to=to,
        message_id="<crlf@client>", body=move))
    played = Event.objects.filter(game=game, actor=player)
    assert [e.payload["type"] for e in played] == [move.split()[0]]
    # A stranger with NUL bytes in the display name, the Message-ID and the text
    smtp_send(listener, "eve@example.net", to, raw_mail(
        sender='"Ev\x00e" <eve@example.net>', to=to, message_id="<nul\x00@evil>",
        body="pa\x00ss"))
    assert InboundMail.objects.get(message_id="<nul @evil>").code == "wrong_sender"
    wait_for(lambda: [m for m in mailbox.to(player.email) if "not played" in m["Subject"]],
             "the player's refusal")


def test_the_listener_refuses_for_good_what_it_can_never_read(listener):
    # 3,000 nested multiparts, 200 KB: the mail parser runs out of stack on every try
    nested = "".join(f'Content-Type: multipart/mixed; boundary="b{i}"\r\n\r\n--b{i}\r\n'
                     for i in range(3000))
    raw = ("From: eve@example.net\r\nTo: move+1.0.0.x@marram.localhost\r\n"
           "Message-ID: <deep@evil>\r\nMIME-Version: 1.0\r\n" + nested
           + "Content-Type: text/plain\r\n\r\npass\r\n"
           + "".join(f"--b{i}--\r\n" for i in reversed(range(3000)))).encode()
    with pytest.raises(smtplib.SMTPDataError) as refused:
        smtp_send(listener, "eve@example.net", "move+1.0.0.x@marram.localhost", raw)
    assert refused.value.smtp_code == 554
    assert not InboundMail.objects.exists()


def test_the_listener_asks_for_a_retry_while_the_database_is_down(process_env, tmp_path):
    url = urlsplit(process_env["DATABASE_URL"])
    port = free_port()
    env = {**process_env, "DATABASE_URL": urlunsplit(url._replace(
        netloc=f"{url.username}:{url.password}@127.0.0.1:{free_port()}"))}  # nothing there
    argv = [sys.executable, "manage.py", "mail_listener", "--host", "127.0.0.1",
            "--port", str(port)]
    down = Process(argv, env, tmp_path / "listener.log", "mail_listener: SMTP on").start()
    try:
        to = "move+1.0.0.abcdef@marram.localhost"
        with pytest.raises(smtplib.SMTPDataError) as deferred:
            smtp_send(port, "ann@example.org", to, raw_mail(
                sender="ann@example.org", to=to, message_id="<while-down@client>"))
    finally:
        down.stop()
    assert deferred.value.smtp_code == 451
