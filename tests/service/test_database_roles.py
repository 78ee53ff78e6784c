"""Nothing empties the event log: PostgreSQL refuses TRUNCATE (and so ``manage.py
flush``) even to the tables' owner, and the role the app connects as owns no table,
so it can neither TRUNCATE nor disable the triggers, nor change or delete an event,
while it can still play a game."""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from django.core.management import CommandError, call_command
from django.db import DatabaseError, connection, transaction
from psycopg import sql

from games import services
from tests.service.conftest import event_count, play, start_game

ROOT = Path(__file__).resolve().parents[2]
ROLES_SQL = ROOT / "deploy" / "postgres" / "roles.sql"


def refused(statement: str, match: str) -> None:
    """The statement fails with ``match`` and leaves the test's transaction usable."""
    with pytest.raises(DatabaseError, match=match), transaction.atomic(), \
            connection.cursor() as cursor:
        cursor.execute(statement)


@pytest.fixture
def events(users) -> int:
    game = start_game(users[:2])
    play(game, until=lambda state: state.events >= 6)
    count = event_count()
    assert count >= 6
    # check the deferred foreign keys now: PostgreSQL would refuse a TRUNCATE with
    # checks pending before the trigger could
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    return count


# ------------------------------------------------------------- the owner


def test_truncate_of_the_event_log_is_refused(events):
    refused("TRUNCATE games_event", "append-only: TRUNCATE refused")
    # nor through a cascade from the games it belongs to
    refused("TRUNCATE games_game CASCADE", "append-only: TRUNCATE refused")
    assert event_count() == events


def test_manage_py_flush_is_refused(events):
    with pytest.raises(CommandError, match="couldn't be flushed"):
        call_command("flush", interactive=False, verbosity=0)
    assert event_count() == events


# ------------------------------------------------------------- the app's role


@pytest.fixture
def as_app_role(users) -> Iterator[str]:
    """The rest of the test runs as a role made for the app (SET LOCAL ROLE: until
    the test's transaction rolls back) with the grants of grant_app_role."""
    role = f"marram_app_{secrets.token_hex(4)}"
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE ROLE {role} NOLOGIN")
    call_command("grant_app_role", role, verbosity=0)
    with connection.cursor() as cursor:
        cursor.execute(f"SET LOCAL ROLE {role}")
        cursor.execute("SELECT current_user")
        assert cursor.fetchone()[0] == role
    yield role


def test_the_app_role_plays_but_cannot_empty_or_unguard_the_log(users, as_app_role):
    # everything a game needs: accounts, seats, moves, the outbox, the clocks
    game = start_game(users[:2])
    services.game_create(user=users[2], variant="animals", length="long", seats=3,
                         days_per_move=2)
    play(game, until=lambda state: state.events >= 6)
    count = event_count()
    assert count >= 6

    refused("TRUNCATE games_event", "permission denied")
    refused("TRUNCATE games_game CASCADE", "permission denied")
    refused("ALTER TABLE games_event DISABLE TRIGGER games_event_no_truncate", "must be owner")
    refused("ALTER TABLE games_event DISABLE TRIGGER ALL", "must be owner")
    refused("DROP TRIGGER games_event_no_delete ON games_event", "must be owner")
    refused("UPDATE games_event SET type = 'pass'", "permission denied")
    refused("DELETE FROM games_event", "permission denied")
    assert event_count() == count


def test_grant_app_role_refuses_a_role_that_owns_the_tables(db):
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user")
        owner = cursor.fetchone()[0]
    with pytest.raises(CommandError, match="superuser|owns"):
        call_command("grant_app_role", owner, verbosity=0)
    with pytest.raises(CommandError, match="there is no role"):
        call_command("grant_app_role", "nobody_by_that_name", verbosity=0)
    with pytest.raises(CommandError, match="not a plain role name"):
        call_command("grant_app_role", 'x"; DROP TABLE games_event; --', verbosity=0)


# ------------------------------------------------------------- as deployed


def _server() -> dict[str, str]:
    settings = connection.settings_dict
    return {"host": settings["HOST"] or "127.0.0.1", "port": str(settings["PORT"] or 5432),
            "user": settings["USER"], "password": settings["PASSWORD"] or ""}


def _url(server: dict[str, str], user: str, password: str, db: str) -> str:
    return f"postgres://{user}:{password}@{server['host']}:{server['port']}/{db}"


def _manage(url: str, *args: str, ok: bool = True) -> str:
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "marram_site.settings"}
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert (done.returncode == 0) == ok, done.stdout + done.stderr
    return done.stdout + done.stderr


def test_the_documented_roles_migrate_and_guard_the_log():
    """deploy/postgres/roles.sql as docker-compose runs it, in a database of its own:
    migrate as the owner, grant_app_role, then the app's connection."""
    psql = shutil.which("psql")
    if psql is None:
        pytest.fail("psql is missing: it comes with the postgresql package", pytrace=False)
    server = _server()
    tag = secrets.token_hex(4)
    db, owner, app = f"marram_roles_{tag}", f"marram_owner_{tag}", f"marram_app_{tag}"
    owner_pw, app_pw = secrets.token_hex(8), secrets.token_hex(8)
    admin = psycopg.connect(host=server["host"], port=server["port"], user=server["user"],
                            password=server["password"], dbname="postgres", autocommit=True)
    admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(db)))
    try:
        done = subprocess.run(
            [psql, "--no-psqlrc", "--quiet", "-h", server["host"], "-p", server["port"],
             "-U", server["user"], "-d", db, "-v", f"db={db}", "-v", f"owner={owner}",
             "-v", f"app={app}", "-v", f"owner_password={owner_pw}",
             "-v", f"app_password={app_pw}", "-f", str(ROLES_SQL)],
            env={**os.environ, "PGPASSWORD": server["password"]},
            capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        _manage(_url(server, owner, owner_pw, db), "migrate", "--no-input", "-v", "0")
        _manage(_url(server, owner, owner_pw, db), "grant_app_role", app)
        # the owner itself is no role for the app
        refused = _manage(_url(server, owner, owner_pw, db), "grant_app_role", owner, ok=False)
        assert f"'{owner}' owns" in refused

        with psycopg.connect(_url(server, owner, owner_pw, db), autocommit=True) as as_owner:
            super_, = as_owner.execute("SELECT rolsuper FROM pg_roles WHERE rolname = "
                                       "current_user").fetchone()
            assert super_ is False
            with pytest.raises(psycopg.errors.RaiseException, match="TRUNCATE refused"):
                as_owner.execute("TRUNCATE games_event")

        with psycopg.connect(_url(server, app, app_pw, db), autocommit=True) as as_app:
            def may(privilege: str, table: str) -> bool:
                return as_app.execute("SELECT has_table_privilege(%s, %s)",
                                      [table, privilege]).fetchone()[0]

            assert may("SELECT", "games_event") and may("INSERT", "games_event")
            assert not may("UPDATE", "games_event") and not may("DELETE", "games_event")
            assert may("UPDATE", "games_game") and may("DELETE", "games_seat")
            assert not any(may("TRUNCATE", t) for t in ("games_event", "games_game"))
            for statement, why in [
                ("TRUNCATE games_event", "permission denied"),
                ("ALTER TABLE games_event DISABLE TRIGGER ALL", "must be owner"),
                ("UPDATE games_event SET type = 'pass'", "permission denied"),
                ("CREATE TABLE public.mine (id int)", "permission denied"),
            ]:
                with pytest.raises(psycopg.errors.InsufficientPrivilege, match=why):
                    as_app.execute(statement)
    finally:
        admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
            sql.Identifier(db)))
        for role in (app, owner):
            admin.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(role)))
        admin.close()
