"""Celery tasks of the games app: the chance a change leaves a game waiting for,
drawn once the change is committed (the tasks' options and how they are
enqueued: games.enqueue)."""

from __future__ import annotations

from collections.abc import Sequence

from celery import shared_task

from games.after_move import Moved
from games.enqueue import IDEMPOTENT, Task
from games.services import moves
from web.errors import NotFound


@shared_task(**IDEMPOTENT)
def resolve_chance(game_id: int) -> int:
    """Draw the chance event the game waits for (and what follows it)."""
    try:
        return len(moves.chance_resolve(game_id))
    except NotFound:
        return 0


class ChanceDraw:
    """After a change that leaves the game waiting for chance (the rules' own
    draw, not drawn inline: ``settings.MARRAM_DRAW_INLINE``), a task draws it
    (games.services.append)."""

    def rows(self, moved: Moved) -> Sequence[object]:
        return ()

    def tasks(self, moved: Moved, rows: Sequence[object]) -> Sequence[Task]:
        if moved.game.projection["awaiting"]["kind"] != "chance":
            return ()
        return (Task(resolve_chance, (moved.game.pk,)),)
