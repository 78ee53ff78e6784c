from django.apps import AppConfig
from django.conf import settings

from live.state_cache import states


class LiveConfig(AppConfig):
    name = "live"
    verbose_name = "Live updates"

    def ready(self) -> None:
        states.size = settings.MARRAM_STATE_CACHE_SIZE
