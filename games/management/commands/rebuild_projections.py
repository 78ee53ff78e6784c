"""Rebuild what is stored beside the events of games (their seq, the projection:
scores, whose turn, winners; which seats have resigned and which the game
awaits) by replaying their events from zero; all started games unless ids are
given. Each game it changes is named with what changed."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Game
from games.services import projection_rebuild
from web.errors import Invalid


class Command(BaseCommand):
    help = __doc__

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_ids", nargs="*", type=int)

    def handle(self, *args: Any, game_ids: list[int], **options: Any) -> None:
        games = Game.objects.exclude(config=None).order_by("pk")
        if game_ids:
            games = games.filter(pk__in=game_ids)
        changed = failed = total = 0
        for pk in games.values_list("pk", flat=True).iterator():
            total += 1
            try:
                changes = projection_rebuild(pk)
            except Invalid as e:
                failed += 1
                self.stderr.write(e.message)
                continue
            if changes:
                changed += 1
                self.stdout.write(f"game {pk}: {'; '.join(changes)}")
        self.stdout.write(f"{total} game(s) replayed, {changed} repaired")
        if failed:
            raise CommandError(f"{failed} game(s) do not replay: see manage.py verify_game")
