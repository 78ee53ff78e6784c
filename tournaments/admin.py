"""The admin: tournaments with their event log, and a "verify" action."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from tournaments.models import Tournament, TournamentEvent, TournamentGame
from tournaments.verify import tournament_verify


class EventInline(admin.TabularInline[TournamentEvent, Tournament]):
    model = TournamentEvent
    fields = ["seq", "type", "payload", "created_at"]
    readonly_fields = ["seq", "type", "payload", "created_at"]
    extra = 0
    can_delete = False
    ordering = ["seq"]

    def has_add_permission(self, request: HttpRequest, obj: Tournament | None = None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin[Tournament]):
    list_display = ["id", "name", "game", "format", "table_size", "status", "created_by",
                    "created_at"]
    list_filter = ["status", "format", "game"]
    search_fields = ["name"]
    readonly_fields = ["name", "game", "options", "format", "table_size", "rounds", "best_of",
                       "days_per_move", "round_days", "rated", "by_invitation", "max_players",
                       "start_at", "bots", "created_by", "created_at", "status", "commitment",
                       "seq", "projection"]
    inlines = [EventInline]
    actions = ["verify"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # made through the service, which writes its log

    def has_delete_permission(self, request: HttpRequest, obj: Tournament | None = None
                              ) -> bool:
        return False  # its log is kept

    @admin.action(description="Verify: pair every round again from the log")
    def verify(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for tournament in queryset:
            problems = tournament_verify(tournament)
            if problems:
                self.message_user(request, f"{tournament}: " + "; ".join(problems),
                                  level=messages.ERROR)
            else:
                self.message_user(request, f"{tournament}: every round and result checks out")


@admin.register(TournamentGame)
class TournamentGameAdmin(admin.ModelAdmin[TournamentGame]):
    list_display = ["tournament", "round", "table", "game"]
    readonly_fields = ["tournament", "round", "table", "game"]
