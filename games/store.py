"""The store: what a move reads, and how a change's writes reach the database
together (``Batch``), the one statement of the project written out by hand.

The reads are the ORM's:

- ``game_for_move``: the game and the user's seat in it, the first read of
  every move; the seats come with it (the move's answer shows the game from
  them), and which of them computers hold (games.seating);
- ``game_with_seats``: a game with its creator and its seats, for every GET of
  a game;
- ``game_clocks``: a game's clocks, with those whose running time a vacation
  touches and those computers hold (the last move of a turn);
- ``game_seq``: a game's seq alone (a move found stale);
- ``game_seqs``: a game's seq and its panels' (``Game.panels_seq``): every poll
  of a page that finds nothing new;
- ``database_reached``: the health check's round trip (Django's own ``SELECT 1``).

``Batch`` holds everything a change writes (its events, the game row, the seats
it now awaits (``seats_awaited``), the clocks, the mails in the outbox) and
writes it in one round trip, only if the game is still at the seq the change
read. On PostgreSQL that is one statement, each write a data-modifying ``WITH``
part; elsewhere the same writes go one by one in a transaction. Its SQL is
made from the models' ``_meta`` (the Options API: ``db_table``,
``concrete_fields``, ``get_field``, each field's ``column``) and their fields'
own conversions (``pre_save``, ``get_db_prep_save``, ``db_type``), so that a
field added to a model is written as the ORM writes it, and no table or column
name is typed here.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple

from django.db import DEFAULT_DB_ALIAS, OperationalError, connections, transaction
from django.db.models import Exists, F, Field, Model, OuterRef, Prefetch, QuerySet

from games.models import Clock, Game, Seat, Vacation
from games.seating import seat_players

# ---------------------------------------------------------------- reads


def _is_computer() -> Exists:
    """Whether the row's ``user_id`` is a computer player's account, as the
    seating port says (games.seating.SeatPlayers.computer_ids): the games app
    does not know the bots app's tables."""
    return Exists(seat_players().computer_ids().filter(user_id=OuterRef("user_id")))


def _seats() -> QuerySet[Seat]:
    """A game's seats as a read of the game shows them: in seat order (before the
    start, when no seat has its index, in the order they were taken), each with
    its player."""
    return Seat.objects.select_related("user").order_by(
        F("index").asc(nulls_last=True), "joined_at", "id")


def _game_and_seats(game_id: int, seats: QuerySet[Seat]) -> Game | None:
    """The game with its creator, then ``seats`` as ``game.seats.all()``: two
    statements (``prefetch_related``); None if there is no such game."""
    games = (Game.objects.filter(pk=game_id).order_by().select_related("created_by")
             .prefetch_related(Prefetch("seats", queryset=seats)))
    found = list(games)
    return found[0] if found else None


class MoveRead(NamedTuple):
    """What a move reads first (``game_for_move``)."""

    game: Game
    """The game with its creator, and its seats as ``game.seats.all()``."""
    seat: int | None
    """The index of the user's seat (None if they have none, or before the start)."""
    computer_seats: frozenset[int]
    """The indexes of the seats computers hold."""


def game_for_move(game_id: int, user_id: int | None) -> MoveRead | None:
    """The game, the index of the user's seat in it and the seats computers
    hold; None if there is no such game. Two statements: the game with its
    creator, then its seats with their players (``game_with_seats``), each seat
    with ``is_computer``. Not locked: a move's writes are written only if the
    game is still at the seq read here (``Batch.update``'s ``expect``).

    The seats computers hold come with it so that the move need not ask again
    whether a computer is to move next (bots.hooks) or holds a clock
    (``game_clocks``); the seats are ``game.seats.all()``, so that the move's
    answer shows the game without reading it again."""
    game = _game_and_seats(game_id, _seats().annotate(is_computer=_is_computer()))
    if game is None:
        return None
    seats = list(game.seats.all())
    # is_computer: the annotation just made, which django-stubs does not follow
    computers = frozenset(s.index for s in seats
                          if s.is_computer and s.index is not None)  # type: ignore[attr-defined]
    return MoveRead(game, next((s.index for s in seats if s.user_id == user_id), None),
                    computers)


def game_with_seats(game_id: int) -> Game | None:
    """The game with its creator and its seats (in seat order, each with its
    player) as ``game.seats.all()``: two statements, the game joined to its
    creator, then the seats joined to their users. None if there is no such
    game."""
    return _game_and_seats(game_id, _seats())


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


def game_clocks(game: Game, now: datetime, computer_seats: frozenset[int] | None = None
                ) -> ClocksRead:
    """The game's clocks, in seat order, in one statement, with the seats whose
    clocks computers hold and those a vacation touches up to ``now``.

    Each of the two is asked in the statement only where it is not known
    already: the seats computers hold, ``computer_seats``, come with a move's
    read (``MoveRead``; the clock of a seat is its holder's); and only a timed
    game's clocks have banks, which alone vacations lengthen (an untimed game's
    clocks are never vacationed). Each costs the ORM a subquery to build, as
    much as the rest of the read."""
    clocks = Clock.objects.filter(game_id=game.pk).order_by("seat")
    if game.days_per_move:
        clocks = clocks.annotate(vacationed=Exists(Vacation.objects.filter(
            user_id=OuterRef("user_id"), ends_at__gt=OuterRef("started_at"),
            starts_at__lt=now)))
    if computer_seats is None:
        clocks = clocks.annotate(is_computer=_is_computer())
    found = list(clocks)
    for clock in found:
        clock.game = game
    # the annotations just made, which django-stubs does not follow
    if computer_seats is None:
        computer_seats = frozenset(c.seat for c in found
                                   if c.is_computer)  # type: ignore[attr-defined]
    vacationed = frozenset(c.seat for c in found
                           if game.days_per_move and c.vacationed)  # type: ignore[attr-defined]
    return ClocksRead(found, computer_seats, vacationed)


def game_seq(game_id: int) -> int | None:
    """The number of events of the game (None if there is no such game): one
    statement."""
    found = list(Game.objects.filter(pk=game_id).order_by().values_list("seq", flat=True))
    return found[0] if found else None


def game_seqs(game_id: int) -> tuple[int, int] | None:
    """The game's seq and its panels' seq (None if there is no such game), in one
    statement: all a poll needs to find that nothing has happened."""
    found = list(Game.objects.filter(pk=game_id).order_by().values_list("seq", "panels_seq"))
    return found[0] if found else None


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
