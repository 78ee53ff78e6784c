"""The Celery app: notifications and the random fly/frog hops run here.

Configuration comes from Django settings prefixed ``CELERY_``; with no
``REDIS_URL`` the settings make every task run eagerly, in-process.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "marram_site.settings")

app = Celery("marram_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
