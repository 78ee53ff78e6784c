"""The store: the only place with SQL written by hand.

Every move runs the same few statements, and for statements this small the
ORM's query building costs more Python than the database spends on them
(measured in benchmarks/service_bench.py; figures in docs/performance.md). So
these, and only these, are written here:

- ``game_for_move``: the game row, the user's seat in it, the seats computers
  hold and (on PostgreSQL) every seat with its player and the game's clocks, in
  one statement (the first of every move; its answer shows the game from it);
- ``game_with_seats``: a game with its creator and seats, in one statement
  (every GET of a game);
- ``clocks_of_game``: a game's clocks and whether a vacation touches each
  running one (the last move of a turn, where the move's read did not read them);
- ``game_seq``: a game's seq alone (a move found stale);
- ``game_seqs``: a game's seq and its panels' (``Game.panels_seq``): every poll
  of a page that finds nothing new;
- ``session_row``: a signed-in session (every request of a page);
- ``game_seq_with_session``: the last two at once (a page's poll);
- ``database_reached``: the health check's round trip;
- ``Batch``: everything a move writes (its events, the game row, the seats it
  now awaits (``seats_awaited``), the clocks, the mails in the outbox), sent in
  one round trip, and written only if the game is still at the seq the move
  read.

The same SQL runs on SQLite and PostgreSQL, except where PostgreSQL alone can do
it: the seats gathered as JSON (elsewhere games.selectors asks the ORM), and a
batch's writes as one statement (elsewhere each of them is sent on its own).
On PostgreSQL the parameters are bound by the server (see settings), so psycopg
prepares each statement the fifth time a connection runs it; the reads name
their columns rather than ``*``, so that a prepared statement keeps its result
type when a migration adds a column while old workers still run.

Rows are read as ``Model.from_db`` would from the ORM's own query (columns the
model does not have become attributes), and written as ``bulk_create`` and
``QuerySet.update`` would write them, with the fields' own conversions
(``pre_save``, ``get_db_prep_save``), so defaults such as ``auto_now_add`` apply.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.models import Model, QuerySet
from django.db.models.base import DEFERRED
from psycopg import _queries as psycopg_queries

from games.models import Clock, Game, Seat

M = TypeVar("M", bound=Model)

# ---------------------------------------------------------------- rows in and out


@functools.cache
def columns(model: type[Model], alias: str, *, using: str = DEFAULT_DB_ALIAS) -> str:
    """The model's columns, qualified by the table's alias, for a SELECT list."""
    quote = connections[using].ops.quote_name
    return ", ".join(f"{alias}.{quote(f.column)}" for f in model._meta.concrete_fields)


@dataclass(frozen=True)
class _Plan:
    """How the rows of one SELECT become instances: what ``fetch`` works out from
    the statement's columns once, and every later run of it reuses."""

    loaded: list[str]
    """The model's fields the statement reads (the others are deferred)."""
    slots: list[int | None]
    """For each of the model's fields, its column in the row (None: not read)."""
    convert: list[tuple[int, Any, Any]]
    """(column, the field's Col, converter): what the ORM's compiler would apply,
    the backend's converters, then the field's."""
    extra: list[tuple[int, str]]
    """Columns the model does not have, set on each instance as attributes."""


class _Plans(threading.local):
    """Each thread's plans, by (model, statement, alias): a plan's converters are
    bound to the thread's own connection, as Django's connections are."""

    def __init__(self) -> None:
        self.by_statement: dict[tuple[type[Model], str, str], _Plan] = {}


_plans = _Plans()


def _plan(model: type[Model], names: Sequence[str], using: str) -> _Plan:
    connection = connections[using]
    where = {name: i for i, name in enumerate(names)}
    fields = model._meta.concrete_fields
    slots = [where.get(f.column) for f in fields]
    loaded = [f.attname for f, i in zip(fields, slots, strict=True) if i is not None]
    convert = []
    for f, i in zip(fields, slots, strict=True):
        if i is not None:
            column = f.get_col(model._meta.db_table)
            converters = connection.ops.get_db_converters(column) + f.get_db_converters(connection)
            convert += [(i, column, c) for c in converters]
    own = {f.column for f in fields}
    extra = [(i, name) for i, name in enumerate(names) if name not in own]
    return _Plan(loaded, slots, convert, extra)


def fetch(model: type[M], sql: str, params: Sequence[Any], *,
          using: str = DEFAULT_DB_ALIAS) -> list[M]:
    """Instances of ``model`` from a SELECT of your own, as the ORM would load them.

    The statement's columns are read from the first answer to it and the way
    from them to instances kept (``_Plan``): a statement names its columns, so
    they are the same at every run."""
    connection = connections[using]
    plans = _plans.by_statement
    key = (model, sql, using)
    plan = plans.get(key)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if plan is None:
            plan = plans[key] = _plan(model, [c[0] for c in cursor.description], using)
        rows = cursor.fetchall()
    out = []
    for row in rows:
        values = list(row)
        for i, column, converter in plan.convert:
            values[i] = converter(values[i], column, connection)
        instance = model.from_db(using, plan.loaded,
                                 [DEFERRED if i is None else values[i] for i in plan.slots])
        for i, name in plan.extra:
            setattr(instance, name, values[i])
        out.append(instance)
    return out


def _quote(connection: Any, name: str) -> str:
    return connection.ops.quote_name(name)


@functools.cache
def _inserted_fields(model: type[Model]) -> list[Any]:
    """The fields an insert writes (all but the primary key), worked out once."""
    opts = model._meta
    return [f for f in opts.concrete_fields if f is not opts.pk]


@functools.cache
def _insert_text(model: type[Model], rows: int, guard: str | None, using: str) -> str:
    """The INSERT of ``_insert_sql``, for so many rows (the same at every move)."""
    connection = connections[using]
    opts = model._meta
    fields = _inserted_fields(model)
    if guard is None:
        one = "(" + ", ".join(["%s"] * len(fields)) + ")"
    else:
        one = "(" + ", ".join(f"%s::{f.cast_db_type(connection)}" for f in fields) + ")"
    values = f"VALUES {', '.join([one] * rows)}"
    if guard is not None:
        values = f"SELECT v.* FROM ({values}) AS v, {guard}"
    return (f"INSERT INTO {_quote(connection, opts.db_table)} "
            f"({', '.join(_quote(connection, f.column) for f in fields)}) "
            f"{values} RETURNING {_quote(connection, opts.pk.column)}")


def _insert_sql(rows: Sequence[Model], *, using: str, guard: str | None = None
                ) -> tuple[str, list[Any]]:
    """INSERT of new rows of one model, RETURNING their primary keys in order. With
    ``guard`` (the name of a part of the same ``WITH`` statement), the rows are
    written only if that part returns a row: they are selected from it, each value
    cast to its column's type (a ``VALUES`` list in a ``SELECT`` does not take its
    types from the table)."""
    connection = connections[using]
    model = type(rows[0])
    fields = _inserted_fields(model)
    params: list[Any] = []
    for row in rows:
        row._prepare_related_fields_for_save(operation_name="bulk_create")
        params += [f.get_db_prep_save(f.pre_save(row, True), connection) for f in fields]
    return _insert_text(model, len(rows), guard, using), params


@functools.cache
def _update_text(model: type[Model], names: tuple[str, ...], expected: tuple[str, ...],
                 using: str) -> str:
    """The UPDATE of ``_update_sql`` (the same at every move)."""
    connection = connections[using]
    opts = model._meta
    sets = ", ".join(f"{_quote(connection, opts.get_field(n).column)} = %s" for n in names)
    where = " AND ".join(f"{_quote(connection, f.column)} = %s" for f in
                         [opts.pk, *(opts.get_field(n) for n in expected)])
    return f"UPDATE {_quote(connection, opts.db_table)} SET {sets} WHERE {where}"


def _update_sql(row: Model, names: Sequence[str], *, using: str,
                expect: Mapping[str, Any] | None = None) -> tuple[str, list[Any]]:
    """UPDATE of these fields of a stored row, by its primary key; with ``expect``,
    only while the row still holds those values ({field: value})."""
    connection = connections[using]
    opts = row._meta
    expect = expect or {}
    params = [f.get_db_prep_save(getattr(row, f.attname), connection)
              for f in (opts.get_field(name) for name in names)]
    params.append(row.pk)
    params += [opts.get_field(name).get_db_prep_value(value, connection)
               for name, value in expect.items()]
    return _update_text(type(row), tuple(names), tuple(expect), using), params


# ---------------------------------------------------------------- writes in one round trip

BATCH_PARAMETERS = 200
"""The most parameters of a statement whose conversion psycopg keeps: its own
limit is 50 (``MAX_CACHED_STATEMENT_PARAMS``), and the batch of a move that ends a
turn has more (two events, the game, the seats, two clocks and a mail: 54), so
psycopg parsed it again at every such move, 3% of a web worker's time in a
profile. The statements a move sends are few (each a few hundred characters), so
its cache of 128 conversions holds them all."""
psycopg_queries.MAX_CACHED_STATEMENT_PARAMS = max(psycopg_queries.MAX_CACHED_STATEMENT_PARAMS,
                                                  BATCH_PARAMETERS)


class Stale(Exception):
    """A batch was not written: the row its guard expected had changed
    (``Batch.update``'s ``expect``). Nothing of the batch was written."""


@dataclass
class _Statement:
    sql: str = ""
    params: Sequence[Any] = ()
    inserted: Sequence[Model] = ()
    """For an insert, its rows (the statement is built when it is sent)."""
    guard: bool = False
    """The update the rest of the batch depends on (``Batch.update``'s ``expect``)."""


@dataclass
class Batch:
    """Writes that go to the database together, in one round trip.

    A move appends its events and updates the game row; what hangs on the move
    (the clocks, the mails in the outbox) writes a few rows more: three to five
    statements, each a round trip on its own. On PostgreSQL ``run`` sends them as
    one statement, each write a data-modifying ``WITH`` part, which commits on its
    own outside a transaction; elsewhere it sends the same statements one by one,
    in a transaction. Inserted rows get their primary keys once ``run`` returns.
    Nothing is written before ``run``. As one statement, the writes see the
    database as it was before the batch, not each other's rows: queue only
    writes that stand on their own (no row twice, nothing that reads another).

    One update may be the batch's guard (``expect``): the row is written only
    while it still holds the values the caller read, and the rest of the batch
    only if it was (on PostgreSQL each other part reads the guard's part, so it
    also waits for any lock on that row first). Otherwise nothing is written and
    ``run`` raises ``Stale``: a move read without a lock is so written only if
    the game is still at the seq it read (games.services.action_submit).
    """

    using: str = DEFAULT_DB_ALIAS
    _statements: list[_Statement] = field(default_factory=list)
    _after: list[Callable[[], None]] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self._statements)

    def insert(self, rows: Sequence[Model]) -> None:
        """Insert new rows of one model, as they are when ``run`` sends them; it sets
        their primary keys."""
        if rows:
            self._statements.append(_Statement(inserted=rows))

    def update(self, row: Model, fields: Sequence[str], *,
               expect: Mapping[str, Any] | None = None) -> None:
        """Write these fields of a stored row, as they are now, by its primary key.
        With ``expect`` ({field: value}, at most one update of a batch), write the
        batch only if the row still holds those values (see the class)."""
        if expect and any(s.guard for s in self._statements):
            raise ValueError("a batch has one guard at most")
        sql, params = _update_sql(row, fields, using=self.using, expect=expect)
        self._statements.append(_Statement(sql, params, guard=bool(expect)))

    def write(self, sql: str, params: Sequence[Any]) -> None:
        """Queue a write written out in this module: an UPDATE or DELETE that ends
        with its WHERE clause (a guard's condition is added to it)."""
        self._statements.append(_Statement(sql, params))

    def after(self, call: Callable[[], None]) -> None:
        """Have ``call`` run once the batch is written and committed: right after
        ``run`` outside a transaction, else when the transaction commits (never if
        the batch is not written)."""
        self._after.append(call)

    def run(self) -> None:
        """Send everything queued, then forget it; ``Stale`` if the guard's row had
        changed (and nothing was written)."""
        statements, self._statements = self._statements, []
        after, self._after = self._after, []
        if statements:
            connection = connections[self.using]
            if connection.vendor == "postgresql":
                self._run_as_one(statements)
            else:  # no writes in WITH: one by one, the guard first
                with transaction.atomic(using=self.using):
                    self._run_one_by_one(sorted(statements, key=lambda s: not s.guard))
        for call in after:  # robust: the batch is written; nothing after it may fail it
            transaction.on_commit(call, using=self.using, robust=True)

    def _run_one_by_one(self, statements: list[_Statement]) -> None:
        with connections[self.using].cursor() as cursor:
            for s in statements:
                if s.inserted:
                    s.sql, s.params = _insert_sql(s.inserted, using=self.using)
                cursor.execute(s.sql, s.params)
                if s.guard and cursor.rowcount == 0:
                    raise Stale
                if s.inserted:
                    _set_keys(s.inserted, sorted(row[0] for row in cursor.fetchall()),
                              self.using)

    def _run_as_one(self, statements: list[_Statement]) -> None:
        statements = sorted(statements, key=lambda s: not s.guard)  # read by the rest
        guard = "w0" if statements[0].guard else None
        for s in statements:
            if s.inserted:  # INSERT ... RETURNING the keys
                s.sql, s.params = _insert_sql(s.inserted, using=self.using, guard=guard)
            elif guard is not None and not s.guard:
                s.sql += f" AND EXISTS (SELECT FROM {guard})"
        if guard is not None:
            statements[0].sql += " RETURNING 1"
        parts = ", ".join(f"w{i} AS ({s.sql})" for i, s in enumerate(statements))
        inserts = [(i, s) for i, s in enumerate(statements) if s.inserted]
        # the keys of each insert, in the order of its rows (a sequence counts up)
        keys = [f"(SELECT array_agg(k ORDER BY k) FROM w{i} AS r(k))" for i, _ in inserts]
        written = [f"(SELECT count(*) FROM {guard})"] if guard else []
        with connections[self.using].cursor() as cursor:
            cursor.execute(f"WITH {parts} SELECT {', '.join([*written, *keys]) or '1'}",
                           [p for s in statements for p in s.params])
            row = cursor.fetchone()
        if guard is not None:
            if not row[0]:
                raise Stale
            row = row[1:]
        for (_, statement), pks in zip(inserts, row, strict=False):
            _set_keys(statement.inserted, pks, self.using)


def seats_awaited(writes: Batch, game_id: int, seats: Sequence[int],
                  resigned: Sequence[int] = ()) -> None:
    """Queue marking the game's seats awaited (these) or not (the others), and
    the ``resigned`` ones resigned, in one statement (a batch writes a row once);
    it writes only the seats whose flags change."""
    connection = connections[writes.using]
    table = _quote(connection, Seat._meta.db_table)
    index, awaited, out, game = (_quote(connection, Seat._meta.get_field(name).column)
                                 for name in ("index", "awaited", "resigned", "game"))

    def among(listed: Sequence[int]) -> str:
        return f"({index} IN ({', '.join(['%s'] * len(listed))}))" if listed else "FALSE"

    now, leaving = among(seats), among(resigned)
    writes.write(
        f"UPDATE {table} SET {awaited} = {now}, {out} = {out} OR {leaving} "
        f"WHERE {game} = %s AND ({awaited} <> {now} OR NOT {out} AND {leaving})",
        [*seats, *resigned, game_id, *seats, *resigned])


def _set_keys(rows: Sequence[Model], keys: Sequence[Any], using: str) -> None:
    for row, pk in zip(rows, keys, strict=True):
        row.pk = pk
        row._state.adding, row._state.db = False, using


# ---------------------------------------------------------------- the statements of a move

_SEAT_ROWS = """COALESCE((
    SELECT json_agg(json_build_object(
        'id', a.id, 'user_id', a.user_id, 'username', u.{username}, 'name', a.name,
        'index', a."index", 'joined_at', a.joined_at, 'resigned', a.resigned)
        ORDER BY a."index" NULLS LAST, a.joined_at, a.id)
    FROM games_seat a LEFT JOIN {users} u ON u.id = a.user_id
    WHERE a.game_id = g.id), '[]') AS seat_rows"""
"""Every seat of the game ``g`` with its user's name, as one JSON list (PostgreSQL's)."""

_GAME_FOR_MOVE = (
    'SELECT {game_columns}, s."index" AS seat_index, ('
    'SELECT COALESCE(SUM(1 << b_s."index"), 0) FROM games_seat b_s '
    "JOIN bots_bot b ON b.user_id = b_s.user_id WHERE b_s.game_id = g.id"
    ") AS bot_seat_mask{with_seats} FROM games_game g{creator} LEFT JOIN games_seat s "
    "ON s.game_id = g.id AND s.user_id = %s WHERE g.id = %s"
)

_CLOCK_ROWS = """, COALESCE((
    SELECT json_agg(json_build_object(
        'id', k.id, 'seat', k.seat, 'user_id', k.user_id,
        'bank_us', (EXTRACT(EPOCH FROM k.bank) * 1000000)::bigint,
        'started_at', k.started_at, 'started_seq', k.started_seq,
        'timeouts_in_row', k.timeouts_in_row,
        'vacationed', {vacationed}, 'is_bot', {is_bot})
        ORDER BY k.seat)
    FROM games_clock k WHERE k.game_id = g.id), '[]') AS clock_rows"""
"""The game ``g``'s clocks as ``clocks_of_game`` reads them, as one JSON list
(PostgreSQL's); the interval ``bank`` in whole microseconds."""


@functools.cache
def _clock_flags(clock: str) -> dict[str, str]:
    """What a read of the clocks says of each clock (the table's alias ``clock``)
    besides its row: ``vacationed``, whether a vacation of its player overlaps the
    time since it started, up to the moment given as the statement's first
    parameter; ``is_bot``, whether its player is a computer (bots.models.Bot)."""
    return {
        "vacationed": f"EXISTS (SELECT 1 FROM games_vacation v WHERE v.user_id = "
                      f"{clock}.user_id AND v.ends_at > {clock}.started_at AND v.starts_at < %s)",
        "is_bot": f"EXISTS (SELECT 1 FROM bots_bot b WHERE b.user_id = {clock}.user_id)",
    }


def game_for_move(game_id: int, user_id: Any, now: datetime
                  ) -> tuple[Game, int | None] | None:
    """The game row and the index of the user's seat in it (None if they have
    none, or before the start); None if there is no such game. Not locked: a
    move's writes are written only if the game is still at the seq read here
    (``Batch.update``'s ``expect``). The game comes with ``bot_seat_mask``: bit i set when
    a computer (bots.models.Bot) holds seat i, so that the move need not ask
    again whether a computer is to move next (games.seating). Where the database
    gathers JSON (``can_read_game_with_seats``) it also comes with its creator and
    its seats, as ``game_with_seats`` reads them: the move's answer shows the game
    without reading it again (``has_seats``); and with its clocks as
    ``clocks_of_game`` reads them at ``now``: a move that ends a turn need not ask
    for them (``game_clocks``)."""
    connection = connections[DEFAULT_DB_ALIAS]
    with_seats, creator, params = "", "", [user_id, game_id]
    if can_read_game_with_seats():
        User = get_user_model()
        users, username = User._meta.db_table, User.USERNAME_FIELD
        with_seats = (f", c.{username} AS creator_name, "
                      + _SEAT_ROWS.format(users=users, username=username)
                      + _CLOCK_ROWS.format(**_clock_flags("k")))
        creator = f" JOIN {users} c ON c.id = g.created_by_id"
        params.insert(0, connection.ops.adapt_datetimefield_value(now))
    sql = _GAME_FOR_MOVE.format(game_columns=columns(Game, "g"), with_seats=with_seats,
                                creator=creator)
    rows = fetch(Game, sql, params)
    if not rows:
        return None
    game = rows[0]
    if with_seats:
        _attach_seats_read(game)
        game.clocks_read = [_clock_read(game, raw) for raw in game.clock_rows]
    return game, game.seat_index


def _clock_read(game: Game, raw: dict[str, Any]) -> Clock:
    started = raw["started_at"]
    bank = raw["bank_us"]
    clock = Clock.from_db(
        DEFAULT_DB_ALIAS,
        ["id", "game_id", "seat", "user_id", "bank", "started_at", "started_seq",
         "timeouts_in_row"],
        [raw["id"], game.pk, raw["seat"], raw["user_id"],
         None if bank is None else timedelta(microseconds=bank),
         None if started is None else datetime.fromisoformat(started), raw["started_seq"],
         raw["timeouts_in_row"]],
    )
    clock.game = game
    clock.vacationed, clock.is_bot = raw["vacationed"], raw["is_bot"]
    return clock


_GAME_WITH_SEATS = """
SELECT {game_columns}, c.{username} AS creator_name, {seat_rows}
FROM games_game g JOIN {users} c ON c.id = g.created_by_id
WHERE g.id = %s
"""


def can_read_game_with_seats() -> bool:
    """Whether ``game_with_seats`` works here: its JSON is PostgreSQL's."""
    return connections[DEFAULT_DB_ALIAS].vendor == "postgresql"


def game_with_seats(game_id: int) -> Game | None:
    """The game with its creator and its seats (in seat order, and their users;
    ``attach_seats``) in one statement; the users come with only their id and
    username loaded (the rest deferred). None if there is no such game."""
    User = get_user_model()
    users, username = User._meta.db_table, User.USERNAME_FIELD
    sql = _GAME_WITH_SEATS.format(users=users, username=username,
                                  game_columns=columns(Game, "g"),
                                  seat_rows=_SEAT_ROWS.format(users=users, username=username))
    rows = fetch(Game, sql, [game_id])
    if not rows:
        return None
    return _attach_seats_read(rows[0])


def _attach_seats_read(game: Game) -> Game:
    """Attach the creator and the seats a statement read with the game
    (``creator_name``, ``seat_rows``)."""
    User = get_user_model()
    names = ["id", User.USERNAME_FIELD]
    game.created_by = User.from_db(DEFAULT_DB_ALIAS, names, [game.created_by_id,
                                                             game.creator_name])
    seats = []
    for raw in game.seat_rows:
        seat = Seat.from_db(
            DEFAULT_DB_ALIAS,
            ["id", "game_id", "user_id", "name", "index", "joined_at", "resigned"],
            [raw["id"], game.pk, raw["user_id"], raw["name"], raw["index"],
             datetime.fromisoformat(raw["joined_at"]), raw["resigned"]],
        )
        if raw["user_id"] is not None:
            seat.user = User.from_db(DEFAULT_DB_ALIAS, names, [raw["user_id"], raw["username"]])
        seats.append(seat)
    return attach_seats(game, seats)


def attach_seats(game: Game, seats: list[Seat]) -> Game:
    """Store the seats where prefetch_related("seats") would: game.seats.all()
    reads them, and ``has_seats`` is true.

    The queryset is the related manager's own (``game.seats.get_queryset()``
    without the prefetch: the game's seats, its filter on the game left for the
    first statement that needs it, the game known to its rows), made directly:
    the manager cloned a query twice for it at every read of a game
    (benchmarks/move_bench.py, Pond: 1,924 us a move with the clones, 1,887
    without)."""
    relation = Seat._meta.get_field("game")
    for seat in seats:
        seat.game = game
    loaded: QuerySet[Seat] = QuerySet(model=Seat, hints={"instance": game})
    loaded._deferred_filter = (False, (), {relation.name: game})
    loaded._known_related_objects = {relation: {game.pk: game}}
    loaded._result_cache, loaded._prefetch_done = seats, True
    game._prefetched_objects_cache = {"seats": loaded}
    return game


def has_seats(game: Game) -> bool:
    """Whether the game's seats were read with it (``attach_seats``)."""
    return "seats" in getattr(game, "_prefetched_objects_cache", {})


_CLOCKS_OF_GAME = """
SELECT {clock_columns}, {vacationed} AS vacationed, {is_bot} AS is_bot
FROM games_clock c WHERE c.game_id = %s
"""


def clocks_of_game(game_id: int, now: datetime) -> list[Clock]:
    """The game's clocks, each with ``vacationed``: whether a vacation of its
    player overlaps the time since it started (most never do, and then the
    vacations need not be read); and ``is_bot``: whether its player is a computer
    (bots.models.Bot), which is mailed nothing."""
    connection = connections[DEFAULT_DB_ALIAS]
    sql = _CLOCKS_OF_GAME.format(clock_columns=columns(Clock, "c"), **_clock_flags("c"))
    return fetch(Clock, sql, [connection.ops.adapt_datetimefield_value(now), game_id])


def game_clocks(game: Game, now: datetime) -> list[Clock]:
    """The clocks of a game read by ``game_for_move`` with it (at the seq a
    move's write is guarded by) when it read them; else ``clocks_of_game``. What
    that read is given once: the caller is about to write the clocks."""
    read = game.__dict__.pop("clocks_read", None)
    return read if read is not None else clocks_of_game(game.pk, now)


_GAME_SEQ = "SELECT g.seq FROM games_game g WHERE g.id = %s"


def game_seq(game_id: int) -> int | None:
    """The number of events of the game (None if there is no such game)."""
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute(_GAME_SEQ, [game_id])
        row = cursor.fetchone()
    return None if row is None else int(row[0])


_GAME_SEQS = "SELECT g.seq, g.panels_seq FROM games_game g WHERE g.id = %s"


def game_seqs(game_id: int) -> tuple[int, int] | None:
    """The game's seq and its panels' seq (None if there is no such game): all a
    poll needs to find that nothing has happened."""
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute(_GAME_SEQS, [game_id])
        row = cursor.fetchone()
    return None if row is None else (int(row[0]), int(row[1]))


_SESSION = "SELECT {session_columns} FROM django_session s WHERE s.session_key = %s " \
    "AND s.expire_date > %s"


def session_row(session_key: str, now: datetime) -> Session | None:
    """The session of that key, unless it has expired: what Django's database
    sessions read, without the ORM's query building."""
    connection = connections[DEFAULT_DB_ALIAS]
    sql = _SESSION.format(session_columns=columns(Session, "s"))
    rows = fetch(Session, sql, [session_key, connection.ops.adapt_datetimefield_value(now)])
    return rows[0] if rows else None


_GAME_SEQ_WITH_SESSION = (
    "SELECT g.seq, g.panels_seq, {session_columns} FROM games_game g "
    "LEFT JOIN django_session s "
    "ON s.session_key = %s AND s.expire_date > %s WHERE g.id = %s"
)


def game_seq_with_session(game_id: int, session_key: str, now: datetime
                          ) -> tuple[tuple[int, int], Session | None] | None:
    """``game_seqs`` and ``session_row`` in one statement: the game's seq and its
    panels' seq, and the session of that key unless it has expired (None: no
    such session). None if there is no such game."""
    connection = connections[DEFAULT_DB_ALIAS]
    sql = _GAME_SEQ_WITH_SESSION.format(session_columns=columns(Session, "s"))
    rows = fetch(Session, sql, [session_key, connection.ops.adapt_datetimefield_value(now),
                                game_id])
    if not rows:
        return None
    row = rows[0]
    seqs = int(row.seq), int(row.panels_seq)
    return seqs, (row if row.session_key is not None else None)


def database_reached() -> str:
    """One round trip to the database (an error if it cannot be reached); its kind
    ("postgresql", "sqlite")."""
    connection = connections[DEFAULT_DB_ALIAS]
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return connection.vendor
