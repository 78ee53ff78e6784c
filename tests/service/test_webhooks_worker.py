"""Webhook calls made by the real parts: moves committed here, the outbox's tasks
run by a Celery worker in its own process (through Redis), the calls received
by a real HTTP receiver on 127.0.0.1 (which the worker is allowed to call).
Uses the worker and SMTP fixtures of test_celery_worker."""

from __future__ import annotations

import pytest

from notifications.models import Notification, Webhook
from tests.service import test_celery_worker as real
from tests.service.conftest import make_user, start_game
from tests.service.mail_kit import play_turn
from tests.service.test_celery_worker import (  # noqa: F401  (the module's fixtures)
    fresh_visits,
    mailbox,
    quiet_worker,
    smtp,
    wait_for,
    worker,
)
from tests.service.test_webhooks import SEED

worker_env = real.process_env  # the worker's own, as the fixture worker_env

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("redis_url")]


@pytest.fixture(scope="module")
def process_env(worker_env) -> dict[str, str]:
    """The worker's environment, allowed to call the receiver on loopback."""
    return {**worker_env, "MARRAM_WEBHOOK_ALLOWED_NETWORKS": "127.0.0.0/8"}


@pytest.mark.usefixtures("worker", "mailbox")
def test_the_worker_calls_each_players_webhook_as_their_turn_comes(receiver):
    ann, bob = make_user("ann"), make_user("bob")
    Webhook.objects.create(user=ann, url=receiver.url("/ann"))
    Webhook.objects.create(user=bob, url=receiver.url("/bob"), format="discord")
    game = start_game([ann, bob], seed=SEED)
    wait_for(lambda: receiver.to("/ann"), "ann's webhook to be called")
    assert receiver.to("/ann")[0].json()["event"] == "your_turn"
    play_turn(game)
    wait_for(lambda: receiver.to("/bob"), "bob's webhook to be called")
    [to_bob] = receiver.to("/bob")
    assert to_bob.json()["content"].startswith(f"bob: your turn in Marram game {game.pk} ")
    wait_for(lambda: set(Notification.objects.filter(kind="webhook_turn")
                         .values_list("status", flat=True)) == {"sent"}, "the calls marked made")
    assert len(receiver.calls) == 2
