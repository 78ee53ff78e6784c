"""Check tournaments against their logs and their games' records (tournaments.verify)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.models import Tournament
from tournaments.verify import tournament_verify


class Command(BaseCommand):
    help = "Pair every round again from each tournament's log and compare; exit 1 on a miss."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("ids", nargs="*", type=int, help="Tournaments (all without).")

    def handle(self, *args: Any, **options: Any) -> None:
        found = Tournament.objects.order_by("pk")
        if options["ids"]:
            found = found.filter(pk__in=options["ids"])
        failed = 0
        for tournament in found:
            problems = tournament_verify(tournament)
            failed += bool(problems)
            self.stdout.write(f"tournament {tournament.pk}: "
                              + ("ok" if not problems else "; ".join(problems)))
        if failed:
            raise CommandError(f"{failed} tournament(s) do not check out")
