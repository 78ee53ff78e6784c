"""Celery tasks of the ratings app. ``ratings_update`` is enqueued once a change
that finishes a game is committed (ratings.after_move); the beat runs
``ratings_sweep`` for any whose task was lost. Both may run twice: a game is
taken in once (RatedGame is one a game, written under the pool's lock)."""

from __future__ import annotations

from celery import shared_task

from games.enqueue import IDEMPOTENT
from ratings import services


@shared_task(name="ratings.tasks.ratings_update", **IDEMPOTENT)
def ratings_update(game_id: int) -> int:
    return services.ratings_update(game_id)


@shared_task(name="ratings.tasks.ratings_sweep", **IDEMPOTENT)
def ratings_sweep() -> int:
    return services.ratings_sweep()
