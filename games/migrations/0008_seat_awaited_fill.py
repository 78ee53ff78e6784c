from django.db import migrations

CHUNK = 1000


def awaited_from_projections(apps, schema_editor):
    """Mark the seats each running game awaits (its projection's to_act): the
    running games' seats read once, the awaited ones written a thousand at a time."""
    Seat = apps.get_model("games", "Seat")
    rows = (Seat.objects.filter(game__status="running").exclude(index=None)
            .values_list("pk", "index", "game__projection").iterator(chunk_size=CHUNK))
    awaited = [pk for pk, index, projection in rows
               if index in ((projection or {}).get("to_act") or [])]
    for start in range(0, len(awaited), CHUNK):
        Seat.objects.filter(pk__in=awaited[start:start + CHUNK]).update(awaited=True)


class Migration(migrations.Migration):
    """Workers still running the code before 0007 write no flags: a game they move
    meanwhile is put right by its next move, one they finish by
    ``manage.py rebuild_projections`` (docs/operations.md)."""

    dependencies = [
        ('games', '0007_seat_awaited'),
    ]

    operations = [
        migrations.RunPython(awaited_from_projections, migrations.RunPython.noop, elidable=True),
    ]
