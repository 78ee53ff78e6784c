"""The clocks and vacations become the games app's (time control is a rule of
play, not of mail): their tables are renamed to games_clock and games_vacation,
every row kept as it is, and the models leave this app's state;
games.0005_clocks_from_notifications takes them into the games app's."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0004_game_key_and_options"),
        ("notifications", "0003_inbound_answered"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.AlterModelTable(name="clock", table="games_clock"),
                migrations.AlterModelTable(name="vacation", table="games_vacation"),
            ],
            state_operations=[
                migrations.DeleteModel(name="Clock"),
                migrations.DeleteModel(name="Vacation"),
            ],
        ),
    ]
