"""Celery tasks of the tournaments app. ``tournament_game_ended`` follows the
change that ends a game (tournaments.after_move); the beat runs
``tournaments_sweep``. Both may run twice (a result is recorded once)."""

from __future__ import annotations

from celery import shared_task

from games.enqueue import IDEMPOTENT
from tournaments import services


@shared_task(name="tournaments.tasks.tournament_game_ended", **IDEMPOTENT)
def tournament_game_ended(game_id: int) -> bool:
    return services.tournament_game_ended(game_id)


@shared_task(name="tournaments.tasks.tournaments_sweep", **IDEMPOTENT)
def tournaments_sweep() -> dict[str, int]:
    return services.tournaments_sweep()
