"""What notifications does when games change or are looked at (games.signals)."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from games.models import Game
from games.signals import events_appended, game_viewed
from notifications import services


@receiver(events_appended, dispatch_uid="notifications.game_events")
def on_events_appended(sender: Any, *, game: Game, events: list, state: Any, writes: Any,
                       awaited_before: tuple[int, ...] = (), **_: Any) -> None:
    # Inside the appending transaction: rows only (queued with the events), delivery
    # after the commit.
    services.game_events_follow(game, events, state, writes, awaited_before)


@receiver(game_viewed, dispatch_uid="notifications.game_viewed")
def on_game_viewed(sender: Any, *, game: Game, user: Any, **_: Any) -> None:
    if user is None or not user.is_authenticated:
        return
    if any(seat.user_id == user.pk for seat in game.seats.all()):
        services.game_viewed_note(user=user, game=game)
