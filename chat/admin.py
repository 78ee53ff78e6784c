"""A game's chat in the admin: read only, searchable by game; Django escapes it."""

from django.contrib import admin
from django.http import HttpRequest

from chat.models import Message


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin[Message]):
    list_display = ["created_at", "game", "user", "text", "via"]
    list_filter = ["via"]
    search_fields = ["=game__id", "user__username", "text"]
    raw_id_fields = ["game", "user"]
    readonly_fields = ["game", "user", "text", "via", "created_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Message | None = None) -> bool:
        return False
