from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        # The services enqueue this app's tasks by the names they register under
        # (notifications.jobs): every process registers them as it starts, not
        # only a worker (whose start imports each app's tasks).
        from notifications import tasks  # noqa: F401
