"""Reads for notifications: a player's mail settings, their visits, what waits for
them. Nothing here writes."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db.models import QuerySet

from games.models import Game, Seat
from notifications.models import (
    PUSH_KINDS,
    WEBHOOK_KINDS,
    BouncingAddress,
    GameVisit,
    MailSettings,
    Notification,
    Webhook,
)


def mail_settings_get(user: User) -> MailSettings:
    """The player's settings; the defaults (unsaved) if they never chose."""
    found = MailSettings.objects.filter(user=user).first()
    return found if found is not None else MailSettings(user=user)


def game_visit_get(*, user_id: int, game_id: int) -> GameVisit | None:
    return GameVisit.objects.filter(user_id=user_id, game_id=game_id).first()


def games_waiting_for(user: User) -> list[Game]:
    """Running games that wait for the user, oldest turn first."""
    seats = Seat.objects.filter(user=user, resigned=False, game__status=Game.Status.RUNNING)
    waiting = [
        seat.game for seat in seats.select_related("game")
        if seat.index in (seat.game.projection.get("to_act") or [])
    ]
    return sorted(waiting, key=lambda game: game.pk)


def notifications_recent(user: User, limit: int = 20) -> QuerySet[Notification]:
    return (Notification.objects.filter(user=user).exclude(kind__in=(*WEBHOOK_KINDS, *PUSH_KINDS))
            .select_related("game")[:limit])


@dataclass(frozen=True)
class WebhookCalls:
    """A webhook of the player's with its latest calls."""

    webhook: Webhook
    recent: list[Notification]
    """Its latest calls, pending, made or failed, newest first."""
    last_success: Notification | None
    """Its latest call made."""


def webhooks_with_calls(user: User, calls: int = 5) -> list[WebhookCalls]:
    """The player's webhooks, each with its latest calls."""
    found = []
    for webhook in Webhook.objects.filter(user=user):
        rows = Notification.objects.filter(webhook=webhook).select_related("game")
        found.append(WebhookCalls(
            webhook, list(rows[:calls]),
            rows.filter(status=Notification.Status.SENT).order_by("-sent_at").first()))
    return found


def bouncing_address_get(address: str) -> BouncingAddress | None:
    """Why mail to ``address`` is no longer sent (its mail bounces for good), or
    None when it is sent."""
    if not address:
        return None
    return BouncingAddress.objects.filter(address=address.strip().lower()).first()
