"""Games name their game by its registry key and keep its options as JSON.

Every game stored so far is Marram: its ``variant`` and ``length`` become its
options and its key ``"marram"``. The projection (a cache for lists) is
rewritten in the shape the platform keeps for every game: the protocol's
Projection, and what the game awaits (``games.selectors.projection_of``); the
conversion is mechanical, from the old projection alone, and ``verify_game``
finds every converted projection equal to a fresh replay's (tested in
tests/service/test_migration_platform.py). Events are not touched.
"""

from django.db import migrations, models
from django.db.models import Q

MOVES_PER_TURN = 2


def _awaiting(old: dict) -> tuple[dict, list[int]]:
    kind = old.get("kind")
    if kind == "finished":
        return {"kind": "finished"}, []
    if kind == "chance":
        verb = "appears" if old.get("event") == "appear" else "hops"
        return {"kind": "chance", "what": f"where the {old.get('creature')} {verb}"}, []
    if kind == "guess":
        return {"kind": "guess", "player": old["player"], "creature": old["creature"]}, \
            [old["player"]]
    return {"kind": "move", "player": old["player"], "move": old["move"]}, [old["player"]]


def projection_from_old(old: dict, seats: int) -> dict:
    if not old:
        return {}
    awaiting, to_act = _awaiting(old.get("awaiting") or {})
    resigned = list(old.get("resigned", []))
    finished = bool(old.get("finished"))
    left_alone = finished and seats - len(resigned) == 1 and bool(resigned)
    return {"finished": finished, "scores": list(old.get("scores", [])),
            "winners": list(old.get("winners", [])), "to_act": to_act, "resigned": resigned,
            "better": "higher", "cooperative": False, "result": None,
            "end": "resign" if left_alone else None, "awaiting": awaiting,
            "waiting_for": "".join(f"|{s}|" for s in to_act)}


def forward(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    for game in Game.objects.all().iterator():
        game.game = "marram"
        game.options = {"variant": game.variant, "length": game.length}
        game.projection = projection_from_old(game.projection, game.seat_count)
        game.save(update_fields=["game", "options", "projection"])


class Migration(migrations.Migration):
    dependencies = [("games", "0003_event_no_truncate")]

    operations = [
        migrations.AddField(model_name="game", name="game", field=models.CharField(
            default="", max_length=32,
            help_text="The game's key in the engine's registry (engine.registry)."),
            preserve_default=False),
        migrations.AddField(model_name="game", name="options", field=models.JSONField(
            blank=True, default=dict,
            help_text="The game's options, each declared one present.")),
        migrations.RemoveConstraint(model_name="game", name="game_seat_count_2_to_4"),
        migrations.RemoveConstraint(model_name="game", name="game_animals_is_long"),
        migrations.RunPython(forward, migrations.RunPython.noop),
        migrations.RemoveField(model_name="game", name="variant"),
        migrations.RemoveField(model_name="game", name="length"),
        migrations.AddConstraint(model_name="game", constraint=models.CheckConstraint(
            condition=Q(seat_count__gte=1), name="game_seat_count_positive")),
        migrations.AlterField(model_name="game", name="seat_count", field=models.PositiveSmallIntegerField(
            help_text="One of the game's seat counts.")),
        migrations.AlterField(model_name="game", name="rules_version", field=models.CharField(
            max_length=16, help_text="The game's rules_version when the game was created; a "
            "replay under another version may come out differently.")),
        migrations.AlterField(model_name="game", name="projection", field=models.JSONField(
            blank=True, default=dict,
            help_text="Scores, who is awaited, winners: a cache for lists, rebuilt from the events.")),
        migrations.AlterField(model_name="event", name="type", field=models.CharField(
            max_length=24, help_text="The event's type, one of its game's.")),
    ]
