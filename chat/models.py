"""A game's chat: plain-text messages between its players, kept with the game but
not part of its record (no event, no effect on a replay)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models import Game

MAX_LENGTH = 500


class Message(models.Model):
    class Via(models.TextChoices):
        PAGE = "page", "The game page or the API"
        MAIL = "mail", "A reply by mail (say ...)"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat_messages")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+")
    text = models.TextField(max_length=MAX_LENGTH)
    via = models.CharField(max_length=4, choices=Via.choices, default=Via.PAGE)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["game", "created_at"], name="chat_game_time")]

    def __str__(self) -> str:
        return f"{self.user} in game {self.game_id}: {self.text[:40]}"


class Mute(models.Model):
    """A player who wants no mail about a game's chat (the page still shows it)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="chat_mute_once")]
