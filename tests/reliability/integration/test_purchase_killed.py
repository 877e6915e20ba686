"""On PostgreSQL with a real Celery worker: one purchase whose worker process is SIGKILLed at every
step in turn, and still exactly one booking, each item charged once, nothing left pending.

The worker dies at the first step, the broker hands the purchase's turn back (``acks_late``,
``reject_on_worker_lost``), the next pool process waits out the dead one's turn lease, resumes the
purchase and dies at the next step, and so on through every step
(``tests/reliability/test_purchase_kill.py`` kills a fresh purchase at each step on SQLite).
"""

import pytest

from tests.integration.conftest import held_and_granted, wait_until
from tests.reliability.test_purchase_kill import STEPS
from trips.models import ApprovalRequest, AuditEvent, Booking, ChatMessage, PaymentMethod, SupplierState
from trips.services.actions import traveller_act
from trips.web.protocol import traveller_action_parse

from .conftest import service_env, worker_start, worker_stop

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def dying_worker(scale_out, own_queue, tmp_path):
    """A worker that kills its own pool process once at each purchase step; the marks' path prefix."""
    from tripdesk.celery import app

    app.control.purge()
    marks = tmp_path / "crashed"
    env = service_env(
        TRIPDESK_CRASH_AT=",".join(STEPS), TRIPDESK_CRASH_MARK=str(marks), TRIPDESK_TURN_LEASE_SECONDS="3"
    )
    log = tmp_path / "worker.log"
    worker = worker_start(app="tripdesk", log=log, env=env, queue=own_queue)
    try:
        yield marks
        # The turn task redelivered after the last kill runs once more (and finds nothing to do):
        # let it end before the test's database is flushed under it.
        wait_until(
            lambda: "succeeded" in log.read_text(errors="replace").rsplit("signal 9", 1)[-1],
            timeout=60,
            what="the last redelivery",
        )
    finally:
        worker_stop(worker)
        print(f"\nworker log: {tmp_path / 'worker.log'}")


def test_a_purchase_killed_at_every_step_books_once(dying_worker, trip, traveller, approver):
    card = PaymentMethod.objects.create(owner=traveller, brand="visa", last4="4242", sandbox_reference="pm_k")
    holds, approval, token = held_and_granted(
        trip, traveller, approver, quote="2 people going from Newark to Denver for 3 nights on January 30"
    )

    action = {"type": "purchase", "approval_token": token, "payment_method_id": str(card.pk)}
    act = traveller_action_parse({"client_id": "buy", "action": action}, client_id_required=True)
    bought = traveller_act(trip=trip, user=traveller, act=act).message

    def crashed() -> list[str]:
        return sorted(path.name.split(".", 1)[1] for path in dying_worker.parent.glob(dying_worker.name + ".*"))

    try:
        # The last step (after the turn's end) leaves nothing to resume: wait for its kill, then the turn.
        wait_until(lambda: crashed() == sorted(STEPS), timeout=240, what="a kill at every step")
        wait_until(
            lambda: not ChatMessage.objects.filter(trip=trip, turn_status="queued").exists(),
            timeout=60,
            what="the purchase's turn done",
        )
    except AssertionError as exc:
        story = list(
            AuditEvent.objects.filter(trip=trip, created_at__gte=bought.created_at).values_list("type", "payload")
        )
        raise AssertionError(f"{exc}; killed at {crashed()}; the trip's events since: {story}") from exc
    booking = Booking.objects.get(trip=trip)
    assert booking.approval_id == approval.pk and len(booking.record_locators) == holds
    ledger = [row.value for row in SupplierState.objects.filter(key__startswith="sandbox:ledger:") if row.value]
    charges = [entry for entry in ledger if entry.get("kind") == "charge"]
    assert len(charges) == holds and not [entry for entry in ledger if entry.get("kind") == "refund"], ledger
    orders = SupplierState.objects.filter(key__startswith="sandbox:order:")
    assert all(row.value["status"] == "confirmed" for row in orders), [row.value for row in orders]
    approval.refresh_from_db()
    assert approval.status == ApprovalRequest.Status.USED and approval.claimed_until is None
    assert not ChatMessage.objects.filter(trip=trip, turn_status="queued").exists()
    trip.refresh_from_db()
    assert [b["booking_id"] for b in trip.intent["working_memory"]["bookings"]] == [booking.booking_id]
    assert AuditEvent.objects.filter(trip=trip, type="purchase.resumed").count() >= 1
