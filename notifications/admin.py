"""Admin views of the outbox, the mail received, visits and settings.

Mail is shown, not written: a pending row can be sent now or dropped, nothing more.
"""

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from notifications import (
    bounces,
    push_admin,  # noqa: F401  (the push devices' admin, registered there)
    services,
)
from notifications.models import (
    BouncingAddress,
    GameVisit,
    InboundMail,
    MailBounce,
    MailSettings,
    Notification,
    Webhook,
)


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin[Notification]):
    list_display = ["id", "kind", "user", "to_email", "game", "status", "attempts", "created_at",
                    "next_attempt_at", "sent_at", "note"]
    list_filter = ["status", "kind"]
    search_fields = ["user__username", "to_email", "dedup_key", "message_id"]
    raw_id_fields = ["user", "game", "webhook", "push_device"]
    readonly_fields = [f.name for f in Notification._meta.fields]
    actions = ["deliver_now"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description="Send the selected pending mail now")
    def deliver_now(self, request: HttpRequest, queryset: QuerySet[Notification]) -> None:
        pending = queryset.filter(status=Notification.Status.PENDING).values_list("pk", flat=True)
        statuses = [services.notification_deliver(pk) for pk in pending]
        self.message_user(request, f"{statuses.count('sent')} sent of {len(statuses)} pending.",
                          messages.INFO)


@admin.register(InboundMail)
class InboundMailAdmin(admin.ModelAdmin[InboundMail]):
    list_display = ["received_at", "sender", "recipient", "game", "move", "outcome", "code",
                    "answered"]
    list_filter = ["outcome", "code", "answered"]
    search_fields = ["sender", "recipient", "message_id", "move"]
    readonly_fields = [f.name for f in InboundMail._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(MailSettings)
class MailSettingsAdmin(admin.ModelAdmin[MailSettings]):
    list_display = ["user", "policy", "vacation_days_per_year", "updated_at"]
    list_filter = ["policy"]
    raw_id_fields = ["user"]


@admin.register(Webhook)
class WebhookAdmin(admin.ModelAdmin[Webhook]):
    list_display = ["id", "user", "format", "enabled", "url", "created_at"]
    list_filter = ["format", "enabled"]
    search_fields = ["user__username", "url"]
    raw_id_fields = ["user"]


@admin.register(GameVisit)
class GameVisitAdmin(admin.ModelAdmin[GameVisit]):
    list_display = ["user", "game", "seen_at"]
    raw_id_fields = ["user", "game"]


@admin.register(BouncingAddress)
class BouncingAddressAdmin(admin.ModelAdmin[BouncingAddress]):
    """The addresses no mail is sent to, as their mail bounces for good."""

    list_display = ["address", "user", "since", "suspended_at", "reason"]
    search_fields = ["address", "user__username"]
    raw_id_fields = ["user"]
    readonly_fields = [f.name for f in BouncingAddress._meta.fields]
    actions = ["mail_again"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest,
                              obj: BouncingAddress | None = None) -> bool:
        return False  # "Mail again" forgets its bounces too

    @admin.action(description="Mail the selected addresses again")
    def mail_again(self, request: HttpRequest, queryset: QuerySet[BouncingAddress]) -> None:
        cleared = sum(bounces.bouncing_clear(address=address)
                      for address in queryset.values_list("address", flat=True))
        self.message_user(request, f"{cleared} address(es) mailed again.", messages.INFO)


@admin.register(MailBounce)
class MailBounceAdmin(admin.ModelAdmin[MailBounce]):
    list_display = ["received_at", "address", "user", "kind", "status", "counted",
                    "notification", "diagnostic"]
    list_filter = ["kind", "counted"]
    search_fields = ["address", "user__username", "status", "message_id"]
    raw_id_fields = ["user", "notification"]
    readonly_fields = [f.name for f in MailBounce._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
