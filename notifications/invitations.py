"""Invitation mail. A player who invites people to a game by address
(games.services.game_invite, through games.mail) has one mail per address written to the
outbox, in the transaction that stores the invitations; the outbox's task sends
it after the commit and retries it if the mail server fails, so neither a slow
nor a broken mail server holds up or fails the invitation itself."""

from __future__ import annotations

from typing import Any

from games.models import Game
from notifications import emails
from notifications.models import Notification
from notifications.services import notifications_queue


def invitations_mail(*, game: Game, user: Any, invited: list[Any]) -> list[int]:
    """Write the invitation mail of each invitation with an address; their ids."""
    rows = []
    for item in invited:
        invitation = item.invitation
        if not invitation.email:
            continue  # a link to pass on: nobody to mail
        context = {**emails.links(user_id=None, game=game), "inviter": user.get_username(),
                   "url": item.url}
        text, html = emails.render_bodies(template="invitation", context=context)
        rows.append(Notification(
            to_email=invitation.email, game=game, kind=Notification.Kind.INVITATION,
            dedup_key=f"invitation:{invitation.pk}",
            subject=f"{user.get_username()} invites you to a game of "
                    f"{emails.game_title(game)}"[:200],
            body_text=text, body_html=html))
    return notifications_queue(rows) if rows else []
