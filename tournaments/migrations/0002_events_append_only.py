"""A tournament's event log is append-only, and the database itself says so, as
the games' is (games migration 0002): triggers refuse every UPDATE and DELETE of
a row of ``tournaments_tournamentevent``."""

from django.db import migrations

TABLE = "tournaments_tournamentevent"
POSTGRESQL_FORWARD = [
    f"""
    CREATE OR REPLACE FUNCTION tournaments_event_refuse_change() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION '{TABLE} is append-only: % of event % of tournament % refused',
            TG_OP, OLD.seq, OLD.tournament_id
            USING ERRCODE = 'P0001',
                  HINT = 'events are past facts; append a new event instead';
    END;
    $$;
    """,
    f"""CREATE TRIGGER tournaments_event_no_update BEFORE UPDATE ON {TABLE}
        FOR EACH ROW EXECUTE FUNCTION tournaments_event_refuse_change();""",
    f"""CREATE TRIGGER tournaments_event_no_delete BEFORE DELETE ON {TABLE}
        FOR EACH ROW EXECUTE FUNCTION tournaments_event_refuse_change();""",
]
POSTGRESQL_BACKWARD = [
    f"DROP TRIGGER IF EXISTS tournaments_event_no_update ON {TABLE};",
    f"DROP TRIGGER IF EXISTS tournaments_event_no_delete ON {TABLE};",
    "DROP FUNCTION IF EXISTS tournaments_event_refuse_change();",
]
SQLITE_FORWARD = [
    f"""CREATE TRIGGER tournaments_event_no_update BEFORE UPDATE ON {TABLE}
    BEGIN SELECT RAISE(ABORT, '{TABLE} is append-only: UPDATE refused'); END;""",
    f"""CREATE TRIGGER tournaments_event_no_delete BEFORE DELETE ON {TABLE}
    BEGIN SELECT RAISE(ABORT, '{TABLE} is append-only: DELETE refused'); END;""",
]
SQLITE_BACKWARD = [
    "DROP TRIGGER IF EXISTS tournaments_event_no_update;",
    "DROP TRIGGER IF EXISTS tournaments_event_no_delete;",
]
STATEMENTS = {
    "postgresql": (POSTGRESQL_FORWARD, POSTGRESQL_BACKWARD),
    "sqlite": (SQLITE_FORWARD, SQLITE_BACKWARD),
}


def run(direction: int):
    def operation(apps, schema_editor):
        for sql in STATEMENTS[schema_editor.connection.vendor][direction]:
            schema_editor.execute(sql, params=None)

    return operation


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0001_initial")]

    operations = [migrations.RunPython(run(0), run(1), elidable=False)]
