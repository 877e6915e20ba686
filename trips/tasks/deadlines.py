"""The beat task that tells people about hold deadlines.

It is not the guard: a purchase or a grant checks every deadline itself on the spot. This
task warns the traveller (chat) and staff (audit trail, the admin's expiring-holds filter)
before a deadline, writes down holds and approvals whose time has passed, then runs the
``HOLDS_CHANGED`` turns that bring the expiries into each trip's TripIntent and chat. Running
it twice, or in two workers at once, warns and expires each thing once.
"""

from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from trips.services.approvals import approvals_expire_due
from trips.services.holds import holds_changed_dispatch, holds_expire_due, holds_warn_due

WARN_AHEAD_MINUTES = 60


@shared_task
def hold_deadlines_notify() -> dict:
    """Warn of deadlines within the hour, expire what is past, then tell the trips; returns the counts."""
    now = timezone.now()
    ahead = timedelta(minutes=settings.TRIPDESK.get("HOLD_WARN_AHEAD_MINUTES", WARN_AHEAD_MINUTES))
    counts = {
        "warned": holds_warn_due(now=now, ahead=ahead),
        "holds_expired": holds_expire_due(now=now),
        "approvals_expired": approvals_expire_due(now=now),
    }
    return {**counts, "trips_told": holds_changed_dispatch()}
