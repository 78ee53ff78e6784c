"""Rebuild the stored snapshots of games' states (games.snapshots) by replaying
their events from zero: one at every MARRAM_SNAPSHOT_EVERY events, the old ones
replaced. All started games, or the one given with --game."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from engine.errors import IllegalAction
from games.models import Game
from games.snapshots import game_snapshots_rebuild, snapshot_every


class Command(BaseCommand):
    help = __doc__

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", type=int, dest="game_id", help="only this game's")

    def handle(self, *args: Any, game_id: int | None = None, **options: Any) -> None:
        games = Game.objects.exclude(config=None).order_by("pk")
        if game_id is not None:
            games = games.filter(pk=game_id)
            if not games.exists():
                raise CommandError(f"no started game {game_id}")
        written = failed = total = 0
        for game in games.iterator():
            total += 1
            try:
                written += game_snapshots_rebuild(game)
            except IllegalAction as e:
                failed += 1
                self.stderr.write(f"game {game.pk} does not replay: {e.code}: {e.message}")
        self.stdout.write(f"{total} game(s) replayed, {written} snapshot(s) written "
                          f"(one every {snapshot_every()} events)")
        if failed:
            raise CommandError(f"{failed} game(s) do not replay: see manage.py verify_game")
