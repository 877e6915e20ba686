"""``notification_send``: one email notification, sent after the write that caused it commits."""

import logging
from smtplib import SMTPException

from celery import shared_task

from trips.services.notifications import notification_deliver

MAX_RETRIES = 5
logger = logging.getLogger(__name__)


@shared_task(bind=True, acks_late=True, max_retries=MAX_RETRIES)
def notification_send(self, kind: str, object_id: int) -> int:
    """Send the ``kind`` email about ``object_id``; safe to run twice. A mail server that does not
    answer is tried again with backoff; after the last try the failure is logged and dropped
    (the chat told the same news live)."""
    try:
        return notification_deliver(kind=kind, object_id=object_id)
    except (SMTPException, OSError) as exc:
        if self.request.is_eager or self.request.retries >= MAX_RETRIES:
            logger.warning("notification %s:%s not sent: %s", kind, object_id, exc)
            return 0
        raise self.retry(exc=exc, countdown=2**self.request.retries) from exc
