"""The mail of games beyond a change's turn mails (notifications.after_move): this
app's side of games.mail, through which the games app asks for the mail of
invitations and tells of visits (settings.MARRAM_GAME_MAIL names ``OutboxMail``)."""

from __future__ import annotations

from typing import Any

from games.mail import Invited
from games.models import Game
from notifications import invitations, services


class OutboxMail:
    """games.mail.GameMail written to the outbox: rows only, in the caller's
    transaction; delivery is a task after the commit."""

    def invitations_made(self, *, game: Game, user: Any, invited: list[Invited]) -> None:
        invitations.invitations_mail(game=game, user=user, invited=invited)

    def game_viewed(self, *, game: Game, user: Any) -> None:
        if user is None or not user.is_authenticated:
            return
        if any(seat.user_id == user.pk for seat in game.seat_list()):
            services.game_viewed_note(user=user, game=game)
