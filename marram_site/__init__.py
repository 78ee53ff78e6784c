"""The marram Django project: settings, URLs and the Celery app."""

# Load the Celery app with Django so that @shared_task binds to it.
from marram_site.celery import app as celery_app

__all__ = ["celery_app"]
