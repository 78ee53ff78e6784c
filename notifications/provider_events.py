"""What a hosted mail provider reports of our own mail, read by django-anymail.

A site that sends through a provider (Mailgun, SendGrid, Postmark, Amazon SES,
Mailjet, Brevo, SparkPost, Postal) learns of bounces from the provider rather
than from delivery reports to its return path: the provider takes the report and
posts an event. ``POST /mail/events/<provider>/`` takes those posts in the
provider's own form, with the same checks as its inbound posts
(``providers.provider_post``: HTTP Basic auth with ``MAIL_WEBHOOK_SECRET``, and
the provider's signature where it signs), and anymail normalises each event.

What each event does, the same as the mail it stands for would
(notifications.bounces):
- ``bounced`` and ``rejected``: a bounce of that address. Hard, unless the
  receiving server's answer holds a 4.x.x status; its status is the one in that
  answer, else 5.1.1 where the provider says the address is invalid (the mailbox
  does not exist: no more mail to it at once), else 5.0.0. ``deferred``: a soft
  bounce, which is recorded and stops nothing.
- ``complained`` (the player marked it as spam) and ``unsubscribed`` (the
  provider's own unsubscribe link): that address's player gets no more mail,
  as by the List-Unsubscribe address.
- Any other event (queued, sent, delivered, opened, clicked) changes nothing.

Which mail an event is of: the outbox row named in the message's metadata
(``services.MAIL_METADATA_KEY``, which every mail carries: anymail's sending
backends pass it to the provider), else the row whose Message-ID the event reports, else the
last mail sent to that address. An event is kept once (its provider's event id).
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any

from anymail.signals import AnymailTrackingEvent, EventType, RejectReason, tracking
from django.contrib.auth import get_user_model
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponseBase
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt

from notifications.bounces import STATUS, bounce_store
from notifications.mailsafe import header_text
from notifications.models import MailBounce, Notification, Policy
from notifications.providers import provider_post
from notifications.services import MAIL_METADATA_KEY, mail_settings_update

logger = logging.getLogger(__name__)

TRACKING: dict[str, str] = {
    "mailgun": "anymail.webhooks.mailgun.MailgunTrackingWebhookView",
    "sendgrid": "anymail.webhooks.sendgrid.SendGridTrackingWebhookView",
    "postmark": "anymail.webhooks.postmark.PostmarkTrackingWebhookView",
    "amazon_ses": "anymail.webhooks.amazon_ses.AmazonSESTrackingWebhookView",
    "mailjet": "anymail.webhooks.mailjet.MailjetTrackingWebhookView",
    "brevo": "anymail.webhooks.brevo.BrevoTrackingWebhookView",
    "sparkpost": "anymail.webhooks.sparkpost.SparkPostTrackingWebhookView",
    "postal": "anymail.webhooks.postal.PostalTrackingWebhookView",
}
"""The providers whose events are taken, by the name in their URL."""

_BOUNCES = {EventType.BOUNCED, EventType.REJECTED, EventType.DEFERRED}
_MAIL_OFF = {EventType.COMPLAINED, EventType.UNSUBSCRIBED}


@csrf_exempt
def provider_events(request: HttpRequest, provider: str) -> HttpResponseBase:
    """The provider's post of events about our mail, handed to anymail's view."""
    return provider_post(request, provider, TRACKING, "events are taken from")


@receiver(tracking, dispatch_uid="marram-provider-event")
def _provider_event(sender: Any, event: AnymailTrackingEvent, esp_name: str,
                    **kwargs: Any) -> None:
    outcome = provider_event_handle(event, esp_name)
    logger.info("%s event %s for %s: %s", esp_name, event.event_type, event.recipient,
                outcome)


def provider_event_handle(event: AnymailTrackingEvent, provider: str) -> str:
    """Do what the event says of our mail (see the module); what became of it, in a
    word for the log: 'hard', 'soft', 'suspended', 'duplicate', 'mail off' or
    'ignored'."""
    address = (event.recipient or "").strip().lower()
    if not address or event.event_type not in _BOUNCES | _MAIL_OFF:
        return "ignored"
    mail = _mail_of(event, address)
    if event.event_type in _MAIL_OFF:
        return _mail_off(mail, address)
    kind, status = _bounce_kind(event)
    answer = " ".join(filter(None, [event.mta_response, event.description]))
    return bounce_store(MailBounce(
        message_id=_event_key(event, provider), address=address,
        user=mail.user if mail is not None else _user_of(address), notification=mail,
        kind=kind, status=status, diagnostic=header_text(answer, 300),
        received_at=event.timestamp or timezone.now()))


def _bounce_kind(event: AnymailTrackingEvent) -> tuple[str, str]:
    found = STATUS.search(" ".join(filter(None, [event.mta_response, event.description])))
    status = ".".join(found.groups()) if found else None
    if event.event_type == EventType.DEFERRED or (status or "").startswith("4"):
        return MailBounce.Kind.SOFT, status or "4.0.0"
    if status is None and event.reject_reason == RejectReason.INVALID:
        status = "5.1.1"
    return MailBounce.Kind.HARD, status or "5.0.0"


def _event_key(event: AnymailTrackingEvent, provider: str) -> str:
    """The event's own id, as the bounce's key: an event posted twice is one bounce."""
    if event.event_id:
        return header_text(f"<{provider}-event-{event.event_id}>", 250)
    seen = f"{event.event_type} {event.recipient} {event.message_id} {event.timestamp}"
    return f"<{provider}-sha256-{hashlib.sha256(seen.encode()).hexdigest()}>"


def _mail_of(event: AnymailTrackingEvent, address: str) -> Notification | None:
    """The mail of ours the event is about (see the module), to that address."""
    sent = (Notification.objects.select_related("user")
            .exclude(status=Notification.Status.PENDING))
    named = str((event.metadata or {}).get(MAIL_METADATA_KEY, ""))
    found = [sent.filter(pk=int(named)).first() if named.isdigit() else None,
             sent.filter(message_id=event.message_id).first() if event.message_id else None]
    for mail in found:
        if mail is not None and _address_of(mail) == address:
            return mail
    return (sent.filter(to_email__iexact=address).order_by("-pk").first()
            or sent.filter(user__email__iexact=address).order_by("-pk").first())


def _address_of(mail: Notification) -> str:
    return (mail.user.email if mail.user is not None else mail.to_email).strip().lower()


def _user_of(address: str) -> Any:
    return get_user_model().objects.filter(email__iexact=address).first()


def _mail_off(mail: Notification | None, address: str) -> str:
    user = mail.user if mail is not None and mail.user is not None else _user_of(address)
    if user is None:
        return "ignored"
    mail_settings_update(user=user, policy=Policy.OFF)
    return "mail off"
