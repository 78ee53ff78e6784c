from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        # The games app enqueues tournaments.tasks.tournament_game_ended by name: the
        # task must be registered in every process that may run it eagerly (./dev run,
        # the tests).
        from tournaments import tasks  # noqa: F401
