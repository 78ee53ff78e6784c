"""Writes that go to the database together, in one round trip.

A move appends its events and updates the game row; what hangs on the move (the
clocks, the mails in the outbox) writes a few rows more. Each statement on its
own would cost a round trip, and most moves write three to five. A ``Batch``
collects them and sends them in one ``execute`` on PostgreSQL (Django's cursor
there binds parameters on the client, so one call may hold several statements);
on other databases it runs them one by one.

Rows are written as ``bulk_create`` and ``QuerySet.update`` would write them
(games.rawsql), so defaults such as ``auto_now_add`` apply; inserted rows get
their primary keys once ``run`` returns. Nothing is written
before ``run``: call it inside the transaction the writes belong to.
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
    sql: str
    params: Sequence[Any]
    inserted: Sequence[Model] = ()
    """The rows an INSERT ... RETURNING gives primary keys to, in order."""


@dataclass
class Batch:
    using: str = DEFAULT_DB_ALIAS
    _statements: list[_Statement] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self._statements)

    def add(self, statement: str, params: Sequence[Any]) -> None:
        """A statement of your own, with ``%s`` placeholders."""
        self._statements.append(_Statement(statement, params))

    def insert(self, rows: Sequence[Model]) -> None:
        """Insert new rows of one model; ``run`` sets their primary keys."""
        if rows:
            statement, params = rawsql.insert_sql(rows, using=self.using)
            self._statements.append(_Statement(statement, params, rows))

    def update(self, row: Model, fields: Sequence[str]) -> None:
        """Write these fields of a stored row, as they are now, by its primary key."""
        self._statements.append(_Statement(*rawsql.update_sql(row, fields, using=self.using)))

    def run(self) -> None:
        """Send everything queued (in the order queued), then forget it."""
        statements, self._statements = self._statements, []
        if not statements:
            return
        connection = connections[self.using]
        with connection.cursor() as cursor:
            if connection.vendor != "postgresql":
                for statement in statements:
                    cursor.execute(statement.sql, statement.params)
                    _set_keys(statement, cursor)
                return
            cursor.execute(";\n".join(s.sql for s in statements),
                           [p for s in statements for p in s.params])
            for i, statement in enumerate(statements):
                if i:
                    cursor.nextset()
                _set_keys(statement, cursor)


def _set_keys(statement: _Statement, cursor: Any) -> None:
    if not statement.inserted:
        return
    keys = cursor.fetchall()
    for row, (pk,) in zip(statement.inserted, keys, strict=True):
        row.pk = pk
        row._state.adding, row._state.db = False, cursor.db.alias
