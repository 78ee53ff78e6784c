"""Celery tasks of the bots app: each takes ids, calls a service, and may run
twice (see games.enqueue)."""

from __future__ import annotations

from celery import shared_task

from bots import services
from bots.selectors import bot_moves_due
from games.enqueue import IDEMPOTENT, enqueue


@shared_task(**IDEMPOTENT)
def bot_move(game_id: int, seq: int) -> bool:
    """Move the bot the game awaits at ``seq``, if it still does."""
    return services.bot_move(game_id, seq) is not None


@shared_task(**IDEMPOTENT)
def bots_sweep() -> int:
    """Enqueue the moves of bots that running games await: what a broker outage or
    a lost task left waiting. Safe at any time (the task checks what is due)."""
    return sum(enqueue(bot_move, game_id, seq) for game_id, seq in bot_moves_due())
