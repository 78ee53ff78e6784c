"""Migrations notifications.0004 and games.0005 move the clocks and vacations from
the notifications app to the games app: on a database the old code wrote, every
clock and vacation row comes over as it was, the models work on them (and take
new rows), and going back puts them where they were."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from games.models import Clock, Vacation

BEFORE = [("games", "0004_game_key_and_options"), ("notifications", "0003_inbound_answered")]


def migrate(targets=None):
    """Migrate to ``targets`` (by default the latest state); their models."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    targets = targets or executor.loader.graph.leaf_nodes()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def clock_fields(rows) -> list[tuple]:
    return sorted((c.game_id, c.seat, c.user_id, c.bank, c.started_at, c.started_seq,
                   c.timeouts_in_row) for c in rows)


@pytest.mark.django_db(transaction=True)
def test_clocks_and_vacations_written_by_the_old_code_come_over_to_the_games_app(users):
    ann, bob = users[0], users[1]
    apps = migrate(BEFORE)
    OldGame = apps.get_model("games", "Game")
    OldClock = apps.get_model("notifications", "Clock")
    OldVacation = apps.get_model("notifications", "Vacation")
    now = timezone.now().replace(microsecond=0)
    game = OldGame.objects.create(game="marram", options={"variant": "classic"}, seat_count=2,
                                  days_per_move=3, status="running", created_by_id=ann.pk,
                                  rules_version="1")
    OldClock.objects.create(game_id=game.pk, seat=0, user_id=ann.pk, bank=timedelta(days=6),
                            started_at=now, started_seq=4, timeouts_in_row=1)
    OldClock.objects.create(game_id=game.pk, seat=1, user_id=bob.pk, bank=timedelta(days=7))
    OldVacation.objects.create(user_id=bob.pk, starts_at=now, ends_at=now + timedelta(days=2))
    old_clocks = clock_fields(OldClock.objects.all())
    old_vacations = list(OldVacation.objects.values_list("pk", "user_id", "starts_at", "ends_at"))

    migrate()
    assert clock_fields(Clock.objects.all()) == old_clocks
    assert list(Vacation.objects.values_list("pk", "user_id", "starts_at", "ends_at")) == \
        old_vacations
    running = Clock.objects.get(game_id=game.pk, started_at__isnull=False)
    assert (running.seat, running.user, running.running) == (0, ann, True)
    assert list(bob.vacations.all()) == list(Vacation.objects.all())  # related names kept
    # the table takes new rows after the old ones, and keeps its constraints
    added = Vacation.objects.create(user=ann, starts_at=now, ends_at=now + timedelta(days=1))
    assert added.pk > max(pk for pk, *_ in old_vacations)
    with pytest.raises(Exception, match="clock_unique|UNIQUE"):
        Clock.objects.create(game_id=game.pk, seat=1)

    apps = migrate(BEFORE)
    OldClock = apps.get_model("notifications", "Clock")
    assert clock_fields(OldClock.objects.all()) == old_clocks
    assert apps.get_model("notifications", "Vacation").objects.count() == 2
    migrate()
