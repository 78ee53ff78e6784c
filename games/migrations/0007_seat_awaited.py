from django.db import migrations, models


class Migration(migrations.Migration):
    """The column and its index; 0008 fills it in a transaction of its own, so that
    this one's lock on the seats table is held only as long as the ALTER."""

    dependencies = [
        ('games', '0006_game_snapshot'),
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
    ]
