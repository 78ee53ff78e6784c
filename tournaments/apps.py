from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"
