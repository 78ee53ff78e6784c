"""Celery tasks: each takes ids, calls a service, and may run twice.

Webhook calls (``webhook_deliver``) go to a queue of their own, ``webhooks``
(settings.CELERY_TASK_ROUTES), which its own workers take (docker-compose.yml's
``webhooks`` service); pushes (``push_deliver``, ``push_drain``) to ``push``
(the ``push`` service); everything else to the default queue, ``celery``.

Tasks are acknowledged after they run (CELERY_TASK_ACKS_LATE), so one a worker
was running when it died is delivered again; every service here checks what is
still due under a lock, so the second run does nothing the first one did.
"""

from __future__ import annotations

from celery import shared_task

from games.enqueue import IDEMPOTENT
from notifications import jobs, services


@shared_task(name=jobs.NOTIFICATION_DELIVER, **IDEMPOTENT)
def notification_deliver(notification_id: int) -> str:
    return services.notification_deliver(notification_id)


@shared_task(name=jobs.WEBHOOK_DELIVER, **IDEMPOTENT)
def webhook_deliver(notification_id: int) -> str:
    """A webhook call of the outbox: the same delivery as a mail's, as a task of
    its own so that it runs on the ``webhooks`` queue (settings.CELERY_TASK_ROUTES)
    and a slow receiver holds a webhook worker, never a mail worker."""
    return services.notification_deliver(notification_id)


@shared_task(name=jobs.PUSH_DELIVER, **IDEMPOTENT)
def push_deliver(notification_id: int) -> str:
    """A push row of the outbox (notifications.push): fanned out to its player's
    devices, or sent to its device, on the ``push`` queue."""
    return services.notification_deliver(notification_id)


@shared_task(name=jobs.PUSH_DRAIN, **IDEMPOTENT)
def push_drain() -> dict[str, int]:
    return services.push_drain()


@shared_task(name=jobs.OUTBOX_DRAIN, **IDEMPOTENT)
def outbox_drain() -> dict[str, int]:
    return services.outbox_drain()


@shared_task(**IDEMPOTENT)
def outbox_sweep() -> dict[str, int]:
    return services.outbox_sweep()


@shared_task(**IDEMPOTENT)
def clocks_check() -> dict[str, int]:
    return services.clocks_check()


@shared_task(**IDEMPOTENT)
def digests_send() -> int:
    return services.digests_send()
