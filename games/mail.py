"""The one door from the games app to the mail: what a change to a game asks of it.

The notifications app builds on this one (its models point at games, its
inbound mail plays moves through games.services); games never imports it
(tests/service/test_app_boundaries.py). Where a change to a game calls for mail,
games.services calls, by name, a method of ``GameMail`` on the object that
``settings.MARRAM_GAME_MAIL`` names (notifications.services.OutboxMail): the
project's settings put the two apps together, and a reader of the write path
finds the mail's code from there.

What ``clocks_changed`` writes (a mail in the outbox) is queued on the change's
own batch, so it is committed with the change or not at all, though a player's
move holds no lock and no transaction (games.services says how changes are
written); no method may do I/O (delivery is a task that runs after the commit).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from django.conf import settings
from django.utils.module_loading import import_string

if TYPE_CHECKING:
    from games.clocks import ClockChange
    from games.models import Event, Game
    from games.services import Invited
    from games.store import Batch


class GameMail(Protocol):
    def clocks_changed(self, *, game: Game, events: Sequence[Event], change: ClockChange,
                       writes: Batch) -> None:
        """Events appended to ``game`` (its row already as after them; locked
        or not, as games.services says) started or stopped clocks (``change``): queue the
        mails that calls for (a turn begun, the game started or over) on
        ``writes``, which stores them with the events in one round trip. The new
        events are not in the database yet."""

    def invitations_made(self, *, game: Game, user: Any, invited: list[Invited]) -> None:
        """``user`` invited people to ``game`` (locked): the join link of each
        invitation with an address is to be mailed to it."""

    def game_viewed(self, *, game: Game, user: Any) -> None:
        """``user`` (perhaps anonymous) has loaded ``game`` (its seats loaded):
        a player looking at a game needs no mail about it."""


class NoMail:
    """A GameMail that sends nothing: for a site without mail, or a test of the
    games app on its own."""

    def clocks_changed(self, **_: Any) -> None:
        pass

    def invitations_made(self, **_: Any) -> None:
        pass

    def game_viewed(self, **_: Any) -> None:
        pass


def game_mail() -> GameMail:
    """The GameMail of this site: ``settings.MARRAM_GAME_MAIL``, a class made with
    no arguments."""
    mail: GameMail = import_string(settings.MARRAM_GAME_MAIL)()
    return mail
