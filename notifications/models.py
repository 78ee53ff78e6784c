"""Correspondence play: the mail outbox, each player's mail policy (with their
vacation allowance) and webhooks, when they last looked at a game, and the
replies received by mail. (The clocks and vacations that stop them are the
games app's.)

The outbox (``Notification``) is written with the events it tells of, in one
write (games.store.Batch), so a committed move always has its mail waiting,
whatever happens to Redis or the workers afterwards. A webhook's calls go
through the same outbox, one row per call, and so do push notifications, one
row per device (notifications.push).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

VACATION_DAYS_PER_YEAR = 14
WEBHOOKS_PER_PLAYER = 3
WEBHOOK_URL_MAX_LENGTH = 500
SUBJECT_LENGTH = 200
"""The longest subject a mail is written with (one header line)."""


class Policy(models.TextChoices):
    EVERY_TURN = "every_turn", "An email every time it is my turn"
    UNTIL_VISIT = "until_visit", "At most one email until I next look at the game"
    DIGEST = "digest", "One email a day listing the games waiting for me"
    OFF = "off", "No email at all"


class MailSettings(models.Model):
    """How a player wants to hear about their games."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="mail_settings"
    )
    policy = models.CharField(max_length=16, choices=Policy.choices, default=Policy.UNTIL_VISIT)
    vacation_days_per_year = models.PositiveSmallIntegerField(default=VACATION_DAYS_PER_YEAR)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "mail settings"

    def __str__(self) -> str:
        return f"{self.user} : {self.policy}"


class Notification(models.Model):
    """One email in the outbox: written with the events it tells of, sent by a task."""

    class Kind(models.TextChoices):
        GAME_STARTED = "game_started", "Game started"
        YOUR_TURN = "your_turn", "Your turn"
        GAME_OVER = "game_over", "Game over"
        REMINDER = "reminder", "Time running down"
        DIGEST = "digest", "Daily digest"
        REPLY_PLAYED = "reply_played", "Reply by mail: played"
        REPLY_REFUSED = "reply_refused", "Reply by mail: refused"
        INVITATION = "invitation", "Invitation to a game"
        WEBHOOK_TURN = "webhook_turn", "Webhook: your turn"
        WEBHOOK_TEST = "webhook_test", "Webhook: test"
        # push notifications (notifications.push): a row without a device goes to
        # each of its player's devices, a row with one to that device
        PUSH_TURN = "push_turn", "Push: your turn"
        PUSH_CLOCK = "push_clock", "Push: time running down"
        PUSH_GAME_OVER = "push_game_over", "Push: game over"
        PUSH_CHAT = "push_chat", "Push: chat line"
        PUSH_INVITATION = "push_invitation", "Push: invitation"
        PUSH_REMATCH = "push_rematch", "Push: rematch offer"
        # tournaments (tournaments.mail): a round has started, the tournament is over
        TOURNAMENT = "tournament", "Tournament: a round started, or it is over"
        PUSH_TOURNAMENT = "push_tournament", "Push: tournament"

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        SENT = "sent", "Sent"
        SKIPPED = "skipped", "Not sent (the player's policy)"
        FAILED = "failed", "Failed"
        BOUNCED = "bounced", "Sent, and bounced"

    # Empty for an answer to a mail from an address that belongs to nobody here.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="notifications",
        null=True,
        blank=True,
    )
    to_email = models.EmailField(blank=True, help_text="Where it goes when there is no user.")
    webhook = models.ForeignKey(
        "notifications.Webhook", on_delete=models.CASCADE, related_name="calls", null=True,
        blank=True, help_text="The webhook a webhook call goes to (no mail then).")
    push_device = models.ForeignKey(
        "notifications.PushSubscription", on_delete=models.SET_NULL, related_name="pushes",
        null=True, blank=True, help_text="The device a push goes to (none: to each of the "
        "player's devices).")
    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, related_name="notifications", null=True, blank=True
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    seq = models.PositiveIntegerField(
        null=True, blank=True, help_text="The game's seq the mail speaks of (and a reply binds to)."
    )
    kind = models.CharField(max_length=16, choices=Kind.choices)
    dedup_key = models.CharField(max_length=200, unique=True)
    subject = models.CharField(max_length=SUBJECT_LENGTH, blank=True)
    body_text = models.TextField(blank=True)
    body_html = models.TextField(blank=True)
    message_id = models.CharField(max_length=200, unique=True)
    in_reply_to = models.CharField(max_length=250, blank=True)
    reply_to = models.CharField(
        max_length=250, blank=True, help_text="The signed address a reply plays a move through."
    )
    status = models.CharField(
        max_length=8, choices=Status.choices, default=Status.PENDING, db_index=True
    )
    note = models.CharField(
        max_length=200, blank=True,
        help_text="Why skipped or failed, or the last error of a mail still to be retried.")
    attempts = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    next_attempt_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["status", "next_attempt_at"], name="notification_due"),
            models.Index(fields=["user", "game", "kind"], name="notification_user_game"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} to {self.user or self.to_email} ({self.status})"


WEBHOOK_KINDS = (Notification.Kind.WEBHOOK_TURN, Notification.Kind.WEBHOOK_TEST)
"""The kinds of outbox rows that are webhook calls, not mail."""
PUSH_KINDS = (Notification.Kind.PUSH_TURN, Notification.Kind.PUSH_CLOCK,
              Notification.Kind.PUSH_GAME_OVER, Notification.Kind.PUSH_CHAT,
              Notification.Kind.PUSH_INVITATION, Notification.Kind.PUSH_REMATCH,
              Notification.Kind.PUSH_TOURNAMENT)
"""The kinds of outbox rows that are push notifications (notifications.push)."""


class Webhook(models.Model):
    """An address a player has called when it is their turn, in the shape its
    receiver reads (a chat's incoming webhook, or any program of theirs)."""

    class Format(models.TextChoices):
        JSON = "json", "Plain JSON"
        DISCORD = "discord", "Discord"
        SLACK = "slack", "Slack"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhooks")
    url = models.CharField(max_length=WEBHOOK_URL_MAX_LENGTH)
    format = models.CharField(max_length=8, choices=Format.choices, default=Format.JSON)
    enabled = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "url"], name="webhook_unique_url"),
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.get_format_display()} webhook"


class GameVisit(models.Model):
    """When a player last loaded a game (page or API)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    seen_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="game_visit_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.user} saw game {self.game_id} at {self.seen_at:%Y-%m-%d %H:%M}"


class InboundMail(models.Model):
    """A reply received by mail, and what became of it. One row per Message-ID, so
    a message delivered twice is handled once."""

    class Outcome(models.TextChoices):
        PLAYED = "played", "Played"
        REFUSED = "refused", "Refused"
        IGNORED = "ignored", "Ignored: not a reply address"

    message_id = models.CharField(max_length=250, unique=True)
    sender = models.CharField(max_length=250)
    recipient = models.CharField(max_length=250)
    game = models.ForeignKey(
        "games.Game", on_delete=models.SET_NULL, related_name="+", null=True, blank=True
    )
    move = models.CharField(max_length=200, blank=True, help_text="The line read as the move.")
    outcome = models.CharField(max_length=8, choices=Outcome.choices)
    code = models.CharField(max_length=40, blank=True)
    detail = models.TextField(blank=True)
    answered = models.BooleanField(
        default=False, help_text="Whether an answer was mailed (to the seat's player only).")
    received_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-received_at", "-id"]
        verbose_name_plural = "inbound mail"
        indexes = [models.Index(fields=["sender", "received_at"], name="inbound_mail_sender")]

    def __str__(self) -> str:
        return f"{self.message_id} from {self.sender}: {self.outcome}"


class MailBounce(models.Model):
    """A bounce of a mail of ours: the delivery report that came back to its
    return path (``bounce+<id>.<sig>@REPLY_DOMAIN``, notifications.bounces)."""

    class Kind(models.TextChoices):
        HARD = "hard", "Hard: refused for good (5.x.x)"
        SOFT = "soft", "Soft: delayed or refused for now (4.x.x)"

    message_id = models.CharField(
        max_length=250, unique=True,
        help_text="The report's own Message-ID: a report delivered twice is one bounce.")
    address = models.CharField(max_length=254, help_text="The address that bounced.")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                             related_name="+", null=True, blank=True)
    notification = models.ForeignKey(Notification, on_delete=models.SET_NULL,
                                     related_name="bounces", null=True, blank=True)
    kind = models.CharField(max_length=4, choices=Kind.choices)
    status = models.CharField(max_length=16, blank=True, help_text="The report's Status, 5.1.1.")
    diagnostic = models.CharField(max_length=300, blank=True)
    counted = models.BooleanField(
        default=True, help_text="Whether it counts towards suspending the address (not once "
        "the address is tried again).")
    received_at = models.DateTimeField()

    class Meta:
        ordering = ["-received_at", "-id"]
        indexes = [models.Index(fields=["address", "received_at"], name="mail_bounce_address")]

    def __str__(self) -> str:
        return f"{self.address}: {self.kind} {self.status}"


class BouncingAddress(models.Model):
    """An address mail is no longer sent to, as mail to it bounces for good. Tried
    again when its player asks (their settings) or an admin deletes it; a player
    who changes their address has mail sent to the new one."""

    address = models.CharField(max_length=254, unique=True, help_text="Lower-case.")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                             related_name="+", null=True, blank=True,
                             help_text="Whose address it was when its mail stopped.")
    since = models.DateTimeField(help_text="The first of the bounces that stopped it.")
    reason = models.CharField(max_length=300)
    suspended_at = models.DateTimeField()

    class Meta:
        ordering = ["-suspended_at"]
        verbose_name_plural = "bouncing addresses"

    def __str__(self) -> str:
        return f"{self.address} bounces since {self.since:%Y-%m-%d}"


# ---------------------------------------------------------------- push (notifications.push)

PUSH_ENDPOINT_MAX_LENGTH = WEBHOOK_URL_MAX_LENGTH
"""An endpoint is checked as a webhook's address is (webhook_http.url_problem)."""
PUSH_DEVICES_PER_PLAYER = 10


class PushSubscription(models.Model):
    """A device of a player's that takes push notifications: the browser's push
    subscription (RFC 8030's push resource, at its vendor's push service) and the
    keys its messages are encrypted for (RFC 8291)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_devices")
    name = models.CharField(max_length=60, help_text="The player's name for the device.")
    endpoint = models.CharField(max_length=PUSH_ENDPOINT_MAX_LENGTH, unique=True)
    p256dh = models.CharField(max_length=100, help_text="The device's P-256 public key "
                              "(base64url), which messages are encrypted for.")
    auth = models.CharField(max_length=40, help_text="The authentication secret (base64url).")
    created_at = models.DateTimeField(auto_now_add=True)
    last_push_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.user}: {self.name}"


class PushSettings(models.Model):
    """Which kinds of push a player has switched off (every kind is on until then)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_settings")
    off = models.JSONField(default=list, blank=True,
                           help_text="The kinds switched off (Notification.Kind values).")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "push settings"

    def __str__(self) -> str:
        return f"{self.user}: {len(self.off)} kinds off"


class PushPageOpen(models.Model):
    """A game's page open and in view on a device of the player's, as that page
    last said: no push about that game goes to that device meanwhile."""

    device = models.ForeignKey(PushSubscription, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    seen_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["device", "game"], name="push_page_open_unique"),
        ]

    def __str__(self) -> str:
        return f"game {self.game_id} open on {self.device_id} at {self.seen_at:%H:%M:%S}"
