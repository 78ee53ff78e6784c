"""Check that a finished game's hidden orders and chance events follow from its seed and
that the seed matches the commitment published at the start."""

from django.core.management.base import CommandError

from engine import fairness
from games.management.commands._checks import GameCheckCommand
from games.models import Game
from games.selectors import game_record_get, rules_of
from web.errors import Conflict


class Command(GameCheckCommand):
    help = __doc__
    failed = "NOT fair"

    def problems(self, game: Game) -> list[str]:
        try:
            record = game_record_get(game)
        except Conflict:
            raise CommandError(f"game {game.pk} is {game.status}: its seed stays secret "
                               "until it is finished") from None
        return fairness.verify(rules_of(game), record, game.seed, game.commitment)

    def passed(self, game: Game) -> str:
        return "fair: the setup and every chance event follow from the committed seed"
