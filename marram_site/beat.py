"""Beat on every machine, the schedule run by one: Celery's scheduler behind a
lock in Redis (``CELERY_BEAT_SCHEDULER``).

Each beat process tries to take the lock (``marram:beat``, good for
``MARRAM_BEAT_LOCK_SECONDS``, 30) and renews it every third of that while it
holds it; only the holder sends the schedule's tasks. The others try again as
often, so when the holder's machine is lost, another beat takes over within
that time; a beat stopped cleanly lets the lock go at once. On taking the lock
(at its start, or taking over) a beat sends the sweeps and the clocks check at
once, since the beat before it may have been lost long before. Every scheduled task
only finds ids and enqueues work that locks what it acts on (marram_site.celery),
so the moment two could overlap (a holder so slow to renew that its lock ran out)
costs a sweep run twice, nothing more.

While Redis cannot be reached no beat holds the lock, and none could send a
task anyway; once it is back (empty, the lock gone with it) one of them takes it.
"""

from __future__ import annotations

import contextlib
import logging
import uuid
from datetime import timedelta
from typing import Any

import redis
from celery import schedules
from celery.beat import PersistentScheduler
from django.conf import settings
from redis.exceptions import LockError, RedisError
from redis.lock import Lock

logger = logging.getLogger(__name__)

LOCK_KEY = "marram:beat"


class LockedScheduler(PersistentScheduler):
    """PersistentScheduler that ticks only while this process holds beat's lock."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.lock_seconds = float(settings.MARRAM_BEAT_LOCK_SECONDS)
        # no Redis (./dev run's in-memory broker): the one beat there is holds it
        self.lock = None if not settings.REDIS_URL else Lock(
            redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2,
                                 socket_timeout=5),
            LOCK_KEY, timeout=self.lock_seconds, thread_local=False)
        self.name = f"beat-{uuid.uuid4().hex[:8]}"
        self.held = self.lock is None
        self.waiting = False
        super().__init__(*args, **kwargs)

    @property
    def renew_every(self) -> float:
        return self.lock_seconds / 3

    def holding(self) -> bool:
        """Whether this process holds the lock now: renewed if it held it, taken
        if it was free."""
        if self.lock is None:
            return True
        try:
            if self.held:
                self.lock.reacquire()
            else:
                self.held = bool(self.lock.acquire(blocking=False))
                if self.held:
                    logger.info("%s holds the lock: running the schedule", self.name)
                    self.due_at_once()
                    self.waiting = False
                elif not self.waiting:
                    logger.info("%s waits: another beat holds the lock", self.name)
                    self.waiting = True
        except (LockError, RedisError) as error:
            if self.held:
                logger.warning("%s lost the lock (%s): stopping the schedule", self.name, error)
            self.held = False
        return self.held

    def due_at_once(self) -> None:
        """The entries that run every so often (the sweeps, the clocks check), due
        now: what fell due while no beat held the lock is not left waiting a whole
        interval more. The daily digest keeps its hour."""
        for entry in self.schedule.values():
            if isinstance(entry.schedule, schedules.schedule):  # (a crontab is not one)
                every = timedelta(seconds=entry.schedule.seconds)
                entry.last_run_at = entry.schedule.now() - every
        self._heap = None  # worked out afresh at this tick

    def tick(self, *args: Any, **kwargs: Any) -> float:
        if not self.holding():
            return self.renew_every
        return min(float(super().tick(*args, **kwargs)), self.renew_every)

    def close(self) -> None:
        super().close()
        if self.held and self.lock is not None:
            with contextlib.suppress(LockError, RedisError):  # else it runs out by itself
                self.lock.release()
            self.held = False
