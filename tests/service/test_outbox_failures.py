"""The outbox when mail cannot go: a mail no retry can send fails at once with its
reason, a server that may recover is retried less and less often and then given
up, no mail is queued to an address that cannot be valid, and the sweep always
reaches the rows behind the ones it enqueued before.

Mail goes to a real SMTP server (aiosmtpd, in this process) through Django's
SMTP backend, as in production."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from email import message_from_bytes, policy

import pytest
from aiosmtpd.controller import Controller

from notifications import outbox
from notifications import services as notes
from notifications.mailsafe import address_problem
from notifications.models import Notification
from tests.service.conftest import start_game
from tests.service.mail_kit import freeze_time, turn_mails
from tests.service.test_celery_worker import free_port

LONG_LABEL = "x@" + "a" * 64 + ".example"  # one label over the 63 characters DNS allows


class Server:
    """An SMTP server that keeps what it accepts, refuses RCPT for good to the
    addresses in ``gone``, and answers DATA with ``data_answer`` when it is set."""

    def __init__(self) -> None:
        self.messages: list = []
        self.gone: set[str] = set()
        self.data_answer = ""

    async def handle_RCPT(self, server, session, envelope, address, options) -> str:
        if address in self.gone:
            return "550 5.1.1 No such mailbox"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope) -> str:
        if self.data_answer:
            return self.data_answer
        self.messages.append(message_from_bytes(envelope.original_content or envelope.content,
                                                policy=policy.default))
        return "250 Message accepted"


@pytest.fixture
def smtp(settings) -> Iterator[Server]:
    server, port = Server(), free_port()
    controller = Controller(server, hostname="127.0.0.1", port=port)
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_USE_TLS = "127.0.0.1", port, False
    yield server
    controller.stop()


@pytest.fixture
def now(monkeypatch):
    return freeze_time(monkeypatch)


def stored(**fields) -> Notification:
    """A row as it is in the outbox, written by whatever wrote it (the code before
    these checks, say): nothing on the way in looks at it."""
    n = Notification.objects.create(kind="reply_refused", dedup_key=f"t:{fields['message_id']}",
                                    body_text="Your mail was not played.", **fields)
    return n


@pytest.mark.parametrize("address, problem", [
    (LONG_LABEL, "a label of the domain is longer than 63 characters"),
    ("ann@example.org\r\nBcc: victim@example.net", "line break"),
    ("ann\x00@example.org", "control character"),
    ("ann@exa..mple.org", "not a valid domain name"),
    ("ann@-example.org", "is not a valid name"),
    ("a" * 65 + "@example.org", "longer than 64 characters"),
    ("ann@" + ".".join(["a" * 60] * 5) + ".org",
     "longer than 254 characters"),
    ("ann.example.org", "name@domain"),
    ("an<n>@example.org", "characters an address cannot have"),
    ("ann@example", "no dot"),
])
def test_addresses_that_cannot_be_valid_are_named_with_the_reason(address, problem):
    assert problem in address_problem(address)


@pytest.mark.parametrize("address", ["ann@example.org", "a.b+c_d@mail.example.co.uk",
                                     "x@" + "a" * 63 + ".example", "zoe@bücher.example",
                                     "root@localhost"])
def test_ordinary_addresses_pass(address):
    assert address_problem(address) == ""


@pytest.mark.django_db
def test_a_mail_no_retry_can_send_fails_at_once_with_its_reason(smtp, now, admin_client):
    smtp.gone.add("gone@example.org")
    poison = {
        "subject": stored(to_email="eve@example.org", message_id="<s@t>",
                          subject="Re: hi\r\nBcc: victim@example.net"),
        "in_reply_to": stored(to_email="eve@example.org", message_id="<r@t>", subject="Re: hi",
                              in_reply_to="<a\r\n@b>"),
        "label": stored(to_email=LONG_LABEL, message_id="<l@t>", subject="Re: hi"),
        "gone": stored(to_email="gone@example.org", message_id="<g@t>", subject="Re: hi"),
    }
    reasons = {"subject": "cannot be sent: BadHeaderError", "in_reply_to": "BadHeaderError",
               "label": "not sent: a label of the domain is longer than 63 characters",
               "gone": "cannot be sent: SMTPRecipientsRefused"}
    for name, row in poison.items():
        assert notes.notification_deliver(row.pk) == "failed", name
        row.refresh_from_db()
        assert row.status == "failed" and reasons[name] in row.note, (name, row.note)
        assert row.attempts <= 1
    assert smtp.messages == []
    assert notes.outbox_sweep(after=timedelta(0))["mail"] == 0  # none is tried again
    # the admin shows why
    page = admin_client.get("/admin/notifications/notification/?status__exact=failed")
    assert page.status_code == 200
    for reason in ("BadHeaderError", "longer than 63 characters", "SMTPRecipientsRefused"):
        assert reason in page.content.decode()
    # and the next mail goes as usual
    fine = stored(to_email="ann@example.org", message_id="<ok@t>", subject="Re: hello")
    assert notes.notification_deliver(fine.pk) == "sent"
    assert [m["Message-ID"] for m in smtp.messages] == ["<ok@t>"]


@pytest.mark.django_db
def test_a_server_that_may_recover_is_retried_less_and_less_often_then_given_up(smtp, now):
    smtp.data_answer = "451 4.3.0 Try again later"
    row = stored(to_email="ann@example.org", message_id="<busy@t>", subject="Re: hi")
    waits = []
    for attempt in range(1, outbox.MAX_ATTEMPTS):
        assert notes.notification_deliver(row.pk) == "pending"
        row.refresh_from_db()
        assert row.attempts == attempt and "Try again later" in row.note
        waits.append(row.next_attempt_at - now.value)
        now.value = row.next_attempt_at
    assert waits == [timedelta(minutes=m) for m in (2, 4, 8, 16, 32, 60, 60)]
    assert notes.notification_deliver(row.pk) == "failed"
    row.refresh_from_db()
    assert row.attempts == outbox.MAX_ATTEMPTS
    assert row.note.startswith(f"gave up after {outbox.MAX_ATTEMPTS} attempts: SMTPDataError")
    assert smtp.messages == []


@pytest.mark.django_db
def test_the_sweep_reaches_the_rows_behind_those_it_enqueued(now, monkeypatch):
    # Rows whose tasks never complete (a worker lost with them) must not keep the
    # sweep from younger rows: each row enqueued is put back SWEEP_LEASE.
    enqueued: list[int] = []
    monkeypatch.setattr(notes, "enqueue", lambda task, pk: enqueued.append(pk) or True)
    monkeypatch.setattr(notes, "SWEEP_BATCH", 2)
    rows = []
    for i in range(3):
        rows.append(stored(to_email="ann@example.org", message_id=f"<{i}@t>", subject="hi"))
        now.advance(minutes=1)
    assert notes.outbox_sweep()["mail"] == 2
    assert notes.outbox_sweep()["mail"] == 1
    assert enqueued == [rows[0].pk, rows[1].pk, rows[2].pk]
    assert notes.outbox_sweep()["mail"] == 0  # all three wait for their tasks
    now.advance(seconds=(notes.SWEEP_LEASE + notes.SWEEP_AFTER).total_seconds())
    assert notes.outbox_sweep()["mail"] == 2  # none came back: they are due again


@pytest.mark.django_db
def test_no_mail_is_queued_to_an_address_that_cannot_be_valid(monkeypatch, now):
    enqueued: list[int] = []  # the rows handed over for delivery at the commit
    monkeypatch.setattr(notes, "_mail_tasks", lambda ids: enqueued.extend(ids) or [])
    monkeypatch.setattr(notes.transaction, "on_commit", lambda run, robust=False: run())
    rows = [Notification(to_email=address, kind="invitation", dedup_key=f"i:{i}",
                         subject="Come and play", body_text="x")
            for i, address in enumerate([LONG_LABEL, "ann@example.org\nbcc: x@y.org",
                                         "ann@example.org"])]
    ids = notes.notifications_queue(rows)
    bad, worse, good = Notification.objects.filter(pk__in=ids).order_by("pk")
    assert (bad.status, bad.note) == (
        "failed", "not sent: a label of the domain is longer than 63 characters")
    assert worse.status == "failed" and "line break" in worse.note
    assert good.status == "pending" and enqueued == [good.pk]


@pytest.mark.django_db
def test_what_is_queued_has_a_subject_on_one_bounded_line(monkeypatch):
    monkeypatch.setattr(notes, "_mail_tasks", lambda ids: [])
    [pk] = notes.notifications_queue([Notification(
        to_email="ann@example.org", kind="reply_refused", dedup_key="s", body_text="x",
        subject="Re: hi\r\nBcc: victim@example.net\x00" + "!" * 400,
        in_reply_to="<a\r\nb@c>")])
    row = Notification.objects.get(pk=pk)
    assert row.subject.startswith("Re: hi Bcc: victim@example.net !!!")
    assert len(row.subject) == 200 and row.in_reply_to == ""


@pytest.mark.django_db
def test_a_player_whose_address_cannot_be_valid_gets_a_failed_row_not_an_error(users, smtp):
    ann, bob = users[:2]
    game = start_game([ann, bob])
    for user in (ann, bob):
        user.email = f"{user.username}@{'z' * 70}.example"  # as an admin might have typed it
        user.save()
    for row in [*turn_mails(game, 0), *Notification.objects.filter(kind="game_started")]:
        assert notes.notification_deliver(row.pk) == "failed"
        row.refresh_from_db()
        assert row.note == "not sent: a label of the domain is longer than 63 characters"
    assert smtp.messages == []
