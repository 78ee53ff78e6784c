"""Celery tasks of the reviews app: each takes ids, calls a service, and may run
twice (see games.enqueue). ``review_make`` follows a request; the beat runs
``reviews_sweep``."""

from __future__ import annotations

from celery import shared_task

from games.enqueue import IDEMPOTENT
from reviews import jobs, services


@shared_task(name=jobs.REVIEW_MAKE, **IDEMPOTENT)
def review_make(game_id: int, enqueued_at: str | None = None) -> bool:
    """Make the game's pending review, if it still is and no later enqueue
    superseded this task."""
    return services.review_make(game_id, enqueued_at)


@shared_task(name="reviews.tasks.reviews_sweep", **IDEMPOTENT)
def reviews_sweep() -> int:
    """Enqueue again the reviews whose task was lost (services.reviews_sweep)."""
    return services.reviews_sweep()
