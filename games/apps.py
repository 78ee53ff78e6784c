from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
<<<<<<< HEAD
        from games import schema  # noqa: F401  (registers the schema's extensions)
=======
        from games import passwords  # noqa: F401  (registers its system check)
>>>>>>> h-auth
