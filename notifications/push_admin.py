"""The admin's view of push notifications (notifications.push): each player's
devices by name, with how many pushes each was sent, skipped or failed, never
their endpoints or keys (a device's endpoint is its address at the browser's
push service: whoever holds it with the keys can push to that phone)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest

from notifications.models import Notification, PushSubscription

Status = Notification.Status


@admin.register(PushSubscription)
class PushDeviceAdmin(admin.ModelAdmin):
    list_display = ["id", "user", "name", "created_at", "last_push_at", "sent", "skipped",
                    "failed", "pending"]
    search_fields = ["user__username", "name"]
    fields = ["user", "name", "created_at", "last_push_at"]
    readonly_fields = ["user", "created_at", "last_push_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a device is added by its own browser

    def get_queryset(self, request: HttpRequest) -> QuerySet[PushSubscription]:
        return super().get_queryset(request).select_related("user").annotate(**{
            status: Count("pushes", filter=Q(pushes__status=status))
            for status in (Status.SENT, Status.SKIPPED, Status.FAILED, Status.PENDING)})

    @admin.display(description="sent", ordering="sent")
    def sent(self, device: Any) -> int:
        return int(device.sent)

    @admin.display(description="not sent", ordering="skipped")
    def skipped(self, device: Any) -> int:
        return int(device.skipped)

    @admin.display(description="failed", ordering="failed")
    def failed(self, device: Any) -> int:
        return int(device.failed)

    @admin.display(description="to send", ordering="pending")
    def pending(self, device: Any) -> int:
        return int(device.pending)
