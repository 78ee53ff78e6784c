"""The Celery app: notifications and the games' chance draws run here.

Configuration comes from Django settings prefixed ``CELERY_``; with no
``REDIS_URL`` the settings make every task run eagerly, in-process.

Beat runs the periodic work below. Each entry only finds ids and enqueues the
tasks that act on them, so running beat twice, or late, does no harm.
"""

import os
from typing import Any

from celery import Celery
from celery.schedules import crontab
from celery.signals import task_postrun, task_prerun
from django.db import close_old_connections

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "marram_site.settings")

app = Celery("marram_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@task_prerun.connect
@task_postrun.connect
def _connections_kept(task: Any = None, **kwargs: Any) -> None:
    """Around each task, as around each request: a connection that failed, or is
    older than CONN_MAX_AGE, is closed (a failover's dead one among them); any
    other is kept for the next task (settings.CELERY_DB_REUSE_MAX)."""
    if task is not None and not task.request.is_eager:  # not one run inside a request
        close_old_connections()


BEAT_SCHEDULE = {
    # Mail whose task was never enqueued (Redis down) or never finished (a worker
    # died), and fly draws left waiting the same way.
    "outbox-sweep": {"task": "notifications.tasks.outbox_sweep", "schedule": 60.0},
    # Computer players' moves whose task was lost the same way.
    "bots-sweep": {"task": "bots.tasks.bots_sweep", "schedule": 60.0},
    # Reminders under 24 hours, and timeouts when a time bank runs out.
    "clocks-check": {"task": "notifications.tasks.clocks_check", "schedule": 5 * 60.0},
    # The daily digest, for players who asked for one.
    "daily-digest": {"task": "notifications.tasks.digests_send",
                     "schedule": crontab(hour=7, minute=0)},
    # Finished games whose rating task was never enqueued (Redis down).
    "ratings-sweep": {"task": "ratings.tasks.ratings_sweep", "schedule": 5 * 60.0},
    # Tournaments due to start, calendar rounds due, and finished games whose
    # result's task was lost.
    "tournaments-sweep": {"task": "tournaments.tasks.tournaments_sweep", "schedule": 5 * 60.0},
    # Reviews of finished games whose task was lost (the broker, a worker gone).
    "reviews-sweep": {"task": "reviews.tasks.reviews_sweep", "schedule": 5 * 60.0},
}
app.conf.beat_schedule = BEAT_SCHEDULE
