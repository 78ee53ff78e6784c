"""Notes are their writers' own: the admin lists that they exist, not what they say."""

from django.contrib import admin

from notes.models import Note


@admin.register(Note)
class NoteAdmin(admin.ModelAdmin):
    list_display = ["game", "user", "updated_at"]
    fields = ["game", "user", "updated_at"]
    readonly_fields = fields

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
