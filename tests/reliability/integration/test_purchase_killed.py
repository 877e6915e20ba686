"""On PostgreSQL with a real Celery worker: one purchase whose worker process is SIGKILLed at every
step in turn, and still exactly one booking, each item charged once, nothing left pending; and one
killed after the supplier sold its first item, then revoked, which the reconciliation sweep undoes.

The worker dies at the first step, the broker hands the purchase's turn back (``acks_late``,
``reject_on_worker_lost``), the next pool process waits out the dead one's turn lease, resumes the
purchase and dies at the next step, and so on through every step
(``tests/reliability/test_purchase_kill.py`` kills a fresh purchase at each step on SQLite).
"""

from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Iterator

import pytest
from django.utils import timezone

from tests.integration.conftest import held_and_granted, wait_until
from tests.reliability.test_purchase_kill import STEPS
from trips.hosting.factory import tool_deps
from trips.models import ApprovalRequest, AuditEvent, Booking, ChatMessage, Hold, PaymentMethod, SupplierState, Trip
from trips.services.actions import traveller_act
from trips.services.approvals import approval_revoke
from trips.services.purchase_reconcile import purchases_reconcile
from trips.web.protocol import traveller_action_parse

from .conftest import service_env, worker_start, worker_stop

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@contextmanager
def _worker_dying_at(points: list[str], *, lease_seconds: int, queue: str, tmp_path: Path) -> Iterator[Path]:
    """A worker that kills its own pool process once at each of ``points``; yields the marks' path prefix."""
    from tripdesk.celery import app

    app.control.purge()
    marks = tmp_path / "crashed"
    env = service_env(
        TRIPDESK_CRASH_AT=",".join(points),
        TRIPDESK_CRASH_MARK=str(marks),
        TRIPDESK_TURN_LEASE_SECONDS=str(lease_seconds),
    )
    log = tmp_path / "worker.log"
    worker = worker_start(app="tripdesk", log=log, env=env, queue=queue)
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
        print(f"\nworker log: {log}")


@pytest.fixture
def dying_worker(scale_out, own_queue, tmp_path):
    """Dies once at every purchase step (a short lease, so each resumption comes quickly)."""
    with _worker_dying_at(STEPS, lease_seconds=3, queue=own_queue, tmp_path=tmp_path) as marks:
        yield marks


@pytest.fixture
def worker_dying_after_one_order(scale_out, own_queue, tmp_path):
    """Dies once, after the supplier confirmed the first item; the lease gives the test time to revoke."""
    with _worker_dying_at(["supplier.order_confirmed"], lease_seconds=15, queue=own_queue, tmp_path=tmp_path) as marks:
        yield marks


def _buy(trip, traveller, token: str, card) -> ChatMessage:
    action = {"type": "purchase", "approval_token": token, "payment_method_id": str(card.pk)}
    act = traveller_action_parse({"client_id": "buy", "action": action}, client_id_required=True)
    return traveller_act(trip=trip, user=traveller, act=act).message


def test_a_purchase_killed_at_every_step_books_once(dying_worker, trip, traveller, approver):
    card = PaymentMethod.objects.create(owner=traveller, brand="visa", last4="4242", sandbox_reference="pm_k")
    holds, approval, token = held_and_granted(
        trip, traveller, approver, quote="2 people going from Newark to Denver for 3 nights on January 30"
    )

    bought = _buy(trip, traveller, token, card)

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


def test_a_purchase_killed_then_revoked_is_undone_by_the_sweep(worker_dying_after_one_order, trip, traveller, approver):
    card = PaymentMethod.objects.create(owner=traveller, brand="visa", last4="4242", sandbox_reference="pm_k")
    _, approval, token = held_and_granted(
        trip, traveller, approver, quote="2 people going from Newark to Denver for 3 nights on January 30"
    )
    bought = _buy(trip, traveller, token, card)
    marks = worker_dying_after_one_order
    wait_until(lambda: Path(f"{marks}.supplier.order_confirmed").exists(), timeout=90, what="the kill")
    approval_revoke(approval=approval, actor=approver, reason="Changed my mind", now=timezone.now())
    # The redelivered turn, once the dead lease lapses, refuses the revoked approval and keeps its claim.
    wait_until(lambda: ChatMessage.objects.get(pk=bought.pk).turn_status == "done", timeout=90, what="the turn")
    assert ApprovalRequest.objects.get(pk=approval.pk).claimed_until is not None, "the dead purchase's claim stays"

    supplier = tool_deps(clock=timezone.now).supplier  # as the beat's purchases_reconcile_sweep does
    assert purchases_reconcile(supplier=supplier, now=timezone.now(), grace=timedelta(0)) == 1

    event = AuditEvent.objects.get(trip=trip, type="purchase.reconciled")
    assert event.payload["outcome"] == "undone" and len(event.payload["voided"]) == 1
    ledger = [row.value for row in SupplierState.objects.filter(key__startswith="sandbox:ledger:") if row.value]
    assert sum(float(entry["amount"]) for entry in ledger if entry.get("kind")) == 0, ledger
    assert not Booking.objects.filter(trip=trip).exists()
    assert Trip.objects.get(pk=trip.pk).flagged
    assert ApprovalRequest.objects.get(pk=approval.pk).claimed_until is None
    assert Hold.objects.filter(trip=trip, status=Hold.Status.RELEASED).count() == 1
    assert ChatMessage.objects.filter(trip=trip, text__startswith="Your purchase was interrupted").exists()
