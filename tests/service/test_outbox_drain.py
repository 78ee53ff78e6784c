"""Mail committed with a move is delivered by a drain of the outbox, asked of
Celery at most twice a second by each process, not by a task a mail; the drain
sends what is due, oldest first, and a row whose delivery breaks does not hold up
the rows behind it.

Mail goes to a real SMTP server (aiosmtpd, in this process); the tasks a commit
enqueues are read back from the suite's real Redis."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

import pytest
import redis
from django.conf import settings as django_settings
from django.utils import timezone

from notifications import outbox
from notifications import services as notes
from notifications.models import Notification
from tests.service.conftest import make_user, start_game
from tests.service.mail_kit import play_turn
from tests.service.test_outbox_failures import smtp, stored  # noqa: F401  (a fixture)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_process_asks_for_a_drain_at_once_then_for_one_more_at_the_end_of_its_window():
    clock = Clock()
    waker = outbox.OutboxWaker(every=1.0, clock=clock)
    assert waker.countdown() == 0.0  # the first mail: a drain now
    clock.now = 100.25
    assert waker.countdown() == 0.75  # mail within the window: one drain at its end...
    clock.now = 100.5
    assert waker.countdown() is None  # ...which takes this one too
    clock.now = 100.99
    assert waker.countdown() is None
    clock.now = 101.0  # the window is over: the next mail asks at once again
    assert waker.countdown() == 0.0
    clock.now = 101.5
    assert waker.countdown() == 0.5
    waker.failed()  # that one never reached Redis: the next commit asks at once
    assert waker.countdown() == 0.0


def test_each_drain_starts_the_lag_after_the_mail_it_is_asked_for():
    clock = Clock()
    waker = outbox.OutboxWaker(every=1.0, lag=0.5, clock=clock)
    assert waker.countdown() == 0.5  # the first mail: a drain half a second after it
    clock.now = 100.25
    assert waker.countdown() == 1.25  # the window's end, and the lag after it...
    clock.now = 100.99
    assert waker.countdown() is None  # ...takes the mail of the window's last moment too
    clock.now = 101.0
    assert waker.countdown() == 0.5


@pytest.mark.django_db(transaction=True)
def test_the_drain_a_move_asks_for_waits_for_the_views_that_record_who_is_looking(
        monkeypatch, redis_url):
    # a move's views go out once its request is answered (live.stream), and each
    # records its player's visit: a drain that came first would find no visit
    game = start_game([make_user("ann"), make_user("bob")])
    monkeypatch.setattr(notes, "_waker", outbox.OutboxWaker(lag=notes._waker.lag))
    client = redis.Redis.from_url(redis_url)
    client.delete("celery")
    before = timezone.now()
    play_turn(game)
    tasks = [h for h in queued_tasks(client) if h["task"].startswith("notifications.")]
    assert [h["task"] for h in tasks] == ["notifications.tasks.outbox_drain"]
    eta = datetime.fromisoformat(tasks[0]["eta"])
    assert eta - before >= timedelta(seconds=outbox.DRAIN_LAG) >= timedelta(seconds=0.25)
    client.delete("celery")


@pytest.mark.django_db
def test_a_drain_sends_what_is_due_oldest_first_and_leaves_the_rest(smtp):  # noqa: F811
    now = timezone.now()
    later = stored(to_email="later@example.org", message_id="<later@test>", subject="later")
    first = stored(to_email="first@example.org", message_id="<first@test>", subject="first")
    second = stored(to_email="second@example.org", message_id="<second@test>", subject="second")
    stored(to_email="sent@example.org", message_id="<sent@test>", subject="sent",
           status="sent")
    # written by a web machine whose clock is two seconds ahead of the worker's
    skewed = stored(to_email="skewed@example.org", message_id="<skewed@test>", subject="skewed")
    Notification.objects.filter(pk=later.pk).update(next_attempt_at=now + timedelta(minutes=2))
    Notification.objects.filter(pk=first.pk).update(next_attempt_at=now - timedelta(seconds=2))
    Notification.objects.filter(pk=second.pk).update(next_attempt_at=now - timedelta(seconds=1))
    Notification.objects.filter(pk=skewed.pk).update(next_attempt_at=now + timedelta(seconds=2))

    assert notes.outbox_drain() == {"sent": 3}
    assert [m["Subject"] for m in smtp.messages] == ["first", "second", "skewed"]
    statuses = dict(Notification.objects.values_list("message_id", "status"))
    assert statuses == {"<later@test>": "pending", "<first@test>": "sent",
                        "<second@test>": "sent", "<sent@test>": "sent", "<skewed@test>": "sent"}
    assert notes.outbox_drain() == {}  # nothing due is left


@pytest.mark.django_db
def test_a_drain_delivers_the_rows_it_listed_and_leaves_newer_ones_to_their_own_drain(
        smtp, monkeypatch):  # noqa: F811
    mine = [stored(to_email=f"{name}@example.org", message_id=f"<{name}@test>", subject=name)
            for name in ("one", "two")]
    newer = []

    class Meanwhile(notes.MailSession):
        """As the drain begins: a drain running beside it sends one of its rows,
        and a move commits a mail, whose commit asks for a drain of its own."""

        def __enter__(self) -> notes.MailSession:
            Notification.objects.filter(pk=mine[0].pk).update(status="sent")
            newer.append(stored(to_email="new@example.org", message_id="<new@test>",
                                subject="new"))
            return super().__enter__()

    monkeypatch.setattr(notes, "MailSession", Meanwhile)
    assert notes.outbox_drain() == {"sent": 1}
    assert [m["Subject"] for m in smtp.messages] == ["two"]
    newer[0].refresh_from_db()
    assert newer[0].status == "pending"


@pytest.mark.django_db
def test_a_row_whose_delivery_breaks_is_put_back_and_the_rows_behind_it_still_go(
        smtp, monkeypatch, caplog):  # noqa: F811
    broken = stored(to_email="broken@example.org", message_id="<broken@test>", subject="broken")
    stored(to_email="fine@example.org", message_id="<fine@test>", subject="fine")
    skip_reason = notes._skip_reason

    def breaks_on_one(n, now, **known):
        if n.pk == broken.pk:
            raise ValueError("a bug in this row's mail")
        return skip_reason(n, now, **known)

    monkeypatch.setattr(notes, "_skip_reason", breaks_on_one)
    before = timezone.now()
    assert notes.outbox_drain() == {"error": 1, "sent": 1}
    assert [m["Subject"] for m in smtp.messages] == ["fine"]
    broken.refresh_from_db()
    assert broken.status == "pending"  # tried again by the sweep, after its lease
    assert broken.next_attempt_at >= before + notes.SWEEP_LEASE
    assert f"mail {broken.pk} could not be delivered" in caplog.text
    assert notes.outbox_drain() == {}  # not due again before the lease ends


@pytest.mark.django_db
def test_a_delivery_the_database_breaks_raises_and_leaves_the_row_due(smtp, monkeypatch):  # noqa: F811
    """The database cut off mid-delivery is not the row's fault: the drain raises,
    so that its task is sent again (games.enqueue.IDEMPOTENT), and the row is not
    put back for the sweep's lease."""
    from django.db import OperationalError

    row = stored(to_email="cut@example.org", message_id="<cut@test>", subject="cut")
    due = Notification.objects.get(pk=row.pk).next_attempt_at

    def cut_off(n, now, **known):
        raise OperationalError("could not receive data from server: Connection timed out")

    monkeypatch.setattr(notes, "_skip_reason", cut_off)
    with pytest.raises(OperationalError):
        notes.outbox_drain()
    row.refresh_from_db()
    assert (row.status, row.next_attempt_at) == ("pending", due)
    monkeypatch.undo()
    assert notes.outbox_drain() == {"sent": 1}
    assert [m["Subject"] for m in smtp.messages] == ["cut"]


@pytest.mark.django_db
def test_a_row_put_back_by_another_drain_is_not_tried_again_before_its_time(smtp):  # noqa: F811
    """Two drains may list the same row; the one that comes second must not spend
    another attempt on it if the first failed and put it back for later."""
    row = stored(to_email="ann@example.org", message_id="<back@test>", subject="back")
    listed_by = timezone.now() + outbox.DRAIN_AHEAD  # the second drain's list had it due
    Notification.objects.filter(pk=row.pk).update(  # the first drain failed it meanwhile
        attempts=1, next_attempt_at=timezone.now() + outbox.RETRY_FIRST)
    assert notes.notification_deliver(row.pk, due_by=listed_by) == "not_due"
    row.refresh_from_db()
    assert (row.status, row.attempts, smtp.messages) == ("pending", 1, [])
    assert notes.notification_deliver(row.pk) == "sent"  # its own task, or the sweep's, sends it


def queued_tasks(client: redis.Redis) -> list[dict]:
    """The headers of the tasks waiting in Celery's default queue, oldest first."""
    return [json.loads(raw)["headers"] for raw in reversed(client.lrange("celery", 0, -1))]


@pytest.mark.django_db(transaction=True)
def test_the_mail_of_many_turns_asks_celery_for_two_drains_not_a_task_a_mail(
        monkeypatch, redis_url):
    assert not django_settings.CELERY_TASK_ALWAYS_EAGER  # the suite's tasks go to Redis
    monkeypatch.setattr(notes, "_waker", outbox.OutboxWaker(every=600.0))  # one long window
    client = redis.Redis.from_url(redis_url)
    client.delete("celery")
    game = start_game([make_user("ann"), make_user("bob")])
    for _ in range(4):
        play_turn(game)
    # the start's two mails ("your turn" to the first player, "started" to the
    # other), then "your turn" at each of the four turns: six commits of mail
    kinds = list(Notification.objects.filter(game=game, status="pending")
                 .order_by("pk").values_list("kind", flat=True))
    assert sorted(kinds) == ["game_started"] + ["your_turn"] * 5
    tasks = [h for h in queued_tasks(client) if h["task"].startswith("notifications.")]
    assert [h["task"] for h in tasks] == ["notifications.tasks.outbox_drain"] * 2
    assert tasks[0]["eta"] is None and tasks[1]["eta"] is not None  # now, then later
    client.delete("celery")
