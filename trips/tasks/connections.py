"""A Celery worker keeps its database connections between tasks, as ``CONN_MAX_AGE`` says.

Celery's Django fixup closes every connection before and after each task, whatever
``CONN_MAX_AGE`` says, so each turn opened a new PostgreSQL connection (a server process and cold
catalog caches). ``CELERY_DB_REUSE_MAX`` (settings) turns that off, and these apply Django's own
rule instead, as a request does: a connection past its age or broken by an error is closed, one
the server dropped (a restart, a terminated backend) is noticed before the task uses it.
"""

from typing import Any

from celery.signals import task_postrun, task_prerun
from django.db import close_old_connections

from trips.hosting.factory import connections_before_work


def _eager(task: Any) -> bool:
    return bool(getattr(getattr(task, "request", None), "is_eager", False))


@task_prerun.connect(weak=False)
def _connections_before_task(*, task: Any = None, **_: Any) -> None:
    if not _eager(task):  # an eager task runs inside its caller's work (and maybe its transaction)
        connections_before_work()


@task_postrun.connect(weak=False)
def _connections_after_task(*, task: Any = None, **_: Any) -> None:
    if not _eager(task):
        close_old_connections()
