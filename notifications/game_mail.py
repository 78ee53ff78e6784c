"""The mail of games: this app's side of games.mail, the one door through which
the games app asks for mail (settings.MARRAM_GAME_MAIL names ``OutboxMail``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.clocks import ClockChange
from games.models import Event, Game
from games.services import Invited
from games.store import Batch
from notifications import invitations, services


class OutboxMail:
    """games.mail.GameMail written to the outbox: rows only, in the caller's
    transaction; delivery is a task after the commit."""

    def clocks_changed(self, *, game: Game, events: Sequence[Event], change: ClockChange,
                       writes: Batch) -> None:
        services.turn_mails_queue(game, events, change, writes)

    def invitations_made(self, *, game: Game, user: Any, invited: list[Invited]) -> None:
        invitations.invitations_mail(game=game, user=user, invited=invited)

    def game_viewed(self, *, game: Game, user: Any) -> None:
        if user is None or not user.is_authenticated:
            return
        if any(seat.user_id == user.pk for seat in game.seat_list()):
            services.game_viewed_note(user=user, game=game)
