"""A tournament's table hears of its game's end as a follower of the change that
ends it (games.after_move, listed in ``settings.MARRAM_AFTER_MOVE``): a task
records the result in the tournament's log once the change is committed."""

from __future__ import annotations

from collections.abc import Sequence

from games.after_move import Moved
from games.enqueue import Task
from tournaments.tasks import tournament_game_ended


class TournamentResult:
    def rows(self, moved: Moved) -> Sequence[object]:
        return ()

    def tasks(self, moved: Moved, rows: Sequence[object]) -> Sequence[Task]:
        return (Task(tournament_game_ended, (moved.game.pk,)),) if moved.finished else ()
