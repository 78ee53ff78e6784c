"""A level's computer player may have several accounts (numbered), so that a game
can seat two computers of one level: the level is no longer unique, the level
and the number are. Existing accounts are number 1."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("bots", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="bot",
            name="number",
            field=models.PositiveSmallIntegerField(
                default=1, help_text="Which of its level's accounts: 1 for the first."),
        ),
        migrations.AlterField(
            model_name="bot",
            name="level",
            field=models.CharField(choices=[("easy", "Easy: any legal move"),
                                            ("medium", "Medium: the best move right now"),
                                            ("strong", "Strong: searches ahead")],
                                   max_length=8),
        ),
        migrations.AddConstraint(
            model_name="bot",
            constraint=models.UniqueConstraint(fields=("level", "number"),
                                               name="bot_one_account_a_number"),
        ),
    ]
