"""The one door from the games app to the mail beyond what follows a move
(games.after_move, where the turn mails come from): invitations to mail, and
who is looking at a game.

The notifications app builds on this one (its models point at games, its
inbound mail plays moves through games.services); games never imports it
(tests/service/test_app_boundaries.py). Where the games
app calls for such mail, it calls, by name, a method of ``GameMail`` on the
object that ``settings.MARRAM_GAME_MAIL`` names (notifications.game_mail.OutboxMail):
the project's settings put the two apps together.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from django.conf import settings
from django.utils.module_loading import import_string

from games.models import Game, Invitation


@dataclass
class Invited:
    """An invitation just made, and the link that takes its seat."""

    invitation: Invitation
    url: str


class GameMail(Protocol):
    def invitations_made(self, *, game: Game, user: Any, invited: list[Invited]) -> None:
        """``user`` invited people to ``game`` (locked): the join link of each
        invitation with an address is to be mailed to it."""

    def game_viewed(self, *, game: Game, user: Any) -> None:
        """``user`` (perhaps anonymous) has loaded ``game`` (its seats loaded):
        a player looking at a game needs no mail about it."""


class NoMail:
    """A GameMail that sends nothing: for a site without mail, or a test of the
    games app on its own."""

    def invitations_made(self, **_: Any) -> None:
        pass

    def game_viewed(self, **_: Any) -> None:
        pass


def game_mail() -> GameMail:
    """The GameMail of this site: ``settings.MARRAM_GAME_MAIL``, a class made with
    no arguments."""
    mail: GameMail = import_string(settings.MARRAM_GAME_MAIL)()
    return mail
