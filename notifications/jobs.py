"""The notifications app's tasks as its services enqueue them: Celery signatures
by the names notifications.tasks registers its tasks under. The tasks call the
services and the services enqueue these, so neither module imports the other
(tests/service/test_app_boundaries.py checks that each name is a task)."""

from __future__ import annotations

from celery import Signature, signature

NOTIFICATION_DELIVER = "notifications.tasks.notification_deliver"
WEBHOOK_DELIVER = "notifications.tasks.webhook_deliver"
PUSH_DELIVER = "notifications.tasks.push_deliver"
PUSH_DRAIN = "notifications.tasks.push_drain"
OUTBOX_DRAIN = "notifications.tasks.outbox_drain"

notification_deliver: Signature = signature(NOTIFICATION_DELIVER)
"""Send one row of the outbox (a mail)."""
webhook_deliver: Signature = signature(WEBHOOK_DELIVER)
"""Make one webhook call, on the ``webhooks`` queue."""
push_deliver: Signature = signature(PUSH_DELIVER)
"""Push one row to its device, or make it a row a device, on the ``push`` queue."""
push_drain: Signature = signature(PUSH_DRAIN)
"""Make the push rows due to players' devices a row a device."""
outbox_drain: Signature = signature(OUTBOX_DRAIN)
"""Deliver every row of the outbox that is due."""
