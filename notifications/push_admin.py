"""The admin's view of push notifications (notifications.push): each player's
devices by name, with how many pushes each was sent, skipped or failed, never
their endpoints or keys (a device's endpoint is its address at the browser's
push service: whoever holds it with the keys can push to that phone)."""

from __future__ import annotations

from typing import TypedDict

from django.contrib import admin
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest
from django_stubs_ext import WithAnnotations

from notifications.models import Notification, PushSubscription

Status = Notification.Status


class _Counts(TypedDict):
    """A device's pushes by status, as the admin's list counts them."""

    sent: int
    skipped: int
    failed: int
    pending: int



@admin.register(PushSubscription)
class PushDeviceAdmin(admin.ModelAdmin[PushSubscription]):
    list_display = ["id", "user", "name", "created_at", "last_push_at", "sent", "skipped",
                    "failed", "pending"]
    search_fields = ["user__username", "name"]
    fields = ["user", "name", "created_at", "last_push_at"]
    readonly_fields = ["user", "created_at", "last_push_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a device is added by its own browser

    def get_queryset(self, request: HttpRequest) -> QuerySet[PushSubscription]:
        counted: QuerySet[PushSubscription] = super().get_queryset(request).select_related(
            "user").annotate(**{
                status: Count("pushes", filter=Q(pushes__status=status))
                for status in (Status.SENT, Status.SKIPPED, Status.FAILED, Status.PENDING)})
        return counted

    @admin.display(description="sent", ordering="sent")
    def sent(self, device: WithAnnotations[PushSubscription, _Counts]) -> int:
        return int(device.sent)

    @admin.display(description="not sent", ordering="skipped")
    def skipped(self, device: WithAnnotations[PushSubscription, _Counts]) -> int:
        return int(device.skipped)

    @admin.display(description="failed", ordering="failed")
    def failed(self, device: WithAnnotations[PushSubscription, _Counts]) -> int:
        return int(device.failed)

    @admin.display(description="to send", ordering="pending")
    def pending(self, device: WithAnnotations[PushSubscription, _Counts]) -> int:
        return int(device.pending)
