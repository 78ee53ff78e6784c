"""A player's private note on a game: seen by its writer only, never part of the
game record."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models import Game

MAX_LENGTH = 4000


class Note(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="game_notes")
    text = models.TextField(max_length=MAX_LENGTH)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="note_one_per_game")]

    def __str__(self) -> str:
        return f"{self.user}'s note on game {self.game_id}"
