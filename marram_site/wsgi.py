"""WSGI entry point, served by gunicorn: ``gunicorn marram_site.wsgi``."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "marram_site.settings")

application = get_wsgi_application()


def _load_before_serving() -> None:
    """Import what the first requests of a fresh process would otherwise import
    while they are timed: every game's rules and the URL conf with its views.
    gunicorn then freezes all of it out of the collector (marram_site.gunicorn)."""
    from django.urls import get_resolver

    from engine import registry

    registry.games()
    get_resolver().url_patterns  # noqa: B018  (imports the views)


_load_before_serving()
