"""The mail page (notifications.mailbox): read the mail the site sent you, answer
it; read the mail to an address without signing in (``?to=``) where no mail
leaves the machine. Thin views; a 404 wherever ``MARRAM_MAIL_INBOX_PAGE`` is off."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from accounts.auth import page_user
from notifications import board_mail, inbound, mailbox
from notifications.models import InboundMail, Notification
from web.bodies import form_post
from web.errors import Invalid, NotFound, ServiceError

Outcome = InboundMail.Outcome


class AddressForm(forms.Form):
    to = forms.CharField(label="Address", max_length=254)


class ReplyForm(forms.Form):
    to = forms.CharField(label="To", max_length=250)
    subject = forms.CharField(label="Subject", max_length=200, required=False)
    text = forms.CharField(
        label="Your reply", max_length=20_000, strip=False,
        widget=forms.Textarea(attrs={"rows": 14, "spellcheck": "false"}),
        help_text="As in a mail client: write your move on the first line, above the "
                  "quoted mail.")


def _inbox_page(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    """Off (404) unless the setting is on; signed-in players only."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not mailbox.mailbox_enabled():
            raise Http404("there is no mail page here")
        return login_required(view)(request, *args, **kwargs)

    return wrapped


def _mail_or_404(request: HttpRequest, mail_id: int) -> Notification:
    try:
        return mailbox.mailbox_mail_get(page_user(request), mail_id)
    except NotFound as e:
        raise Http404(e.message) from None


@require_GET
def mail_list(request: HttpRequest) -> HttpResponse:
    """The signed-in player's mail, or with ``?to=`` the mail to an address that
    needs no sign-in (where mail may be read by address; a 404 elsewhere)."""
    if not mailbox.mailbox_enabled():
        raise Http404("there is no mail page here")
    by_address = mailbox.mailbox_by_address_enabled()
    form = AddressForm(request.GET if "to" in request.GET else None)
    page = {"from_address": settings.DEFAULT_FROM_EMAIL, "by_address": by_address,
            "address_form": form}
    if "to" in request.GET:
        if not by_address:
            raise Http404("mail is read by address only where no mail leaves the machine")
        if not form.is_valid():
            return render(request, "notifications/mailbox.html", page, status=400)
        try:
            mails = mailbox.mailbox_shown_to(form.cleaned_data["to"])
        except Invalid as e:
            form.add_error("to", e.message[:1].upper() + e.message[1:] + ".")
            return render(request, "notifications/mailbox.html", page, status=400)
        return render(request, "notifications/mailbox.html", {
            **page, "mails": mails, "to": form.cleaned_data["to"]})
    if not request.user.is_authenticated:
        if not by_address:
            return redirect_to_login(request.get_full_path())
        return render(request, "notifications/mailbox.html", page)
    return render(request, "notifications/mailbox.html", {
        **page,
        "mails": mailbox.mailbox_shown(request.user),
        "replies": mailbox.mailbox_replies(request.user)[:mailbox.SHOWN],
        "address": request.user.email,
        "yours": True,
    })


@_inbox_page
@require_http_methods(["GET", "POST"])
@form_post("to", "subject", "text")
def mail_reply(request: HttpRequest, mail_id: int) -> HttpResponse:
    mail = _mail_or_404(request, mail_id)
    if request.method == "GET":
        form = ReplyForm(initial={"to": mail.reply_to, "subject": mailbox.reply_subject(mail),
                                  "text": mailbox.reply_quote(mail)})
        return render(request, "notifications/mailbox_reply.html", {"form": form, "mail": mail})
    form = ReplyForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            result = mailbox.mailbox_reply_send(user=page_user(request), mail=mail, to=data["to"],
                                                subject=data["subject"], text=data["text"])
        except ServiceError as e:
            form.add_error(None, e.message[:1].upper() + e.message[1:] + ".")
        else:
            _say(request, result)
            return redirect("notifications:mailbox")
    return render(request, "notifications/mailbox_reply.html", {"form": form, "mail": mail},
                  status=400)


def _say(request: HttpRequest, result: inbound.InboundResult) -> None:
    if result.outcome == Outcome.PLAYED:
        messages.success(request, f"Sent. The site played {result.message}; its answer is "
                         "below.")
    elif result.outcome == Outcome.REFUSED:
        answer = "its answer is below" if result.answered else "no answer was mailed"
        messages.error(request, f"Sent. The site refused it ({result.message}); {answer}, "
                       "and nothing changed in the game.")
    elif result.outcome == "duplicate":
        messages.info(request, "Sent, but the site had handled this message before.")
    else:
        messages.info(request, "Sent to an address that plays no move, so nothing happened: "
                      "answer a mail that asks for your move, to its reply address.")


@_inbox_page
@require_GET
def mail_board(request: HttpRequest, mail_id: int) -> HttpResponse:
    """The board picture a mail showed, drawn again."""
    picture = board_mail.picture_for(_mail_or_404(request, mail_id))
    if picture is None:
        raise Http404("that mail shows no board")
    response = HttpResponse(picture[1], content_type="image/png")
    response["Cache-Control"] = "private, max-age=3600"
    return response
