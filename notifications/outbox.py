"""The outbox's delivery, as every kind of row shares it (mail, webhook calls,
pushes): how often a process asks for a drain (``OutboxWaker``), how far ahead
a drain takes rows, the retries of a row whose delivery failed, and whether
the turn a row speaks of is over. notifications.services and
notifications.push build on it."""

from __future__ import annotations

import logging
import smtplib
import threading
import time
from collections.abc import Callable
from datetime import datetime, timedelta

from games.models import Clock
from notifications.mailsafe import header_text
from notifications.models import Notification
from notifications.webhook_http import CallFailed, CallRefused

logger = logging.getLogger(__name__)

Status = Notification.Status

MAX_ATTEMPTS = 8
RETRY_FIRST = timedelta(minutes=2)
RETRY_AT_MOST = timedelta(hours=1)
WAKE_EVERY = 1.0
"""Seconds. A process that commits mail asks Celery for a drain of the outbox at
once, then for one more at the end of this window for all the mail it commits
within it: a busy server hands Celery at most two messages a second, not one a
mail (an enqueue costs a web worker about a millisecond of CPU)."""
DRAIN_LAG = 0.5
"""Seconds. The least a drain of the mail waits after the commit it is asked for,
so that it takes the mail of the commits made meanwhile too, and settles the
turn mails among them that are not to go all at once (notifications.services.
_turn_mails_settle), where one drain each would take them one by one (six
statements a mail). No one waits on a mail for half a second."""
DRAIN_AHEAD = timedelta(seconds=5)
"""A drain also takes rows due this soon: a row's time is the web machine's clock,
the drain reads the worker's, and the two may differ a little. (A retry is
minutes away, so none is taken early.)"""

class OutboxWaker:
    """When this process last asked Celery for a drain of the outbox, and whether it
    has asked for the one more at the end of that window (``WAKE_EVERY``). Each
    drain starts ``lag`` seconds after the mail it is asked for (after the end of
    the window, for the one more)."""

    def __init__(self, every: float = WAKE_EVERY, lag: float = 0.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.every, self.lag, self.clock = every, lag, clock
        self.lock = threading.Lock()
        self.until = float("-inf")
        self.again = False

    def countdown(self) -> float | None:
        """In how many seconds a drain must start to take the mail committed just now;
        None when a drain already asked for starts late enough to take it."""
        now = self.clock()
        with self.lock:
            if now >= self.until:
                self.until, self.again = now + self.every, False
                return self.lag
            if self.again:
                return None
            self.again = True
            return self.until - now + self.lag

    def failed(self) -> None:
        """The drain could not be asked for (Redis down): ask at the next commit."""
        with self.lock:
            self.until, self.again = float("-inf"), False


def turn_over(n: Notification) -> bool:
    """Whether the turn a row speaks of (its game, seat and seq) is over (a row of
    no game's seat speaks of no turn)."""
    if n.game_id is None or n.seat is None:
        return True
    clock = Clock.objects.filter(game_id=n.game_id, seat=n.seat).first()
    return clock is None or not clock.running or clock.started_seq != n.seq


def delivery_failed(n: Notification, error: Exception, now: datetime) -> None:
    """Mark a mail whose sending failed: failed for good, or due again later."""
    # a webhook call's failure is said in words for the player (webhook_http)
    said = isinstance(error, (CallFailed, CallRefused))
    why = header_text(str(error) if said else f"{type(error).__name__}: {error}", 200)
    if _cannot_be_cured(error):
        n.status, n.note = Status.FAILED, f"cannot be sent: {why}"[:200]
    elif n.attempts >= MAX_ATTEMPTS:
        n.status, n.note = Status.FAILED, f"gave up after {n.attempts} attempts: {why}"[:200]
    else:  # 2, 4, 8 ... minutes, at most an hour
        n.note = why
        n.next_attempt_at = now + min(RETRY_FIRST * 2 ** (n.attempts - 1), RETRY_AT_MOST)
    if isinstance(error, (smtplib.SMTPException, OSError, ValueError)):
        logger.warning("%s %s to %s failed (attempt %s, %s): %s", n.kind, n.pk,
                       n.user_id or n.to_email, n.attempts, n.status, why)
    else:
        logger.exception("%s %s could not be sent (attempt %s, %s)", n.kind, n.pk, n.attempts,
                         n.status)


def _cannot_be_cured(error: Exception) -> bool:
    """Whether sending the same mail again must fail again: the mail itself is at
    fault (a header or an address Django or IDNA refuses: ValueError), or the
    server refused its recipient or its content for good (a 5xx). A server that
    is down, busy, or refuses us (our sender, our login) may be cured, by time or
    by an admin."""
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        return all(code >= 500 for code, _ in error.recipients.values())
    if isinstance(error, smtplib.SMTPDataError):
        return error.smtp_code >= 500
    return isinstance(error, ValueError)
