"""Celery tasks: thin adapters that take ids and call services.

Importing the task modules here lets ``app.autodiscover_tasks()`` find them all.
"""

from . import connections  # noqa: F401 - connects the worker's connection handling
from .deadlines import hold_deadlines_notify
from .notify import notification_send
from .purchases import purchases_reconcile_sweep
from .turns import run_turn, turns_sweep

__all__ = ["hold_deadlines_notify", "notification_send", "purchases_reconcile_sweep", "run_turn", "turns_sweep"]
