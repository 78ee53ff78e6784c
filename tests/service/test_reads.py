"""The hot read paths give what the plain ORM gives, and tokens are checked."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games import services
from games.selectors import _game_get_query, game_get
from games.serializers import GameSerializer
from tests.service.conftest import body, client_for, make_user, start_game

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_the_one_query_game_read_matches_the_orm(django_assert_num_queries):
    ann, bob, cyd = make_user("ann"), make_user("bob"), make_user("cyd")
    running = start_game([ann, bob])
    open_game = services.game_create(user=cyd, variant="classic", length="long", seats=3)
    services.game_join(game=open_game, user=ann)
    empty = services.game_create(user=bob, variant="classic", length="long", seats=2)
    services.game_leave(game=empty, user=bob)
    for game in (running, open_game, empty):
        with django_assert_num_queries(1):
            fast = GameSerializer(game_get(game.pk)).data
        assert fast == GameSerializer(_game_get_query(game.pk)).data
    assert [p["username"] for p in GameSerializer(game_get(open_game.pk)).data["players"]] == [
        "cyd", "ann"]


def statements(captured) -> list[str]:
    """The statements run, leaving out the transaction's own (savepoints here)."""
    return [q["sql"].split()[0] for q in captured
            if not q["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))]


@pytest.mark.django_db(transaction=True)  # a move commits, and caches its state then
def test_a_state_read_costs_one_query_and_a_move_two_and_its_answer_one():
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    mover = game.seats.get(index=0).user
    client = client_for(mover)
    view = body(client.get(f"/api/games/{game.pk}/"))  # warms the token and state caches
    with CaptureQueriesContext(connection) as read:
        view = body(client.get(f"/api/games/{game.pk}/"))
    assert statements(read) == ["SELECT"]
    with CaptureQueriesContext(connection) as write:
        answer = client.post(f"/api/games/{game.pk}/actions/",
                             {"seq": view["seq"], "action": view["legal_actions"][0]},
                             format="json")
    assert answer.status_code == 201, answer.content
    # the move, in two statements and no transaction: read the game, the seat,
    # the seats computers hold and every seat with its player; append the events
    # and update the game and its seats if it is still at the seq read (one
    # statement commits on its own); the answer's view is shown from the read
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
    from games.auth import CachedTokenAuthentication

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
def test_the_clocks_read_with_the_lock_are_the_clocks_read_alone():
    """A move's lock reads the game's clocks with it (games.store.game_clocks):
    each field as the clocks' own statement reads it, to the microsecond, with
    whether a vacation touches it and whether a computer holds it."""
    from datetime import timedelta

    from django.utils import timezone

    from bots.models import Bot
    from games import store
    from games.models import Clock, Vacation

    ann, bob, cyd = make_user("ann"), make_user("bob"), make_user("cyd")
    Bot.objects.create(user=cyd, level="easy")
    game = start_game([ann, bob, cyd])
    now = timezone.now()
    Clock.objects.filter(game=game, seat=0).update(
        bank=timedelta(days=2, seconds=3, microseconds=7), started_at=now - timedelta(hours=5),
        started_seq=4, timeouts_in_row=1)
    Clock.objects.filter(game=game, seat=1).update(bank=None, started_at=None)
    Vacation.objects.create(user=game.seats.get(index=0).user, starts_at=now - timedelta(hours=1),
                            ends_at=now + timedelta(days=1))
    fields = ["id", "game_id", "seat", "user_id", "bank", "started_at", "started_seq",
              "timeouts_in_row", "vacationed", "is_bot"]

    def shown(clocks):
        return sorted(tuple(getattr(c, f) for f in fields) for c in clocks)

    read, _ = store.game_for_move(game.pk, ann.pk, now)
    with_game = store.game_clocks(read, now)
    alone = store.clocks_of_game(game.pk, now)
    assert store.game_clocks(read, now) is not with_game  # given once, then read
    assert shown(with_game) == shown(alone)
    by_seat = {c.seat: c for c in with_game}
    assert by_seat[0].bank == timedelta(days=2, seconds=3, microseconds=7)
    assert by_seat[0].started_at == now - timedelta(hours=5)
    assert (by_seat[0].vacationed, by_seat[1].vacationed) == (True, False)
    assert [by_seat[s].is_bot for s in range(3)] == [
        game.seats.get(index=s).user_id == cyd.pk for s in range(3)]
    assert by_seat[1].bank is None and by_seat[1].game is read


@pytest.mark.django_db
def test_the_seats_read_with_a_game_behave_as_the_orms_prefetch(django_assert_num_queries):
    """``store.attach_seats`` makes the related manager's queryset directly: its
    seats come without a query, as prefetch_related's do, and anything that asks
    the database again (a filter, an update, a delete's count) is still confined
    to this game's seats."""
    from games import store
    from games.models import Game, Seat

    ann, bob, cyd, dee = (make_user(n) for n in ("ann", "bob", "cyd", "dee"))
    game, other = start_game([ann, bob]), start_game([cyd, dee])
    read = store.game_with_seats(game.pk)
    orm = Game.objects.prefetch_related("seats").get(pk=game.pk)
    with django_assert_num_queries(0):
        seats = list(read.seats.all())
        assert [(s.pk, s.index, s.user_id) for s in seats] == [
            (s.pk, s.index, s.user_id) for s in orm.seats.all()]
        assert all(s.game is read for s in seats)
        assert read.seats.count() == 2 and read.seats.exists()
    second = [s.pk for s in orm.seats.filter(index=1)]
    with django_assert_num_queries(1):
        assert [s.pk for s in read.seats.filter(index=1)] == second
    with django_assert_num_queries(1):
        assert read.seats.exclude(index=0).count() == 1
    assert read.seats.filter(index__in=[0, 1]).update(name="renamed") == 2
    assert set(Seat.objects.filter(name="renamed").values_list("game_id", flat=True)) == {
        game.pk}
    assert not Seat.objects.filter(game=other, name="renamed").exists()
    assert [s.game_id for s in read.seats.all().select_related("user")] == [game.pk] * 2
