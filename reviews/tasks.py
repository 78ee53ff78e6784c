"""Celery tasks of the reviews app: each takes ids, calls a service, and may run
twice (see games.enqueue)."""

from __future__ import annotations

from celery import shared_task

from games.enqueue import IDEMPOTENT
from reviews import jobs, services


@shared_task(name=jobs.REVIEW_MAKE, **IDEMPOTENT)
def review_make(game_id: int) -> bool:
    """Make the game's pending review, if it still is."""
    return services.review_make(game_id)
