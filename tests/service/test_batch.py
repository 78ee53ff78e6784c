"""games.store: writes queued together (a Batch) reach the database in one round
trip, in the order queued, with the ORM's defaults, and all or nothing, in a
transaction or not; a batch with a guard is written only while its row holds
what the guard expects, and its values are checked by their columns as the
ORM's are."""

import threading
import time
from datetime import timedelta

import pytest
from django.db import DataError, IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import services, store
from games.models import Clock, Game, Vacation
from games.store import Batch
from notifications.models import Notification

HOUR = timedelta(hours=1)


def mail(key: str) -> Notification:
    return Notification(to_email="someone@example.org", kind=Notification.Kind.REPLY_REFUSED,
                        dedup_key=key, message_id=f"<{key}@example.org>")


@pytest.mark.django_db
def test_inserts_and_updates_go_in_one_round_trip(users):
    ann = users[0]
    start = timezone.now()
    kept = Vacation.objects.create(user=ann, starts_at=start, ends_at=start + HOUR)
    writes = Batch()
    rows = [Vacation(user=ann, starts_at=start, ends_at=start + 2 * HOUR),
            Vacation(user=users[1], starts_at=start, ends_at=start + 3 * HOUR)]
    writes.insert(rows)
    kept.ends_at = start + 5 * HOUR
    writes.update(kept, ["ends_at"])
    mails = [mail("batch-1"), mail("batch-2"), mail("batch-3")]
    writes.insert(mails)
    assert len(writes) == 3
    assert Vacation.objects.count() == 1  # nothing written before run

    with CaptureQueriesContext(connection) as queries:
        writes.run()
    assert len(queries.captured_queries) == 1
    assert len(writes) == 0

    assert all(row.pk is not None and not row._state.adding for row in rows + mails)
    stored = {v.pk: v.ends_at - start for v in Vacation.objects.all()}
    assert stored == {kept.pk: 5 * HOUR, rows[0].pk: 2 * HOUR, rows[1].pk: 3 * HOUR}
    # each row got its own key back
    assert [Notification.objects.get(pk=m.pk).dedup_key for m in mails] == [
        "batch-1", "batch-2", "batch-3"]


@pytest.mark.django_db
def test_inserted_rows_get_the_orm_defaults():
    row = mail("batch-defaults")
    writes = Batch()
    writes.insert([row])
    writes.run()
    stored = Notification.objects.get(pk=row.pk)
    assert stored.status == Notification.Status.PENDING and stored.attempts == 0
    assert stored.created_at is not None and stored.created_at == row.created_at


@pytest.mark.django_db(transaction=True)
def test_a_refused_statement_leaves_nothing_of_the_batch():
    Notification.objects.bulk_create([mail("taken")])
    writes = Batch()
    writes.insert([mail("fresh-1")])
    writes.insert([mail("taken")])  # the dedup key is unique
    writes.insert([mail("fresh-2")])
    with pytest.raises(IntegrityError), transaction.atomic():
        writes.run()
    assert sorted(Notification.objects.values_list("dedup_key", flat=True)) == ["taken"]


def _guarded_batch(game: Game, ann, expected_seq: int, calls: list[str]) -> tuple[Batch, list]:
    """A move's kind of batch, guarded by the game's seq: rows of two models, an
    update of another row, a write of this module's, the game row."""
    start = timezone.now()
    writes = Batch()
    rows = [Vacation(user=ann, starts_at=start, ends_at=start + HOUR), mail("guarded")]
    writes.insert(rows[:1])
    writes.insert(rows[1:])
    store.seats_awaited(writes, game.pk, [1])
    clock = Clock.objects.get(game=game, seat=0)
    clock.timeouts_in_row = 7
    writes.update(clock, ["timeouts_in_row"])
    game.seq = expected_seq + 1
    writes.update(game, ["seq"], expect={"seq": expected_seq})
    writes.after(lambda: calls.append("after"))
    return writes, rows


@pytest.fixture
def game(users) -> Game:
    """A running game with clocks (two days a move), as a move's batch finds it."""
    created = services.game_create(user=users[0], variant="classic", length="long", seats=2,
                                   days_per_move=2)
    services.game_join(game=created, user=users[1])
    created.refresh_from_db()
    return created


def _written(game: Game) -> tuple:
    return (Vacation.objects.count(), Notification.objects.filter(dedup_key="guarded").count(),
            sorted(game.seats.filter(awaited=True).values_list("index", flat=True)),
            Clock.objects.get(game=game, seat=0).timeouts_in_row,
            Game.objects.get(pk=game.pk).seq)


@pytest.mark.django_db(transaction=True)
def test_a_guarded_batch_is_written_whole_when_its_row_holds_what_it_expects(users, game):
    seq, calls = game.seq, []
    awaited_before = sorted(game.seats.filter(awaited=True).values_list("index", flat=True))
    assert awaited_before != [1]
    writes, rows = _guarded_batch(game, users[0], seq, calls)
    with CaptureQueriesContext(connection) as queries:
        writes.run()
    assert [q["sql"].split()[0] for q in queries.captured_queries] == ["WITH"]  # no BEGIN
    assert calls == ["after"]  # outside a transaction: the statement has committed
    assert all(row.pk is not None for row in rows)
    assert _written(game) == (1, 1, [1], 7, seq + 1)


@pytest.mark.django_db(transaction=True)
def test_a_guarded_batch_writes_nothing_once_its_row_has_changed(users, game):
    seq, calls = game.seq, []
    before = _written(game)
    writes, rows = _guarded_batch(game, users[0], seq, calls)
    Game.objects.filter(pk=game.pk).update(seq=seq + 5)  # another writer moved it on
    with pytest.raises(store.Stale):
        writes.run()
    assert calls == [] and all(row.pk is None for row in rows)
    assert _written(game) == (*before[:4], seq + 5)
    assert len(writes) == 0  # forgotten: a second run sends nothing


@pytest.mark.django_db(transaction=True)
def test_a_guarded_batch_in_a_transaction_calls_back_at_its_commit(users, game):
    calls: list[str] = []
    writes, _ = _guarded_batch(game, users[0], game.seq, calls)
    with transaction.atomic():
        writes.run()
        assert calls == []
    assert calls == ["after"]


@pytest.mark.django_db(transaction=True)
def test_a_guarded_write_waits_for_a_lock_on_its_row_then_finds_it_changed(users, game):
    """Another writer holds the game row (as the server's own changes do, in a
    transaction) and moves it on: the batch waits for that commit, reads the row
    as committed, and writes nothing."""
    seq, calls = game.seq, []
    before = _written(game)
    writes, _ = _guarded_batch(game, users[0], seq, calls)
    other = _other_connection()
    other.autocommit = False
    other.execute("UPDATE games_game SET seq = seq + 1 WHERE id = %s", [game.pk])
    committer = threading.Timer(0.5, other.commit)
    committer.start()
    started = time.monotonic()
    try:
        with pytest.raises(store.Stale):
            writes.run()
    finally:
        committer.join()
        other.close()
    assert time.monotonic() - started >= 0.4  # it waited for the other's commit
    assert calls == [] and _written(game) == (*before[:4], seq + 1)


@pytest.mark.django_db
def test_an_empty_batch_sends_nothing():
    with CaptureQueriesContext(connection) as queries:
        Batch().run()
    assert queries.captured_queries == []


@pytest.mark.django_db(transaction=True)
def test_a_guarded_insert_refuses_a_value_too_long_for_its_column(users, game):
    """The values of a guarded insert are cast to their columns' types without
    the length, so that the column refuses a longer string, as it refuses it
    from the ORM, instead of a cast cutting it short."""
    writes, rows = _guarded_batch(game, users[0], game.seq, [])
    rows[1].dedup_key = "k" * 201  # the column holds 200
    before = _written(game)
    with pytest.raises(DataError):
        writes.run()
    assert _written(game) == before
    assert not Notification.objects.filter(dedup_key__startswith="kkk").exists()


@pytest.mark.django_db
def test_an_insert_refuses_a_row_whose_related_row_is_not_saved(users):
    """As ``save()`` does: the row's id of it would be lost."""
    unsaved = Game(game="marram", seat_count=2, created_by=users[0])
    writes = Batch()
    writes.insert([Clock(game=unsaved, seat=0)])
    with pytest.raises(ValueError, match="Clock.game"):
        writes.run()
    assert not Clock.objects.exists()


@pytest.mark.django_db
def test_the_statements_of_every_move_are_prepared_once_per_connection(users):
    """Server-side binding (settings): after a few runs PostgreSQL keeps the plan of
    the move's reads (the game, its seats) and of its batched writes instead of
    planning each time."""
    from engine import marram as engine
    from games import selectors

    game = services.game_create(user=users[0], variant="classic", length="long", seats=2)
    services.game_join(game=game, user=users[1])
    for _ in range(14):  # a turn's two moves write differently: 7 runs of each
        game.refresh_from_db()
        state = selectors.game_state_get(game)
        wait = engine.awaiting(state)
        mover = next(s.user for s in game.seats.all() if s.index == wait["player"])
        action = {k: v for k, v in engine.legal_actions(state)[0].items() if k != "player"}
        services.action_submit(game=game.pk, user=mover, action=action, expected_seq=game.seq)
        selectors.game_get(game.pk)
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    reads = [s for s in prepared if s.startswith("SELECT")]
    # the game with its seats, and whether a computer holds each
    assert any('FROM "games_game"' in s and '"games_seat"' in s and '"bots_bot"' in s
               for s in reads)
    assert any('INSERT INTO "games_event"' in s and "UPDATE" in s for s in prepared)  # writes


def _row(game: Game) -> dict[str, object]:
    return {f.attname: getattr(game, f.attname) for f in Game._meta.concrete_fields}


def _other_connection():
    """A second connection, as a deployment's migrate command would have."""
    import psycopg

    params = connection.get_connection_params()
    for key in ("cursor_factory", "context", "prepare_threshold"):
        params.pop(key, None)
    return psycopg.connect(autocommit=True, **params)


@pytest.mark.django_db(transaction=True)
def test_a_prepared_read_survives_a_migration_adding_a_column(users):
    """The hot reads name their columns: a column added by another connection while
    workers run (their statements prepared) does not change what they return."""
    from games import selectors

    game = services.game_join(
        game=services.game_create(user=users[0], variant="classic", length="long", seats=2),
        user=users[1])
    for _ in range(10):  # prepared from the fifth
        selectors.game_get(game.pk)
    with _other_connection() as other:
        other.execute("ALTER TABLE games_game ADD COLUMN added_later integer")
    try:
        read = selectors.game_get(game.pk)
        # what the ORM reads of the row now, column by column, and the seats
        assert _row(read) == _row(Game.objects.get(pk=game.pk))
        assert read.status == Game.Status.RUNNING
        assert [(s.index, s.user_id) for s in read.seat_list()] == sorted(
            (s.index, s.user_id) for s in game.seats.all())
    finally:
        with _other_connection() as other:
            other.execute("ALTER TABLE games_game DROP COLUMN added_later")
