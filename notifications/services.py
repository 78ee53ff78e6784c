"""The outbox and its delivery, each player's mail policy, visits, digests and the
clock check.

Writing and sending are apart. ``turn_mails`` gives the mails a game's events
call for once the clocks have moved, as ``Notification`` rows that the games
app writes with the events (notifications.after_move, a follower of the change:
games.after_move), so they are committed with the events or not at all (a
player's move holds no lock: games.services.append). After the commit the
process asks Celery for a drain of the outbox (``outbox_drain``: every row due,
delivered in turn), at most twice a second (``OutboxWaker``), half a second
after the commit (``DRAIN_LAG``); where tasks run
in-process (``./dev run``) each row is delivered at the commit instead. If Redis
is down the enqueue is logged and dropped, and the beat sweep (``outbox_sweep``,
every minute) enqueues whatever is still pending, a task a row.

A drain settles together the turn mails not to go because their turn is over or
their player is looking at the game (``_turn_mails_settle``), then takes the other
rows one at a time, each locked as it is taken (``SKIP LOCKED``), so drains
running at once share the rows out. ``notification_deliver`` locks its row (a
row another worker is sending is left alone), sends it with the row's own
Message-ID and marks it sent in the same transaction. Delivery is at least once,
not exactly once: if a worker dies after the SMTP server accepted the mail but
before the commit, the row is still pending and is sent again, with the same
Message-ID, which mail clients use to fold the copy away. A worker that dies
before the server accepted the mail sends nothing, and the row is sent once,
later.

Webhook calls (notifications.webhooks) are rows of the same outbox, delivered
by the same code with the same retries: a call is made in place of a mail. But
each call is its own task, ``webhook_deliver``, on a queue of its own
(``webhooks``, with workers of its own): a receiver slow to answer holds a
webhook worker (10 s at most, notifications.webhook_http), never a mail
worker, and the drains of the outbox leave calls alone. Pushes are rows of the
outbox too, on a queue of their own (``push``), written and delivered as
notifications.push says.

A mail that fails for a reason a retry cannot cure (a header or an address that
cannot be sent, a recipient the server refuses for good) ends as failed at once,
its reason in ``note``; any other failure is retried after 2, 4, 8 ... minutes,
at most an hour apart, and given up after MAX_ATTEMPTS. Addresses are checked
before a row is queued, so no mail is ever queued to one that cannot be valid.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime, make_msgid
from functools import partial
from typing import Any, NamedTuple

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from games import clocks
from games import services as game_services
from games.clocks import ClockChange
from games.enqueue import DATABASE_OUT, Task, enqueue, run_inline, tasks_enqueue
from games.models import Clock, Event, Game
from games.seating import seat_players
from games.tasks import resolve_chance
from live import stream
from notifications import board_mail, emails, jobs, mail_headers, outbox, push, signing, webhooks
from notifications.mailsafe import address_problem, header_text, message_id_or_empty
from notifications.mailtext import mail_text
from notifications.models import (
    PUSH_KINDS,
    SUBJECT_LENGTH,
    WEBHOOK_KINDS,
    BouncingAddress,
    GameVisit,
    MailSettings,
    Notification,
    Policy,
    Webhook,
)
from notifications.outbox import DRAIN_AHEAD, DRAIN_LAG, OutboxWaker
from notifications.selectors import (
    bouncing_address_get,
    game_visit_get,
    games_waiting_for,
    mail_settings_get,
)
from notifications.smtp import MailSession

logger = logging.getLogger(__name__)

LOOKING_NOW = timedelta(minutes=2)
"""A player seen on the game this recently is looking at it: no mail. Seen means a
page or API read of the game (a page without a stream polls it) since their last
move by mail: a move by mail forgets the visits before it (``game_visit_forget``).
A player with a stream of their seat open now is looking at it too, whenever
they last read it (``live.stream.watching``): their client is shown each move."""
SWEEP_AFTER = timedelta(seconds=30)
"""The sweep leaves rows this young to the task enqueued on their commit."""
SWEEP_BATCH = 500
DRAIN_BATCH = 200
SETTLE_FROM = 2
"""A drain settles its turn mails all at once (``_turn_mails_settle``) when it has
at least this many: that costs about what delivering one of them alone does."""
SWEEP_LEASE = timedelta(minutes=5)
"""A row the sweep enqueues is not due again for this long: if its task never
completes (a worker lost with it), younger rows are reached first next time."""

Kind, Status = Notification.Kind, Notification.Status
APART = (*WEBHOOK_KINDS, *PUSH_KINDS)
"""The rows delivered by tasks on queues of their own (webhook calls, pushes),
never by the mail's drains."""


# ---------------------------------------------------------------- enqueueing


# ---------------------------------------------------------------- writing the outbox


def outbox_rows(rows: Sequence[Notification]) -> list[Notification]:
    """Rows as the outbox takes them: with the push rows beside each that has one,
    a Message-ID each, and nothing in them that cannot be sent (``_guard``).
    Reads nothing."""
    rows = [*rows, *push.siblings(rows)]  # a push row beside each that has one
    for row in rows:
        row.message_id = row.message_id or make_msgid(domain=settings.REPLY_DOMAIN)
        _guard(row)
    return rows


def notifications_queue(rows: Sequence[Notification], *, may_exist: bool = False
                        ) -> list[int]:
    """Write mails to the outbox and enqueue their delivery once they are
    committed; the ids of the rows written. With ``may_exist``, a row whose dedup key
    is already there is left out; without, a repeated key is an error (the
    caller's keys cannot repeat). (The mail a change to a game calls for is
    written with the change instead: notifications.after_move.)"""
    bots = seat_players().clockless(row.user_id for row in rows)
    rows = outbox_rows([row for row in rows if row.user_id not in bots])  # computers read no mail
    due = {row.message_id for row in rows if row.status == Status.PENDING}
    if may_exist:  # the rows written are those with the Message-IDs just made
        Notification.objects.bulk_create(rows, ignore_conflicts=True)
        rows = list(Notification.objects.filter(message_id__in=[row.message_id for row in rows])
                    .only("pk", "message_id", "kind", "push_device"))
    else:
        Notification.objects.bulk_create(rows)
    if due:  # once committed, every row has its id
        pending = [row for row in rows if row.message_id in due]
        transaction.on_commit(lambda: tasks_enqueue(delivery_tasks(pending)), robust=True)
    return [row.pk for row in rows]


def delivery_tasks(rows: Sequence[Notification]) -> list[Task]:
    """The tasks that deliver these pending rows, just committed: the mail's
    (``_mail_tasks``), a task a webhook call on the ``webhooks`` queue
    (``webhook_deliver``), and the pushes' (notifications.push). Calls are few
    (one a turn of a player with a webhook, a test a minute), and written by a
    mail's delivery in the worker, not by a move. What is not enqueued (Redis
    down) is found by the beat sweep."""
    return [*_mail_tasks([row.pk for row in rows if row.kind not in APART]),
            *(Task(jobs.webhook_deliver, (row.pk,)) for row in rows
              if row.kind in WEBHOOK_KINDS),
            *push.delivery_tasks([row for row in rows if row.kind in PUSH_KINDS])]


_waker = OutboxWaker(lag=DRAIN_LAG)


def _mail_tasks(ids: list[int]) -> list[Task]:
    """Have the rows just committed delivered: each by its own task where tasks run
    in this process as they are enqueued; else by a drain of the outbox, at most
    two asked for a second (``OutboxWaker``), each DRAIN_LAG after the commit."""
    if not ids:
        return []
    if run_inline():
        return [Task(jobs.notification_deliver, (pk,)) for pk in ids]
    countdown = _waker.countdown()
    if countdown is None:
        return []
    # (the publisher retries, settings.CELERY_BROKER_TRANSPORT_OPTIONS): refused,
    # the mail of this window waits for the sweep, as when Redis is down
    return [Task(jobs.outbox_drain, countdown=countdown, refused=_waker.failed)]


def _guard(row: Notification) -> None:
    """Keep what cannot be sent out of a row about to be written: a subject on
    one bounded line, an In-Reply-To only if it is a Message-ID; a row to an
    address that cannot be valid is written as failed, never to be sent. (A
    player's own address is checked as their mail is sent.)"""
    if row.subject:
        row.subject = header_text(row.subject, SUBJECT_LENGTH)
    row.in_reply_to = message_id_or_empty(row.in_reply_to)
    if row.user_id is None and row.status == Status.PENDING:
        problem = address_problem(row.to_email)
        if problem:
            row.status, row.note = Status.FAILED, f"not sent: {problem}"[:200]
            logger.warning("mail %s to %r not queued: %s", row.kind, row.to_email, problem)


def turn_mails(game: Game, events: Sequence[Event], change: ClockChange
               ) -> list[Notification]:
    """The mails called for by events that moved the game's clocks (``change``,
    games.clocks), as rows of the outbox to write with the events
    (notifications.after_move): "your turn" to each seat whose clock has just
    started (unless it has just moved: it is looking at the game), "game
    started" to the others when the game has just begun, "game over" to
    everyone when it has ended. Reads nothing (a move holds no lock on the
    game: games.services.append)."""
    actors = {e.actor_id for e in events}
    rows = []
    for clock in change.clocks:
        if clock.user_id is None or clock.seat in change.computer_seats:
            continue  # no one to mail, or a computer player
        kinds = []
        if clock in change.started:
            if clock.user_id not in actors:
                kinds.append(Kind.YOUR_TURN)
        elif change.beginning:
            kinds.append(Kind.GAME_STARTED)
        if game.status == Game.Status.FINISHED:
            kinds.append(Kind.GAME_OVER)
        rows += [Notification(
            user_id=clock.user_id, game=game, seat=clock.seat, seq=game.seq, kind=kind,
            # one turn mail per turn (its seq), one of the others per game
            dedup_key=f"{kind}:{game.pk}:{clock.seat}"
            + (f":{game.seq}" if kind == Kind.YOUR_TURN else ""),
        ) for kind in kinds]
    return outbox_rows(rows) if rows else []


# ---------------------------------------------------------------- delivering


def _skip_reason(n: Notification, now: datetime, *, turn_over: bool | None = None) -> str:
    """Why this mail should not go after all, in words for the admin; '' to send.
    ``turn_over``: whether the row's turn is over, if the caller has just found it."""
    if n.kind in WEBHOOK_KINDS:  # the mail policy is not a webhook's
        reason = webhooks.call_skip_reason(n)
        if not reason and n.kind == Kind.WEBHOOK_TURN and outbox.turn_over(n):
            reason = "that turn is over"
        return reason
    user = n.user
    address = user.email if user is not None else n.to_email
    if not address:
        return "no address to send it to"
    bouncing = bouncing_address_get(address)
    if bouncing is not None:  # (notifications.bounces)
        return f"mail to {bouncing.address} bounces since {bouncing.since:%Y-%m-%d}"
    if user is None or n.kind in (Kind.REPLY_PLAYED, Kind.REPLY_REFUSED):
        return ""  # an answer to a mail the player sent us
    policy = mail_settings_get(user).policy
    if policy == Policy.OFF:
        return "the player has turned mail off"
    if n.kind in (Kind.YOUR_TURN, Kind.REMINDER) and (
            outbox.turn_over(n) if turn_over is None else turn_over):
        return "that turn is over"
    if n.kind == Kind.DIGEST and not games_waiting_for(user):
        return "no game waits for the player"
    if n.kind != Kind.YOUR_TURN:
        return ""
    if policy == Policy.DIGEST:
        return "the player reads a daily digest instead"
    game_id = n.game_id
    if game_id is None:  # never: a turn is a game's (its turn would be over above)
        return "the mail names no game"
    visit = game_visit_get(user_id=user.pk, game_id=game_id)
    if (visit is not None and visit.seen_at > now - LOOKING_NOW) or \
            stream.watching({(user.pk, game_id)}):
        return "the player is looking at the game"
    if policy == Policy.UNTIL_VISIT:
        last = (Notification.objects.filter(user_id=user.pk, game_id=game_id,
                                            kind=Kind.YOUR_TURN, status=Status.SENT)
                .order_by("-sent_at").first())
        if last is None:
            return ""
        visited = (visit is not None and last.sent_at is not None
                   and visit.seen_at > last.sent_at)
        played = Event.objects.filter(game_id=game_id, actor_id=user.pk,
                                      seq__gte=last.seq).exists()
        if not (visited or played):
            return "no visit since the last mail"
    return ""


def next_turn_mail(user: User) -> str:
    """What tells the player of their next turn, by their policy, once they have
    just moved by mail (so that no visit of theirs holds a mail back): "turn" (a
    mail, unless they are looking at the game then), "digest" (their daily
    digest) or "none" (their mail is off). What the answer to a move by mail
    promises; ``_skip_reason`` keeps it."""
    policy = mail_settings_get(user).policy
    if policy == Policy.OFF:
        return "none"
    return "digest" if policy == Policy.DIGEST else "turn"


MAIL_METADATA_KEY = "marram_mail"
"""The metadata every mail carries to a hosted provider (anymail's sending backends
pass it on): its outbox row's id, which the provider's events report back."""


def _message(n: Notification, now: datetime | None = None) -> EmailMultiAlternatives:
    """The mail of an outbox row, with every header mail clients and servers go by
    (docs/mail.md, *Headers*)."""
    to = n.user.email if n.user is not None else n.to_email
    now = now or timezone.now()
    headers = {
        "Message-ID": n.message_id,
        "From": settings.DEFAULT_FROM_EMAIL,
        # +0000, not formatdate()'s -0000 ("the zone is unknown", RFC 5322 3.3)
        "Date": format_datetime(now.astimezone(UTC)),
        "Auto-Submitted": "auto-generated",
        # Exchange and Outlook send no out-of-office or other automatic reply to it
        "X-Auto-Response-Suppress": "OOF, AutoReply",
        "List-Id": mail_headers.list_id(),
    }
    if n.game is not None:  # one conversation per game in the player's mail client
        headers.update(mail_headers.thread_headers(n.game, now))
    if n.in_reply_to:
        headers["In-Reply-To"] = n.in_reply_to
        answered = mail_headers.answered_message_id(n)  # the mail the player replied to
        headers["References"] = " ".join(dict.fromkeys(
            filter(None, [headers.get("References", ""), answered, n.in_reply_to])))
        headers["Auto-Submitted"] = "auto-replied"
    if n.user is not None:
        headers["List-Unsubscribe"] = (f"<{emails.unsubscribe_url(n.user.pk)}>, "
                                       f"<mailto:{signing.unsubscribe_address(n.user.pk)}"
                                       "?subject=unsubscribe>")
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    if n.reply_to:
        headers["Reply-To"] = mail_headers.reply_to_header(n)
    message = board_mail.MailWithPictures(
        subject=n.subject, body=mail_text(n.body_text),
        # the envelope's sender (MAIL FROM), which bounces return to; From: is the site's
        from_email=signing.bounce_address(n.pk, to) if settings.MARRAM_RETURN_PATH
        else settings.DEFAULT_FROM_EMAIL,
        to=[to], reply_to=[n.reply_to] if n.reply_to else None, headers=headers,
    )
    # a provider names the row again in its events of this mail (provider_events)
    message.metadata = {MAIL_METADATA_KEY: str(n.pk)}
    if n.body_html:
        message.attach_alternative(n.body_html, "text/html")
        picture = board_mail.picture_for(n)  # the board the HTML shows, inline
        if picture is not None:
            message.related.append((picture[0], picture[1]))
    return message


def notification_deliver(notification_id: int, *, now: datetime | None = None,
                         due_by: datetime | None = None) -> str:
    """Send one mail of the outbox if it is still due; the row's status after. With
    ``due_by``, only a row due by then ("not_due" otherwise): a drain's list
    (push_drain) may be out of date, another drain having tried the row and
    put it back for later."""
    now = now or timezone.now()
    with transaction.atomic():
        n = (Notification.objects.select_for_update(skip_locked=True)
             .filter(pk=notification_id).first())
        if n is None:
            return "locked"  # another worker holds it (or it is gone)
        if n.status != Status.PENDING:
            return n.status
        if due_by is not None and n.next_attempt_at > due_by:
            return "not_due"
        with MailSession() as mail:
            return _deliver_locked(n, now, mail)


def _deliver_locked(n: Notification, now: datetime, mail: MailSession) -> str:
    """Deliver a row locked in the caller's transaction, pending and due: send it
    (a mail through ``mail``'s connection), or mark why it is not sent; its status
    after."""
    if n.kind in PUSH_KINDS:  # its own checks and send, the same retries (push.deliver)
        return push.deliver(n, now, partial(notifications_queue, may_exist=True))
    over = outbox.turn_over(n) if n.kind == Kind.YOUR_TURN and n.attempts == 0 else None
    if over is False:
        calls = webhooks.turn_calls(n)  # whatever becomes of the mail
        if calls:
            notifications_queue(calls, may_exist=True)
    reason = _skip_reason(n, now, turn_over=over)
    if reason:
        n.status, n.note = Status.SKIPPED, reason
        n.save(update_fields=["status", "note"])
        return n.status
    problem = "" if n.webhook_id is not None else address_problem(
        n.user.email if n.user is not None else n.to_email)
    if problem:
        n.status, n.note = Status.FAILED, f"not sent: {problem}"[:200]
        n.save(update_fields=["status", "note"])
        return n.status
    n.attempts += 1
    fields = ["subject", "body_text", "body_html", "reply_to", "attempts", "status", "note",
              "sent_at", "next_attempt_at"]
    try:
        with transaction.atomic():  # a savepoint: a failure in it leaves the row to update
            if n.webhook_id is not None:
                webhooks.call_make(n)
            else:
                if not n.subject:
                    emails.render_notification(n, now)
                mail.send(_message(n, now))
    except Exception as error:  # whatever it is, it ends in the row, never in a rollback
        outbox.delivery_failed(n, error, now)
        n.save(update_fields=fields)
        return n.status
    n.status, n.sent_at, n.note = Status.SENT, now, ""
    n.save(update_fields=fields)
    return n.status


def _put_back(pks: Sequence[int], now: datetime) -> None:
    """Leave these rows, still pending, to be due again SWEEP_LEASE from ``now``."""
    Notification.objects.filter(pk__in=pks, status=Status.PENDING).update(
        next_attempt_at=now + SWEEP_LEASE)


def outbox_drain() -> dict[str, int]:
    """Deliver the mail due now (not the webhook calls: ``_call_after_commit``),
    DRAIN_BATCH rows at most (and ask for another drain if there may be more):
    what a commit that queued mail asks for. The turn mails not to go because
    their turn is over or their player is looking at the game are settled
    first, all at once (``_turn_mails_settle``); the rest are delivered one by
    one, the longest due first.

    The mails go through one connection to the mail server, opened for the
    first (notifications.smtp). Each row of those the drain listed is taken with
    a lock, skipping the rows locked, as it is delivered (``_next_due``): drains
    running at once share the rows out, and none tries a row another has taken.
    A row whose delivery raises is logged and put back SWEEP_LEASE, so that it
    cannot hold up the rows behind it; the sweep tries it again. Not when the
    database is what failed (out, or cut off mid-delivery): that raises, and the
    task is sent again a moment later with every row still due."""
    by = timezone.now() + DRAIN_AHEAD
    due = list(_due_mail(by).order_by("next_attempt_at", "pk")
               .values_list("pk", "kind", "user__email", "user_id", "game_id")[:DRAIN_BATCH])
    done: Counter[str] = Counter()
    turns = {pk: _Turn(address, user, game) for pk, kind, address, user, game in due
             if kind in (Kind.YOUR_TURN, Kind.REMINDER) and address}
    if len(turns) >= SETTLE_FROM:
        done[Status.SKIPPED] += _turn_mails_settle(turns, timezone.now(), by)
    listed = [pk for pk, *_ in due]
    with MailSession() as mail:  # one connection to the mail server for the drain
        while done.total() < len(due):  # (a row another drain took is not counted)
            taken = None
            try:
                with transaction.atomic():
                    n = _next_due(by, listed)
                    if n is None:
                        break
                    taken = n.pk
                    done[_deliver_locked(n, timezone.now(), mail)] += 1
            except Exception as error:
                if taken is None or isinstance(error, DATABASE_OUT):
                    # the database's fault, not a row's: the task is tried again
                    # (games.enqueue.IDEMPOTENT), the row left due, not put back its lease
                    raise
                logger.exception("mail %s could not be delivered; the sweep tries it again",
                                 taken)
                _put_back([taken], timezone.now())
                done["error"] += 1
    if len(due) == DRAIN_BATCH:
        enqueue(jobs.outbox_drain)
    return {status: count for status, count in done.items() if count}


def _due_mail(by: datetime) -> QuerySet[Notification]:
    """The mail rows pending and due by ``by`` (not the webhook calls and pushes,
    each a task on its own queue)."""
    return (Notification.objects.filter(status=Status.PENDING, next_attempt_at__lte=by)
            .exclude(kind__in=APART))


def _next_due(by: datetime, listed: list[int]) -> Notification | None:
    """Of the rows ``listed``, the mail row due longest by ``by``, locked, with its
    player; None when each is delivered or locked by another drain. Rows written
    since the drain listed its own are left to the drains their commits asked for
    (``DRAIN_LAG`` after them): taken now, a turn mail would come before the view
    that records its player looking at the game, and a drain that another had
    emptied would go on through the new rows one at a time."""
    return (_due_mail(by).filter(pk__in=listed).select_related("user")
            .select_for_update(skip_locked=True, of=("self",))
            .order_by("next_attempt_at", "pk").first())


class _Turn(NamedTuple):
    """A turn mail's row as a drain lists it: its player's address, and the ids of
    its player and of its game."""

    address: str
    user: int | None
    game: int | None


def _turn_mails_settle(turns: dict[int, _Turn], now: datetime, by: datetime) -> int:
    """Of the turn mails ``turns`` still pending and due by ``by``, mark skipped
    those that ``_skip_reason`` would skip as "that turn is over" or "the player
    is looking at the game", with the same note, all at once (a query for them,
    a statement a note, and a read of the games' streams); leave the rows
    another transaction holds, and those it would skip for a reason it tests
    first (a bouncing address, mail turned off), to the delivery of each row. No
    webhook call is lost: a turn that is over makes none, and a player looking
    at the game is settled here only if they have no webhook on. How many rows
    it marked."""
    bouncing = set(BouncingAddress.objects.filter(
        address__in={turn.address.strip().lower() for turn in turns.values()})
        .values_list("address", flat=True))
    watched = stream.watching({(turn.user, turn.game) for turn in turns.values()
                               if turn.user is not None and turn.game is not None})
    user, game = OuterRef("user_id"), OuterRef("game_id")
    running = Exists(Clock.objects.filter(game=game, seat=OuterRef("seat"),
                                          started_at__isnull=False, started_seq=OuterRef("seq")))
    seen: Q | Exists = Exists(GameVisit.objects.filter(user=user, game=game,
                                                      seen_at__gt=now - LOOKING_NOW))
    if watched:
        seen = seen | Q(pk__in=[pk for pk, turn in turns.items()
                                if (turn.user, turn.game) in watched])
    looking = (Q(kind=Kind.YOUR_TURN, game__isnull=False) & seen
               & ~Exists(MailSettings.objects.filter(user=user, policy=Policy.DIGEST))
               & ~Exists(Webhook.objects.filter(user=user, enabled=True)))
    with transaction.atomic():
        found = dict(
            Notification.objects.annotate(running=running)
            .filter(~Exists(MailSettings.objects.filter(user=user, policy=Policy.OFF))
                    & (Q(running=False) | looking),
                    pk__in=[pk for pk, turn in turns.items()
                            if turn.address.strip().lower() not in bouncing],
                    status=Status.PENDING, next_attempt_at__lte=by)
            .select_for_update(skip_locked=True, of=("self",)).values_list("pk", "running"))
        return (_skip([pk for pk, on in found.items() if not on], "that turn is over")
                + _skip([pk for pk, on in found.items() if on],
                        "the player is looking at the game"))


def _skip(pks: list[int], note: str) -> int:
    """Mark these rows (locked) skipped, with ``note``; how many."""
    if not pks:
        return 0
    return Notification.objects.filter(pk__in=pks).update(status=Status.SKIPPED, note=note)


def push_drain() -> dict[str, int]:
    """Make each push row due to a player's devices into one row per device (a
    task each): what a commit that wrote push rows asks for. The rows to a device
    are their own tasks, never taken here (a slow push service holds one task)."""
    by = timezone.now() + DRAIN_AHEAD
    due = list(Notification.objects.filter(status=Status.PENDING, kind__in=PUSH_KINDS,
                                           push_device__isnull=True, next_attempt_at__lte=by)
               .order_by("next_attempt_at", "pk").values_list("pk", flat=True)[:push.DRAIN_BATCH])
    done: Counter[str] = Counter()
    for pk in due:
        try:
            done[notification_deliver(pk, due_by=by)] += 1
        except Exception:  # one row's fault: the others still go; the sweep tries it again
            logger.exception("push %s could not be fanned out", pk)
            done["error"] += 1
    if len(due) == push.DRAIN_BATCH:
        enqueue(jobs.push_drain)
    return dict(done)


def outbox_sweep(*, now: datetime | None = None, after: timedelta = SWEEP_AFTER) -> dict[str, int]:
    """Enqueue the mails, webhook calls and pushes still pending (each call and
    push on its own queue) and the chance draws still waiting (the games app's task): what a
    broker outage or a dead worker left behind. Safe to run at any time.

    The mails due longest are taken first, SWEEP_BATCH at a time, and each is put
    back SWEEP_LEASE (or until its task reschedules it): rows whose delivery never
    completes cannot keep the sweep from the rows behind them."""
    now = now or timezone.now()
    with transaction.atomic():  # rows a worker is sending are left alone
        due = list(Notification.objects.select_for_update(skip_locked=True)
                   .filter(status=Status.PENDING, next_attempt_at__lte=now - after)
                   .order_by("next_attempt_at", "pk").values_list("pk", "kind")[:SWEEP_BATCH])
        _put_back([pk for pk, _ in due], now)
    mailed = sum(enqueue(jobs.notification_deliver, pk)
                 for pk, kind in due if kind not in APART)
    called = sum(enqueue(jobs.webhook_deliver, pk) for pk, kind in due if kind in WEBHOOK_KINDS)
    pushed = sum(enqueue(jobs.push_deliver, pk) for pk, kind in due if kind in PUSH_KINDS)
    waiting = list(Game.objects.filter(status=Game.Status.RUNNING,
                                       projection__awaiting__kind="chance")
                   .values_list("pk", flat=True))
    drawn = sum(enqueue(resolve_chance, pk) for pk in waiting)
    return {"mail": mailed, "webhooks": called, "push": pushed, "chance": drawn}


# ---------------------------------------------------------------- clocks and digests


def clocks_check(*, now: datetime | None = None) -> dict[str, int]:
    """Remind players under a day from the end of their time bank; time out those
    past it. Each timeout is its own transaction."""
    now = now or timezone.now()
    done = {"reminded": 0, "timed_out": 0}
    for clock in clocks.clocks_due(now):
        left = clocks.clock_remaining(clock, now)
        if left is None or left >= clocks.REMINDER_BEFORE:
            continue
        if left <= timedelta(0):
            if game_services.clock_expire(game_id=clock.game_id, seat=clock.seat,
                                          now=now) is not None:
                done["timed_out"] += 1
            continue
        if clock.user_id is None:
            continue
        with transaction.atomic():
            done["reminded"] += len(notifications_queue([Notification(
                user_id=clock.user_id, game_id=clock.game_id, seat=clock.seat,
                seq=clock.started_seq, kind=Kind.REMINDER,
                dedup_key=f"reminder:{clock.game_id}:{clock.seat}:{clock.started_seq}",
            )], may_exist=True))
    return done


def digests_send(*, now: datetime | None = None) -> int:
    """One mail to each player on the daily digest with a game waiting for them."""
    now = now or timezone.now()
    day = timezone.localdate(now).isoformat()
    users = get_user_model().objects.filter(mail_settings__policy=Policy.DIGEST)
    rows = [Notification(user=user, kind=Kind.DIGEST, dedup_key=f"digest:{user.pk}:{day}")
            for user in users if games_waiting_for(user)]
    with transaction.atomic():
        return len(notifications_queue(rows, may_exist=True)) if rows else 0


# ---------------------------------------------------------------- players


VISIT_WRITE_EVERY = 30.0
"""Seconds: each process writes a player's visit to a game at most this often."""
_visits_written: dict[tuple[int, int], float] = {}


def game_visit_record(*, user: User, game: Game, now: datetime | None = None) -> None:
    """The player has the game in front of them (one statement, an upsert)."""
    GameVisit.objects.bulk_create(
        [GameVisit(user=user, game=game, seen_at=now or timezone.now())],
        update_conflicts=True, unique_fields=["user", "game"], update_fields=["seen_at"],
    )


def game_viewed_note(*, user: User, game: Game) -> None:
    """Record a player loading a game, at most every VISIT_WRITE_EVERY seconds per
    process, so that reading a game (polled by the page) rarely writes. Nothing is
    lost by it: a "your turn" mail goes only to a player not seen for two minutes
    (LOOKING_NOW), so the first visit after any mail is always written."""
    key, moment = (user.pk, game.pk), time.monotonic()
    if moment - _visits_written.get(key, -VISIT_WRITE_EVERY) < VISIT_WRITE_EVERY:
        return
    if len(_visits_written) > 100_000:
        _visits_written.clear()
    _visits_written[key] = moment
    game_visit_record(user=user, game=game)


def game_visit_forget(*, user_id: int, game_id: int) -> None:
    """The player has just moved by mail: their visits to the game before it are
    no sign that they are looking at it now, so none holds back the mail of their
    next turn. A page of theirs still open marks them looking again as it next
    polls (in another process, once its VISIT_WRITE_EVERY is over)."""
    GameVisit.objects.filter(user_id=user_id, game_id=game_id).delete()
    _visits_written.pop((user_id, game_id), None)


def game_viewed_forget() -> None:
    """Forget which visits this process wrote (tests: ids repeat across databases)."""
    _visits_written.clear()


def mail_settings_update(*, user: User, **fields: Any) -> MailSettings:
    found, _ = MailSettings.objects.update_or_create(user=user, defaults=fields)
    return found


def webhook_test_send(*, user: User, webhook_id: Any,
                      now: datetime | None = None) -> bool:
    """Queue a test call to a webhook of the player's: False if one was already
    queued this minute (NotFound for anyone else's webhook)."""
    webhook = webhooks.webhook_get(user=user, webhook_id=webhook_id)
    with transaction.atomic():
        call = webhooks.test_call(webhook, now or timezone.now())
        return bool(notifications_queue([call], may_exist=True))


def mail_unsubscribe(*, token: str) -> User | None:
    """Turn all mail off for the user a signed unsubscribe token names; None if the
    token is not valid."""
    user_id = signing.unsubscribe_token_read(token)
    user = get_user_model().objects.filter(pk=user_id).first() if user_id else None
    if user is not None:
        mail_settings_update(user=user, policy=Policy.OFF)
    return user
