"""Games and their append-only event log; game state is a replay of the events.

The ``Event`` table is the truth: one row per event of the game record, never
updated or deleted (the database refuses both, see migration 0002). ``Game``
holds what is needed to replay (the config) and what is cheap to list (a
projection of the latest state), both rebuildable from the events.

Time control is kept here too: each seat's ``Clock`` and the players'
``Vacation`` stretches that stop their clocks (games.clocks).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any, NoReturn

from django.conf import settings
from django.db import models, transaction
from django.db.models import Q

from engine import registry
from engine.protocol import AnyGame, JSONObject


class Game(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "Open: waiting for players"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"
        ABANDONED = "abandoned", "Abandoned before the start"

    game = models.CharField(
        max_length=32, help_text="The game's key in the engine's registry (engine.registry)."
    )
    options = models.JSONField(
        default=dict, blank=True, help_text="The game's options, each declared one present."
    )
    seat_count = models.PositiveSmallIntegerField(help_text="One of the game's seat counts.")
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
        help_text="The game's rules_version when the game was created; a replay under "
        "another version may come out differently.",
    )
    # Secret until the game is finished: the setup and every chance draw follow from it.
    seed = models.CharField(max_length=64, blank=True, editable=False)
    commitment = models.CharField(
        max_length=64, blank=True, help_text="SHA-256 of the seed, published at the start."
    )
    # The record's config (the game's setup), hidden orders included: secret while it runs.
    config = models.JSONField(null=True, blank=True, editable=False)
    seq = models.PositiveIntegerField(default=0, help_text="Number of events so far.")
    # db_default too: a process still running the code of before this column
    # inserts games without it.
    panels_seq = models.PositiveIntegerField(
        default=0, db_default=0,
        help_text="Changes so far to what the game page shows beside the game's record "
        "(its chat, the rematch, the rating changes): open pages read those again when it "
        "passes theirs (games.panels).")
    projection = models.JSONField(
        default=dict,
        blank=True,
        help_text="Scores, who is awaited, winners: a cache for lists, rebuilt from the events.",
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(seat_count__gte=1), name="game_seat_count_positive"),
        ]

    _seats_read: list[Seat] | None = None

    def seats_read(self, seats: list[Seat]) -> None:
        """The game's seats, read with it (games.store): what ``seat_list``
        gives without asking the database again."""
        self._seats_read = seats

    _events_read: tuple[int, list[Any]] | None = None

    def events_read(self, start: int, payloads: list[Any]) -> None:
        """The payloads of the game's events from seq ``start`` up to its seq, read
        with it (games.store): what a read of its state folds without asking the
        database again (games.selectors)."""
        self._events_read = (start, payloads)

    def events_held(self, start: int, stop: int) -> list[Any] | None:
        """The payloads of the events from seq ``start`` up to ``stop`` if they
        were read with the game (``events_read``), else None."""
        if self._events_read is None:
            return None
        first, payloads = self._events_read
        if not first <= start <= stop <= first + len(payloads):
            return None
        return payloads[start - first:stop - first]

    def seat_list(self) -> list[Seat]:
        """The game's seats in seat order (before the start, in the order they
        were taken): those read with the game when the store read them so, else
        ``seats.all()`` (a prefetch of "seats", or a query)."""
        if self._seats_read is not None:
            return self._seats_read
        return list(self.seats.all())

    def __str__(self) -> str:
        return f"Game {self.pk} ({self.title}, {self.status})"

    @property
    def rules(self) -> AnyGame:
        """The game's rules (engine.registry); UnknownGame for a key no longer served."""
        return registry.get(self.game)

    @property
    def title(self) -> str:
        """The game's title and its options' choices, in words ("Title · Choice · Choice")."""
        try:
            rules = self.rules
        except registry.UnknownGame:
            return self.game
        labels = [c.label for o in rules.options_declared for c in o.choices
                  if self.options.get(o.name) == c.value
                  and type(self.options.get(o.name)) is type(c.value)]
        return " · ".join([rules.title, *labels])

    @property
    def is_started(self) -> bool:
        return self.status in (self.Status.RUNNING, self.Status.FINISHED)

    def started_config(self) -> JSONObject:
        """The record's config (a JSON object), which the game has from its start;
        ValueError before."""
        config = self.config
        if not isinstance(config, dict):
            raise ValueError(f"game {self.pk} has not started: it has no config yet")
        return config

    def config_players(self) -> list[str]:
        """The players' names in the record's config, by seat ([] before the start)."""
        players = (self.config or {}).get("players")
        return [str(n) for n in players] if isinstance(players, list) else []

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Insert a new game; write a stored one only field by field, in a
        transaction (where the writer holds the row locked: games.services).

        A stored game's row is written by a move's guarded batch
        (games.store.Batch) or by a server change that holds it locked; a save
        of every column would write back what was read before, over a move or a
        start committed meanwhile (its seq, its seed)."""
        if not self._state.adding:
            if kwargs.get("update_fields") is None:
                raise UnguardedGameWrite(
                    "a stored game is written field by field: save(update_fields=[...])")
            if not transaction.get_connection(kwargs.get("using")).in_atomic_block:
                raise UnguardedGameWrite(
                    "a stored game is written in a transaction that holds its row locked")
        super().save(*args, **kwargs)


class UnguardedGameWrite(ValueError):
    """A stored game's row written whole, or outside the transaction that holds it
    locked (Game.save)."""


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
    awaited = models.BooleanField(
        default=False, editable=False,
        help_text="The game runs and awaits this seat: its projection's to_act, kept here "
                  "so that a player's turns are counted from an index.")

    class Meta:
        ordering = ["index", "joined_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="seat_one_per_user"),
            models.UniqueConstraint(fields=["game", "index"], name="seat_index_unique"),
        ]
        indexes = [
            models.Index(fields=["user"], condition=Q(awaited=True), name="seat_awaited_user"),
        ]

    def __str__(self) -> str:
        return f"{self.name} in game {self.game_id} (seat {self.index})"


class InvitationQuerySet(models.QuerySet["Invitation"]):
    # What secrets.token_urlsafe makes (games.services.game_invite), up to the column's
    # length: anything else finds nothing without asking PostgreSQL, which refuses a
    # NUL character in a query.
    TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")

    def with_token(self, token: Any) -> InvitationQuerySet:
        if not isinstance(token, str) or not self.TOKEN.fullmatch(token):
            return self.none()
        return self.filter(token=token)


class Invitation(models.Model):
    """An invitation to an open game, one seat each: personal (to an address, or to a
    player by username), which only its addressee may take, or a link to pass on
    (neither), which gives its seat to whoever takes it first."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField(blank=True, help_text="Empty for an invitation by link.")
    invitee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", null=True,
        blank=True, help_text="The player invited by username: only they may take the seat.")
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

    objects = InvitationQuerySet.as_manager()

    def __str__(self) -> str:
        return f"Invitation to game {self.game_id} for {self.addressee or 'a link'}"

    @property
    def personal(self) -> bool:
        """For one person (by address or by username), not a link to pass on."""
        return bool(self.email) or self.invitee_id is not None

    @property
    def addressee(self) -> str:
        """Who it is for, in words: the username or the address; '' for a link."""
        invitee = self.invitee
        return invitee.get_username() if invitee is not None else self.email


class EventQuerySet(models.QuerySet["Event"]):
    def payloads(self, game_id: int, start: int = 0, stop: int | None = None
                 ) -> list[dict[str, Any]]:
        """The payloads of the game's events from seq ``start`` (up to ``stop``), in
        order."""
        rows = self.filter(game_id=game_id, seq__gte=start)
        if stop is not None:
            rows = rows.filter(seq__lt=stop)
        return list(rows.order_by("seq").values_list("payload", flat=True))


class Event(models.Model):
    """One event of a game record, exactly as the spec defines it, in ``payload``."""

    objects = EventQuerySet.as_manager()

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="events")
    seq = models.PositiveIntegerField(help_text="The event's index in the game record, from 0.")
    type = models.CharField(max_length=24, help_text="The event's type, one of its game's.")
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

    def save(self, *args: Any, **kwargs: Any) -> None:
        # The database refuses it too; this just says so before the round trip.
        if not self._state.adding:
            raise ValueError("events are append-only: a stored event cannot be changed")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise ValueError("events are append-only: a stored event cannot be deleted")


class GameSnapshot(models.Model):
    """A game's whole state after its first ``seq`` events (engine.snapshot), so
    that a game no worker holds is read by folding only the events after it.
    Derived from the events, checked against them (manage.py verify_game) and
    rebuilt from them (manage.py rebuild_snapshots). Secret: it holds what is
    hidden and every player's secrets, and no page, API or admin shows it."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="snapshots")
    seq = models.PositiveIntegerField(help_text="The number of events folded into it.")
    data = models.JSONField(help_text="engine.snapshot's JSON: versions and state.")
    rules_version = models.CharField(
        max_length=16, help_text="The game's rules_version it was written under."
    )
    version = models.PositiveSmallIntegerField(
        help_text="The game's snapshot_version (the shape of its state's JSON)."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="game_snapshot_seq_unique"),
        ]

    def __str__(self) -> str:
        return f"Game {self.game_id} snapshot at seq {self.seq}"


class Clock(models.Model):
    """One seat's clock in a game. It runs while the game waits for that seat (any
    action of theirs); ``started_at`` is set then. Timed games (days_per_move) keep a
    time bank; untimed ones only track whose turn began when, which is also when a
    "your turn" mail goes out."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="clocks")
    seat = models.PositiveSmallIntegerField()
    # The seat's player, copied here so that a move reads one table, not two.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", null=True,
        blank=True,
    )
    bank = models.DurationField(
        null=True, blank=True, help_text="Time left when the clock last started or stopped."
    )
    started_at = models.DateTimeField(null=True, blank=True, help_text="Set while it runs.")
    started_seq = models.PositiveIntegerField(
        null=True, blank=True, help_text="The game's seq when it last started."
    )
    timeouts_in_row = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["game", "seat"]
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="clock_unique")]
        indexes = [models.Index(fields=["started_at"], name="clock_running")]

    def __str__(self) -> str:
        state = "running" if self.started_at else "stopped"
        return f"game {self.game_id} seat {self.seat}: {self.bank} ({state})"

    @property
    def running(self) -> bool:
        return self.started_at is not None


class Vacation(models.Model):
    """A stretch of time in which the player's clocks stand still."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations"
    )
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField(help_text="Planned end; brought forward if stopped early.")

    class Meta:
        ordering = ["-starts_at"]

    def __str__(self) -> str:
        return f"{self.user}: {self.starts_at:%Y-%m-%d} to {self.ends_at:%Y-%m-%d}"

    def overlap(self, start: datetime, end: datetime) -> timedelta:
        """How much of [start, end) falls in this vacation."""
        return max(min(end, self.ends_at) - max(start, self.starts_at), timedelta(0))
