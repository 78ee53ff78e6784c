"""The worker of ``./dev run``'s slow tasks: one thread of the web process.

Without a broker Celery runs each task in the process that enqueues it, as it
is enqueued (CELERY_TASK_ALWAYS_EAGER): a task that a commit enqueues in a
request runs inside that request, before its answer goes out. A computer
player's move thinks for seconds, and the person whose move left it to the
computer would wait that long for their own move's answer. So where
``MARRAM_BACKGROUND_TASKS`` is on (by default where there is no broker), a task
enqueued with ``games.enqueue.enqueue(..., background=True)`` is handed to this
process's one background thread once the answer to the request that enqueued it
has been sent (``request_finished``; at once outside a request), and runs there
as a worker runs it: one at a time, in the order they came, on a database
connection of the thread's own, a failure logged. The move is answered at once,
its page says the computer is thinking, and shows the computer's move when it
comes (polling), as in production, where a Celery worker runs the task.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from typing import Any

from django.core.signals import request_finished, request_started
from django.db import connections

log = logging.getLogger(__name__)

Job = tuple[Any, tuple[Any, ...]]
"""A Celery task and its arguments."""


class _Worker:
    """The thread and its queue, started with the first task handed to it."""

    def __init__(self) -> None:
        self.jobs: queue.Queue[Job] = queue.Queue()
        self.thread: threading.Thread | None = None
        self.lock = threading.Lock()
        self.done = threading.Condition(self.lock)
        self.unfinished = 0

    def put(self, job: Job) -> None:
        with self.lock:
            self.unfinished += 1
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self._work, name="marram-background",
                                               daemon=True)
                self.thread.start()
        self.jobs.put(job)

    def _work(self) -> None:
        while True:
            task, args = self.jobs.get()
            try:
                task.apply(args=args, throw=True)
            except Exception:  # a worker logs a failed task and takes the next
                log.exception("background task %s%r failed", task.name, args)
            finally:
                connections.close_all()  # the thread's own: none is held between tasks
                with self.lock:
                    self.unfinished -= 1
                    self.done.notify_all()

    def idle(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        with self.lock:
            while self.unfinished:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.done.wait(left)
        return True


_worker = _Worker()


class _Pending(threading.local):
    """The tasks the request this thread serves has enqueued, to hand over once it
    is answered (None outside a request)."""

    jobs: list[Job] | None = None


_pending = _Pending()


def run_after_answer(task: Any, *args: Any) -> None:
    """Run ``task(*args)`` on the background thread: once the request being
    answered in this thread has been, or at once outside a request."""
    if _pending.jobs is None:
        _worker.put((task, args))
    else:
        _pending.jobs.append((task, args))


def idle(timeout: float = 60.0) -> bool:
    """Wait until every task handed to the background thread has run; False if
    some still run after ``timeout`` seconds."""
    return _worker.idle(timeout)


def _request_started(**kwargs: Any) -> None:
    _pending.jobs = []


def _request_finished(**kwargs: Any) -> None:
    jobs, _pending.jobs = _pending.jobs, None
    for job in jobs or ():
        _worker.put(job)


request_started.connect(_request_started, dispatch_uid="games.background.request_started")
request_finished.connect(_request_finished, dispatch_uid="games.background.request_finished")
