"""The marram Django project: settings, URLs and the Celery app."""

import django_stubs_ext

# Load the Celery app with Django so that @shared_task binds to it.
from marram_site.celery import app as celery_app

# The classes django-stubs declares generic (ModelAdmin, ModelForm, Manager, ...)
# take their type argument at run time as in the stubs: ModelAdmin[Game]. Every
# settings module is inside this package, so this runs before any app is loaded.
django_stubs_ext.monkeypatch()

__all__ = ["celery_app"]
