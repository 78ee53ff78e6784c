"""The clocks and vacations join the games app: notifications.0004 renamed their
tables to games_clock and games_vacation with every row in them; here the games
app's state takes the models, as they were (nothing changes in the database)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0004_game_key_and_options"),
        ("notifications", "0004_clocks_to_games"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Clock",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("seat", models.PositiveSmallIntegerField()),
                        ("bank", models.DurationField(blank=True, help_text="Time left when the clock last started or stopped.", null=True)),
                        ("started_at", models.DateTimeField(blank=True, help_text="Set while it runs.", null=True)),
                        ("started_seq", models.PositiveIntegerField(blank=True, help_text="The game's seq when it last started.", null=True)),
                        ("timeouts_in_row", models.PositiveSmallIntegerField(default=0)),
                        ("game", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="clocks", to="games.game")),
                        ("user", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name="+", to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        "ordering": ["game", "seat"],
                        "indexes": [models.Index(fields=["started_at"], name="clock_running")],
                        "constraints": [models.UniqueConstraint(fields=("game", "seat"), name="clock_unique")],
                    },
                ),
                migrations.CreateModel(
                    name="Vacation",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("starts_at", models.DateTimeField()),
                        ("ends_at", models.DateTimeField(help_text="Planned end; brought forward if stopped early.")),
                        ("user", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="vacations", to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        "ordering": ["-starts_at"],
                    },
                ),
            ],
        ),
    ]
