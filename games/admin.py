"""Admin views of games, where admins review replays.

Events are shown, never edited: the database refuses changes to them anyway,
and the admin does not offer any. Nor does it offer to edit a game once it has
started: its seats, status and outcome follow from its events, and an edit here
would say something the event log does not. Games are never deleted: their
events cannot be.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest
from django.urls import URLPattern

from games import admin_replay
from games.models import Clock, Event, Game, Invitation, Seat, Vacation


def _started(game: Game | None) -> bool:
    return game is not None and (game.config is not None or game.status not in _EDITABLE)


_EDITABLE = (Game.Status.OPEN, Game.Status.ABANDONED)
"""The statuses of a game the admin may edit: before its start."""


class SeatInline(admin.TabularInline[Seat, Game]):
    model = Seat
    extra = 0
    fields = ["index", "name", "user", "joined_at", "resigned"]
    readonly_fields = ["joined_at"]
    raw_id_fields = ["user"]

    # Once the game has started the seats are shown, not edited: the order, the
    # names and the resignations are in its events. An inline's obj is the game
    # (django-stubs' InlineModelAdmin says so, over BaseModelAdmin's seat, with the
    # same ignore).
    def has_add_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        return not _started(obj) and super().has_add_permission(request, obj)

    def has_change_permission(  # type: ignore[override]
            self, request: HttpRequest, obj: Game | None = None) -> bool:
        return not _started(obj) and super().has_change_permission(request, obj)

    def has_delete_permission(  # type: ignore[override]
            self, request: HttpRequest, obj: Game | None = None) -> bool:
        return not _started(obj) and super().has_delete_permission(request, obj)


class InvitationInline(admin.TabularInline[Invitation, Game]):
    model = Invitation
    extra = 0
    fields = readonly_fields = ("email", "invitee", "created_by", "created_at", "accepted_by",
                                "accepted_at")

    def has_add_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        return False


class GameAdminForm(forms.ModelForm[Game]):
    """An open game's settings. The admin saves them in a transaction; ``clean``
    takes the game's row lock in it, so that a join waits for the edit (or the edit
    for the join), and refuses the edit if the game started since the page was
    read: only the fields the form changed are then written (GameAdmin.save_model)."""

    class Meta:
        model = Game
        fields = "__all__"

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        if self.instance.pk is not None:
            now = Game.objects.select_for_update().filter(pk=self.instance.pk).first()
            if now is None or _started(now) or now.status not in _EDITABLE:
                raise forms.ValidationError(
                    "the game has started since this page was read: nothing was saved, and "
                    "a started game is not edited here (its events say what happened)",
                    code="game_started")
        return cleaned

    def clean_status(self) -> str:
        # Only an open game is edited here, and the start is the last seat's to make.
        status: str = self.cleaned_data["status"]
        if status not in (Game.Status.OPEN, Game.Status.ABANDONED):
            raise forms.ValidationError(
                "an open game can only be abandoned here: it starts when its last seat is "
                "taken")
        return status


# The seed and the config (what is hidden) are not editable and not shown here:
# whoever reads a running game's seed knows every draw to come.
# The game and its options were checked against its rules when it was made.
_READ_ONLY = ("game", "options", "seq", "projection", "rules_version", "commitment",
              "created_at", "started_at", "finished_at")
_SHOWN = ("seat_count", "days_per_move", "status", "created_by", *_READ_ONLY)


@admin.register(Game)
class GameAdmin(admin.ModelAdmin[Game]):
    form = GameAdminForm
    list_display = ["id", "title", "seat_count", "status", "seq", "created_by",
                    "created_at", "finished_at"]
    list_filter = ["status", "game"]
    search_fields = ["id", "seats__name", "created_by__username"]
    date_hierarchy = "created_at"
    inlines = [SeatInline, InvitationInline]
    readonly_fields = _READ_ONLY
    fields = _SHOWN
    raw_id_fields = ["created_by"]
    actions = [admin_replay.verify]  # the replay page: see admin/games/game/change_form.html

    def get_urls(self) -> list[URLPattern]:
        return [*admin_replay.urls(self), *super().get_urls()]

    def get_readonly_fields(self, request: HttpRequest, obj: Game | None = None
                            ) -> tuple[str, ...]:
        return _SHOWN if _started(obj) else _READ_ONLY

    def has_change_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        # A started game is shown, with no save button: nothing of it is the admin's
        # to write (its row is the moves' and the server's, under their guards).
        return not _started(obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: Game, form: forms.ModelForm[Game],
                   change: bool) -> None:
        if not change:
            obj.save()
            return
        # Only what the form changed: the other columns were read before the row
        # was locked (GameAdminForm.clean), and are not the admin's to write back.
        changed = [name for name in form.changed_data if name in _SHOWN]
        if changed:
            obj.save(update_fields=changed)


@admin.register(Event)
class EventAdmin(admin.ModelAdmin[Event]):
    list_display = ["game", "seq", "type", "actor", "created_at"]
    list_filter = ["type"]
    search_fields = ["game__id"]
    list_select_related = ["actor", "game"]
    fields = readonly_fields = ("game", "seq", "type", "payload", "actor", "cause_seq",
                                "created_at", "idempotency_key")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Event | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Event | None = None) -> bool:
        return False


@admin.register(Clock)
class ClockAdmin(admin.ModelAdmin[Clock]):
    list_display = ["game", "seat", "bank", "started_at", "started_seq", "timeouts_in_row"]
    raw_id_fields = ["game"]
    readonly_fields = [f.name for f in Clock._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(Vacation)
class VacationAdmin(admin.ModelAdmin[Vacation]):
    list_display = ["user", "starts_at", "ends_at"]
    raw_id_fields = ["user"]
