"""Admin views of games, where admins review replays.

Events are shown, never edited: the database refuses changes to them anyway,
and the admin does not offer any.
"""

from django.contrib import admin

from games import admin_replay
from games.models import Event, Game, Invitation, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["index", "name", "user", "joined_at", "resigned"]
    readonly_fields = ["joined_at"]
    raw_id_fields = ["user"]


class InvitationInline(admin.TabularInline):
    model = Invitation
    extra = 0
    fields = ["email", "created_by", "created_at", "accepted_by", "accepted_at"]
    readonly_fields = fields

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["id", "variant", "length", "seat_count", "status", "seq", "created_by",
                    "created_at", "finished_at"]
    list_filter = ["status", "variant", "length"]
    search_fields = ["id", "seats__name", "created_by__username"]
    date_hierarchy = "created_at"
    inlines = [SeatInline, InvitationInline]
    # The seed and the config (the deck) are not editable and not shown here:
    # whoever reads a running game's seed knows every draw to come.
    readonly_fields = ["seq", "projection", "rules_version", "commitment", "created_at",
                       "started_at", "finished_at"]
    fields = ["variant", "length", "seat_count", "days_per_move", "status", "created_by",
              *readonly_fields]
    raw_id_fields = ["created_by"]
    actions = [admin_replay.verify]  # the replay page: see admin/games/game/change_form.html

    def get_urls(self):
        return admin_replay.urls(self) + super().get_urls()


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["game", "seq", "type", "actor", "created_at"]
    list_filter = ["type"]
    search_fields = ["game__id"]
    list_select_related = ["actor", "game"]
    readonly_fields = ["game", "seq", "type", "payload", "actor", "cause_seq", "created_at",
                       "idempotency_key"]
    fields = readonly_fields

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
