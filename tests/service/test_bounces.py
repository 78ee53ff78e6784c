"""Bounces of the site's own mail, end to end: the outbox sends each mail through
Django's SMTP backend to a real SMTP server of the test's, with a return path
of its own (VERP); delivery reports come back as raw bytes over SMTP to the
real listener (``manage.py mail_listener`` in its own process, on the test
database), as a receiving MTA sends them; after three hard bounces in 14 days,
or one "no such user", the address gets no more mail, its player's settings
page says so and offers to try again, and the admin lists it."""

from __future__ import annotations

import smtplib
from datetime import timedelta
from email.utils import parseaddr

import pytest
from django.utils import timezone

from accounts import services as accounts
from notifications import signing
from notifications.models import BouncingAddress, MailBounce, Notification, Policy
from notifications.selectors import mail_settings_get
from tests.service import test_celery_worker as real
from tests.service import test_mail_out as out
from tests.service.conftest import make_user, signed_in, start_game
from tests.service.mail_kit import MAIL_DEAL
from tests.service.test_mail_out import deliver, to

# The listener of test_celery_worker, in its own process on the test database, and
# the SMTP server of test_mail_out, which the outbox sends to.
listener, process_env = real.listener, real.process_env
sink_server, outgoing = out.sink_server, out.sink

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("redis_url")]


@pytest.fixture(scope="module")
def smtp(sink_server):  # the listener's mail goes to the same server
    return sink_server


# ---------------------------------------------------------------- what a mail server sends back


def postfix_dsn(*, return_path: str, recipient: str, status: str, message_id: str,
                action: str = "failed", diagnostic: str = "", words: str = "") -> bytes:
    """A delivery report as Postfix writes it (RFC 3464); ``words``, what its
    text part says of the recipient (by default the remote server's answer)."""
    code = "550" if status.startswith("5") else "450"
    diagnostic = diagnostic or f"smtp; {code} {status} <{recipient}>: Recipient address rejected"
    words = words or f"host mx.example.org said: {diagnostic[6:]}"
    return (
        f"Return-Path: <>\r\n"
        f"From: MAILER-DAEMON@mx.example.org (Mail Delivery System)\r\n"
        f"To: {return_path}\r\n"
        f"Subject: Undelivered Mail Returned to Sender\r\n"
        f"Message-ID: {message_id}\r\n"
        f"Auto-Submitted: auto-replied\r\n"
        f"MIME-Version: 1.0\r\n"
        f"Content-Type: multipart/report; report-type=delivery-status;\r\n"
        f"\tboundary=\"B0UND\"\r\n"
        f"\r\n"
        f"--B0UND\r\n"
        f"Content-Description: Notification\r\n"
        f"Content-Type: text/plain; charset=us-ascii\r\n"
        f"\r\n"
        f"This is the mail system at host mx.example.org.\r\n"
        f"\r\n"
        f"I'm sorry to have to inform you that your message could not\r\n"
        f"be delivered to one or more recipients.\r\n"
        f"\r\n"
        f"<{recipient}>: {words}\r\n"
        f"\r\n"
        f"--B0UND\r\n"
        f"Content-Description: Delivery report\r\n"
        f"Content-Type: message/delivery-status\r\n"
        f"\r\n"
        f"Reporting-MTA: dns; mx.example.org\r\n"
        f"X-Postfix-Queue-ID: 4BX3mV1b2Fz9sRK\r\n"
        f"Arrival-Date: Tue,  3 Jun 2025 09:12:01 +0000 (UTC)\r\n"
        f"\r\n"
        f"Final-Recipient: rfc822; {recipient}\r\n"
        f"Original-Recipient: rfc822;{recipient}\r\n"
        f"Action: {action}\r\n"
        f"Status: {status}\r\n"
        f"Remote-MTA: dns; mx.example.org\r\n"
        f"Diagnostic-Code: {diagnostic}\r\n"
        f"\r\n"
        f"--B0UND\r\n"
        f"Content-Description: Undelivered Message Headers\r\n"
        f"Content-Type: text/rfc822-headers\r\n"
        f"\r\n"
        f"Return-Path: <{return_path}>\r\n"
        f"Subject: Marram game 1: your move\r\n"
        f"\r\n"
        f"--B0UND--\r\n").encode()


def qmail_bounce(*, return_path: str, recipient: str, message_id: str) -> bytes:
    """A bounce with no report, only words (qmail's)."""
    return (
        f"Return-Path: <>\r\n"
        f"From: MAILER-DAEMON@mail.example.net\r\n"
        f"To: {return_path}\r\n"
        f"Subject: failure notice\r\n"
        f"Message-ID: {message_id}\r\n"
        f"\r\n"
        f"Hi. This is the qmail-send program at mail.example.net.\r\n"
        f"I'm afraid I wasn't able to deliver your message to the following addresses.\r\n"
        f"This is a permanent error; I've given up. Sorry it didn't work out.\r\n"
        f"\r\n"
        f"<{recipient}>:\r\n"
        f"Sorry, this mailbox is disabled. (#5.2.1)\r\n").encode()


def send(port: int, mail_from: str, to_address: str, raw: bytes) -> None:
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as client:
        client.sendmail(mail_from, [to_address], raw)


def return_paths(sink, user) -> list[str]:
    """The envelope senders of the mails the server got for ``user``, in order."""
    return [mail_from for mail_from, rcpts, _ in sink.received if user.email in rcpts]


def turn_mail_to(user, sink) -> str:
    """Start a game whose first player is ``user`` and send its mails: the
    return path of the turn mail to them."""
    before = len(return_paths(sink, user))
    start_game([user, make_user(f"rival{Notification.objects.count()}")], seed=MAIL_DEAL)
    deliver()
    paths = return_paths(sink, user)
    assert len(paths) == before + 1, paths
    return paths[-1]


# ---------------------------------------------------------------- the return path


def test_each_mail_goes_out_with_a_return_path_of_its_own(outgoing, settings):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob], seed=MAIL_DEAL)
    deliver()
    assert len(outgoing.received) == 2
    for mail_from, [rcpt], raw in outgoing.received:
        row = Notification.objects.get(game=game, user__email=rcpt)
        assert mail_from == signing.bounce_address(row.pk, rcpt)
        assert mail_from.startswith(f"bounce+{row.pk}.") and \
            mail_from.endswith(f"@{settings.REPLY_DOMAIN}")
        assert signing.bounce_address_read(mail_from, ["x@example.org", rcpt]) == (row.pk, rcpt)
        assert signing.bounce_address_read(mail_from, ["x@example.org"]) is None
        # the From line stays the site's
        assert f"From: {settings.DEFAULT_FROM_EMAIL}".encode() in raw
    # a relay that takes no other sender: the site's address, as before
    settings.MARRAM_RETURN_PATH = False
    outgoing.received.clear()
    start_game([make_user("cyd"), make_user("dee")])
    deliver()
    assert {mail_from for mail_from, _, _ in outgoing.received} == {
        parseaddr(settings.DEFAULT_FROM_EMAIL)[1]}


# ---------------------------------------------------------------- bouncing for good


def test_three_hard_bounces_in_14_days_stop_mail_and_the_player_can_try_again(
        outgoing, listener, admin_client):
    ann = make_user("ann")
    paths = [turn_mail_to(ann, outgoing) for _ in range(3)]
    rows = [Notification.objects.get(pk=signing.bounce_id(path)) for path in paths]
    # a hard bounce (Postfix's report), a soft one (delayed), one in words only (qmail's)
    send(listener, "", paths[0], postfix_dsn(return_path=paths[0], recipient=ann.email,
                                             status="5.2.1", message_id="<dsn1@mx>"))
    send(listener, "", paths[1], postfix_dsn(return_path=paths[1], recipient=ann.email,
                                             status="4.2.2", action="delayed",
                                             message_id="<dsn2@mx>"))
    send(listener, "", paths[1], qmail_bounce(return_path=paths[1], recipient=ann.email,
                                              message_id="<dsn3@mail>"))
    assert sorted(MailBounce.objects.values_list("kind", "status")) == [
        ("hard", "5.2.1"), ("hard", "5.2.1"), ("soft", "4.2.2")]
    assert not BouncingAddress.objects.exists()  # two hard bounces: mail still goes
    rows[0].refresh_from_db()
    assert rows[0].status == "bounced" and rows[0].note.startswith("bounced: 5.2.1")
    # the same report delivered twice is one bounce
    send(listener, "", paths[0], postfix_dsn(return_path=paths[0], recipient=ann.email,
                                             status="5.2.1", message_id="<dsn1@mx>"))
    assert MailBounce.objects.count() == 3 and not BouncingAddress.objects.exists()
    send(listener, "", paths[2], postfix_dsn(return_path=paths[2], recipient=ann.email,
                                             status="5.2.1", message_id="<dsn4@mx>"))
    [stopped] = BouncingAddress.objects.all()
    assert stopped.address == ann.email and stopped.user == ann
    assert stopped.reason.startswith("3 hard bounces in 14 days, the last 5.2.1")

    # the next mail to ann is not sent
    outgoing.received.clear()
    game = start_game([ann, make_user("bob")], seed=MAIL_DEAL)
    deliver()
    assert return_paths(outgoing, ann) == []
    turn = Notification.objects.get(game=game, user=ann)
    today = stopped.since.date().isoformat()
    assert (turn.status, turn.note) == ("skipped", f"mail to {ann.email} bounces since {today}")

    # her settings say so; the admin lists it
    page = signed_in(ann).get("/settings/notifications/").content.decode()
    assert f"Mail to <strong>{ann.email}</strong> bounces since" in page
    assert "3 hard bounces in 14 days" in page and 'value="bounce_retry"' in page
    assert ann.email in admin_client.get("/admin/notifications/bouncingaddress/").content.decode()
    assert "5.2.1" in admin_client.get("/admin/notifications/mailbounce/").content.decode()

    # she fixed her mailbox: mail goes again, and the old bounces no longer count
    answer = signed_in(ann).post("/settings/notifications/", {"action": "bounce_retry"})
    assert answer.status_code == 302 and not BouncingAddress.objects.exists()
    assert 'id="bouncing"' not in signed_in(ann).get("/settings/notifications/").content.decode()
    path = turn_mail_to(ann, outgoing)
    send(listener, "", path, postfix_dsn(return_path=path, recipient=ann.email,
                                         status="5.2.1", message_id="<dsn5@mx>"))
    assert not BouncingAddress.objects.exists()  # one hard bounce since: mail still goes


def test_one_no_such_user_stops_mail_at_once_and_a_new_address_mails_again(outgoing,
                                                                          listener):
    ann = make_user("ann")
    old = ann.email
    path = turn_mail_to(ann, outgoing)
    # the status is in the report alone (its part kept by the listener's skimmer)
    words = "The email account that you tried to reach does not exist."
    send(listener, "", path, postfix_dsn(return_path=path, recipient=old, status="5.1.1",
                                         message_id="<nouser@mx>", words=words,
                                         diagnostic="smtp; 550 No such user here"))
    [stopped] = BouncingAddress.objects.all()
    assert stopped.address == old and stopped.reason.startswith("5.1.1")
    assert 'id="bouncing"' in signed_in(ann).get("/settings/notifications/").content.decode()

    accounts.user_email_change(user=ann, email="ann@new.example.org")
    page = signed_in(ann).get("/settings/notifications/").content.decode()
    assert 'id="bouncing"' not in page
    outgoing.received.clear()
    path = turn_mail_to(ann, outgoing)
    row = Notification.objects.get(pk=signing.bounce_id(path))
    assert row.status == "sent" and path == signing.bounce_address(row.pk, "ann@new.example.org")
    # a late bounce of mail to the old address is the old address's, not the new one's
    late = Notification.objects.filter(user=ann, status="bounced").get()
    late_path = signing.bounce_address(late.pk, old)
    send(listener, "", late_path, postfix_dsn(return_path=late_path, recipient=old,
                                              status="5.1.1", message_id="<late@mx>"))
    assert set(MailBounce.objects.values_list("address", flat=True)) == {old}
    assert not BouncingAddress.objects.filter(address="ann@new.example.org").exists()


def test_what_is_no_hard_bounce_stops_nothing(outgoing, listener):
    ann = make_user("ann")
    path = turn_mail_to(ann, outgoing)
    row = Notification.objects.get(pk=signing.bounce_id(path))
    # delivered (a report asked for by a relay), and an out-of-office to the return path
    send(listener, "", path, postfix_dsn(return_path=path, recipient=ann.email,
                                         status="2.0.0", action="delivered",
                                         message_id="<delivered@mx>"))
    send(listener, ann.email, path, (
        f"From: {ann.email}\r\nTo: {path}\r\nSubject: Out of office\r\n"
        "Message-ID: <oof@client>\r\nAuto-Submitted: auto-replied\r\n\r\n"
        "I am away until Monday.\r\n").encode())
    # a report to a return path whose signature was altered, or names no mail
    local, _, domain = path.rpartition("@")
    altered = f"{local[:-1]}{'1' if local.endswith('0') else '0'}@{domain}"
    nowhere = signing.bounce_address(row.pk + 1000, ann.email)
    for i, bad in enumerate((altered, nowhere)):
        send(listener, "", bad, postfix_dsn(return_path=bad, recipient=ann.email,
                                            status="5.1.1", message_id=f"<bad{i}@mx>"))
    assert not MailBounce.objects.exists() and not BouncingAddress.objects.exists()
    # hard bounces older than 14 days are not counted
    long_ago = timezone.now() - timedelta(days=20)
    for i in range(2):
        MailBounce.objects.create(message_id=f"<old{i}@mx>", address=ann.email, user=ann,
                                  kind="hard", status="5.2.2", received_at=long_ago)
    send(listener, "", path, postfix_dsn(return_path=path, recipient=ann.email,
                                         status="5.2.2", message_id="<new@mx>"))
    assert MailBounce.objects.filter(kind="hard").count() == 3
    assert not BouncingAddress.objects.exists()
    # the return path is not a reply address: nothing was played, nobody answered
    assert not Notification.objects.filter(kind__startswith="reply").exists()


# ---------------------------------------------------------------- unsubscribing by mail


def test_a_mail_to_the_unsubscribe_address_turns_mail_off(outgoing, listener):
    ann, bob = make_user("ann"), make_user("bob")
    start_game([ann, bob], seed=MAIL_DEAL)
    deliver()
    [turn] = to(outgoing, ann)
    mailto = next(part.strip(" <>") for part in turn["List-Unsubscribe"].split(",")
                  if "mailto:" in part)
    address = mailto.removeprefix("mailto:").split("?")[0]
    forged = address.replace(f"unsubscribe+{ann.pk}.", f"unsubscribe+{bob.pk}.")
    for each in (forged, address):
        send(listener, ann.email, each, (
            f"From: {ann.email}\r\nTo: {each}\r\nSubject: unsubscribe\r\n"
            f"Message-ID: <unsub-{each[:20]}@client>\r\n\r\nunsubscribe\r\n").encode())
    assert mail_settings_get(ann).policy == Policy.OFF
    assert mail_settings_get(bob).policy != Policy.OFF
