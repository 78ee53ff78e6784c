"""Tournaments and their append-only event log.

The ``TournamentEvent`` rows are the truth (tournaments.log describes them; the
database refuses to update or delete one, see migration 0001). ``Tournament``
holds the options a list shows and a projection of the log (its status, the
standings, the current round) that tournaments.verify rebuilds; ``TournamentGame``
finds a game's table when the game ends.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Tournament(models.Model):
    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", "Round robin"
        SWISS = "swiss", "Swiss"
        KNOCKOUT = "knockout", "Knockout"

    class Status(models.TextChoices):
        OPEN = "open", "Open: taking entrants"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"
        CANCELLED = "cancelled", "Cancelled: too few entrants at the start"

    name = models.CharField(max_length=80)
    game = models.CharField(max_length=32, help_text="The game's key (engine.registry).")
    options = models.JSONField(default=dict, blank=True)
    format = models.CharField(max_length=16, choices=Format.choices)
    table_size = models.PositiveSmallIntegerField(help_text="Players at each game.")
    rounds = models.PositiveSmallIntegerField(null=True, blank=True,
                                              help_text="A Swiss's number of rounds.")
    best_of = models.PositiveSmallIntegerField(default=1, help_text="Games a knockout match.")
    days_per_move = models.PositiveSmallIntegerField(null=True, blank=True)
    round_days = models.PositiveSmallIntegerField(
        null=True, blank=True,
        help_text="A Swiss's rounds on a calendar: the next round is paired this many days "
                  "after the last, whether or not its games are over.")
    rated = models.BooleanField(default=True)
    by_invitation = models.BooleanField(default=False)
    max_players = models.PositiveSmallIntegerField()
    start_at = models.DateTimeField(null=True, blank=True,
                                    help_text="Empty: it starts when max_players have joined.")
    bots = models.CharField(max_length=8, blank=True,
                            help_text="A computer level that fills the places left at the "
                                      "start; empty for none.")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                   related_name="tournaments_created")
    created_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN,
                              db_index=True)
    # Secret until the end: the order of equal ratings in the seeding follows from it.
    seed = models.CharField(max_length=64, editable=False)
    commitment = models.CharField(max_length=64, help_text="SHA-256 of the seed.")
    seq = models.PositiveIntegerField(default=0, help_text="Number of events so far.")
    projection = models.JSONField(default=dict, blank=True,
                                  help_text="Entrants, rounds and standings: a cache of the "
                                            "log's fold, rebuilt by verify.")

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(table_size__gte=2) & Q(table_size__lte=4),
                                   name="tournament_table_size"),
        ]

    def __str__(self) -> str:
        return f"Tournament {self.pk}: {self.name} ({self.status})"


class TournamentEvent(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="events")
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=24)
    payload = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "seq"]
        constraints = [models.UniqueConstraint(fields=["tournament", "seq"],
                                               name="tournament_event_seq")]

    def __str__(self) -> str:
        return f"Tournament {self.tournament_id} #{self.seq}: {self.type}"


class TournamentGame(models.Model):
    """Which tournament table a game is (a game is at most one table's)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="games")
    game = models.OneToOneField("games.Game", on_delete=models.PROTECT,
                                related_name="tournament_table")
    round = models.PositiveSmallIntegerField()
    table = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["tournament", "round", "table", "game"]
