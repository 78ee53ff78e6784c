"""Model rows read and written with SQL built here, for the few statements every
move runs: the ORM's query building costs more Python than the database spends
on these small statements (measured: benchmarks/service_bench.py).

``fetch`` loads model instances from a SELECT of your own, as ``Model.from_db``
would from the ORM's (columns the model does not have become attributes); name
the model's columns with ``columns`` rather than ``*``, so that a statement
prepared by PostgreSQL keeps its result type when a migration adds a column
while old workers still run.
``insert_sql`` and ``update_sql`` give the statement and parameters that
``bulk_create`` and ``QuerySet.update`` would send for plain fields, with the
fields' own conversions (``pre_save``, ``get_db_prep_save``); games.batch sends
them.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model
from django.db.models.base import DEFERRED

M = TypeVar("M", bound=Model)


@functools.cache
def columns(model: type[Model], alias: str, *, using: str = DEFAULT_DB_ALIAS) -> str:
    """The model's columns, qualified by the table's alias, for a SELECT list."""
    quote = connections[using].ops.quote_name
    return ", ".join(f"{alias}.{quote(f.column)}" for f in model._meta.concrete_fields)


def fetch(model: type[M], sql: str, params: Sequence[Any], *,
          using: str = DEFAULT_DB_ALIAS) -> list[M]:
    connection = connections[using]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        names = [column[0] for column in cursor.description]
        rows = cursor.fetchall()
    where = {name: i for i, name in enumerate(names)}
    fields = model._meta.concrete_fields
    slots = [where.get(f.column) for f in fields]
    loaded = [f.attname for f, i in zip(fields, slots, strict=True) if i is not None]
    convert = []  # what the ORM's compiler would apply: the backend's, then the field's
    for f, i in zip(fields, slots, strict=True):
        if i is not None:
            column = f.get_col(model._meta.db_table)
            converters = connection.ops.get_db_converters(column) + f.get_db_converters(connection)
            convert += [(i, column, c) for c in converters]
    own = {f.column for f in fields}
    extra = [(i, name) for i, name in enumerate(names) if name not in own]
    out = []
    for row in rows:
        values = list(row)
        for i, column, converter in convert:
            values[i] = converter(values[i], column, connection)
        instance = model.from_db(using, loaded,
                                 [DEFERRED if i is None else values[i] for i in slots])
        for i, name in extra:
            setattr(instance, name, values[i])
        out.append(instance)
    return out


def _quote(connection: Any, name: str) -> str:
    return connection.ops.quote_name(name)


def insert_sql(rows: Sequence[Model], *, using: str = DEFAULT_DB_ALIAS
               ) -> tuple[str, list[Any]]:
    """INSERT of new rows of one model, RETURNING their primary keys in order."""
    connection = connections[using]
    opts = type(rows[0])._meta
    fields = [f for f in opts.concrete_fields if f is not opts.pk]
    params: list[Any] = []
    for row in rows:
        row._prepare_related_fields_for_save(operation_name="bulk_create")
        params += [f.get_db_prep_save(f.pre_save(row, True), connection) for f in fields]
    one = "(" + ", ".join(["%s"] * len(fields)) + ")"
    sql = (f"INSERT INTO {_quote(connection, opts.db_table)} "
           f"({', '.join(_quote(connection, f.column) for f in fields)}) "
           f"VALUES {', '.join([one] * len(rows))} RETURNING {_quote(connection, opts.pk.column)}")
    return sql, params


def update_sql(row: Model, names: Sequence[str], *, using: str = DEFAULT_DB_ALIAS
               ) -> tuple[str, list[Any]]:
    """UPDATE of these fields of a stored row, by its primary key."""
    connection = connections[using]
    opts = row._meta
    fields = [opts.get_field(name) for name in names]
    sets = ", ".join(f"{_quote(connection, f.column)} = %s" for f in fields)
    params = [f.get_db_prep_save(getattr(row, f.attname), connection) for f in fields]
    sql = (f"UPDATE {_quote(connection, opts.db_table)} SET {sets} "
           f"WHERE {_quote(connection, opts.pk.column)} = %s")
    return sql, [*params, row.pk]
