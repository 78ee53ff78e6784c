"""WSGI entry point, served by gunicorn: ``gunicorn marram_site.wsgi``."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "marram_site.settings")

application = get_wsgi_application()
