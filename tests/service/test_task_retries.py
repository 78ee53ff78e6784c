"""A task that finds the database out is sent again a moment later, not left for
the sweep (games.enqueue.IDEMPOTENT): the database failing over to its standby, or a
worker's host cut from it for a while, delays a draw or a mail by seconds."""

from __future__ import annotations

import pytest
from django.db import InterfaceError, OperationalError

from games import tasks
from games.services import moves
from notifications import services as mail_services
from notifications import tasks as mail_tasks


@pytest.fixture(autouse=True)
def as_a_worker_runs_them(monkeypatch):
    """Tasks applied here end as a worker's do (a retry sent again, a failure kept
    in the result), not raised into the test, as eager tasks elsewhere are."""
    monkeypatch.setattr(tasks.resolve_chance.app.conf, "task_eager_propagates", False)


def flaky(failures: list[Exception], answer):
    calls: list[object] = []

    def service(*args, **kwargs):
        calls.append(args)
        if len(calls) <= len(failures):
            raise failures[len(calls) - 1]
        return answer
    return service, calls


def test_a_draw_that_finds_the_database_out_is_tried_again_until_it_is_back(monkeypatch):
    service, calls = flaky([OperationalError("connection refused"),
                            InterfaceError("connection already closed")], ["drawn"])
    monkeypatch.setattr(moves, "chance_resolve", service)
    result = tasks.resolve_chance.apply(args=[7])
    assert result.successful() and result.result == 1
    assert calls == [(7,)] * 3  # twice out, then drawn


def test_a_mail_drain_that_finds_the_database_out_is_tried_again(monkeypatch):
    service, calls = flaky([OperationalError("server closed the connection")], {"sent": 2})
    monkeypatch.setattr(mail_services, "outbox_drain", service)
    result = mail_tasks.outbox_drain.apply()
    assert result.successful() and result.result == {"sent": 2} and len(calls) == 2


def test_a_task_gives_up_after_eight_tries_more(monkeypatch):
    service, calls = flaky([OperationalError("connection refused")] * 20, ["drawn"])
    monkeypatch.setattr(moves, "chance_resolve", service)
    result = tasks.resolve_chance.apply(args=[7])
    assert result.failed() and isinstance(result.result, OperationalError)
    assert len(calls) == 1 + 8


def test_any_other_fault_is_not_tried_again(monkeypatch):
    service, calls = flaky([ValueError("a bug")], ["drawn"])
    monkeypatch.setattr(moves, "chance_resolve", service)
    result = tasks.resolve_chance.apply(args=[7])
    assert result.failed() and isinstance(result.result, ValueError)
    assert len(calls) == 1
