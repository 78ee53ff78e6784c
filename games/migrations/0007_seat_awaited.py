from django.conf import settings
from django.db import migrations, models


def awaited_from_projections(apps, schema_editor):
    """Each running game's awaited seats, from its projection's to_act."""
    Game, Seat = apps.get_model("games", "Game"), apps.get_model("games", "Seat")
    for game_id, projection in Game.objects.filter(status="running").values_list(
            "id", "projection").iterator():
        to_act = (projection or {}).get("to_act") or []
        if to_act:
            Seat.objects.filter(game_id=game_id, index__in=to_act).update(awaited=True)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0006_game_snapshot'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='seat',
            name='awaited',
            field=models.BooleanField(default=False, editable=False, help_text="The game runs and awaits this seat: its projection's to_act, kept here so that a player's turns are counted from an index."),
        ),
        migrations.AddIndex(
            model_name='seat',
            index=models.Index(condition=models.Q(('awaited', True)), fields=['user'], name='seat_awaited_user'),
        ),
        migrations.RunPython(awaited_from_projections, migrations.RunPython.noop, elidable=True),
    ]
