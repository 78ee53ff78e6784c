from django.apps import AppConfig


class ReviewsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "reviews"
    verbose_name = "Reviews of finished games"

    def ready(self) -> None:
        # Its services enqueue reviews.tasks.review_make by name (reviews.jobs):
        # the task must be registered in every process that may run it eagerly
        # (./dev run, the tests).
        from reviews import tasks  # noqa: F401
