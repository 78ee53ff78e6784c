"""Celery tasks of the reviews app: each takes ids, calls a service, and may run
twice (see games.tasks)."""

from __future__ import annotations

from celery import shared_task

from games.tasks import IDEMPOTENT
from reviews import services


@shared_task(**IDEMPOTENT)
def review_make(game_id: int) -> bool:
    """Make the game's pending review, if it still is."""
    return services.review_make(game_id)
