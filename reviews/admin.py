"""Reviews in the admin: listed, read only (a task writes them)."""

from django.contrib import admin
from django.http import HttpRequest

from reviews.models import Review


@admin.register(Review)
class ReviewAdmin(admin.ModelAdmin[Review]):
    list_display = ["game", "status", "requested_at", "finished_at", "cpu_seconds"]
    list_filter = ["status"]
    readonly_fields = ("game", "status", "requested_by", "requested_at", "enqueued_at",
                       "finished_at", "measure", "playouts", "samples", "cpu_seconds",
                       "moves", "problem")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Review | None = None) -> bool:
        return False
