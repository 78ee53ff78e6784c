"""The event log is append-only, and PostgreSQL itself refuses to change it; a move
writes it in as few round trips as it can."""

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction

from engine import marram as engine
from engine.replay import apply
from games import selectors
from games.models import Event
from tests.service.conftest import custom_game, make_user, tile

TILES = {"S0": tile("GGGGGGGG"), **{f"G{i}": tile("GGGGGGGG") for i in range(1, 9)}}
DECK = [f"G{i}" for i in range(1, 9)]


@pytest.fixture
def stored_event(db) -> Event:
    ann, bob = make_user("ann"), make_user("bob")
    game = custom_game([ann, bob], TILES, DECK)
    return Event.objects.create(
        game=game, seq=0, type="pass", payload={"type": "pass", "player": 0}, actor=ann
    )


def test_the_database_is_postgresql():
    # The triggers below are PostgreSQL's; ./dev test always runs on it.
    assert connection.vendor == "postgresql"


def test_raw_sql_update_is_refused(stored_event):
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), \
            connection.cursor() as cursor:
        cursor.execute("UPDATE games_event SET type = 'resign' WHERE id = %s", [stored_event.pk])
    stored_event.refresh_from_db()
    assert stored_event.type == "pass"


def test_raw_sql_delete_is_refused(stored_event):
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), \
            connection.cursor() as cursor:
        cursor.execute("DELETE FROM games_event WHERE id = %s", [stored_event.pk])
    assert Event.objects.filter(pk=stored_event.pk).exists()


def test_orm_queryset_update_is_refused(stored_event):
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        Event.objects.filter(pk=stored_event.pk).update(payload={"type": "resign", "player": 0})
    stored_event.refresh_from_db()
    assert stored_event.payload == {"type": "pass", "player": 0}


def test_orm_queryset_delete_is_refused(stored_event):
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        Event.objects.filter(pk=stored_event.pk).delete()
    assert Event.objects.filter(pk=stored_event.pk).exists()


def test_orm_instance_save_and_delete_are_refused(stored_event):
    stored_event.type = "resign"
    with pytest.raises(ValueError, match="append-only"):
        stored_event.save()
    with pytest.raises(ValueError, match="append-only"):
        stored_event.delete()
    # and past the model's own guard, the database still says no
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        Event.objects.bulk_update([stored_event], ["type"])
    assert Event.objects.get(pk=stored_event.pk).type == "pass"


def test_a_game_with_events_cannot_be_deleted(stored_event):
    with pytest.raises(IntegrityError), transaction.atomic():
        stored_event.game.delete()


def test_one_event_per_seq(stored_event):
    with pytest.raises(IntegrityError), transaction.atomic():
        Event.objects.create(game=stored_event.game, seq=0, type="pass",
                             payload={"type": "pass", "player": 1})


def test_an_idempotency_key_is_used_once_per_game(stored_event):
    game = stored_event.game
    Event.objects.create(game=game, seq=1, type="pass", payload={"type": "pass", "player": 1},
                         idempotency_key="k1")
    Event.objects.create(game=game, seq=2, type="pass", payload={"type": "pass", "player": 0})
    Event.objects.create(game=game, seq=3, type="pass", payload={"type": "pass", "player": 1})
    with pytest.raises(IntegrityError), transaction.atomic():
        Event.objects.create(game=game, seq=4, type="pass",
                             payload={"type": "pass", "player": 0}, idempotency_key="k1")


def _statements(queries) -> list[str]:
    """The statements sent, transaction control aside: a round trip each."""
    control = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE SAVEPOINT")
    return [q["sql"] for q in queries.captured_queries if not q["sql"].startswith(control)]


@pytest.mark.django_db
def test_a_move_costs_two_statements_the_last_of_a_turn_too(users):
    """The game, its seats and its clocks read in one statement, then the
    events, the game row, the clocks and the "your turn" mail written together
    (games.store.Batch). The turn's last move changes the clocks it read with
    the game (games.store.game_for_move)."""
    from django.test.utils import CaptureQueriesContext

    from games import services
    from games.models import Clock
    from notifications.models import Notification

    game = services.game_create(user=users[0], variant="classic", length="long", seats=2,
                                days_per_move=3)
    services.game_join(game=game, user=users[1])
    game.refresh_from_db()
    mover = next(s.user for s in game.seats.all() if s.index == 0)
    rules = selectors.rules_of(game)
    for seq, expected, clock_runs in ((0, 2, 0), (1, 2, 1)):
        state = selectors.game_state_get(game)
        # a move that nothing follows by itself: in one deal in two hundred, the
        # first legal move leaves the mover's hand with no tile that fits, and a
        # pass forced on them would be a second event of the same batch
        legal = next(a for a in engine.legal_actions(state)
                     if rules.automatic(apply(rules, state, rules.read_event(a))) is None)
        action = {k: v for k, v in legal.items() if k != "player"}
        with CaptureQueriesContext(connection) as queries:
            services.action_submit(game=game.pk, user=mover, action=action, expected_seq=seq)
        assert len(_statements(queries)) == expected, _statements(queries)
        game.refresh_from_db()
        assert Clock.objects.get(game=game, started_at__isnull=False).seat == clock_runs
    assert Event.objects.filter(game=game).count() == 2
    assert Notification.objects.filter(game=game, kind="your_turn", seat=1, seq=2).exists()
