"""``run_turn``: one Celery task per user turn; ``turns_sweep``: the beat task that re-sends lost ones."""

from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.db import DatabaseError
from django.utils import timezone

from trips.hosting.transient import is_transient
from trips.hosting.turns import turn_run
from trips.services.turns import TripBusy, turn_fail, turns_stalled

MAX_RETRIES = 5


# No task-wide retry limit: a busy trip is retried until its lease frees (a lease lasts at most
# TURN_LEASE_SECONDS, and a dead worker's lapses), and database errors stop at MAX_RETRIES below.
# (``retry(max_retries=None)`` alone means "the task's limit", which after a few worker deaths
# left a queued turn, a purchase among them, to wait for the beat's sweep.)
@shared_task(bind=True, acks_late=True, max_retries=None)
def run_turn(self, trip_id: int, message_id: int):
    """Run the trip's queued turns (``message_id``'s among them). Safe to deliver twice: done turns are skipped.

    Another worker on the trip → retry shortly (eagerly, in-process, the lease holder picks the
    message up itself); a transient database error → retry with exponential backoff; retries
    exhausted → the failure is recorded and the traveller told.
    """
    try:
        return turn_run(trip_id=trip_id)
    except TripBusy as exc:
        if self.request.is_eager:
            return 0
        raise self.retry(exc=exc, countdown=1) from exc
    except DatabaseError as exc:
        if not is_transient(exc):
            raise
        if self.request.retries >= MAX_RETRIES:
            turn_fail(trip_id=trip_id, message_id=message_id, reason=f"database: {type(exc).__name__}")
            return 0
        return _retry_later(self, exc, countdown=2**self.request.retries)


def _retry_later(task, exc: Exception, *, countdown: float):
    """Hand the task back to the broker; run eagerly (the embedded default), retry at once in-process.

    Eagerly, ``Task.apply()`` runs the retry a task returns, where a raised ``Retry`` would
    escape to whoever committed the message.
    """
    retry = task.retry(exc=exc, countdown=countdown, throw=False)
    if task.request.is_eager:
        return retry
    raise retry


@shared_task
def turns_sweep() -> int:
    """Send ``run_turn`` again for turns queued longer than ``TURN_SWEEP_AFTER_SECONDS``; returns how many trips.

    With Redis, a task whose whole worker died comes back only after the broker's visibility
    timeout (minutes); this brings the turn back sooner. Safe: a turn delivered twice runs once.
    """
    after = timedelta(seconds=settings.TRIPDESK["TURN_SWEEP_AFTER_SECONDS"])
    stalled = turns_stalled(now=timezone.now(), after=after)
    for trip_id, message_id in stalled.items():
        run_turn.delay(trip_id, message_id)
    return len(stalled)
