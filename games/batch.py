"""Writes that go to the database together, in one round trip.

A move appends its events and updates the game row; what hangs on the move (the
clocks, the mails in the outbox) writes a few rows more. Each statement on its
own would cost a round trip, and most moves write three to five. A ``Batch``
collects them and sends them in one ``execute`` on PostgreSQL (Django's cursor
there binds parameters on the client, so one call may hold several statements);
on other databases it runs them one by one.

Statements are compiled by Django's own compilers, as ``bulk_create`` and
``QuerySet.update`` compile them, so defaults such as ``auto_now_add`` apply;
inserted rows get their primary keys once ``run`` returns. Nothing is written
before ``run``: call it inside the transaction the writes belong to.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model, sql


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
        if not rows:
            return
        model = type(rows[0])
        opts = model._meta
        for row in rows:
            row._prepare_related_fields_for_save(operation_name="bulk_create")
        query = sql.InsertQuery(model)
        query.insert_values([f for f in opts.concrete_fields if f is not opts.pk], rows)
        compiler = query.get_compiler(using=self.using)
        compiler.returning_fields = [opts.pk]
        [(statement, params)] = compiler.as_sql()
        self._statements.append(_Statement(statement, params, rows))

    def update(self, row: Model, fields: Sequence[str]) -> None:
        """Write these fields of a stored row, as they are now, by its primary key."""
        query = sql.UpdateQuery(type(row))
        query.add_update_values({name: getattr(row, name) for name in fields})
        query.add_filter("pk", row.pk)
        statement, params = query.get_compiler(using=self.using).as_sql()
        self._statements.append(_Statement(statement, params))

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
