from django.apps import AppConfig


class RatingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ratings"
    verbose_name = "Ratings and rematches"

    def ready(self) -> None:
        # The games app enqueues ratings.tasks.ratings_update by name: the task must be
        # registered in every process that may run it eagerly (./dev run, the tests).
        from ratings import tasks  # noqa: F401
