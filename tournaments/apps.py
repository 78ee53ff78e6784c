from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        # The beat's schedule names tournaments.tasks.tournaments_sweep: the task
        # must be registered in every process that may run it (./dev run, the tests).
        from tournaments import tasks  # noqa: F401
