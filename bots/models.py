"""Computer players on the service: the bot accounts (numbered within a level,
shared by every game), a game's takeover option, and the seats bots have taken
over.

A bot is an ordinary account with a ``Bot`` row beside it: it sits in seats,
and its moves are events with it as their actor, like anyone's. "Is this account
a computer player" is ``hasattr(user, "bot")``."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from engine.bots import LEVELS


class Level(models.TextChoices):
    EASY = "easy", "Easy: any legal move"
    MEDIUM = "medium", "Medium: the best move right now"
    STRONG = "strong", "Strong: searches ahead"


assert tuple(Level.values) == LEVELS  # the engine's levels, in its order


class Bot(models.Model):
    """An account of a computer player of one level. A seat is an account's (one
    seat an account in a game), so a game with two computers of one level seats
    two of its accounts: ``number`` 1, 2, ..., each made the first time a game
    needs that many."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                related_name="bot")
    level = models.CharField(max_length=8, choices=Level.choices)
    number = models.PositiveSmallIntegerField(
        default=1, help_text="Which of its level's accounts: 1 for the first.")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["level", "number"],
                                               name="bot_one_account_a_number")]

    def __str__(self) -> str:
        return f"{self.user} ({self.label})"

    @property
    def label(self) -> str:
        """How lists mark its seats: "computer, strong"."""
        return f"computer, {self.level}"


class GameBots(models.Model):
    """A game's computer-player options: the level that takes over the seat of a
    player who runs out of time twice (3- and 4-player games), instead of
    resigning it."""

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE,
                                related_name="bot_options")
    takeover = models.CharField(max_length=8, choices=Level.choices, blank=True,
                                help_text="Empty: a seat out of time twice is resigned.")

    class Meta:
        verbose_name = "game's computer-player options"
        verbose_name_plural = "games' computer-player options"

    def __str__(self) -> str:
        return f"game {self.game_id}: takeover {self.takeover or 'none'}"


class Takeover(models.Model):
    """A seat a bot took over from a player out of time: from event ``seq`` on its
    moves are the bot's (the events' actor says so too)."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="takeovers")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                               related_name="+", null=True, blank=True)
    bot = models.ForeignKey(Bot, on_delete=models.PROTECT, related_name="takeovers")
    seq = models.PositiveIntegerField(help_text="The game's seq when the bot took the seat.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seq", "seat"]
        constraints = [models.UniqueConstraint(fields=["game", "seat"],
                                               name="takeover_one_per_seat")]

    def __str__(self) -> str:
        return f"game {self.game_id} seat {self.seat}: {self.bot.level} bot from seq {self.seq}"
