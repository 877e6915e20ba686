"""50 purchase submissions with one token at the same moment, on PostgreSQL with a real worker.

The trip is quoted, selected and held through the Celery worker; then 50 threads, each on
its own database connection, submit the purchase at once (each becomes a queued turn the worker
runs in order, or, once the booking exists, is answered at the door). Exactly one booking, one
charge per held item in the sandbox supplier's ledger, and 49 answers that return that booking.
"""

import threading

import pytest
from django.db import connection

from tests.integration.conftest import held_and_granted, wait_until
from trips.models import ApprovalRequest, AuditEvent, Booking, ChatMessage, PaymentMethod, SupplierState
from trips.services.purchases import purchase_submit

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

SUBMISSIONS = 50


def _charges() -> list[dict]:
    ledger = SupplierState.objects.filter(key__startswith="sandbox:ledger:").exclude(key="sandbox:ledger:count")
    return [row.value for row in ledger if row.value.get("kind") == "charge"]


def test_fifty_submissions_one_booking_one_charge(celery_worker_process, trip, traveller, approver):
    card = PaymentMethod.objects.create(owner=traveller, brand="visa", last4="4242", sandbox_reference="pm_it")
    holds, approval, token = held_and_granted(
        trip, traveller, approver, quote="4 people going from Newark to Denver for 3 nights on January 30"
    )

    barrier, errors = threading.Barrier(SUBMISSIONS), []

    def submit():
        try:
            barrier.wait()
            purchase_submit(trip=trip, user=traveller, approval_token=token, payment_method_id=str(card.pk))
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=submit) for _ in range(SUBMISSIONS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert not errors, errors
    # Each submission is a queued turn (or answered at the door once the booking exists).
    wait_until(
        lambda: not ChatMessage.objects.filter(trip=trip, turn_status=ChatMessage.TurnStatus.QUEUED).exists(),
        timeout=180,
        what="every queued purchase",
    )
    booking = Booking.objects.get(trip=trip)
    assert booking.approval_id == approval.pk and len(booking.record_locators) == holds
    charges = _charges()
    assert len(charges) == holds, charges
    assert len({charge["order_id"] for charge in charges}) == holds
    types = list(AuditEvent.objects.filter(trip=trip).values_list("type", flat=True))
    assert types.count("purchase.attempted") == SUBMISSIONS
    assert types.count("purchase.succeeded") == 1 and types.count("approval.used") == 1
    refused = list(AuditEvent.objects.filter(trip=trip, type="purchase.refused").values_list("payload", flat=True))
    assert types.count("purchase.replayed") == SUBMISSIONS - 1, refused
    approval.refresh_from_db()
    assert approval.status == ApprovalRequest.Status.USED
