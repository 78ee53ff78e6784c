"""The moves of computer players after a change to a game, as a follower of the
change (games.after_move, listed in ``settings.MARRAM_AFTER_MOVE``): once the
change is committed, a task moves the bots among the seats it leaves awaited."""

from __future__ import annotations

from collections.abc import Sequence

from bots.tasks import bot_move
from games.after_move import Moved
from games.enqueue import Task
from games.models import Game, Seat


class ComputerMoves:
    def rows(self, moved: Moved) -> Sequence[object]:
        return ()

    def tasks(self, moved: Moved, rows: Sequence[object]) -> Sequence[Task]:
        """A task to move the bots awaited, if any and no chance is pending. The
        seats computers hold come with a move's read of the game
        (``moved.computer_seats``: games.store.MoveRead), and are otherwise (a
        server's change) looked up now, the change committed. A seat that changes
        hands (a takeover) does so under the lock of a server change, which moves
        the game on, so a move that read the seats before writes nothing (its
        write expects the seq it read) and reads the game again."""
        game = moved.game
        if game.status != Game.Status.RUNNING:
            return ()
        projection = game.projection or {}
        awaited = list(projection.get("to_act") or [])
        if not awaited or (projection.get("awaiting") or {}).get("kind") == "chance":
            return ()
        if moved.computer_seats is None:
            if not Seat.objects.filter(game_id=game.pk, index__in=awaited,
                                       user__bot__isnull=False).exists():
                return ()
        elif not moved.computer_seats.intersection(awaited):
            return ()
        # a move thinks for seconds: where tasks run in the web process (./dev run),
        # after the answer to whoever committed, not inside their request
        return (Task(bot_move, (game.pk, game.seq), background=True),)
