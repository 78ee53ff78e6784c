"""Give the database role the application connects as what it needs, and no more.

Run as the role that owns the tables, after ``migrate`` (docker-compose's
``migrate`` service does both):

    manage.py grant_app_role marram_app

The app role may read and write every table of the project, but only read and
append to the event log: no UPDATE or DELETE there, no TRUNCATE anywhere, and,
owning nothing, it cannot disable the triggers that guard the log. Run again
after each migration that adds a table (it is idempotent: it revokes first).
"""

from __future__ import annotations

import re
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.backends.utils import CursorWrapper

from games.models import Event

ROLE_NAME = re.compile(r"^[a-z_][a-z0-9_$]{0,62}$")

# What the app does to each table; the event log is append-only.
READ_WRITE = "SELECT, INSERT, UPDATE, DELETE"
APPEND_ONLY = "SELECT, INSERT"


def app_role_problem(cursor: CursorWrapper, role: str) -> str | None:
    """Why ``role`` must not be the app's role, or None if it may."""
    cursor.execute("SELECT rolsuper FROM pg_roles WHERE rolname = %s", [role])
    row = cursor.fetchone()
    if row is None:
        return f"there is no role {role!r}: create it first (CREATE ROLE {role} LOGIN PASSWORD ...)"
    if row[0]:
        return f"{role!r} is a superuser: it could disable the event log's triggers"
    cursor.execute(
        "SELECT c.relname FROM pg_class c WHERE c.relkind IN ('r', 'p', 'S') "
        "AND pg_table_is_visible(c.oid) AND pg_has_role(%s, c.relowner, 'USAGE') "
        "ORDER BY c.relname LIMIT 1",
        [role],
    )
    owned = cursor.fetchone()
    if owned is not None:
        return (f"{role!r} owns {owned[0]} (or belongs to its owner's role): a table's owner "
                "can disable its triggers; give the app a role that owns nothing")
    return None


def app_role_grant(role: str, using: str = DEFAULT_DB_ALIAS) -> list[str]:
    """Grant ``role`` its privileges on every table; the statements run."""
    connection = connections[using]
    if connection.vendor != "postgresql":
        raise CommandError("database roles are PostgreSQL's: there is nothing to grant on "
                           f"{connection.vendor}")
    if not ROLE_NAME.match(role):
        raise CommandError(f"{role!r} is not a plain role name (lower-case letters, digits, _)")
    events = Event._meta.db_table
    with transaction.atomic(using=using), connection.cursor() as cursor:
        problem = app_role_problem(cursor, role)
        if problem is not None:
            raise CommandError(problem)
        cursor.execute("SELECT current_schema()")
        schema = connection.ops.quote_name(cursor.fetchone()[0])
        statements = [f"GRANT USAGE ON SCHEMA {schema} TO {role}"]
        for table in sorted(connection.introspection.table_names(cursor)):
            privileges = APPEND_ONLY if table == events else READ_WRITE
            name = connection.ops.quote_name(table)
            statements += [f"REVOKE ALL ON {name} FROM {role}",
                           f"GRANT {privileges} ON {name} TO {role}"]
        # (no grant on the sequences: identity columns draw from theirs on INSERT alone)
        for sql in statements:
            cursor.execute(sql)
    return statements


class Command(BaseCommand):
    help = ("Grant the database role the app connects as SELECT/INSERT/UPDATE/DELETE on "
            "every table but the event log (SELECT/INSERT only). Run as the tables' owner.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("role", help="the role the app connects as (it must own nothing)")
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS)

    def handle(self, *args: Any, **options: Any) -> None:
        statements = app_role_grant(options["role"], options["database"])
        tables = sum(1 for s in statements if s.startswith("GRANT SELECT"))
        self.stdout.write(f"granted {options['role']} its privileges on {tables} tables "
                          "(the event log: SELECT and INSERT only)")
