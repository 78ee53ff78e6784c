"""Notes are their writers' own: the admin lists that they exist, not what they say."""

from django.contrib import admin
from django.http import HttpRequest

from notes.models import Note


@admin.register(Note)
class NoteAdmin(admin.ModelAdmin[Note]):
    list_display = ["game", "user", "updated_at"]
    fields = readonly_fields = ("game", "user", "updated_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Note | None = None) -> bool:
        return False
