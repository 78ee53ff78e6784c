"""Games and their append-only event log; game state is a replay of the events.

The ``Event`` table is the truth: one row per event of the game record, never
updated or deleted (the database refuses both, see migration 0002). ``Game``
holds what is needed to replay (the config) and what is cheap to list (a
projection of the latest state), both rebuildable from the events.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from engine import marram as engine


class Variant(models.TextChoices):
    CLASSIC = "classic", "Classic"
    PITCHFORK = "pitchfork", "Pitchfork"
    ANIMALS = "animals", "Animals"


class Length(models.TextChoices):
    SHORT = "short", "Short"
    LONG = "long", "Long"


class Game(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "Open: waiting for players"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"
        ABANDONED = "abandoned", "Abandoned before the start"

    variant = models.CharField(max_length=16, choices=Variant.choices)
    length = models.CharField(max_length=8, choices=Length.choices)
    seat_count = models.PositiveSmallIntegerField(help_text="2 to 4 players.")
    days_per_move = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(
        max_length=16, choices=Status.choices, default=Status.OPEN, db_index=True
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="games_created"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    rules_version = models.CharField(
        max_length=16,
        help_text="engine.RULES_VERSION when the game was created; a replay under "
        "another version may come out differently.",
    )
    # Secret until the game is finished: the deck order and every chance draw follow from it.
    seed = models.CharField(max_length=64, blank=True, editable=False)
    commitment = models.CharField(
        max_length=64, blank=True, help_text="SHA-256 of the seed, published at the start."
    )
    # engine.config_to_json(config), deck included: secret while the game runs.
    config = models.JSONField(null=True, blank=True, editable=False)
    seq = models.PositiveIntegerField(default=0, help_text="Number of events so far.")
    projection = models.JSONField(
        default=dict,
        blank=True,
        help_text="Scores, awaiting, winners: a cache for lists, rebuilt from the events.",
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(seat_count__gte=2) & Q(seat_count__lte=4), name="game_seat_count_2_to_4"
            ),
            models.CheckConstraint(
                condition=~Q(variant="animals", length="short"), name="game_animals_is_long"
            ),
        ]

    def __str__(self) -> str:
        return f"Game {self.pk} ({self.variant} {self.length}, {self.status})"

    @property
    def is_started(self) -> bool:
        return self.status in (self.Status.RUNNING, self.Status.FINISHED)


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    # Null only for seats of imported games whose player has no account here.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="seats",
        null=True,
        blank=True,
    )
    name = models.CharField(max_length=150, help_text="The player's name in the game record.")
    index = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Turn order from 0; drawn at the start."
    )
    joined_at = models.DateTimeField(auto_now_add=True)
    resigned = models.BooleanField(default=False)

    class Meta:
        ordering = ["index", "joined_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="seat_one_per_user"),
            models.UniqueConstraint(fields=["game", "index"], name="seat_index_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.name} in game {self.game_id} (seat {self.index})"


class Invitation(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField(blank=True, help_text="Empty for an invitation by link.")
    token = models.CharField(max_length=64, unique=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
    )
    accepted_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"Invitation to game {self.game_id} for {self.email or 'a link'}"


class Event(models.Model):
    """One event of a game record, exactly as the spec defines it, in ``payload``."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="events")
    seq = models.PositiveIntegerField(help_text="The event's index in the game record, from 0.")
    type = models.CharField(max_length=24, choices=[(t, t) for t in engine.EVENT_TYPES])
    payload = models.JSONField(help_text="The whole event as the game record has it.")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        help_text="Who submitted it; empty for events the server made (chance, forced passes).",
    )
    cause_seq = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="For an event the server appended in answer to a player's, that event's seq.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    idempotency_key = models.CharField(max_length=100, null=True, blank=True)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="event_seq_unique"),
            models.UniqueConstraint(
                fields=["game", "idempotency_key"],
                condition=Q(idempotency_key__isnull=False),
                name="event_idempotency_key_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"Game {self.game_id} event {self.seq}: {self.type}"

    def save(self, *args, **kwargs) -> None:
        # The database refuses it too; this just says so before the round trip.
        if not self._state.adding:
            raise ValueError("events are append-only: a stored event cannot be changed")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError("events are append-only: a stored event cannot be deleted")
