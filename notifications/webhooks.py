"""A player's webhooks: addresses called when it is their turn, as Rally the
Troops does, in plain JSON or in the shape Discord's and Slack's incoming
webhooks read.

Each call is a row of the mail's outbox (kind ``webhook_turn`` or
``webhook_test``, its ``webhook`` set), so it is delivered as mail is: at least
once, retried with the same back-off, its failures kept on the row. A "your
turn" mail row, as it is delivered, writes one call for each of the player's
webhooks that is on (``turn_calls``): the calls are thus written exactly where
and when that mail is, for the same seats (never a computer's), and the move
itself costs nothing more. The mail policy does not apply to webhooks: a
player who sets one up wants every turn, and turns a webhook off to stop it.

What is sent is public: the game, its players' names, the seq and the link to
the game's page; never the seed, a hand or anything else the page hides.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.urls import reverse

from games.models import Seat
from games.selectors import rules_of
from notifications import webhook_http
from notifications.models import WEBHOOKS_PER_PLAYER, Notification, Webhook
from web.errors import Conflict, Invalid, NotFound
from web.links import site_url

Kind = Notification.Kind


# ---------------------------------------------------------------- the player's webhooks


def webhook_add(*, user: User, url: str, format: str) -> Webhook:
    """A new webhook of the player's; Invalid if the address cannot be one (or is
    refused as it is written), Conflict past WEBHOOKS_PER_PLAYER or for an
    address they already have."""
    url = url.strip()
    problem = webhook_http.url_problem(url)
    if problem:
        raise Invalid(problem, code="bad_webhook_url", field="url")
    if format not in Webhook.Format.values:
        raise Invalid(f"the format is one of {', '.join(Webhook.Format.values)}",
                      code="bad_webhook_format", field="format")
    with transaction.atomic():  # one player's additions one at a time
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        mine = Webhook.objects.filter(user=user)
        if mine.filter(url=url).exists():
            raise Conflict("you already have a webhook to that address", code="webhook_exists")
        if mine.count() >= WEBHOOKS_PER_PLAYER:
            raise Conflict(f"you have {WEBHOOKS_PER_PLAYER} webhooks, the most a player may "
                           "have: remove one first", code="too_many_webhooks")
        return Webhook.objects.create(user=user, url=url, format=format)


def webhook_get(*, user: User, webhook_id: Any) -> Webhook:
    """The player's own webhook of that id; NotFound for anyone else's."""
    try:
        found = Webhook.objects.filter(user=user, pk=int(webhook_id)).first()
    except (TypeError, ValueError, OverflowError):
        found = None
    if found is None:
        raise NotFound("you have no webhook of that number", code="no_such_webhook")
    return found


def webhook_remove(*, user: User, webhook_id: Any) -> None:
    """Remove a webhook of the player's, with its calls still to make."""
    webhook_get(user=user, webhook_id=webhook_id).delete()


def webhook_switch(*, user: User, webhook_id: Any, enabled: bool) -> Webhook:
    """Turn a webhook of the player's on or off; calls waiting while it is off
    are not made."""
    webhook = webhook_get(user=user, webhook_id=webhook_id)
    webhook.enabled = enabled
    webhook.save(update_fields=["enabled"])
    return webhook


# ---------------------------------------------------------------- the calls


def turn_calls(mail: Notification) -> list[Notification]:
    """The calls a "your turn" mail row asks for: one to each webhook of its
    player that is on (none to a player without a webhook)."""
    if mail.user_id is None:  # a turn mail is a player's
        return []
    return [Notification(
        user_id=mail.user_id, game_id=mail.game_id, seat=mail.seat, seq=mail.seq,
        kind=Kind.WEBHOOK_TURN, webhook=webhook,
        dedup_key=f"webhook_turn:{webhook.pk}:{mail.game_id}:{mail.seat}:{mail.seq}",
    ) for webhook in Webhook.objects.filter(user_id=mail.user_id, enabled=True)]


def test_call(webhook: Webhook, now: datetime) -> Notification:
    """A test call to the webhook: one a minute at most (its dedup key)."""
    return Notification(user_id=webhook.user_id, kind=Kind.WEBHOOK_TEST, webhook=webhook,
                        dedup_key=f"webhook_test:{webhook.pk}:{now:%Y%m%d%H%M}")


def call_skip_reason(call: Notification) -> str:
    """Why a call should not be made after all; '' to make it."""
    if call.webhook is None:
        return "the webhook was removed"
    if not call.webhook.enabled:
        return "the webhook is turned off"
    return ""


def call_make(call: Notification) -> None:
    """Make a call of the outbox: its body is written on the first attempt, so a
    retry sends the same bytes. Raises as webhook_http.post_json does."""
    assert call.webhook is not None
    if not call.body_text:
        call.body_text = json.dumps(call_body(call), ensure_ascii=False)
    webhook_http.post_json(call.webhook.url, call.body_text.encode(), {
        "User-Agent": f"{settings.MARRAM_SITE_NAME}-webhook (+{site_url('/')})",
        "X-Marram-Event": "your_turn" if call.kind == Kind.WEBHOOK_TURN else "test",
        # the same on every attempt: a receiver may fold repeats away with it
        "X-Marram-Delivery": call.message_id.strip("<>"),
    })


def call_body(call: Notification) -> dict[str, Any]:
    """The JSON a call sends, in its webhook's format; only what is public."""
    assert call.webhook is not None
    player = call.user.get_username() if call.user is not None else ""
    if call.kind == Kind.WEBHOOK_TEST:
        facts: dict[str, Any] = {"event": "test", "player": player,
                                 "url": site_url(reverse("notifications:settings"))}
        words = f"{player}: this webhook works; {settings.MARRAM_SITE_NAME} will call it " \
                "when it is your turn."
    else:
        game = call.game
        assert game is not None
        title = rules_of(game).title
        facts = {
            "event": "your_turn", "game_id": game.pk, "game": game.game, "title": title,
            "url": site_url(f"/games/{game.pk}/"), "seq": call.seq, "player": player,
            "players": list(Seat.objects.filter(game=game).order_by("index")
                            .values_list("name", flat=True)),
        }
        words = f"{player}: your turn in {title} game {game.pk}"
    if call.webhook.format == Webhook.Format.DISCORD:  # no @everyone from a user name
        return {"content": f"{_discord_text(words)} {facts['url']}",
                "allowed_mentions": {"parse": []}}
    if call.webhook.format == Webhook.Format.SLACK:
        return {"text": f"{_slack_text(words)} <{facts['url']}>"}
    return facts


def _discord_text(text: str) -> str:
    """Text with Discord's markdown characters taken literally."""
    return "".join(f"\\{c}" if c in "\\*_~`|>#[]()" else c for c in text)


def _slack_text(text: str) -> str:
    """Text with the three characters Slack asks to escape escaped."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
