"""The Celery app. Broker and eagerness come from settings (``CELERY_*``), chosen by the environment."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tripdesk.settings")

app = Celery("tripdesk")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
