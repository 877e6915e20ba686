"""The Celery app. Broker and eagerness come from settings (``CELERY_*``), chosen by the environment."""

import os
from typing import Any

from celery import Celery
from celery.signals import worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tripdesk.settings")

app = Celery("tripdesk")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_init.connect(weak=False)
def _core_tables_before_fork(**_: Any) -> None:
    """In the worker's main process, before the pool forks: build the core's place tables once,
    for every pool process to inherit. Each process built them on its first search otherwise
    (0.35 s of CPU; six processes starting together on two cores answered their first turns
    after 5-22 s). Then everything the process keeps is frozen out of the collector's full
    collections (``tripdesk.settle``), in every pool process too."""
    from tripdesk.settle import process_settled

    process_settled(runs_turns=True)
