"""A slow webhook receiver does not hold up mail: webhook calls go to a queue of
their own (``webhooks``, settings.CELERY_TASK_ROUTES), taken by a worker of its
own, as docker-compose.yml runs the ``worker`` (-Q celery) and ``webhooks``
(-Q webhooks) services.

Real parts: Redis, two Celery workers in processes of their own (one a queue),
the SMTP collector and a receiver on 127.0.0.1 that takes SLOW seconds to
answer. Each round starts a game whose first player has a webhook to the slow
receiver, waits until the receiver is holding that call, then starts another
game and times its mail from the commit to the SMTP collector; the same again
with no slow call under way for the baseline. The delays are printed (``-s``).

Uses the SMTP fixtures of test_celery_worker.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterator

import pytest

from marram_site.celery import app as celery_app
from notifications import outbox
from notifications import services as notes
from notifications.models import Notification, Webhook
from tests.service import test_celery_worker as real
from tests.service.conftest import make_user, start_game
from tests.service.test_celery_worker import Collector, Process, wait_for, worker_process
from tests.service.test_webhooks import SEED

# the fixtures of test_celery_worker: the workers' environment, the SMTP collector
worker_env, smtp, mailbox, fresh_visits = (real.process_env, real.smtp, real.mailbox,
                                           real.fresh_visits)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("redis_url")]

SLOW = 4.0
"""Seconds the receiver takes to answer: under webhook_http's 5 s read timeout,
so that the call is made, as slowly as a receiver may."""
ROUNDS = 3
PROMPT = 1.5
"""Seconds within which a mail must reach the SMTP collector."""


@pytest.fixture(scope="module")
def process_env(worker_env) -> dict[str, str]:
    """The workers' environment, allowed to call the receiver on loopback."""
    return {**worker_env, "MARRAM_WEBHOOK_ALLOWED_NETWORKS": "127.0.0.0/8"}


@pytest.fixture(scope="module")
def workers(process_env, tmp_path_factory) -> Iterator[dict[str, Process]]:
    """A worker for the mail's queue and one for the webhook calls', as
    docker-compose.yml runs them (a process each here)."""
    logs = tmp_path_factory.mktemp("queues")
    running = {
        "mail": worker_process(process_env, logs / "mail.log", "mail", purge=True,
                               queues="celery").start(),
        "webhooks": worker_process(process_env, logs / "webhooks.log", "webhooks",
                                   purge=True, queues="webhooks").start(),
    }
    yield running
    for process in running.values():
        process.stop()


@pytest.fixture(autouse=True)
def settled(request, monkeypatch) -> Iterator[None]:
    # each game's mail asks for a drain at once, not at the end of an earlier window
    monkeypatch.setattr(notes, "_waker", outbox.OutboxWaker())
    yield
    if "workers" in request.fixturenames:  # the workers done with this test's rows
        wait_for(lambda: not Notification.objects.filter(status="pending").exists(),
                 "the outbox to empty", timeout=SLOW * ROUNDS + 30)


def mail_delay(box: Collector, name: str, monkeypatch) -> float:
    """Seconds from the commit of a new game of ``name``'s to their mail at the SMTP
    collector."""
    monkeypatch.setattr(notes, "_waker", outbox.OutboxWaker())
    first, second = make_user(f"{name}-a"), make_user(f"{name}-b")
    started = time.monotonic()
    start_game([first, second])
    wait_for(lambda: box.to(first.email) and box.to(second.email),
             f"the mail of {name}'s game", timeout=30)
    return time.monotonic() - started


def test_webhook_calls_are_routed_to_their_own_queue():
    route = celery_app.amqp.router.route({}, "notifications.tasks.webhook_deliver")
    assert route["queue"].name == "webhooks"
    for mail_task in ("notifications.tasks.notification_deliver",
                      "notifications.tasks.outbox_drain"):
        assert celery_app.amqp.router.route({}, mail_task)["queue"].name == "celery"


@pytest.mark.usefixtures("workers")
def test_mail_is_sent_promptly_while_a_slow_receiver_holds_a_webhook_call(
        receiver, mailbox, monkeypatch, capsys):
    receiver.delay = SLOW
    quiet = [mail_delay(mailbox, f"calm{i}", monkeypatch) for i in range(ROUNDS)]
    held = []
    for i in range(ROUNDS):
        ann, bob = make_user(f"ann{i}"), make_user(f"bob{i}")
        Webhook.objects.create(user=ann, url=receiver.url(f"/slow{i}"))
        start_game([ann, bob], seed=SEED)  # ann moves first: her turn mail, then the call
        wait_for(lambda i=i: receiver.to(f"/slow{i}"), "the slow receiver to be called")
        called = time.monotonic()
        [call] = Notification.objects.filter(user=ann, kind="webhook_turn")
        held.append(mail_delay(mailbox, f"busy{i}", monkeypatch))
        # the mail came while the receiver still held the call
        assert time.monotonic() - called < SLOW
        assert Notification.objects.get(pk=call.pk).status == "pending"
        wait_for(lambda pk=call.pk: Notification.objects.get(pk=pk).status == "sent",
                 "the slow call to be made", timeout=SLOW + 10)
    with capsys.disabled():
        print(f"\nmail delay, no webhook call under way: median "
              f"{statistics.median(quiet):.3f} s, {min(quiet):.3f}-{max(quiet):.3f} s; "
              f"a receiver holding a call {SLOW:.0f} s: median "
              f"{statistics.median(held):.3f} s, {min(held):.3f}-{max(held):.3f} s")
    assert max(held) < PROMPT and max(quiet) < PROMPT, (quiet, held)


def test_docker_compose_runs_a_worker_for_each_queue():
    import yaml

    from tests.service.proxy_kit import ROOT

    shipped = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = shipped["services"]
    queues = {name: service["command"][service["command"].index("-Q") + 1]
              for name, service in services.items()
              if service.get("command", [])[:4] == ["celery", "-A", "marram_site", "worker"]}
    assert queues == {"worker": "celery", "computers": "computers", "webhooks": "webhooks",
                      "push": "push"}
    # the computers' moves and the reviews go where the computers service takes them
    assert shipped["x-marram-env"]["MARRAM_COMPUTER_QUEUE"] == queues["computers"]
    assert "MARRAM_REVIEW_QUEUE" not in shipped["x-marram-env"]
