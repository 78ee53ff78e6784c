"""Celery tasks of the bots app: each takes ids, calls a service, and may run
twice (see games.tasks)."""

from __future__ import annotations

from celery import shared_task

from bots import services
from games.tasks import IDEMPOTENT


@shared_task(**IDEMPOTENT)
def bot_move(game_id: int, seq: int) -> bool:
    """Move the bot the game awaits at ``seq``, if it still does."""
    return services.bot_move(game_id, seq) is not None


@shared_task(**IDEMPOTENT)
def bots_sweep() -> int:
    return services.bots_sweep()
