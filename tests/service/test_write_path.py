"""The write path's contract (games.services.append): what hangs on a change
(the clocks; the followers of games.after_move: the mail, the ratings, the
computer players, the chance draw; the live updates) reads only what the change
has not read, and writes by giving rows to the change's batch. So a
player's move sends its reads and then its one write, nothing that a hook asked
for besides; and a server change, locked in a transaction, sends nothing
between its write and its commit."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from engine import marram as engine
from engine.replay import apply
from games import selectors, services
from games.management.commands.verify_game import game_problems
from games.models import Clock, Event, Game
from live.state_cache import states
from notifications.models import Notification
from tests.service.conftest import make_user, play, seat_user, start_game
from web.errors import StaleSeq

CONTROL = ("SAVEPOINT", "RELEASE SAVEPOINT")


def _table(sql: str) -> str:
    """The first table named after the statement's own FROM (not a subquery's)."""
    depth = 0
    for i, char in enumerate(sql):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0 and sql.startswith(" FROM ", i):
            return sql[i + len(" FROM "):].split()[0].strip('"')
    return ""


def sent(queries: CaptureQueriesContext) -> list[tuple[str, str]]:
    """Each statement sent, as its kind and, for a read, its table; a batch is
    ("WITH", ""); savepoints aside."""
    found = []
    for q in queries.captured_queries:
        sql = q["sql"]
        if sql.startswith(CONTROL):
            continue
        kind = sql.split()[0]
        found.append((kind, _table(sql) if kind == "SELECT" else ""))
    return found


def _quiet_move(game: Game) -> dict:
    """A legal move of the awaited seat that nothing follows by itself (no pass
    forced on the next player: that would be a second event)."""
    rules = selectors.rules_of(game)
    state = selectors.game_state_get(game)
    legal = next(a for a in engine.legal_actions(state)
                 if rules.automatic(apply(rules, state, rules.read_event(a))) is None)
    return {k: v for k, v in legal.items() if k != "player"}


GAME = Game._meta.db_table
EVENTS = Event._meta.db_table


@pytest.mark.django_db(transaction=True)  # each move commits, as in production
def test_a_move_sends_its_reads_then_its_write_and_no_hook_asks_anything():
    """Each move: the game, its seats and its clocks read (one statement), then
    one write. The turn's last move starts the next seat's clock and queues its
    "your turn" mail, from the clocks read with the game: everything is written
    in one statement. Nothing else, before the write or after it (the move's
    commit callbacks included: a game of people awaits no computer)."""
    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(user=ann, variant="classic", length="long", seats=2,
                                days_per_move=3)
    services.game_join(game=game, user=bob)
    game.refresh_from_db()
    mover = seat_user(game, 0)
    for seq in (0, 1):
        action = _quiet_move(game)  # also makes sure the state is cached: not read again
        with CaptureQueriesContext(connection) as move:
            services.action_submit(game=game.pk, user=mover, action=action, expected_seq=seq)
        assert sent(move) == [("SELECT", GAME), ("WITH", "")]
        game.refresh_from_db()
    # the hooks did their part, by queuing it on the write
    assert Clock.objects.get(game=game, started_at__isnull=False).seat == 1
    assert Notification.objects.filter(game=game, kind="your_turn", seat=1, seq=2).exists()


@pytest.mark.django_db(transaction=True)
def test_a_submission_behind_the_game_is_judged_from_one_read_after_the_games():
    """A player's second device sends the move the first has made, from the same
    seq, the seat still to move (a Marram turn goes on): the game's read, then
    one read of the events (the key's, if it was used, and those since) answer
    it, stale with the game's seq; the first device's retry, with its key, is
    answered as it was the first time. Nothing is written."""
    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(user=ann, variant="classic", length="long", seats=2)
    services.game_join(game=game, user=bob)
    game.refresh_from_db()
    mover, action = seat_user(game, 0), _quiet_move(game)
    first = services.action_submit(game=game.pk, user=mover, action=action, expected_seq=0,
                                   idempotency_key="phone")
    assert selectors.awaited_seats(Game.objects.get(pk=game.pk)) == [0]
    for key in (None, "laptop"):
        with CaptureQueriesContext(connection) as late, pytest.raises(StaleSeq) as refused:
            services.action_submit(game=game.pk, user=mover, action=action, expected_seq=0,
                                   idempotency_key=key)
        assert refused.value.extra == {"seq": first.seq}
        assert sent(late) == [("SELECT", GAME), ("SELECT", EVENTS)]
    with CaptureQueriesContext(connection) as retry:
        again = services.action_submit(game=game.pk, user=mover, action=action,
                                       expected_seq=0, idempotency_key="phone")
    assert again.repeated and again.seq == first.seq
    assert [e.seq for e in again.events] == [e.seq for e in first.events]
    assert sent(retry)[:2] == [("SELECT", GAME), ("SELECT", EVENTS)]
    assert Event.objects.filter(game=game).count() == first.seq


@pytest.mark.django_db(transaction=True)
def test_a_server_change_sends_nothing_between_its_write_and_its_commit():
    """A resignation holds the game row locked in a transaction: what hangs on it
    (the seat's streams ended, the next player's clock and mail, the computer
    players) is queued on its write or left to the commit."""
    players = [make_user(name) for name in ("ann", "bob", "cyd")]
    game = services.game_create(user=players[0], variant="classic", length="long", seats=3,
                                days_per_move=3)
    for player in players[1:]:
        services.game_join(game=game, user=player)
    game.refresh_from_db()
    leaver = seat_user(game, 0)  # the awaited seat: its clock stops, the next one starts
    selectors.game_state_get(game)
    with CaptureQueriesContext(connection) as change:
        services.game_resign(game=game.pk, user=leaver)
    statements = [q["sql"].split()[0] for q in change.captured_queries
                  if not q["sql"].startswith(CONTROL)]
    assert statements.count("WITH") == 1
    written = statements.index("WITH")
    assert statements[written + 1] == "COMMIT", statements
    game.refresh_from_db()
    assert game.seats.get(index=0).resigned
    assert Notification.objects.filter(game=game, kind="your_turn", seat=1).exists()


def test_the_statement_reader_names_the_outer_table():
    sql = ('SELECT "a"."id", EXISTS(SELECT 1 AS "a" FROM "bots_bot" U0) AS "x" '
           'FROM "games_seat" INNER JOIN "auth_user" ON (1) WHERE "id" IN (SELECT 2 FROM "b")')
    assert _table(sql) == "games_seat"


def _awaiting_the_fly(settings) -> Game:
    """A game of Marram's Animals variant at its first draw, left to the task."""
    settings.MARRAM_DRAW_INLINE = False  # the draw waits for chance_resolve (the task's work)
    game = start_game([make_user("ann"), make_user("bob")], variant="animals")
    return play(game, until=lambda s: engine.awaiting(s)["kind"] == "chance")


@pytest.mark.django_db(transaction=True)
def test_a_draw_is_written_as_a_move_is(settings):
    """The chance a move leaves is drawn with no lock and no transaction: the
    game read with its clocks (the players it now awaits are others: they
    change), then one write, guarded by the seq read."""
    game = _awaiting_the_fly(settings)
    seq = game.seq
    selectors.game_state_get(game)  # as the worker holds it, the move before seen
    with CaptureQueriesContext(connection) as draw:
        drawn = services.chance_resolve(game.pk)
    assert [(e.seq, e.type) for e in drawn] == [(seq, "creature_appears")]
    assert sent(draw) == [("SELECT", GAME), ("WITH", "")]
    assert not any("FOR UPDATE" in q["sql"] for q in draw.captured_queries)


@pytest.mark.django_db(transaction=True)
def test_a_draw_on_a_state_held_a_move_back_reads_that_move_with_the_game(settings):
    """The worker holds the game as it was before the move that calls for the
    draw (the move was the web server's): the move comes with the game's read,
    and the draw sends the same two statements as on a state it holds."""
    game = _awaiting_the_fly(settings)
    seq = game.seq
    held = selectors.game_replay(game, stop=seq - 1).state
    states.clear()
    states.put(game.pk, seq - 1, held)
    with CaptureQueriesContext(connection) as draw:
        drawn = services.chance_resolve(game.pk)
    assert [(e.seq, e.type) for e in drawn] == [(seq, "creature_appears")]
    assert sent(draw) == [("SELECT", GAME), ("WITH", "")]
    assert states.catch_ups == 1
    game.refresh_from_db()
    assert game_problems(game) == []


@pytest.mark.django_db(transaction=True)
def test_a_draw_overtaken_by_its_twin_writes_nothing_more(settings, monkeypatch):
    """Two copies of the draw's task (a redelivery): the second reads the game,
    the first lands meanwhile; the second's write then finds the game moved on,
    writes nothing, reads again and finds nothing due."""
    from games import store

    game = _awaiting_the_fly(settings)
    seq = game.seq
    read, twin = store.game_for_move, []

    def read_then_overtaken(pk: int, user_id: int | None,
                            events: store.EventsWanted | None = None) -> store.MoveRead | None:
        found = read(pk, user_id, events)
        if not twin:
            twin.append(None)
            twin[:] = services.chance_resolve(pk)  # the other copy lands first
        return found

    monkeypatch.setattr(store, "game_for_move", read_then_overtaken)
    assert services.chance_resolve(game.pk) == []
    assert [(e.seq, e.type) for e in twin] == [(seq, "creature_appears")]
    game.refresh_from_db()
    assert game.seq == seq + 1
    assert Event.objects.filter(game=game, type="creature_appears").count() == 1
    assert engine.awaiting(selectors.game_state_get(game))["kind"] == "guess"
    assert game_problems(game) == []
