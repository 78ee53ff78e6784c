"""Rebuild every rating, and its history, from the finished games: each pool's games
in the order they were first rated (then any not rated yet, as they finished).
Run rebuild_projections first if the games' projections may be stale."""

from typing import Any

from django.core.management.base import BaseCommand

from ratings.services import ratings_rebuild


class Command(BaseCommand):
    help = __doc__

    def handle(self, *args: Any, **options: Any) -> None:
        done = ratings_rebuild()
        self.stdout.write(f"{done['games']} finished game(s) taken in, {done['rated']} rated; "
                          f"{done['ratings']} rating(s) written")
