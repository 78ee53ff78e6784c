"""What a hosted provider reports of our mail (notifications.provider_events),
posted to the real endpoint in the provider's own form with its checks: a
bounce stops mail as a delivery report to the return path would, a complaint
turns the player's mail off, other events change nothing, and every mail names
its outbox row to the provider."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time

import pytest
from django.core import mail

from notifications.models import BouncingAddress, MailBounce, Notification, Policy
from notifications.selectors import mail_settings_get
from notifications.services import notification_deliver
from tests.service.conftest import make_user, start_game_of
from tests.service.mail_kit import MAIL_DEAL
from tests.service.test_mail_corpus import MAILGUN_KEY
from tests.service.test_mail_providers import AUTH, hosted  # noqa: F401  (used by name)

# every test posts as the provider would, with the site set up for it (hosted)
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("hosted")]


@pytest.fixture
def sent():
    """A Pond game whose mails went out: bob's "your move" among them."""
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game_of("pond", [ann, bob], seed=MAIL_DEAL)
    Notification.objects.filter(game=game).update(status="sent")
    return bob, Notification.objects.filter(user=bob).latest("pk")


def mailgun(client, event_data: dict, *, token: str = "a1" * 25, key: str = MAILGUN_KEY):
    """What Mailgun's tracking webhook posts: the event and its signature."""
    timestamp = str(int(time.time()))
    signature = hmac.new(key.encode(), f"{timestamp}{token}".encode(),
                         hashlib.sha256).hexdigest()
    body = {"signature": {"timestamp": timestamp, "token": token, "signature": signature},
            "event-data": {"timestamp": time.time(), **event_data}}
    return client.post("/mail/events/mailgun/", data=json.dumps(body),
                       content_type="application/json", HTTP_AUTHORIZATION=AUTH)


def postmark(client, payload: dict, auth: str = AUTH):
    return client.post("/mail/events/postmark/", data=json.dumps(payload),
                       content_type="application/json", HTTP_AUTHORIZATION=auth)


def failed(to: str, row: Notification | None, *, severity: str, code: int, text: str) -> dict:
    return {"event": "failed", "severity": severity, "recipient": to,
            "reason": "bounce" if severity == "permanent" else "generic",
            "user-variables": {"marram_mail": str(row.pk)} if row is not None else {},
            "delivery-status": {"code": code, "message": text, "description": ""},
            "message": {"headers": {"message-id": "provider-side-id@mailgun.example"}}}


def test_a_mailgun_bounce_of_a_missing_mailbox_stops_mail_to_it_at_once(client, sent):
    bob, row = sent
    answer = mailgun(client, failed(bob.email, row, severity="permanent", code=550,
                                    text="5.1.1 The email account that you tried to reach "
                                         "does not exist"))
    assert answer.status_code == 200
    [bounce] = MailBounce.objects.all()
    assert (bounce.address, bounce.kind, bounce.status, bounce.notification_id) == (
        bob.email, "hard", "5.1.1", row.pk)
    assert BouncingAddress.objects.filter(address=bob.email).exists()
    row.refresh_from_db()
    assert row.status == Notification.Status.BOUNCED
    # the provider posts the same event again: one bounce
    assert mailgun(client, failed(bob.email, row, severity="permanent", code=550,
                                  text="5.1.1 no such user")).status_code == 200
    assert MailBounce.objects.count() == 1


def test_a_temporary_failure_is_a_soft_bounce_that_stops_nothing(client, sent):
    bob, row = sent
    answer = mailgun(client, failed(bob.email, row, severity="temporary", code=452,
                                    text="4.2.2 The email account is over quota"))
    assert answer.status_code == 200
    [bounce] = MailBounce.objects.all()
    assert (bounce.kind, bounce.status) == ("soft", "4.2.2")
    assert not BouncingAddress.objects.exists()
    row.refresh_from_db()
    assert row.status == Notification.Status.SENT


def test_three_hard_bounces_without_a_mailbox_status_stop_mail(client, sent):
    bob, row = sent
    for n in range(3):
        assert not BouncingAddress.objects.exists()
        answer = mailgun(client, failed(bob.email, None, severity="permanent", code=554,
                                        text="5.7.1 Message rejected by policy"),
                         token=f"{n:02d}" * 25)
        assert answer.status_code == 200
    assert MailBounce.objects.filter(status="5.7.1", notification=row).count() == 3
    assert BouncingAddress.objects.filter(address=bob.email).exists()


def test_a_postmark_hard_bounce_is_matched_by_its_address(client, sent):
    bob, row = sent
    answer = postmark(client, {
        "RecordType": "Bounce", "ID": 4323372036, "Type": "HardBounce", "TypeCode": 1,
        "MessageID": "883953f4-6105-42a2-a16a-77a8eac79483", "Email": bob.email.upper(),
        "BouncedAt": "2026-11-29T10:00:00Z", "Description": "The server was unable to "
        "deliver your message (ex: unknown user, mailbox not found).",
        "Details": "smtp;550 5.1.1 The email account that you tried to reach does not exist",
        "Inactive": True, "CanActivate": True, "Metadata": {}})
    assert answer.status_code == 200
    [bounce] = MailBounce.objects.all()
    assert (bounce.notification_id, bounce.user_id, bounce.status) == (row.pk, bob.pk, "5.1.1")
    assert BouncingAddress.objects.filter(address=bob.email).exists()


def test_a_spam_complaint_turns_the_players_mail_off(client, sent):
    bob, row = sent
    assert mail_settings_get(bob).policy != Policy.OFF
    answer = postmark(client, {
        "RecordType": "SpamComplaint", "ID": 42, "Type": "SpamComplaint",
        "Email": bob.email, "BouncedAt": "2026-11-29T10:00:00Z",
        "Metadata": {"marram_mail": str(row.pk)}})
    assert answer.status_code == 200
    assert mail_settings_get(bob).policy == Policy.OFF
    assert not MailBounce.objects.exists()


def test_delivered_and_opened_change_nothing(client, sent):
    bob, row = sent
    for event in ("delivered", "opened"):
        answer = mailgun(client, {"event": event, "recipient": bob.email,
                                  "user-variables": {"marram_mail": str(row.pk)}},
                         token=event * 10)
        assert answer.status_code == 200
    assert not MailBounce.objects.exists() and not BouncingAddress.objects.exists()
    assert mail_settings_get(bob).policy != Policy.OFF


def test_a_post_without_the_providers_checks_changes_nothing(client, sent, settings):
    bob, row = sent
    bounce = failed(bob.email, row, severity="permanent", code=550, text="5.1.1 no such user")
    assert mailgun(client, bounce, key="not-the-key").status_code == 400
    assert postmark(client, {"RecordType": "SpamComplaint", "ID": 1, "Email": bob.email},
                    auth="Basic " + base64.b64encode(b"marram:wrong").decode()
                    ).status_code == 400
    assert client.post("/mail/events/nosuch/", data="{}",
                       content_type="application/json").json()["code"] == "no_such_provider"
    settings.MAIL_WEBHOOK_SECRET = ""
    assert mailgun(client, bounce).json()["code"] == "webhook_off"
    assert not MailBounce.objects.exists() and mail_settings_get(bob).policy != Policy.OFF


def test_every_mail_names_its_outbox_row_to_the_provider(settings, sent):
    """Through anymail's test backend, which records what a provider's API is sent."""
    bob, row = sent
    settings.EMAIL_BACKEND = "anymail.backends.test.EmailBackend"
    Notification.objects.filter(pk=row.pk).update(status="pending")
    mail.outbox.clear()
    notification_deliver(row.pk)
    [message] = mail.outbox
    assert message.anymail_test_params["metadata"] == {"marram_mail": str(row.pk)}
