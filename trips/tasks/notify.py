"""``notification_send``: one email notification, sent after the write that caused it commits."""

import logging
import threading
from smtplib import SMTPException

from celery import shared_task
from django.conf import settings
from django.db import close_old_connections, connection, transaction

from trips.notifications import APPROVAL_REQUESTED
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


def notification_send_on_commit(kind: str, object_id: int) -> None:
    """Queue ``notification_send`` once the current transaction commits (the services' sender).

    A new approval request's email waits ``APPROVAL_EMAIL_SETTLE_SECONDS`` first: a request
    superseded meanwhile (the traveller held another option a moment later) emails nobody, since
    delivery re-reads the row and sends only for a request still pending. Eager Celery (the
    embedded default) ignores countdowns, so there the wait is a timer thread.
    """
    settle = settings.TRIPDESK["APPROVAL_EMAIL_SETTLE_SECONDS"] if kind == APPROVAL_REQUESTED else 0
    if settle <= 0:
        notification_send.delay_on_commit(kind, object_id)
    elif settings.CELERY_TASK_ALWAYS_EAGER:
        transaction.on_commit(lambda: _send_later(settle, kind, object_id))
    else:
        transaction.on_commit(lambda: notification_send.apply_async((kind, object_id), countdown=settle))


def _send_later(delay: float, kind: str, object_id: int) -> None:
    """The embedded default's countdown: send from a timer thread with its own database connection."""

    def send() -> None:
        try:
            notification_send.delay(kind, object_id)
        finally:
            close_old_connections()
            connection.close()

    timer = threading.Timer(delay, send)
    timer.daemon = True
    timer.start()
