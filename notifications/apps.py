from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        # connect the signal receivers
        from notifications import invitations, receivers  # noqa: F401
