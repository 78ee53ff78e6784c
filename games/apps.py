from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from games import (
            background,  # noqa: F401  (hears when a request is answered)
            schema,  # noqa: F401  (registers the schema's extensions)
        )
