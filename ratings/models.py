"""Ratings (one pool per game key), the record of which finished games were rated
and how, and rematch offers.

Everything here but the rematches is a projection of the finished games: the
``rebuild_ratings`` command deletes it and computes it again, in the order the
games were first rated (``RatedGame.id``), which gives the same numbers.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models import Game

# openskill's Plackett-Luce defaults: a new player is mu 25, sigma 25/3.
MU = 25.0
SIGMA = 25.0 / 3.0


class Pool(models.Model):
    """One rating pool: a game key (Marram's variants share one). Its row is locked
    while the pool's games are rated, so that they are rated one at a time, in order."""

    key = models.CharField(max_length=32, primary_key=True)

    def __str__(self) -> str:
        return self.key


class Rating(models.Model):
    """A player's rating in one pool: openskill's mu and sigma; shown as the ordinal
    mu - 3 sigma (a cautious estimate that grows as the rating becomes sure)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="ratings")
    pool = models.CharField(max_length=32, db_index=True)
    mu = models.FloatField(default=MU)
    sigma = models.FloatField(default=SIGMA)
    games = models.PositiveIntegerField(default=0, help_text="Rated games played in the pool.")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["pool", "-mu", "id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "pool"], name="rating_one_per_pool"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.pool}: {self.ordinal:.1f}"

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


class RatedGame(models.Model):
    """A finished game the ratings have taken in, rated or not (and why not). The id
    is the order in which the pool's games were rated, which a rebuild follows."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="rated")
    pool = models.CharField(max_length=32)
    rated = models.BooleanField()
    unrated_because = models.CharField(max_length=120, blank=True)
    at = models.DateTimeField(help_text="When the game finished.")

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"Game {self.game_id}: {'rated' if self.rated else self.unrated_because}"


class RatingChange(models.Model):
    """One player's rating before and after one rated game: the history a chart draws."""

    rated_game = models.ForeignKey(RatedGame, on_delete=models.CASCADE, related_name="changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="rating_changes")
    pool = models.CharField(max_length=32)
    seat = models.PositiveSmallIntegerField()
    rank = models.PositiveSmallIntegerField(help_text="The seat's place in the standings.")
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    at = models.DateTimeField()

    class Meta:
        ordering = ["at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["rated_game", "user"], name="rating_change_once"),
        ]
        indexes = [models.Index(fields=["user", "pool", "at"], name="rating_change_history")]

    @property
    def before(self) -> float:
        return self.mu_before - 3 * self.sigma_before

    @property
    def after(self) -> float:
        return self.mu_after - 3 * self.sigma_after

    @property
    def delta(self) -> float:
        return self.after - self.before


class RatedChoice(models.Model):
    """The word, given before a game starts, on whether it is rated: a game
    started as unrated is not rated; one with a computer player is rated only
    when started as rated (ratings.services.unrated_because)."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="rated_choice")
    rated = models.BooleanField(default=False)


class Rematch(models.Model):
    """An offer, made at the end of a game, of a new game with the same players and
    options; it starts once every player has accepted, and ends at the first no."""

    class Status(models.TextChoices):
        OPEN = "open", "Waiting for answers"
        STARTED = "started", "Accepted by everyone: the new game has started"
        DECLINED = "declined", "Declined"

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="rematch")
    offered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                   related_name="+")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    new_game = models.ForeignKey(Game, on_delete=models.SET_NULL, null=True, blank=True,
                                 related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Rematch of game {self.game_id} ({self.status})"


class RematchAnswer(models.Model):
    rematch = models.ForeignKey(Rematch, on_delete=models.CASCADE, related_name="answers")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+")
    accepted = models.BooleanField(null=True, help_text="Empty until the player answers.")
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["rematch", "user"], name="rematch_answer_once"),
        ]
