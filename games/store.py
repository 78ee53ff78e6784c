"""The store: what a move and a page read of a game, and how a change's writes
reach the database together (``Batch``): the statements of the project written
out by hand, on Django's public APIs only.

The reads:

- ``game_for_move``: the game, its creator and its seats with their players,
  which seats computers hold (games.seating) and each seat's clock, in one
  statement: the first read of every move; its answer shows the game from it
  (``Game.seat_list``), and a turn's end changes the clocks read with it;
- ``game_with_seats``: the same without asking who is a computer, for every GET
  of a game;
- with either, on PostgreSQL, the game's events that a read of its state will
  fold (``EventsWanted``: those after the state the process holds, else those
  after where its newest snapshot is), as ``Game.events_held`` gives them: a
  state's read then sends no statement of its own but the snapshot's;
- ``game_clocks``: a game's clocks, with those whose running time a vacation
  touches and those computers hold (a server change that ends a turn; a move
  and a draw have them from ``game_for_move``);
- ``game_seq``: a game's seq alone (a move found stale);
- ``game_seqs``: a game's seq and its panels' (``Game.panels_seq``): every poll
  of a page that finds nothing new;
- ``database_reached``: the health check's round trip (Django's own check).

They are written by hand because the ORM's building of them cost more than
everything else in a move's web process (benchmarks/move_bench.py: Pond, 6.8
ms a move with the ORM's reads, 3.1 ms with these; docs/performance.md). Their
SQL is made from the models' ``_meta`` (tables, ``concrete_fields``, each
field's ``column``), so every column of a model is read and a field added to
it is read with no change here; rows become instances as the ORM makes them
(``Model.from_db``, after the backend's and the field's converters). Who is a
computer is asked where the seating port says they are listed
(``SeatPlayers.computer_accounts``): no table of another app is named here.

``Batch`` holds everything a change writes (its events, the game row, the seats
it now awaits (``seats_awaited``), the clocks, the mails in the outbox) and
writes it in one round trip, only if the game is still at the seq the change
read. On PostgreSQL that is one statement, each write a data-modifying ``WITH``
part; elsewhere the same writes go one by one in a transaction. It is made the
same way, with the fields' own conversions (``pre_save``,
``get_db_prep_save``, ``db_type``), so that a field added to a model is written
as the ORM writes it.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, OperationalError, connections, transaction
from django.db.models import Field, Model
from django.utils import timezone

from games.models import Clock, Event, Game, Seat, Vacation
from games.seating import seat_players

if TYPE_CHECKING:
    from django.contrib.auth.models import User

# ---------------------------------------------------------------- reads


@dataclass(frozen=True)
class _Loader:
    """How a model's columns in a row of a SELECT become an instance, as the ORM
    loads them (``Model.from_db``, after the converters the ORM's compiler would
    apply: the backend's, then the field's ``from_db_value``)."""

    model: type[Model]
    names: list[str]
    """The fields' attnames, in the order of ``columns``."""
    convert: list[tuple[int, Any, Any]]
    """(the field's place, its expression, a converter) for each converter."""

    def load(self, row: Sequence[Any], start: int, connection: Any) -> Model:
        values = list(row[start:start + len(self.names)])
        for i, expression, converter in self.convert:
            values[i] = converter(values[i], expression, connection)
        return self.model.from_db(connection.alias, self.names, values)


class _Loaders(threading.local):
    """Each thread's loaders, by (model, alias of the table, database), and the
    events' payload column with its converters, by database: converters are
    bound to the thread's own connection, as Django's connections are."""

    def __init__(self) -> None:
        self.made: dict[tuple[type[Model], str, str], _Loader] = {}
        self.payload: dict[str, tuple[Any, list[Any]]] = {}


_loaders = _Loaders()


def _loader(model: type[Model], alias: str, connection: Any) -> _Loader:
    key = (model, alias, connection.alias)
    found = _loaders.made.get(key)
    if found is None:
        fields = model._meta.concrete_fields
        convert: list[tuple[int, Any, Any]] = []
        for i, f in enumerate(fields):
            expression, converters = _converters(f, alias, connection)
            convert.extend((i, expression, converter) for converter in converters)
        found = _loaders.made[key] = _Loader(model, [f.attname for f in fields], convert)
    return found


def _converters(f: Field[Any, Any], alias: str, connection: Any) -> tuple[Any, list[Any]]:
    """The field's column under the table's alias, and the converters the ORM's
    compiler applies to its values, in order: the backend's, then the field's
    own (``from_db_value``)."""
    expression = f.get_col(alias)
    # Field.get_db_converters (django-stubs leaves it out)
    own = f.get_db_converters(connection)  # type: ignore[attr-defined]
    return expression, [*connection.ops.get_db_converters(expression), *own]


def _columns(connection: Any, model: type[Model], alias: str) -> str:
    """Every column of the model's table (``_meta.concrete_fields``), qualified by
    the table's alias: a field added to the model is read with no change here."""
    return ", ".join(f"{alias}.{_quote(connection, f.column)}"
                     for f in model._meta.concrete_fields)


def _width(model: type[Model]) -> int:
    return len(model._meta.concrete_fields)


def _table(connection: Any, model: type[Model]) -> str:
    return _quote(connection, model._meta.db_table)


Listed = tuple[type[Model], str] | None
"""Where the accounts that are computers are listed (games.seating.SeatPlayers.
computer_accounts)."""


def _is_computer(connection: Any, listed: Listed, user_column: str) -> str:
    """An SQL condition: the account in ``user_column`` is a computer's, as the
    seating port says where they are listed (``listed``): the games app names no
    table of another app."""
    if listed is None:
        return "(1 = 0)"
    model, name = listed
    return (f"EXISTS (SELECT 1 FROM {_table(connection, model)} x WHERE "
            f"x.{_column(connection, model, name)} = {user_column})")


class EventsWanted(NamedTuple):
    """Which of a game's events to read with it (``game_for_move``,
    ``game_with_seats``): those a read of its state will fold."""

    held: int | None
    """The seq of a state of the game this process holds: the events from there;
    None if it holds none: the events from the newest multiple of ``every``
    (where the game's newest snapshot is, games.snapshots)."""
    every: int
    """The snapshot interval; 0 (no snapshots): the events from the first."""


def _events_columns(connection: Any) -> tuple[str, str]:
    """The columns and the joins that read the game's events with it, on
    PostgreSQL: the seq of the first (``EventsWanted``) and the payloads from
    there to the game's seq, as one JSON array (their field's own conversions
    make it a list, as they make each payload). Two parameters: ``held`` and
    ``every``."""
    q = functools.partial(_column, connection)
    seq = f"g.{q(Game, 'seq')}"
    return ("w.start, v.payloads",
            f"CROSS JOIN LATERAL (SELECT COALESCE(%s, {seq} - MOD({seq}, NULLIF(%s, 0)), 0) "
            f"AS start) w "
            f"CROSS JOIN LATERAL (SELECT jsonb_agg(e.{q(Event, 'payload')} "
            f"ORDER BY e.{q(Event, 'seq')}) AS payloads FROM {_table(connection, Event)} e "
            f"WHERE e.{q(Event, 'game')} = g.{q(Game, 'id')} AND e.{q(Event, 'seq')} >= w.start "
            f"AND e.{q(Event, 'seq')} < {seq}) v ")


def _reads_events(connection: Any) -> bool:
    """Whether the game's read reads its events too (``_events_columns``):
    on PostgreSQL; elsewhere the state's read asks for them (games.selectors)."""
    return bool(connection.vendor == "postgresql")


@functools.cache
def _game_read_text(alias: str, listed: Listed, events: bool, clocks: bool) -> str:
    """The game, its creator and its seats (each with its player and whether a
    computer holds it), a row a seat (one row with no seat for a game with
    none), in seat order: before the start, when no seat has its index, in the
    order they were taken; with ``clocks``, each seat's clock and whether a
    vacation touches it (``_vacationed``: its parameter first); with
    ``events``, the columns of ``_events_columns`` last."""
    connection = connections[alias]
    users = get_user_model()
    q = functools.partial(_column, connection)
    seat_index = f"s.{q(Seat, 'index')}"
    event_columns, event_joins = _events_columns(connection) if events else ("", "")
    clock_columns = (f", {_columns(connection, Clock, 'k')}, {_vacationed(connection, 'k')}"
                     if clocks else "")
    clock_join = (f"LEFT JOIN {_table(connection, Clock)} k ON k.{q(Clock, 'game')} = "
                  f"g.{q(Game, 'id')} AND k.{q(Clock, 'seat')} = {seat_index} " if clocks
                  else "")
    return (
        f"SELECT {_columns(connection, Game, 'g')}, {_columns(connection, users, 'c')}, "
        f"{_columns(connection, Seat, 's')}, {_columns(connection, users, 'u')}, "
        f"{_is_computer(connection, listed, 's.' + q(Seat, 'user'))}{clock_columns}"
        f"{', ' + event_columns if events else ''} "
        f"FROM {_table(connection, Game)} g "
        f"{event_joins}"
        f"JOIN {_table(connection, users)} c ON c.{q(users, users._meta.pk.name)} = "
        f"g.{q(Game, 'created_by')} "
        f"LEFT JOIN {_table(connection, Seat)} s ON s.{q(Seat, 'game')} = g.{q(Game, 'id')} "
        f"LEFT JOIN {_table(connection, users)} u ON u.{q(users, users._meta.pk.name)} = "
        f"s.{q(Seat, 'user')} "
        f"{clock_join}"
        f"WHERE g.{q(Game, 'id')} = %s "
        f"ORDER BY ({seat_index} IS NULL), {seat_index}, s.{q(Seat, 'joined_at')}, "
        f"s.{q(Seat, 'id')}")


@dataclass(frozen=True)
class ClocksRead:
    """A game's clocks (``game_clocks``), with what a turn's end asks of them."""

    clocks: list[Clock]
    """In seat order."""
    computer_seats: frozenset[int]
    """The seats whose clocks computers hold: they are mailed nothing."""
    vacationed: frozenset[int]
    """The seats whose clocks a vacation of their player touches, over the time
    since they started (most never are, and then the vacations need not be
    read)."""


@dataclass(frozen=True)
class _GameRead:
    game: Game
    computer_seats: frozenset[int]
    clocks: ClocksRead | None


def _read_game(game_id: int, computers: bool, events: EventsWanted | None,
               now: datetime | None = None) -> _GameRead | None:
    """The game with its creator and its seats in one statement
    (``_game_read_text``), the seats as ``game.seat_list()`` gives them; with
    ``computers``, which of them computers hold (else none is said to be); with
    ``now``, the game's clocks as ``game_clocks`` reads them at that time; with
    ``events``, those events as ``game.events_held`` gives them (on
    PostgreSQL)."""
    connection = connections[DEFAULT_DB_ALIAS]
    users = get_user_model()
    games, players, seats = (_loader(Game, "g", connection), _loader(users, "c", connection),
                             _loader(Seat, "s", connection))
    seat_players_ = _loader(users, "u", connection)
    clocks = None if now is None else _loader(Clock, "k", connection)
    wanted = events if events is not None and _reads_events(connection) else None
    params: list[Any] = [] if now is None else [connection.ops.adapt_datetimefield_value(now)]
    if wanted is not None:
        params += [wanted.held, wanted.every]
    with connection.cursor() as cursor:
        listed = seat_players().computer_accounts() if computers else None
        cursor.execute(_game_read_text(connection.alias, listed, wanted is not None,
                                       clocks is not None), [*params, game_id])
        rows = cursor.fetchall()
    if not rows:
        return None
    g, u, s = _width(Game), _width(users), _width(Seat)
    computer = g + u + s + u
    at_events = computer + 1 + (0 if clocks is None else _width(Clock) + 1)
    game = games.load(rows[0], 0, connection)
    assert isinstance(game, Game)
    game.created_by = cast("User", players.load(rows[0], g, connection))
    if wanted is not None:
        game.events_read(rows[0][at_events], _payloads(rows[0][at_events + 1], connection))
    read: list[Seat] = []
    held: list[int] = []
    found: list[Clock] = []
    vacationed: list[int] = []
    for row in rows:
        if row[g + u] is None:  # a game with no seat yet
            continue
        seat = seats.load(row, g + u, connection)
        assert isinstance(seat, Seat)
        seat.game = game
        if seat.user_id is not None:
            seat.user = cast("User", seat_players_.load(row, g + u + s, connection))
        if row[computer] and seat.index is not None:
            held.append(seat.index)
        read.append(seat)
        if clocks is not None and row[computer + 1] is not None:  # the seat has a clock
            clock = _clock_of(game, clocks, row, computer + 1, connection)
            found.append(clock)
            if row[at_events - 1] and game.days_per_move:
                vacationed.append(clock.seat)
    game.seats_read(read)
    computer_seats = frozenset(held)
    return _GameRead(game, computer_seats, None if clocks is None else ClocksRead(
        found, computer_seats, frozenset(vacationed)))


class MoveRead(NamedTuple):
    """What a move reads first (``game_for_move``)."""

    game: Game
    """The game with its creator, and its seats as ``game.seat_list()``."""
    seat: int | None
    """The index of the user's seat (None if they have none, or before the start)."""
    clocks: ClocksRead
    """The game's clocks (none before its start), as ``game_clocks`` reads them
    at the time of the read, with the seats computers hold."""

    @property
    def computer_seats(self) -> frozenset[int]:
        """The indexes of the seats computers hold (read with the seats, whether
        or not they have clocks yet)."""
        return self.clocks.computer_seats


def _payloads(value: Any, connection: Any) -> list[Any]:
    """The events' payloads from ``_events_columns``'s JSON array (None: none), with
    the payload field's converters (the backend's, then its ``from_db_value``)."""
    if value is None:
        return []
    found = _loaders.payload.get(connection.alias)
    if found is None:
        payload = Event._meta.get_field("payload")
        assert isinstance(payload, Field)
        found = _loaders.payload[connection.alias] = _converters(payload, "e", connection)
    expression, converters = found
    for converter in converters:
        value = converter(value, expression, connection)
    return list(value)


def game_for_move(game_id: int, user_id: int | None, events: EventsWanted | None = None
                  ) -> MoveRead | None:
    """The game, the index of the user's seat in it, the seats computers hold
    and the game's clocks; None if there is no such game. One statement: the
    game with its creator and its seats with their players, each seat with
    whether a computer holds it and with its clock. Not locked: a move's writes
    are written only if the game is still at the seq read here
    (``Batch.update``'s ``expect``), so the clocks are as they were at that seq.

    The seats computers hold and the clocks come with it so that the move need
    not ask again whether a computer is to move next (bots.hooks), nor read the
    clocks when its turn ends (games.clocks); the seats are
    ``game.seat_list()``, so that the move's answer shows the game without
    reading it again. With ``events``, those events too
    (``game.events_held``)."""
    read = _read_game(game_id, computers=True, events=events, now=timezone.now())
    if read is None:
        return None
    assert read.clocks is not None
    mine = next((s.index for s in read.game.seat_list() if s.user_id == user_id), None)
    return MoveRead(read.game, mine, read.clocks)


def game_with_seats(game_id: int, events: EventsWanted | None = None) -> Game | None:
    """The game with its creator and its seats (in seat order, each with its
    player) as ``game.seat_list()``, and with ``events`` those events
    (``game.events_held``): one statement. None if there is no such game."""
    read = _read_game(game_id, computers=False, events=events)
    return None if read is None else read.game


def _vacationed(connection: Any, clock: str) -> str:
    """An SQL condition: a vacation of the player of the clock (``clock``, its
    table's alias) touches the time it has run, up to the parameter it takes
    (now). Only a timed game's clocks are lengthened by it."""
    q = functools.partial(_column, connection)
    return (f"EXISTS (SELECT 1 FROM {_table(connection, Vacation)} v "
            f"WHERE v.{q(Vacation, 'user')} = {clock}.{q(Clock, 'user')} "
            f"AND v.{q(Vacation, 'ends_at')} > {clock}.{q(Clock, 'started_at')} "
            f"AND v.{q(Vacation, 'starts_at')} < %s)")


@functools.cache
def _clocks_text(alias: str, vacations: bool, listed: Listed) -> str:
    """The game's clocks, each with whether a vacation touches it (if
    ``vacations``) and whether a computer holds it (where they are listed)."""
    connection = connections[alias]
    q = functools.partial(_column, connection)
    vacationed = _vacationed(connection, "k") if vacations else "(1 = 0)"
    is_computer = _is_computer(connection, listed, "k." + q(Clock, "user"))
    return (f"SELECT {_columns(connection, Clock, 'k')}, {vacationed}, {is_computer} "
            f"FROM {_table(connection, Clock)} k WHERE k.{q(Clock, 'game')} = %s "
            f"ORDER BY k.{q(Clock, 'seat')}")


def game_clocks(game: Game, now: datetime) -> ClocksRead:
    """The game's clocks, in seat order, in one statement, with the seats whose
    clocks computers hold and those a vacation touches up to ``now``: what a
    server change that ends a turn reads (a move and a draw have them from
    ``game_for_move``). Only a timed game's clocks have banks, which alone
    vacations lengthen, so an untimed game's vacations are not asked."""
    connection = connections[DEFAULT_DB_ALIAS]
    vacations = bool(game.days_per_move)
    sql = _clocks_text(connection.alias, vacations, seat_players().computer_accounts())
    params = ([connection.ops.adapt_datetimefield_value(now)] if vacations else []) + [game.pk]
    clocks = _loader(Clock, "k", connection)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    found, vacationed, computers = [], [], []
    for row in rows:
        clock = _clock_of(game, clocks, row, 0, connection)
        found.append(clock)
        if row[-2]:
            vacationed.append(clock.seat)
        if row[-1]:
            computers.append(clock.seat)
    return ClocksRead(found, frozenset(computers), frozenset(vacationed))


def _clock_of(game: Game, clocks: _Loader, row: Sequence[Any], start: int,
              connection: Any) -> Clock:
    """The clock of ``game`` whose columns ``row`` holds from ``start``."""
    clock = clocks.load(row, start, connection)
    assert isinstance(clock, Clock)
    clock.game = game
    return clock


@functools.cache
def _seqs_text(alias: str, names: tuple[str, ...]) -> str:
    connection = connections[alias]
    q = functools.partial(_column, connection)
    return (f"SELECT {', '.join(q(Game, n) for n in names)} FROM {_table(connection, Game)} "
            f"WHERE {q(Game, 'id')} = %s")


def _game_columns(game_id: int, names: tuple[str, ...]) -> tuple[Any, ...] | None:
    connection = connections[DEFAULT_DB_ALIAS]
    with connection.cursor() as cursor:
        cursor.execute(_seqs_text(connection.alias, names), [game_id])
        row = cursor.fetchone()
    return None if row is None else tuple(row)


def game_seq(game_id: int) -> int | None:
    """The number of events of the game (None if there is no such game): one
    statement."""
    row = _game_columns(game_id, ("seq",))
    return None if row is None else int(row[0])


def game_seqs(game_id: int) -> tuple[int, int] | None:
    """The game's seq and its panels' seq (None if there is no such game), in one
    statement: all a poll needs to find that nothing has happened."""
    row = _game_columns(game_id, ("seq", "panels_seq"))
    return None if row is None else (int(row[0]), int(row[1]))


def database_reached() -> str:
    """One round trip to the database, whatever tables it holds: Django's own
    check of a connection (``is_usable``, what its connection health checks
    send); an OperationalError if it cannot be reached, and the connection
    closed. The database's kind ("postgresql", "sqlite")."""
    connection = connections[DEFAULT_DB_ALIAS]
    connection.ensure_connection()
    if not connection.is_usable():
        connection.close()
        raise OperationalError("the database does not answer")
    return str(connection.vendor)


# ---------------------------------------------------------------- rows written by hand


def _quote(connection: Any, name: str) -> str:
    return str(connection.ops.quote_name(name))


def _field(model: type[Model], name: str) -> Field[Any, Any]:
    """The model's field of that name (``_meta.get_field``), one with a column."""
    found = model._meta.get_field(name)
    if not isinstance(found, Field) or not found.column:
        raise ValueError(f"{model.__name__}.{name} is not a column of its table")
    return found


def _column(connection: Any, model: type[Model], name: str) -> str:
    """The quoted column of the model's field of that name."""
    return _quote(connection, str(_field(model, name).column))


@functools.cache
def _inserted_fields(model: type[Model]) -> list[Any]:
    """The fields an insert writes (all but the primary key), worked out once."""
    opts = model._meta
    return [f for f in opts.concrete_fields if f is not opts.pk]


@functools.cache
def _required_relations(model: type[Model]) -> list[Any]:
    """The model's relations (foreign keys) that may not be null."""
    return [f for f in _inserted_fields(model) if f.is_relation and not f.null]


def _check_relations(row: Model) -> None:
    """Refuse a row whose required relation has no id, as ``save()`` refuses a
    row whose related object is unsaved. The ids are those the related objects
    had when they were set on the row: the rows a change writes are made from
    saved ones (a game, its events' actor), so none is set before its save."""
    for f in _required_relations(type(row)):
        if getattr(row, f.attname) is None:
            raise ValueError(f"{type(row).__name__}.{f.name} is not set "
                             f"(a {f.related_model.__name__} not saved yet?)")


def _cast_type(f: Any, connection: Any) -> str:
    """The type a value is cast to in a guarded insert: its column's (the
    documented ``Field.db_type``), without a length or a precision, so that the
    column itself checks them as it checks any insert (an explicit cast to
    ``varchar(n)`` would cut a longer string short without a word)."""
    return str(f.db_type(connection)).split("(")[0].strip()


@functools.cache
def _insert_text(model: type[Model], rows: int, guard: str | None, using: str) -> str:
    """The INSERT of ``_insert_sql``, for so many rows (the same at every move)."""
    connection = connections[using]
    opts = model._meta
    fields = _inserted_fields(model)
    if guard is None:
        one = "(" + ", ".join(["%s"] * len(fields)) + ")"
    else:
        one = "(" + ", ".join(f"%s::{_cast_type(f, connection)}" for f in fields) + ")"
    values = f"VALUES {', '.join([one] * rows)}"
    if guard is not None:
        values = f"SELECT v.* FROM ({values}) AS v, {guard}"
    return (f"INSERT INTO {_quote(connection, opts.db_table)} "
            f"({', '.join(_quote(connection, f.column) for f in fields)}) "
            f"{values} RETURNING {_quote(connection, opts.pk.column)}")


def _insert_sql(rows: Sequence[Model], *, using: str, guard: str | None = None
                ) -> tuple[str, list[Any]]:
    """INSERT of new rows of one model, RETURNING their primary keys in order, each
    value as ``bulk_create`` would write it (``pre_save``, so that defaults such as
    ``auto_now_add`` apply, then ``get_db_prep_save``). With ``guard`` (the name of
    a part of the same ``WITH`` statement), the rows are written only if that part
    returns a row: they are selected from it, each value cast to its column's type
    (a ``VALUES`` list in a ``SELECT`` does not take its types from the table)."""
    connection = connections[using]
    model = type(rows[0])
    fields = _inserted_fields(model)
    params: list[Any] = []
    for row in rows:
        _check_relations(row)
        params += [f.get_db_prep_save(f.pre_save(row, True), connection) for f in fields]
    return _insert_text(model, len(rows), guard, using), params


@functools.cache
def _update_text(model: type[Model], names: tuple[str, ...], expected: tuple[str, ...],
                 using: str) -> str:
    """The UPDATE of ``_update_sql`` (the same at every move)."""
    connection = connections[using]
    opts = model._meta
    sets = ", ".join(f"{_column(connection, model, n)} = %s" for n in names)
    where = " AND ".join(f"{_column(connection, model, n)} = %s" for n in
                         [opts.pk.name, *expected])
    return f"UPDATE {_quote(connection, opts.db_table)} SET {sets} WHERE {where}"


def _update_sql(row: Model, names: Sequence[str], *, using: str,
                expect: Mapping[str, Any] | None = None) -> tuple[str, list[Any]]:
    """UPDATE of these fields of a stored row, by its primary key, as
    ``QuerySet.update`` writes them; with ``expect``, only while the row still
    holds those values ({field: value})."""
    connection = connections[using]
    model = type(row)
    expect = expect or {}
    params = [f.get_db_prep_save(getattr(row, f.attname), connection)
              for f in (_field(model, name) for name in names)]
    params.append(row.pk)
    params += [_field(model, name).get_db_prep_value(value, connection)
               for name, value in expect.items()]
    return _update_text(type(row), tuple(names), tuple(expect), using), params


def _set_keys(rows: Sequence[Model], keys: Sequence[Any], using: str) -> None:
    """Give inserted rows their primary keys, and leave them as the ORM leaves a
    saved instance: ``Model._state`` (``adding``, ``db``) is documented in
    Django's Model instance reference."""
    for row, pk in zip(rows, keys, strict=True):
        row.pk = pk
        row._state.adding, row._state.db = False, using


# ---------------------------------------------------------------- writes in one round trip


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
        """Queue a write made in this module from the models' ``_meta``: an UPDATE
        that ends with its WHERE clause (a guard's condition is added to it)."""
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
    index, awaited, out, game = (_column(connection, Seat, name)
                                 for name in ("index", "awaited", "resigned", "game"))

    def among(listed: Sequence[int]) -> str:
        return f"({index} IN ({', '.join(['%s'] * len(listed))}))" if listed else "FALSE"

    now, leaving = among(seats), among(resigned)
    writes.write(
        f"UPDATE {table} SET {awaited} = {now}, {out} = {out} OR {leaving} "
        f"WHERE {game} = %s AND ({awaited} <> {now} OR NOT {out} AND {leaving})",
        [*seats, *resigned, game_id, *seats, *resigned])
