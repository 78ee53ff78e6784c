"""The review of a finished game by the strongest computer player: one a game,
made once (by a Celery task) and read by everyone who may replay the game."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models import Game


class Review(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", "Pending: the computer is going through the moves"
        READY = "ready", "Ready"
        FAILED = "failed", "Failed"

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="review")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+", help_text="The player who asked for it first.")
    requested_at = models.DateTimeField(auto_now_add=True)
    waiting = models.JSONField(
        default=list, blank=True,
        help_text="The ids of the players who asked while it was made: each is mailed "
        "when it is ready.")
    enqueued_at = models.DateTimeField(
        null=True, blank=True, help_text="When its task was last handed to the broker.")
    finished_at = models.DateTimeField(null=True, blank=True)
    measure = models.CharField(
        max_length=8, blank=True, help_text="What its costs are told in: points or win.")
    playouts = models.PositiveIntegerField(
        null=True, blank=True, help_text="The search's playouts a move (the budget it ran at).")
    samples = models.PositiveIntegerField(
        null=True, blank=True, help_text="Paired samples judging a move against the choice.")
    cpu_seconds = models.FloatField(null=True, blank=True,
                                    help_text="CPU time the whole review took.")
    moves = models.JSONField(default=list, blank=True,
                             help_text="Each reviewed move (reviews.services.MoveEntry).")
    problem = models.TextField(blank=True, help_text="Why a failed review failed.")

    def __str__(self) -> str:
        return f"review of game {self.game_id} ({self.status})"
