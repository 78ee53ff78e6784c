"""Replies posted by a hosted mail provider's inbound webhook, read by django-anymail.

``POST /mail/inbound/<provider>/`` takes what the provider posts, in its own form
(Mailgun's raw or parsed message, SendGrid's Inbound Parse, Postmark's JSON,
Amazon SES's SNS notification, Mailjet's Parse API, Brevo's, SparkPost's
relay webhook, Postal's): anymail checks it (HTTP Basic auth for every one,
user ``marram`` and ``MAIL_WEBHOOK_SECRET`` as its password, and the provider's
own signature where it signs: Mailgun, Postal) and normalises it into one
message with its headers, text, HTML and the envelope the provider reports.
That message is read by the same code as a mail to the SMTP listener
(``inbound.inbound_mail_handle``), so a reply reads the same whichever way it
came: its HTML, its charset, its quotes, whether a machine wrote it.

Anymail answers 200 once every message of the post is handled, a 400 for a
post that fails its checks; a database that is down makes a 503 and the
provider posts again later (a Message-ID is handled once).
"""

from __future__ import annotations

import functools
import logging
from typing import Any

from anymail.exceptions import AnymailConfigurationError, AnymailImproperlyInstalled
from anymail.signals import inbound
from django.conf import settings
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponseBase, JsonResponse
from django.utils.module_loading import import_string
from django.views import View
from django.views.decorators.csrf import csrf_exempt

from notifications.inbound import inbound_mail_handle

logger = logging.getLogger(__name__)

BASIC_AUTH_USER = "marram"
PROVIDERS: dict[str, str] = {
    "mailgun": "anymail.webhooks.mailgun.MailgunInboundWebhookView",
    "sendgrid": "anymail.webhooks.sendgrid.SendGridInboundWebhookView",
    "postmark": "anymail.webhooks.postmark.PostmarkInboundWebhookView",
    "amazon_ses": "anymail.webhooks.amazon_ses.AmazonSESInboundWebhookView",
    "mailjet": "anymail.webhooks.mailjet.MailjetInboundWebhookView",
    "brevo": "anymail.webhooks.brevo.BrevoInboundWebhookView",
    "sparkpost": "anymail.webhooks.sparkpost.SparkPostInboundWebhookView",
    "postal": "anymail.webhooks.postal.PostalInboundWebhookView",
}
"""The providers taken, by the name in their URL, and anymail's view of each."""
SIGNING_KEYS: dict[str, tuple[str, str]] = {
    "mailgun": ("webhook_signing_key", "MAILGUN_WEBHOOK_SIGNING_KEY"),
    "postal": ("webhook_key", "POSTAL_WEBHOOK_KEY"),
}
"""The providers that sign their posts: anymail's argument and the setting."""


def _problem(status: int, code: str, message: str) -> JsonResponse:
    return JsonResponse({"code": code, "message": message}, status=status)


def _view_arguments(provider: str) -> dict[str, Any]:
    arguments: dict[str, Any] = {
        "basic_auth": [f"{BASIC_AUTH_USER}:{settings.MAIL_WEBHOOK_SECRET}"]}
    if provider in SIGNING_KEYS:
        argument, setting = SIGNING_KEYS[provider]
        key = getattr(settings, setting, "")
        if not key:
            raise AnymailConfigurationError(f"set {setting} to receive {provider}'s posts")
        arguments[argument] = key
    return arguments


@functools.cache
def _view_class(path: str) -> type[View]:
    """Anymail's view of that import path. It warns when made without a shared
    secret in the ANYMAIL settings; this one is always given its Basic auth as it
    is made (``basic_auth``), so the warning would be wrong."""
    view_class = import_string(path)
    return type(view_class.__name__, (view_class,), {"warn_if_no_basic_auth": False})


@csrf_exempt
def provider_inbound(request: HttpRequest, provider: str) -> HttpResponseBase:
    """The provider's post of a mail to us, handed to anymail's view for it."""
    return provider_post(request, provider, PROVIDERS, "mail is taken from")


def provider_post(request: HttpRequest, provider: str, views: dict[str, str],
                  taken: str) -> HttpResponseBase:
    """A provider's post, handed to anymail's view for it among ``views`` (by the
    provider's name in the URL), with the checks every post gets: the shared
    secret set, the provider known and set up."""
    if not settings.MAIL_WEBHOOK_SECRET:
        return _problem(404, "webhook_off", "set MAIL_WEBHOOK_SECRET to receive posts here")
    if provider not in views:
        return _problem(404, "no_such_provider", f"{taken} {', '.join(sorted(views))}")
    view_class = _view_class(views[provider])
    try:
        arguments = _view_arguments(provider)
        view_class(**arguments)  # anymail checks its settings as a view is made
    except (AnymailConfigurationError, AnymailImproperlyInstalled) as error:
        return _problem(404, "provider_not_set_up", str(error).split("\n")[0][:300])
    return view_class.as_view(**arguments)(request)


@receiver(inbound, dispatch_uid="marram-inbound-reply")
def _inbound_reply(sender: Any, event: Any, esp_name: str, **kwargs: Any) -> None:
    """Each message anymail read from a provider's post: read and handled as a
    mail to the SMTP listener is, with the envelope the provider reports."""
    message = event.message
    if message is None:
        return
    recipient = getattr(message, "envelope_recipient", None)
    mail_from = getattr(message, "envelope_sender", None)
    if mail_from is not None:
        mail_from = str(mail_from).strip().strip("<>").strip()
    result = inbound_mail_handle(message, [str(recipient)] if recipient else None,
                                 mail_from=mail_from)
    logger.info("reply through %s's webhook: %s %s", esp_name, result.outcome, result.code)
