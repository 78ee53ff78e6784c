"""Writes that go to the database together, in one round trip.

A move appends its events and updates the game row; what hangs on the move (the
clocks, the mails in the outbox) writes a few rows more. Each statement on its
own would cost a round trip, and most moves write three to five. A ``Batch``
collects them; on PostgreSQL ``run`` sends them as one statement, each write a
data-modifying ``WITH`` part (so the statement can be prepared, see settings),
and elsewhere runs them one by one (inserts through ``bulk_create``).

Rows are written as ``bulk_create`` and ``QuerySet.update`` would write them
(games.rawsql), so defaults such as ``auto_now_add`` apply; inserted rows get
their primary keys once ``run`` returns. Nothing is written before ``run``: call
it inside the transaction the writes belong to. As one statement, the writes see
the database as it was before the batch, not each other's rows: queue only
writes that stand on their own (no row twice, nothing that reads another).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model

from games import rawsql


@dataclass
class _Statement:
    sql: str = ""
    params: Sequence[Any] = ()
    inserted: Sequence[Model] = ()
    """For an insert, its rows (the statement is built when it is sent)."""


@dataclass
class Batch:
    using: str = DEFAULT_DB_ALIAS
    _statements: list[_Statement] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self._statements)

    def insert(self, rows: Sequence[Model]) -> None:
        """Insert new rows of one model, as they are when ``run`` sends them; it sets
        their primary keys."""
        if rows:
            self._statements.append(_Statement(inserted=rows))

    def update(self, row: Model, fields: Sequence[str]) -> None:
        """Write these fields of a stored row, as they are now, by its primary key."""
        self._statements.append(_Statement(*rawsql.update_sql(row, fields, using=self.using)))

    def run(self) -> None:
        """Send everything queued, then forget it."""
        statements, self._statements = self._statements, []
        if not statements:
            return
        connection = connections[self.using]
        with connection.cursor() as cursor:
            if connection.vendor != "postgresql":  # one by one, inserts as the ORM does
                for statement in statements:
                    if statement.inserted:
                        model = type(statement.inserted[0])
                        model._base_manager.using(self.using).bulk_create(statement.inserted)
                    else:
                        cursor.execute(statement.sql, statement.params)
                return
            for s in statements:
                if s.inserted:  # INSERT ... RETURNING the keys
                    s.sql, s.params = rawsql.insert_sql(s.inserted, using=self.using)
            parts = ", ".join(f"w{i} AS ({s.sql})" for i, s in enumerate(statements))
            inserts = [(i, s) for i, s in enumerate(statements) if s.inserted]
            # the keys of each insert, in the order of its rows (a sequence counts up)
            keys = ", ".join(f"(SELECT array_agg(k ORDER BY k) FROM w{i} AS r(k))"
                             for i, _ in inserts) or "1"
            cursor.execute(f"WITH {parts} SELECT {keys}",
                           [p for s in statements for p in s.params])
            row = cursor.fetchone()
            for (_, statement), pks in zip(inserts, row, strict=False):
                _set_keys(statement.inserted, pks, self.using)


def _set_keys(rows: Sequence[Model], keys: Sequence[Any], using: str) -> None:
    for row, pk in zip(rows, keys, strict=True):
        row.pk = pk
        row._state.adding, row._state.db = False, using
