"""The beat task that tells people about hold deadlines.

It is not the guard: a purchase or a grant checks every deadline itself on the spot. This
task warns the traveller (chat) and staff (audit trail, the admin's expiring-holds filter)
before a deadline, writes down holds and approvals whose time has passed, then runs the
``HOLDS_CHANGED`` turns that bring the expiries into each trip's TripIntent and chat. Last, it
gives up on purchases left half finished (the rest ended, or the grace period passed) and flags
them for staff. Running it twice, or in two workers at once, warns, expires and flags each thing once.
"""

from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from trips.services.approvals import approvals_expire_due
from trips.services.half_purchases import half_purchases_flag
from trips.services.holds import holds_changed_dispatch, holds_expire_due, holds_warn_due

WARN_AHEAD_MINUTES = 60
# How long a purchase stopped half way waits for the traveller to submit it again.
HALF_PURCHASE_GRACE_MINUTES = 30


@shared_task
def hold_deadlines_notify() -> dict:
    """Warn of deadlines within the hour, expire what is past, tell the trips, then flag half
    purchases; returns the counts."""
    now = timezone.now()
    ahead = timedelta(minutes=settings.TRIPDESK.get("HOLD_WARN_AHEAD_MINUTES", WARN_AHEAD_MINUTES))
    grace = timedelta(minutes=settings.TRIPDESK.get("HALF_PURCHASE_GRACE_MINUTES", HALF_PURCHASE_GRACE_MINUTES))
    counts = {
        "warned": holds_warn_due(now=now, ahead=ahead),
        "holds_expired": holds_expire_due(now=now),
        "approvals_expired": approvals_expire_due(now=now),
    }
    counts["trips_told"] = holds_changed_dispatch()
    return {**counts, "half_purchases_flagged": half_purchases_flag(now=now, grace=grace)}
