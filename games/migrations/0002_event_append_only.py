"""The event log is append-only, and the database itself says so.

Triggers refuse every UPDATE and DELETE of a row of ``games_event``, whatever
issues them (the ORM, the admin, a psql session). Changing the shape of past
events needs an upcaster in code, never an edit of stored rows. TRUNCATE is
left alone: test runs empty their database with it.
"""

from django.db import migrations

POSTGRESQL_FORWARD = [
    """
    CREATE OR REPLACE FUNCTION games_event_refuse_change() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION 'games_event is append-only: % of event % of game % refused',
            TG_OP, OLD.seq, OLD.game_id
            USING ERRCODE = 'P0001',
                  HINT = 'events are past facts; append a new event instead';
    END;
    $$;
    """,
    """
    CREATE TRIGGER games_event_no_update BEFORE UPDATE ON games_event
        FOR EACH ROW EXECUTE FUNCTION games_event_refuse_change();
    """,
    """
    CREATE TRIGGER games_event_no_delete BEFORE DELETE ON games_event
        FOR EACH ROW EXECUTE FUNCTION games_event_refuse_change();
    """,
]
POSTGRESQL_BACKWARD = [
    "DROP TRIGGER IF EXISTS games_event_no_update ON games_event;",
    "DROP TRIGGER IF EXISTS games_event_no_delete ON games_event;",
    "DROP FUNCTION IF EXISTS games_event_refuse_change();",
]

SQLITE_FORWARD = [
    """
    CREATE TRIGGER games_event_no_update BEFORE UPDATE ON games_event
    BEGIN
        SELECT RAISE(ABORT, 'games_event is append-only: UPDATE refused');
    END;
    """,
    """
    CREATE TRIGGER games_event_no_delete BEFORE DELETE ON games_event
    BEGIN
        SELECT RAISE(ABORT, 'games_event is append-only: DELETE refused');
    END;
    """,
]
SQLITE_BACKWARD = [
    "DROP TRIGGER IF EXISTS games_event_no_update;",
    "DROP TRIGGER IF EXISTS games_event_no_delete;",
]

STATEMENTS = {
    "postgresql": (POSTGRESQL_FORWARD, POSTGRESQL_BACKWARD),
    "sqlite": (SQLITE_FORWARD, SQLITE_BACKWARD),
}


def run(direction: int):
    def operation(apps, schema_editor):
        vendor = schema_editor.connection.vendor
        if vendor not in STATEMENTS:
            raise NotImplementedError(
                f"no append-only triggers for the {vendor} database: marram runs on "
                "PostgreSQL (and SQLite for development)"
            )
        for sql in STATEMENTS[vendor][direction]:
            schema_editor.execute(sql, params=None)  # no %-interpolation of the body

    return operation


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]

    operations = [migrations.RunPython(run(0), run(1), elidable=False)]
