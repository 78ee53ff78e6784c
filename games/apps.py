from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from games import (
            passwords,  # noqa: F401  (registers its system check)
            schema,  # noqa: F401  (registers the schema's extensions)
        )
