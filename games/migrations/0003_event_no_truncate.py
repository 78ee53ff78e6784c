"""TRUNCATE cannot empty the event log either.

Migration 0002's row triggers never see a TRUNCATE (nor ``manage.py flush``,
which issues one), so a statement trigger refuses it, on ``games_event`` itself
and when a ``TRUNCATE ... CASCADE`` of another table would reach it. The table's
owner can still disable or drop the trigger: that is why the app connects as a
role that owns no table (``manage.py grant_app_role``; README, "The event store").

SQLite has no TRUNCATE, and its ``DELETE FROM`` without a WHERE fires 0002's
row trigger, so there is nothing to add there.
"""

from django.db import migrations

FORWARD = [
    """
    CREATE OR REPLACE FUNCTION games_event_refuse_truncate() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION 'games_event is append-only: TRUNCATE refused'
            USING ERRCODE = 'P0001',
                  HINT = 'events are past facts; nothing may empty the event log';
    END;
    $$;
    """,
    """
    CREATE TRIGGER games_event_no_truncate BEFORE TRUNCATE ON games_event
        FOR EACH STATEMENT EXECUTE FUNCTION games_event_refuse_truncate();
    """,
]
BACKWARD = [
    "DROP TRIGGER IF EXISTS games_event_no_truncate ON games_event;",
    "DROP FUNCTION IF EXISTS games_event_refuse_truncate();",
]


def run(statements):
    def operation(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        for sql in statements:
            schema_editor.execute(sql, params=None)  # no %-interpolation of the body

    return operation


class Migration(migrations.Migration):
    dependencies = [("games", "0002_event_append_only")]

    operations = [migrations.RunPython(run(FORWARD), run(BACKWARD), elidable=False)]
