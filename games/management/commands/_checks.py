"""What the commands that check one game share (Django skips modules named _*)."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Game


class GameCheckCommand(BaseCommand):
    """Check one game, list what is wrong, and exit non-zero when anything is."""

    failed = "problem(s)"

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_id", type=int)

    def problems(self, game: Game) -> list[str]:
        raise NotImplementedError

    def passed(self, game: Game) -> str:
        raise NotImplementedError

    def handle(self, *args: Any, game_id: int, **options: Any) -> None:
        game = Game.objects.filter(pk=game_id).first()
        if game is None:
            raise CommandError(f"there is no game {game_id}")
        problems = self.problems(game)
        for problem in problems:
            self.stdout.write(f"game {game_id}: {problem}")
        if problems:
            raise CommandError(f"game {game_id}: {self.failed}: {len(problems)} problem(s)")
        self.stdout.write(f"game {game_id}: {self.passed(game)}")
