"""Sending a notification's emails once, and recording that they went."""

import logging

from django.core.mail import get_connection
from django.db import transaction

from trips.models import AuditEvent
from trips.notifications.emails import compose
from trips.services.audit import audit_record

logger = logging.getLogger(__name__)


def notification_deliver(*, kind: str, object_id: int) -> int:
    """Send the ``kind`` emails about ``object_id`` unless they went already; returns how many were sent.

    Recorded as ``notification.emailed`` (kind and count, never the addresses) with the
    notification's key as ``causation_id``: a task delivered twice finds it and sends nothing.
    A failure to send raises (the task retries); nothing is recorded then.
    """
    outgoing = compose(kind, object_id)
    if outgoing is None:
        return 0
    if AuditEvent.objects.filter(trip_id=outgoing.trip_id, causation_id=outgoing.key).exists():
        return 0
    sent = 0
    if outgoing.messages:
        with get_connection() as connection:
            sent = connection.send_messages(outgoing.messages) or 0
    with transaction.atomic(durable=True):
        audit_record(
            trip_id=outgoing.trip_id,
            type="notification.emailed",
            actor="system",
            causation_id=outgoing.key,
            payload={"kind": kind, "recipients": sent},
        )
    logger.info("notification %s sent to %d recipient(s)", outgoing.key, sent)
    return sent
