"""Hosted providers' inbound webhooks, each posted to the real endpoint in the
provider's own form (what Postmark, SendGrid and Mailgun post, with the Basic
auth or signature they send): the same reading as by SMTP, HTML-only replies
and auto-replies included. The site's own JSON form keeps working, with the
HTML and headers added."""

from __future__ import annotations

import base64
import json

import pytest
from django.core import mail

from games.models import Event
from notifications.models import InboundMail, Notification
from notifications.services import notification_deliver
from notifications.signing import reply_address
from tests.service.conftest import make_user, start_game_of
from tests.service.mail_kit import MAIL_DEAL
from tests.service.test_mail_corpus import (
    MAILGUN_KEY,
    WEBHOOK_SECRET,
    case_by_name,
    corpus_mail,
    mailgun_post,
)

pytestmark = pytest.mark.django_db
AUTH = "Basic " + base64.b64encode(f"marram:{WEBHOOK_SECRET}".encode()).decode()


@pytest.fixture
def hosted(settings):
    settings.MAIL_WEBHOOK_SECRET = WEBHOOK_SECRET
    settings.MAILGUN_WEBHOOK_SIGNING_KEY = MAILGUN_KEY


@pytest.fixture
def pond():
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game_of("pond", [ann, bob], seed=MAIL_DEAL)
    Notification.objects.filter(game=game).update(status="sent")
    return game, ann, reply_address(game.pk, 0, game.seq)


def delivered() -> list:
    for pk in Notification.objects.filter(status="pending").values_list("pk", flat=True):
        notification_deliver(pk)
    return list(mail.outbox)


def moves(game) -> list[dict]:
    return [e.payload for e in Event.objects.filter(game=game, actor__isnull=False)]


def postmark(client, payload, auth=AUTH):
    return client.post("/mail/inbound/postmark/", data=json.dumps(payload),
                       content_type="application/json", HTTP_AUTHORIZATION=auth)


def test_postmark_posts_an_html_only_reply_and_it_plays(client, hosted, pond):
    game, ann, to = pond
    answer = postmark(client, {
        "FromFull": {"Email": ann.email, "Name": "Ann"}, "From": ann.email, "To": to,
        "ToFull": [{"Email": to, "Name": ""}], "OriginalRecipient": to,
        "Subject": "Re: Pond game: your move", "MessageID": "1d2e3f",
        "TextBody": "", "HtmlBody": '<div dir="ltr">egg 1,0&nbsp;</div><div class="gmail_quote">'
        "<blockquote>egg 0,0</blockquote></div>",
        "Headers": [{"Name": "Return-Path", "Value": f"<{ann.email}>"},
                    {"Name": "Message-ID", "Value": "<html-only@client.example>"}],
        "Attachments": []})
    assert answer.status_code == 200
    assert moves(game) == [{"type": "egg", "player": 0, "at": [1, 0]}]
    [played] = [m for m in delivered() if m.to == [ann.email]]
    assert played.body.startswith(f"Played in Pond game {game.pk}")


def test_postmark_posts_an_out_of_office_and_nobody_is_answered(client, hosted, pond):
    game, ann, to = pond
    answer = postmark(client, {
        "FromFull": {"Email": ann.email, "Name": "Ann"}, "From": ann.email, "To": to,
        "Subject": "Automatic reply: Pond game: your move", "TextBody": "I am away.",
        "Headers": [{"Name": "Return-Path", "Value": "<>"},
                    {"Name": "Message-ID", "Value": "<ooo@client.example>"},
                    {"Name": "X-Auto-Response-Suppress", "Value": "All"}]})
    assert answer.status_code == 200
    assert moves(game) == [] and delivered() == []
    assert InboundMail.objects.get().code == "automatic"


def test_sendgrid_posts_the_raw_message(client, hosted, pond):
    game, ann, to = pond
    raw = corpus_mail(case_by_name("outlook_desktop_pond"), sender=ann.email, to=to)
    answer = client.post("/mail/inbound/sendgrid/", data={
        "email": raw.decode("ascii"), "to": to, "from": ann.email,
        "envelope": json.dumps({"to": [to], "from": ann.email}), "charsets": "{}"},
        HTTP_AUTHORIZATION=AUTH)
    assert answer.status_code == 200
    assert moves(game) == [{"type": "egg", "player": 0, "at": [1, 0]}]


def test_a_post_without_the_providers_check_changes_nothing(client, hosted, pond, settings):
    game, ann, to = pond
    assert postmark(client, {"From": ann.email, "To": to, "TextBody": "egg 1,0"},
                    auth="Basic " + base64.b64encode(b"marram:guess").decode()).status_code == 400
    raw = corpus_mail(case_by_name("gmail_text_html_pond"), sender=ann.email, to=to)
    settings.MAILGUN_WEBHOOK_SIGNING_KEY = "another key"  # the signature no longer matches
    assert mailgun_post(client, raw, sender=ann.email, recipient=to).status_code == 400
    settings.MAILGUN_WEBHOOK_SIGNING_KEY = ""
    assert mailgun_post(client, raw, sender=ann.email, recipient=to).status_code == 404
    assert client.post("/mail/inbound/nosuch/", data={}).status_code == 404
    settings.MAIL_WEBHOOK_SECRET = ""
    assert postmark(client, {"From": ann.email}).status_code == 404
    assert moves(game) == [] and not InboundMail.objects.exists()


def post_json(client, payload):
    return client.post("/mail/inbound/", data=json.dumps(payload),
                       content_type="application/json",
                       HTTP_X_MARRAM_WEBHOOK_SECRET=WEBHOOK_SECRET)


def test_the_json_webhook_reads_html_headers_and_raw_messages(client, hosted, pond):
    game, ann, to = pond
    # the form as it was: four strings still play
    first = post_json(client, {"recipient": to, "sender": ann.email, "message_id": "<j1@c>",
                               "text": "", "html": "<p>egg&nbsp;1,0.</p>"})
    assert first.json()["outcome"] == "played"
    ooo = post_json(client, {"recipient": to, "sender": ann.email, "message_id": "<j2@c>",
                             "text": "I am away", "headers": [["X-Autoreply", "yes"]]})
    assert ooo.json() == {"outcome": "ignored", "code": "automatic", "message": ""}
    bounce = post_json(client, {"recipient": to, "envelope_sender": "",
                                "raw": corpus_mail(case_by_name("exchange_ndr"),
                                                   sender=ann.email, to=to).decode()})
    assert bounce.json()["code"] == "automatic"
    assert post_json(client, {"recipient": to, "sender": "x", "message_id": "y", "text": "z",
                              "headers": "no"}).status_code == 400
    assert moves(game) == [{"type": "egg", "player": 0, "at": [1, 0]}]
