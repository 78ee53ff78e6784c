"""A drain of the outbox settles at once the turn mails that are not to go because
their turn is over or their player is looking at the game, and marks every row as
delivering it alone would: the same status, the same note, the same webhook
calls. Drains running at once share the rows out: each row is taken by one of
them, once."""

from __future__ import annotations

import itertools
import threading
from datetime import timedelta

import pytest
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Clock
from notifications import services as notes
from notifications.models import BouncingAddress, GameVisit, Notification, Webhook
from tests.service.conftest import make_user, start_game
from tests.service.mail_kit import play_turn

SEED = "4b" * 32  # the first player given sits first and moves first
SHAPES = ("over", "looking", "away", "mailed")
"""A turn mail's row: its turn is over (the player has moved since); the player
looks at the game; the player is away; away, and mailed for an earlier turn."""


def turn_row(name: str, shape: str, *, policy: str | None = None, address: str = "ok",
             webhook: bool = False) -> Notification:
    """A "your turn" row for a player of their own (``name``) in a game of their own,
    as a move writes it, in ``shape``: their mail ``policy`` (None: the default),
    their ``address`` ("ok", "bouncing" or "none") and a webhook on or none."""
    player = make_user(name)
    game = start_game([player, make_user(f"{name}-x")], seed=SEED)
    clock = Clock.objects.get(game=game, user=player)
    assert clock.running  # the first to move
    seat, seq = clock.seat, clock.started_seq
    if shape == "over":
        play_turn(game)
    Notification.objects.filter(game=game).delete()  # the start's and the move's own
    now = timezone.now()
    if policy is not None:
        notes.mail_settings_update(user=player, policy=policy)
    if address == "bouncing":
        BouncingAddress.objects.create(address=player.email, user=player, since=now,
                                       reason="3 hard bounces", suspended_at=now)
    elif address == "none":
        player.email = ""
        player.save(update_fields=["email"])
    if webhook:
        Webhook.objects.create(user=player, url=f"https://hooks.example/{name}")
    if shape == "looking":
        GameVisit.objects.create(user=player, game=game, seen_at=now)
    if shape == "mailed":
        Notification.objects.create(
            user=player, game=game, seat=seat, seq=seq, kind="your_turn", status="sent",
            sent_at=now - timedelta(hours=1), dedup_key=f"earlier:{game.pk}",
            message_id=f"<earlier.{game.pk}@test>")
    return Notification.objects.create(
        user=player, game=game, seat=seat, seq=seq, kind="your_turn",
        dedup_key=f"your_turn:{game.pk}:{seat}:{seq}", message_id=f"<turn.{game.pk}@test>")


def outcome(row: Notification) -> tuple[str, str]:
    row.refresh_from_db()
    return row.status, row.note


@pytest.mark.django_db
def test_a_drain_marks_each_turn_mail_as_its_own_delivery_would_with_the_same_calls():
    rows = [turn_row(f"p{i}", shape, policy=policy, address=address, webhook=webhook)
            for i, (shape, policy, address, webhook) in enumerate(itertools.product(
                SHAPES, (None, "every_turn", "digest", "off"), ("ok", "bouncing", "none"),
                (False, True)))]
    now = timezone.now()
    # what delivering each row alone would make of it (_skip_reason reads only)
    expected = {}
    for row in Notification.objects.filter(pk__in=[r.pk for r in rows]):
        reason = notes._skip_reason(row, now)
        expected[row.pk] = ("skipped", reason) if reason else ("sent", "")
    called = {row.pk for row in rows if Webhook.objects.filter(user=row.user_id).exists()
              and Clock.objects.filter(game=row.game_id, seat=row.seat, started_seq=row.seq,
                                       started_at__isnull=False).exists()}

    done = notes.outbox_drain()

    assert {row.pk: outcome(row) for row in rows} == expected
    notes_made = {note for _, note in expected.values()}
    assert {"that turn is over", "the player is looking at the game",
            "the player has turned mail off", "no address to send it to",
            "the player reads a daily digest instead", "no visit since the last mail"} \
        < notes_made  # every reason tested first or after is among them
    assert sum(done.values()) == len(rows)
    assert len(mail.outbox) == sum(status == "sent" for status, _ in expected.values())
    # a webhook call for each turn not over, whatever became of its mail; none for the others
    calls = Notification.objects.filter(kind="webhook_turn")
    assert sorted(calls.values_list("game_id", flat=True)) == sorted(
        row.game_id for row in rows if row.pk in called)
    assert called  # (some rows make calls)


@pytest.mark.django_db
def test_turn_mails_that_are_over_or_looked_at_are_settled_at_once_not_row_by_row():
    def drained(count: int) -> int:
        rows = [turn_row(f"{shape}{count}-{i}", shape)
                for shape in ("over", "looking") for i in range(count)]
        with CaptureQueriesContext(connection) as queries:
            assert notes.outbox_drain() == {"skipped": 2 * count}
        assert [outcome(row)[1] for row in rows] == \
            ["that turn is over"] * count + ["the player is looking at the game"] * count
        return len(queries)

    assert drained(2) == drained(6)  # the same statements for 12 rows as for 4


@pytest.mark.django_db
def test_a_player_looking_at_the_game_with_a_webhook_still_gets_the_call():
    looked = turn_row("ann", "looking", webhook=True)
    over = turn_row("bob", "over", webhook=True)
    assert notes.outbox_drain() == {"skipped": 2}
    assert outcome(looked) == ("skipped", "the player is looking at the game")
    assert outcome(over) == ("skipped", "that turn is over")
    [call] = Notification.objects.filter(kind="webhook_turn")  # none for a turn over
    assert (call.user_id, call.game_id, call.seq) == (looked.user_id, looked.game_id, looked.seq)


@pytest.mark.django_db(transaction=True)
def test_two_drains_at_once_share_the_rows_and_deliver_each_once(monkeypatch):
    rows = [turn_row(f"p{i}", shape) for i, shape in enumerate(
        ["away"] * 8 + ["over"] * 4 + ["looking"] * 4)]
    message = notes._message

    def slow(n, now=None):  # each mail takes a while to send: the drains overlap
        threading.Event().wait(0.05)
        return message(n, now)

    monkeypatch.setattr(notes, "_message", slow)
    start = threading.Barrier(2)
    results: list[dict[str, int]] = []

    def drain() -> None:
        try:
            start.wait()
            results.append(notes.outbox_drain())
        finally:
            connection.close()

    threads = [threading.Thread(target=drain) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert len(results) == 2
    # each row counted by one drain only: none was tried by both
    assert sum(sum(done.values()) for done in results) == len(rows)
    assert all(done.get("sent") for done in results)  # both sent some
    assert sorted(m.extra_headers["Message-ID"] for m in mail.outbox) == sorted(
        row.message_id for row in rows[:8])
    assert {outcome(row)[0] for row in rows[:8]} == {"sent"}
    assert {outcome(row) for row in rows[8:]} == {
        ("skipped", "that turn is over"), ("skipped", "the player is looking at the game")}
