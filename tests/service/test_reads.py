"""The hot read paths give what the plain ORM gives, and tokens are checked."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games import services
from games.selectors import game_get
from games.serializers import GameSerializer
from tests.service.conftest import body, client_for, make_user, start_game

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_a_game_read_is_one_statement_in_seat_order(django_assert_num_queries):
    """The game with its creator and its seats with their players, in one
    statement: the seats in seat order, and before the start (no index yet) in
    the order they were taken, on every database."""
    ann, bob, cyd = make_user("ann"), make_user("bob"), make_user("cyd")
    running = start_game([ann, bob])
    open_game = services.game_create(user=cyd, variant="classic", length="long", seats=3)
    services.game_join(game=open_game, user=ann)
    empty = services.game_create(user=bob, variant="classic", length="long", seats=2)
    services.game_leave(game=empty, user=bob)
    for game in (running, open_game, empty):
        with django_assert_num_queries(1):
            shown = GameSerializer(game_get(game.pk)).data
        assert shown["created_by"] == game.created_by.username
    assert [p["username"] for p in GameSerializer(game_get(open_game.pk)).data["players"]] == [
        "cyd", "ann"]
    seats = running.seats.order_by("index")
    assert [p["username"] for p in GameSerializer(game_get(running.pk)).data["players"]] == [
        s.user.username for s in seats]
    assert GameSerializer(game_get(empty.pk)).data["players"] == []


def statements(captured) -> list[str]:
    """The statements run, leaving out the transaction's own (savepoints here)."""
    return [q["sql"].split()[0] for q in captured
            if not q["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))]


@pytest.mark.django_db(transaction=True)  # a move commits, and caches its state then
def test_a_state_read_costs_one_statement_and_a_move_two_and_its_answer_none():
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    mover = game.seats.get(index=0).user
    client = client_for(mover)
    view = body(client.get(f"/api/games/{game.pk}/"))  # warms the token and state caches
    with CaptureQueriesContext(connection) as read:
        view = body(client.get(f"/api/games/{game.pk}/"))
    assert statements(read) == ["SELECT"]  # the game with its seats
    with CaptureQueriesContext(connection) as write:
        answer = client.post(f"/api/games/{game.pk}/actions/",
                             {"seq": view["seq"], "action": view["legal_actions"][0]},
                             format="json")
    assert answer.status_code == 201, answer.content
    # the move, in two statements and no transaction: read the game with its
    # seats, their players and whether a computer holds each; append the events
    # and update the game and its seats if it is still at the seq read (one
    # statement, which commits on its own); the answer's view is shown from the
    # read
    assert statements(write) == ["SELECT", "WITH"]
    # ...and it is what a GET as the mover (the one that need not follow) reads
    assert body(answer)["view"] == body(client.get(f"/api/games/{game.pk}/"))


@pytest.mark.django_db(transaction=True)
def test_a_move_that_resigns_a_seat_shows_it_resigned_in_its_answer():
    """A player may leave by a move at any time, even out of turn: the answer's
    game, shown from the seats read with the lock, has the seat resigned, as a
    fresh read does."""
    ann, bob, cyd = make_user("ann"), make_user("bob"), make_user("cyd")
    game = start_game([ann, bob, cyd])
    leaver = game.seats.get(index=2).user
    client = client_for(leaver)
    view = body(client.get(f"/api/games/{game.pk}/"))
    assert view["you"] == 2 and view["state"]["awaiting"].get("player") != 2
    answer = client.post(f"/api/games/{game.pk}/actions/",
                         {"seq": view["seq"], "action": {"type": "resign"}}, format="json")
    assert answer.status_code == 201, answer.content
    shown = body(answer)["view"]
    assert [(p["seat"], p["resigned"]) for p in shown["game"]["players"]] == [
        (0, False), (1, False), (2, True)]
    assert shown["status"] == "running"
    assert shown == body(client.get(f"/api/games/{game.pk}/"))


@pytest.mark.django_db
def test_bad_tokens_are_refused_and_good_ones_remembered():
    ann = make_user("ann")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    response = client.get("/api/games/")
    assert response.status_code == 401 and body(response)["code"] == "authentication_failed"
    good = client_for(ann)
    assert good.get("/api/games/").status_code == 200
    Token.objects.filter(user=ann).update(key="f" * 40)  # rotated: the old key is gone
    assert good.get("/api/games/").status_code == 200  # remembered for a few seconds
    from accounts.auth import CachedTokenAuthentication

    CachedTokenAuthentication.forget_all()
    assert good.get("/api/games/").status_code == 401


def test_sqlite_refuses_changes_to_events_too(tmp_path):
    # ./dev run uses SQLite: the same migration installs its own triggers there
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'dev.sqlite3'}"}
    script = (
        "from django.db import connection, DatabaseError\n"
        "from django.core.management import call_command\n"
        "call_command('seed_demo', verbosity=0)\n"
        "from games.models import Event\n"
        "event = Event.objects.first()\n"
        "for sql in ('UPDATE games_event SET type = %s WHERE id = %s',"
        " 'DELETE FROM games_event WHERE id = %s'):\n"
        "    try:\n"
        "        with connection.cursor() as c:\n"
        "            c.execute(sql, ['x', event.pk] if 'UPDATE' in sql else [event.pk])\n"
        "    except DatabaseError as e:\n"
        "        print('refused', e)\n"
    )
    migrate = subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=120)
    assert migrate.returncode == 0, migrate.stderr
    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", script], cwd=ROOT,
                         env=env, capture_output=True, text=True, timeout=120)
    assert out.stdout.count("refused games_event is append-only") == 2, out.stdout + out.stderr


@pytest.mark.django_db(transaction=True)
def test_the_clocks_read_says_which_a_vacation_touches_and_which_a_computer_holds():
    """A turn's end reads the game's clocks (games.store.game_clocks; a move
    reads them with the game, games.store.game_for_move): each as stored, to
    the microsecond, with those whose running time a vacation touches and those
    computers hold, in one statement."""
    from datetime import timedelta

    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from bots.models import Bot
    from games import store
    from games.models import Clock, Game, Vacation

    ann, bob, cyd = make_user("ann"), make_user("bob"), make_user("cyd")
    Bot.objects.create(user=cyd, level="easy")
    game = services.game_create(user=ann, variant="classic", length="long", seats=3,
                                days_per_move=2)  # timed: the clocks have banks
    for player in (bob, cyd):
        services.game_join(game=game, user=player)
    game.refresh_from_db()
    now = timezone.now()
    Clock.objects.filter(game=game, seat=0).update(
        bank=timedelta(days=2, seconds=3, microseconds=7), started_at=now - timedelta(hours=5),
        started_seq=4, timeouts_in_row=1)
    Clock.objects.filter(game=game, seat=1).update(bank=None, started_at=None)
    Vacation.objects.create(user=game.seats.get(index=0).user, starts_at=now - timedelta(hours=1),
                            ends_at=now + timedelta(days=1))
    fields = ["id", "game_id", "seat", "user_id", "bank", "started_at", "started_seq",
              "timeouts_in_row"]
    with CaptureQueriesContext(connection) as read:
        found = store.game_clocks(game, now)
    assert len(read.captured_queries) == 1
    clocks = found.clocks
    assert [c.seat for c in clocks] == [0, 1, 2]
    assert [[getattr(c, f) for f in fields] for c in clocks] == [
        [getattr(c, f) for f in fields] for c in Clock.objects.filter(game=game).order_by("seat")]
    assert clocks[0].bank == timedelta(days=2, seconds=3, microseconds=7)
    assert clocks[0].started_at == now - timedelta(hours=5)
    assert found.vacationed == {0}
    assert found.computer_seats == {game.seats.get(user=cyd).index}
    assert all(c.game is game for c in clocks)
    moving = store.game_for_move(game.pk, ann.pk).clocks  # read now, with the game
    assert [[getattr(c, f) for f in fields] for c in moving.clocks] == [
        [getattr(c, f) for f in fields] for c in clocks]
    assert moving.vacationed == {0} and moving.computer_seats == found.computer_seats
    later = now + timedelta(days=3)  # the vacation is over, but it touched the running time
    assert store.game_clocks(game, later).vacationed == {0}
    Vacation.objects.update(starts_at=now + timedelta(days=2), ends_at=now + timedelta(days=4))
    assert store.game_clocks(game, now).vacationed == frozenset()
    assert store.game_for_move(game.pk, ann.pk).clocks.vacationed == frozenset()
    Vacation.objects.update(starts_at=now - timedelta(hours=1), ends_at=now + timedelta(days=1))
    Game.objects.filter(pk=game.pk).update(days_per_move=None)  # untimed: no bank to lengthen
    game.refresh_from_db()
    with CaptureQueriesContext(connection) as untimed:
        assert store.game_clocks(game, now).vacationed == frozenset()
    assert "games_vacation" not in untimed.captured_queries[0]["sql"]
    assert store.game_for_move(game.pk, ann.pk).clocks.vacationed == frozenset()


@pytest.mark.django_db
def test_who_is_a_computer_is_asked_of_the_seating_port(settings):
    """The move's read and the clocks' read ask the site's SeatPlayers which
    accounts are computers (``computer_accounts``): with the bots app, its bots; on a
    site of people only, nobody, and no bots' table is read."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from bots.models import Bot
    from games import store

    ann, bob, cyd = make_user("ann"), make_user("bob"), make_user("cyd")
    Bot.objects.create(user=cyd, level="easy")
    game = start_game([ann, bob, cyd])
    bot_seat = game.seats.get(user=cyd).index
    read = store.game_for_move(game.pk, ann.pk)
    seat, computers, move_clocks = read.seat, read.computer_seats, read.clocks
    assert computers == {bot_seat} and seat == game.seats.get(user=ann).index
    assert move_clocks.computer_seats == {bot_seat}
    assert store.game_clocks(game, timezone.now()).computer_seats == {bot_seat}

    settings.MARRAM_SEAT_PLAYERS = "games.people_only.NoSeatPlayers"
    with CaptureQueriesContext(connection) as queries:
        computers = store.game_for_move(game.pk, ann.pk).computer_seats
        clocks = store.game_clocks(game, timezone.now())
    assert computers == frozenset() and clocks.computer_seats == frozenset()
    assert not [q for q in queries.captured_queries if "bots_bot" in q["sql"]]
    assert len(queries.captured_queries) == 2


def _fields(instance) -> dict:
    """Every concrete field of a model instance, as the ORM gives it."""
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


@pytest.mark.django_db
def test_the_hand_written_reads_give_every_field_as_the_orm_does():
    """The store's reads make their rows instances as the ORM does (the
    backend's and each field's converters, ``Model.from_db``): a game with JSON
    options, config and projection, its creator, its seats with their players
    and its running, banked clocks come out equal, field by field, to the
    ORM's own read of the same rows: what an upgrade of Django changing those
    conversions would break."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games import store
    from games.models import Clock, Game, Seat

    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(user=ann, variant="animals", length="long", seats=2,
                                days_per_move=3)
    services.game_join(game=game, user=bob)
    read = store.game_for_move(game.pk, bob.pk)
    orm = Game.objects.get(pk=game.pk)
    assert _fields(read.game) == _fields(orm) and orm.projection and orm.config
    users = get_user_model()
    assert _fields(read.game.created_by) == _fields(users.objects.get(pk=ann.pk))
    seats = read.game.seat_list()
    assert [_fields(s) for s in seats] == [_fields(s) for s in Seat.objects.filter(
        game=game).order_by("index")]
    assert [_fields(s.user) for s in seats] == [
        _fields(users.objects.get(pk=s.user_id)) for s in seats]
    assert read.seat == Seat.objects.get(game=game, user=bob).index
    orm_clocks = [_fields(c) for c in Clock.objects.filter(game=game).order_by("seat")]
    clocks = store.game_clocks(read.game, timezone.now()).clocks
    assert [_fields(c) for c in clocks] == orm_clocks
    assert [_fields(c) for c in read.clocks.clocks] == orm_clocks  # the move's read's own
    assert any(c.started_at for c in clocks) and all(c.bank for c in clocks)
