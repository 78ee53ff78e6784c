"""The ratings a finished game changes, as a follower of the change that ends it
(games.after_move, listed in ``settings.MARRAM_AFTER_MOVE``): a task takes the
game into its pool once the change is committed."""

from __future__ import annotations

from collections.abc import Sequence

from games.after_move import Moved
from games.enqueue import Task
from ratings.tasks import ratings_update


class RatingsUpdate:
    def rows(self, moved: Moved) -> Sequence[object]:
        return ()

    def tasks(self, moved: Moved, rows: Sequence[object]) -> Sequence[Task]:
        return (Task(ratings_update, (moved.game.pk,)),) if moved.finished else ()
