"""Email notifications: composed in ``emails``, sent by the ``notification_send`` task after commit.

A service that makes something worth telling calls ``notify_on_commit(kind, id)`` inside its
transaction; the task is queued only if that transaction commits, re-reads the row, sends
and records ``notification.emailed`` in the trip's audit trail (so a second delivery of the
task sends nothing).
"""

APPROVAL_REQUESTED = "approval.requested"
APPROVAL_GRANTED = "approval.granted"
APPROVAL_DENIED = "approval.denied"
BOOKING_CONFIRMED = "booking.confirmed"
HOLDS_EXPIRING = "holds.expiring"
PURCHASE_RECONCILED = "purchase.reconciled"
KINDS = (APPROVAL_REQUESTED, APPROVAL_GRANTED, APPROVAL_DENIED, BOOKING_CONFIRMED, HOLDS_EXPIRING, PURCHASE_RECONCILED)


def notify_on_commit(kind: str, object_id: int) -> None:
    """Queue the ``kind`` email about row ``object_id`` once the current transaction commits
    (a new approval request's email settles first: ``trips.tasks.notify.notification_send_on_commit``)."""
    from trips.services.dispatch import notification_enqueue_on_commit  # the tasks wired in at app ready

    notification_enqueue_on_commit(kind, object_id)


__all__ = [
    "APPROVAL_DENIED",
    "APPROVAL_GRANTED",
    "APPROVAL_REQUESTED",
    "BOOKING_CONFIRMED",
    "HOLDS_EXPIRING",
    "KINDS",
    "PURCHASE_RECONCILED",
    "notify_on_commit",
]
