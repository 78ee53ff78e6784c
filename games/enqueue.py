"""How the apps hand tasks to the broker, and the options every task takes.

A task takes ids, calls a service, and may run twice: tasks are acknowledged
after they run (CELERY_TASK_ACKS_LATE), so one a worker was running when it
died is delivered again, and every service a task calls checks what is still
due: the server's changes under the game's lock, a chance draw and a computer's
move by the seq they were made at (games.services.append states how changes are
written). A task
that finds the database out (stopped, failing over to its standby, cut off) is
sent again a moment later (1 s, doubling to 30 s, eight times: about three
minutes in all) rather than left for beat's sweep, which takes a row it already
tried only SWEEP_LEASE later (notifications.outbox).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypedDict

from django.conf import settings
from django.db import InterfaceError, transaction
from django.db import OperationalError as DatabaseOperationalError
from kombu.exceptions import OperationalError

from games.background import run_after_answer

logger = logging.getLogger(__name__)


class TaskOptions(TypedDict):
    """A task's options: IDEMPOTENT's shape, which celery's task decorators check."""

    acks_late: bool
    reject_on_worker_lost: bool
    ignore_result: bool
    autoretry_for: tuple[type[Exception], ...]
    retry_backoff: int
    retry_backoff_max: int
    retry_jitter: bool
    max_retries: int


DATABASE_OUT = (DatabaseOperationalError, InterfaceError)
"""What the database raises when it cannot be used for now (marram_site.views)."""

IDEMPOTENT: TaskOptions = {"acks_late": True, "reject_on_worker_lost": True,
                           "ignore_result": True, "autoretry_for": DATABASE_OUT,
                           "retry_backoff": 1, "retry_backoff_max": 30, "retry_jitter": False,
                           "max_retries": 8}


def run_inline() -> bool:
    """Whether tasks run in this process as they are enqueued (``./dev run``,
    CELERY_TASK_ALWAYS_EAGER): a task enqueued on a commit has run by the time the
    commit returns."""
    return bool(settings.CELERY_TASK_ALWAYS_EAGER)


def enqueue(task: Any, *args: Any, countdown: float = 0, background: bool = False) -> bool:
    """Hand a task to the broker, once, briefly, to run now or ``countdown`` seconds
    from now; False (and a log line) if it is down. Whatever is not enqueued is
    found again by the beat sweep. A ``background`` task (one that takes seconds:
    a computer's move), where tasks run in this process (``./dev run``), runs on
    the process's background thread once the request that enqueued it has been
    answered (games.background), as a worker would run it, instead of inside
    that request; elsewhere as any other."""
    if background and not countdown and run_inline() and settings.MARRAM_BACKGROUND_TASKS:
        run_after_answer(task, *args)
        return True
    try:
        task.apply_async(args=args, countdown=countdown or None, retry=False)
    except Exception as error:  # kombu wraps every broker failure differently
        if run_inline() and not _is_broker_error(error):
            raise  # an eager task that fails is a bug to see, not a broker to wait for
        logger.warning("could not enqueue %s%s: %s; the outbox sweep will retry",
                       task.name, args, error)
        return False
    return True


def _is_broker_error(error: Exception) -> bool:
    return isinstance(error, (OperationalError, ConnectionError, OSError))


def enqueue_on_commit(task: Any, *args: Any) -> None:
    """Enqueue the task once the current transaction commits (never if it rolls back).
    Robust: a broker that cannot take it is logged, never raised to whoever
    committed (the change is stored; the periodic sweeps find what is due)."""
    transaction.on_commit(lambda: enqueue(task, *args), robust=True)


@dataclass(frozen=True)
class Task:
    """A task to enqueue, with its arguments and how (``enqueue``)."""

    task: Any
    """A Celery task, or a signature of one by its name."""
    args: tuple[Any, ...] = ()
    countdown: float = 0
    background: bool = False
    """A task that takes seconds (a computer's move): see ``enqueue``."""
    refused: Callable[[], None] | None = None
    """Called when the broker cannot take it (its work then waits for a sweep)."""


def tasks_enqueue(tasks: Iterable[Task]) -> None:
    """Enqueue each task now, in order (``enqueue``)."""
    for task in tasks:
        if not enqueue(task.task, *task.args, countdown=task.countdown,
                       background=task.background) and task.refused is not None:
            task.refused()
