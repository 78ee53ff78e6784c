"""Thin views: the inbound-mail webhook, the unsubscribe link and the settings page
(mail, vacations and the player's own webhooks)."""

from __future__ import annotations

import hmac
from email.message import EmailMessage
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from accounts.auth import page_user
from games.pages.reads import time_words
from notifications import bounces, inbound, services, signing, vacations, webhooks
from notifications.forms import PolicyForm, VacationForm, WebhookForm
from notifications.mailsafe import header_text
from notifications.models import WEBHOOKS_PER_PLAYER
from notifications.selectors import (
    bouncing_address_get,
    mail_settings_get,
    notifications_recent,
    webhooks_with_calls,
)
from web.bodies import form_post, json_parse
from web.errors import NotFound, ServiceError

WEBHOOK_SECRET_HEADER = "X-Marram-Webhook-Secret"
WEBHOOK_FIELDS = ("recipient", "sender", "message_id", "text")
_NOT_CARRIED = ("content-type", "content-transfer-encoding", "mime-version")


def _problem(status: int, code: str, message: str) -> JsonResponse:
    return JsonResponse({"code": code, "message": message}, status=status)


@csrf_exempt
@require_POST
def mail_inbound(request: HttpRequest) -> JsonResponse:
    """A hosted mail provider posts each reply here as JSON (docs/mail.md): either
    ``raw``, the whole message, with ``recipient``; or its parts: ``recipient``,
    ``sender``, ``message_id``, ``text`` (the plain-text body, '' if none), and
    optionally ``subject``, ``html`` (the HTML body) and ``headers`` (all of
    them, as [name, value] pairs or an object). ``envelope_sender`` is the
    envelope's MAIL FROM ('' for the null sender of a bounce). Either way the
    message is read as a mail to the SMTP listener is."""
    secret = settings.MAIL_WEBHOOK_SECRET
    if not secret:
        return _problem(404, "webhook_off", "set MAIL_WEBHOOK_SECRET to receive mail here")
    given = request.headers.get(WEBHOOK_SECRET_HEADER, "")
    if not hmac.compare_digest(given.encode(), secret.encode()):
        return _problem(403, "bad_secret",
                        f"send the shared secret in the {WEBHOOK_SECRET_HEADER} header")
    try:
        data = json_parse(request.body, limit=settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
    except RequestDataTooBig:  # Django's own check, as request.body is read
        return _problem(413, "too_large",
                        f"the body is over {settings.DATA_UPLOAD_MAX_MEMORY_SIZE} bytes")
    except ServiceError as e:  # not JSON, too deep, a NUL character
        return _problem(e.status, e.code, e.message)
    if not isinstance(data, dict):
        return _problem(400, "invalid", "the body is a JSON object")
    raw = data.get("raw")
    wanted = ("recipient",) if isinstance(raw, str) else WEBHOOK_FIELDS
    if not all(isinstance(data.get(k), str) for k in wanted):
        return _problem(400, "invalid", f"the body needs the strings {', '.join(wanted)} "
                                        "(or raw and recipient)")
    optional = {k: data.get(k) for k in ("subject", "html", "envelope_sender")}
    if any(v is not None and not isinstance(v, str) for v in optional.values()):
        return _problem(400, "invalid", "subject, html and envelope_sender are strings")
    try:
        message = _webhook_message(data)
    except ValueError as e:
        return _problem(400, "invalid", str(e))
    result = inbound.inbound_mail_handle(message, [data["recipient"]],
                                         mail_from=optional["envelope_sender"])
    return JsonResponse({"outcome": result.outcome, "code": result.code,
                         "message": result.message})


def _webhook_message(data: dict[str, Any]) -> EmailMessage:
    """The message the JSON webhook's fields make (as anymail makes a provider's)."""
    from anymail.inbound import AnymailInboundMessage

    if isinstance(data.get("raw"), str):
        parsed: EmailMessage = AnymailInboundMessage.parse_raw_mime(data["raw"])
        return parsed
    headers = data.get("headers") or []
    if isinstance(headers, dict):
        headers = list(headers.items())
    if not isinstance(headers, list) or not all(
            isinstance(h, list | tuple) and len(h) == 2 and all(isinstance(x, str) for x in h)
            for h in headers):
        raise ValueError("headers are [name, value] pairs of strings, or an object")
    # the body is the fields': the original's own MIME headers would not describe it,
    # but a text/plain original's format=flowed (and delsp) still hold for its text
    original_type = next((v for k, v in headers if k.strip().lower() == "content-type"), "")
    # one line each (a CR/LF in a display name is read, not refused)
    headers = [(header_text(k, 200), header_text(v, 2000)) for k, v in headers
               if k.strip().lower() not in _NOT_CARRIED and header_text(k, 200)]
    names = {k.lower() for k, _ in headers}
    for name, key in (("From", "sender"), ("Message-ID", "message_id"), ("Subject", "subject"),
                      ("To", "recipient")):
        if name.lower() not in names and data.get(key):
            headers.append((name, header_text(data[key], 2000)))
    message: EmailMessage = AnymailInboundMessage.construct(
        headers=headers, text=data.get("text") or None, html=data.get("html") or None)
    flowed = _flowed_params(original_type)
    if flowed and data.get("text"):
        plain = message.get_body(("plain",))
        for name, value in flowed.items():
            if plain is not None:
                plain.set_param(name, value)
    return message


def _flowed_params(content_type: str) -> dict[str, str]:
    """format=flowed and delsp of a text/plain Content-Type, if it has them."""
    from email.headerregistry import ContentTypeHeader, HeaderRegistry

    header = HeaderRegistry()("content-type", content_type or "text/plain")
    if not isinstance(header, ContentTypeHeader):  # what the registry makes of the name
        return {}
    params = {k.lower(): str(v).lower() for k, v in header.params.items()}
    if header.content_type != "text/plain" or params.get("format") != "flowed":
        return {}
    return {k: params[k] for k in ("format", "delsp") if k in params}


# The token is the authority here, and mail providers' one-click unsubscribe
# (RFC 8058) posts without a CSRF token.
@csrf_exempt
@require_http_methods(["GET", "POST"])
@form_post("List-Unsubscribe")  # RFC 8058's one-click body: List-Unsubscribe=One-Click
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET asks to confirm; POST turns all mail off. No sign-in needed."""
    if signing.unsubscribe_token_read(token) is None:
        return render(request, "notifications/unsubscribe.html", {"invalid": True}, status=400)
    if request.method == "POST":
        if request.POST.get("List-Unsubscribe", "One-Click") != "One-Click":  # RFC 8058
            return render(request, "games/refused.html", {"message": "A one-click "
                          "unsubscribe posts List-Unsubscribe=One-Click."}, status=400)
        user = services.mail_unsubscribe(token=token)
        return render(request, "notifications/unsubscribe.html", {"done": True, "who": user})
    return render(request, "notifications/unsubscribe.html", {"token": token})


@login_required
@require_http_methods(["GET", "POST"])
@form_post("action", "policy", "days", "url", "format", "webhook")
def mail_settings(request: HttpRequest) -> HttpResponse:
    user, now = page_user(request), timezone.now()
    current = mail_settings_get(user)
    policy_form = PolicyForm(initial={"policy": current.policy})
    vacation_form = VacationForm()
    webhook_form = WebhookForm()
    action = request.POST.get("action", "") if request.method == "POST" else ""
    if action.startswith("webhook_"):
        if action == "webhook_add":
            webhook_form = WebhookForm(request.POST)
        if _webhook_action(request, webhook_form):
            return redirect(reverse("notifications:settings") + "#webhooks")
    elif request.method == "POST":
        try:
            if action == "policy":
                policy_form = PolicyForm(request.POST)
                if policy_form.is_valid():
                    services.mail_settings_update(user=user,
                                                  policy=policy_form.cleaned_data["policy"])
                    messages.success(request, "Your mail settings are saved.")
                    return redirect("notifications:settings")
            elif action == "vacation_start":
                vacation_form = VacationForm(request.POST)
                if vacation_form.is_valid():
                    vacation = vacations.vacation_start(user=user,
                                                     days=vacation_form.cleaned_data["days"])
                    messages.success(request, f"Your clocks stand still until "
                                     f"{vacation.ends_at:%d %B %Y %H:%M} UTC.")
                    return redirect("notifications:settings")
            elif action == "vacation_stop":
                vacations.vacation_stop(user=user)
                messages.success(request, "Welcome back: your clocks run again.")
                return redirect("notifications:settings")
            elif action == "bounce_retry":  # the player has fixed their mailbox
                if bounces.bouncing_clear(address=user.email):
                    messages.success(request, f"Mail to {user.email} is sent again; if it "
                                     "bounces for good again, it stops again.")
                return redirect("notifications:settings")
            else:
                messages.error(request, "Nothing was changed: choose a policy or a vacation.")
        except ServiceError as error:
            messages.error(request, error.message[:1].upper() + error.message[1:] + ".")
    left = vacations.vacation_left(user, on=now)
    return render(request, "notifications/settings.html", {
        "policy_form": policy_form,
        "vacation_form": vacation_form,
        "vacation": vacations.vacation_current(user, now),
        "vacation_left": time_words(left.total_seconds()) if left.total_seconds() >= 60
        else "no time",
        "allowance": current.vacation_days_per_year,
        "bouncing": bouncing_address_get(user.email),
        "recent": notifications_recent(user),
        "webhook_form": webhook_form,
        "webhooks": webhooks_with_calls(user),
        "webhooks_most": WEBHOOKS_PER_PLAYER,
    }, status=400 if request.method == "POST" else 200)  # a post shown again was refused


def _webhook_action(request: HttpRequest, form: WebhookForm) -> bool:
    """Carry out the settings page's webhook ``action``: True if it was done (with
    a message saying so); False to show the page again, refused. Another player's
    webhook is a 404."""
    action, user, number = request.POST["action"], page_user(request), request.POST.get("webhook")
    try:
        if action == "webhook_add":
            if not form.is_valid():
                return False
            webhooks.webhook_add(user=user, url=form.cleaned_data["url"],
                                 format=form.cleaned_data["format"])
            messages.success(request, "Your webhook is added: send it a test to see it work.")
        elif action == "webhook_remove":
            webhooks.webhook_remove(user=user, webhook_id=number)
            messages.success(request, "The webhook is removed.")
        elif action in ("webhook_on", "webhook_off"):
            webhooks.webhook_switch(user=user, webhook_id=number, enabled=action == "webhook_on")
            messages.success(request, f"The webhook is turned {action[8:]}.")
        elif action == "webhook_test":
            if services.webhook_test_send(user=user, webhook_id=number):
                messages.success(request, "A test call is on its way; its outcome shows below.")
            else:
                messages.error(request, "A test was sent to this webhook this minute: wait a "
                               "little before the next.")
                return False
        else:
            messages.error(request, "Nothing was changed: choose what to do with a webhook.")
            return False
    except NotFound as error:
        raise Http404(error.message) from None
    except ServiceError as error:
        messages.error(request, error.message[:1].upper() + error.message[1:] + ".")
        return False
    return True
