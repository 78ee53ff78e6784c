"""A slow or failing push service holds up no mail: pushes go to a queue of their
own (``push``, settings.CELERY_TASK_ROUTES), taken by a worker of its own, as
docker-compose.yml runs the ``worker`` (-Q celery) and ``push`` (-Q push) services;
a push the push service failed is sent again by the sweep, as mail is.

Real parts: Redis, two Celery workers in processes of their own (one a queue),
the SMTP collector and the push service stand-in of push_kit on 127.0.0.1 (the
workers allowed to reach it through MARRAM_WEBHOOK_ALLOWED_NETWORKS), which takes
SLOW seconds to answer the slow devices. Each round starts a game whose first
player has a slow device, waits until the stand-in is holding that push, then
starts another game and times its mail from the commit to the SMTP collector; the
same with no push under way for the baseline. The delays are printed (``-s``).

Uses the SMTP fixtures of test_celery_worker."""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterator
from datetime import timedelta

import pytest

from marram_site.celery import app as celery_app
from notifications import outbox, push
from notifications import services as notes
from notifications.models import Notification
from tests.service import test_celery_worker as real
from tests.service.conftest import make_user, start_game
from tests.service.push_kit import PushService, push_service
from tests.service.test_celery_worker import Process, wait_for, worker_process
from tests.service.test_webhook_queue import mail_delay

worker_env, smtp, mailbox, fresh_visits = (real.process_env, real.smtp, real.mailbox,
                                           real.fresh_visits)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("redis_url")]

SEED = "4b" * 32  # the first player given moves first
SLOW = 4.0
"""Seconds the stand-in takes to answer a slow device: under webhook_http's 5 s
read timeout, so that the push is made, as slowly as a push service may."""
ROUNDS = 3
PROMPT = 1.5
"""Seconds within which a mail must reach the SMTP collector."""
KEY = push.key_new()


@pytest.fixture(scope="module")
def process_env(worker_env) -> dict[str, str]:
    """The workers' environment: push on with the site's key, the stand-in on
    loopback allowed."""
    return {**worker_env, "MARRAM_VAPID_PRIVATE_KEY": KEY[0],
            "MARRAM_WEBHOOK_ALLOWED_NETWORKS": "127.0.0.0/8"}


@pytest.fixture(scope="module")
def workers(process_env, tmp_path_factory) -> Iterator[dict[str, Process]]:
    logs = tmp_path_factory.mktemp("push-queues")
    running = {
        "mail": worker_process(process_env, logs / "mail.log", "mail", purge=True,
                               queues="celery").start(),
        "push": worker_process(process_env, logs / "push.log", "push", purge=True,
                               queues="push").start(),
    }
    yield running
    for process in running.values():
        process.stop()


@pytest.fixture
def stand_in(settings) -> Iterator[PushService]:
    settings.MARRAM_VAPID_PRIVATE_KEY = KEY[0]
    settings.MARRAM_WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.0/8"]
    with push_service(KEY[1]) as found:
        yield found


@pytest.fixture(autouse=True)
def settled(request, monkeypatch) -> Iterator[None]:
    # each commit asks for its drains at once, not at the end of an earlier window
    monkeypatch.setattr(notes, "_waker", outbox.OutboxWaker())
    push._waker.cache_clear()
    yield
    push._waker.cache_clear()
    if "workers" in request.fixturenames:  # the workers done with this test's rows
        wait_for(lambda: not Notification.objects.filter(status="pending").exists(),
                 "the outbox to empty", timeout=SLOW * ROUNDS + 30)


def test_pushes_are_routed_to_their_own_queue():
    for task in ("notifications.tasks.push_deliver", "notifications.tasks.push_drain"):
        assert celery_app.amqp.router.route({}, task)["queue"].name == "push"
    assert celery_app.amqp.router.route(
        {}, "notifications.tasks.outbox_drain")["queue"].name == "celery"


@pytest.mark.usefixtures("workers")
def test_mail_is_sent_promptly_while_a_slow_push_service_holds_a_push(
        stand_in, mailbox, monkeypatch, capsys):
    quiet = [mail_delay(mailbox, f"calm{i}", monkeypatch) for i in range(ROUNDS)]
    held = []
    for i in range(ROUNDS):
        ann, bob = make_user(f"ann{i}"), make_user(f"bob{i}")
        stand_in.delay[f"slow{i}"] = SLOW
        push.device_add(user=ann, subscription=stand_in.subscribe(f"slow{i}"), name="phone")
        push._waker.cache_clear()
        start_game([ann, bob], seed=SEED)  # ann moves first: her turn's push
        wait_for(lambda i=i: stand_in.to(f"slow{i}"), "the slow push service to be called")
        called = time.monotonic()
        [row] = Notification.objects.filter(user=ann, kind="push_turn",
                                            push_device__isnull=False)
        held.append(mail_delay(mailbox, f"busy{i}", monkeypatch))
        # the mail came while the push service still held the push
        assert time.monotonic() - called < SLOW
        assert Notification.objects.get(pk=row.pk).status == "pending"
        wait_for(lambda pk=row.pk: Notification.objects.get(pk=pk).status == "sent",
                 "the slow push to be made", timeout=SLOW + 10)
        [sent] = stand_in.to(f"slow{i}")
        assert sent.problems == [] and sent.message["kind"] == "push_turn"
    with capsys.disabled():
        print(f"\nmail delay, no push under way: median {statistics.median(quiet):.3f} s, "
              f"{min(quiet):.3f}-{max(quiet):.3f} s; a push service holding a push "
              f"{SLOW:.0f} s: median {statistics.median(held):.3f} s, "
              f"{min(held):.3f}-{max(held):.3f} s")
    assert max(held) < PROMPT and max(quiet) < PROMPT, (quiet, held)


@pytest.mark.usefixtures("workers")
def test_a_push_the_push_service_failed_is_sent_again_by_the_sweep(stand_in):
    ann, bob = make_user("ann"), make_user("bob")
    push.device_add(user=ann, subscription=stand_in.subscribe("flaky"), name="phone")
    stand_in.status["flaky"] = 503
    start_game([ann, bob], seed=SEED)
    row = wait_for(lambda: Notification.objects.filter(
        user=ann, kind="push_turn", push_device__isnull=False, attempts=1).first(),
        "the first attempt")
    assert row.status == "pending" and row.note.startswith("answered 503")
    stand_in.status.pop("flaky")
    # the beat's sweep, once the retry is due (2 minutes on), hands it to the push queue
    assert notes.outbox_sweep(now=row.next_attempt_at, after=timedelta(0))["push"] == 1
    wait_for(lambda: Notification.objects.get(pk=row.pk).status == "sent", "the retry")
    first, second = stand_in.to("flaky")
    assert first.message == second.message and second.problems == []
