"""Check that a finished game's deck and chance events follow from its seed and
that the seed matches the commitment published at the start."""

from django.core.management.base import BaseCommand, CommandError

import engine
from engine import fairness
from games.errors import Conflict
from games.models import Game
from games.selectors import game_record_get


class Command(BaseCommand):
    help = __doc__

    def add_arguments(self, parser):
        parser.add_argument("game_id", type=int)

    def handle(self, *args, game_id: int, **options):
        game = Game.objects.filter(pk=game_id).first()
        if game is None:
            raise CommandError(f"there is no game {game_id}")
        try:
            record = game_record_get(game)
        except Conflict:
            raise CommandError(f"game {game_id} is {game.status}: its seed stays secret "
                               "until it is finished") from None
        problems = fairness.verify(record, game.seed, game.commitment,
                                   engine.standard().deck_ids())
        for problem in problems:
            self.stdout.write(f"game {game_id}: {problem}")
        if problems:
            raise CommandError(f"game {game_id} is NOT fair: {len(problems)} problem(s)")
        self.stdout.write(f"game {game_id}: fair: the deck and every chance event follow "
                          "from the committed seed")
