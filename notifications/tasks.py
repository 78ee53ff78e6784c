"""Celery tasks: each takes ids, calls a service, and may run twice.

Tasks are acknowledged after they run (CELERY_TASK_ACKS_LATE), so one a worker
was running when it died is delivered again; every service here checks what is
still due under a lock, so the second run does nothing the first one did.
"""

from __future__ import annotations

from celery import shared_task

from games import services as game_services
from games.errors import NotFound
from notifications import services

IDEMPOTENT = {"acks_late": True, "reject_on_worker_lost": True, "ignore_result": True}


@shared_task(**IDEMPOTENT)
def notification_deliver(notification_id: int) -> str:
    return services.notification_deliver(notification_id)


@shared_task(**IDEMPOTENT)
def resolve_chance(game_id: int) -> int:
    """Draw the fly or frog event the game waits for (and what follows it)."""
    try:
        return len(game_services.chance_resolve(game_id))
    except NotFound:
        return 0


@shared_task(**IDEMPOTENT)
def outbox_sweep() -> dict[str, int]:
    return services.outbox_sweep()


@shared_task(**IDEMPOTENT)
def clocks_check() -> dict[str, int]:
    return services.clocks_check()


@shared_task(**IDEMPOTENT)
def digests_send() -> int:
    return services.digests_send()
