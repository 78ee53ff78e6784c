from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from django.conf import settings

        from games import (
            background,  # noqa: F401  (hears when a request is answered)
            passwords,  # noqa: F401  (registers its system check)
            schema,  # noqa: F401  (registers the schema's extensions)
        )
        from games.state_cache import states

        states.size = settings.MARRAM_STATE_CACHE_SIZE
