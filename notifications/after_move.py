"""The mail a change to a game calls for, as a follower of the change
(games.after_move, listed in ``settings.MARRAM_AFTER_MOVE``): when the change
starts or stops clocks, its turn mails are rows of the outbox written with the
change, and their delivery is enqueued once it is committed."""

from __future__ import annotations

from collections.abc import Sequence

from games.after_move import Moved
from games.enqueue import Task
from notifications.models import Notification
from notifications.services import delivery_tasks, turn_mails


class TurnMail:
    """"Your turn", "game started", "game over" (notifications.services.turn_mails)."""

    def rows(self, moved: Moved) -> Sequence[Notification]:
        if moved.clocks is None:  # no turn began or ended: no mail is due
            return ()
        return turn_mails(moved.game, moved.events, moved.clocks)

    def tasks(self, moved: Moved, rows: Sequence[Notification]) -> Sequence[Task]:
        return delivery_tasks([row for row in rows if row.status == Notification.Status.PENDING])
