"""The reconciliation sweep: a purchase claimed with no turn left to finish it is resumed or undone.

The orphan is made as a dead process leaves it: the approval claimed, the first item sold at the
supplier under the purchase's key, the purchase's turn failed for good (so no turn sweep will run
it again). The sweep asks the supplier, then resumes the purchase (the approval can still buy) or
undoes it (it cannot), tells the traveller in the chat and by email, flags the trip for staff and
audits ``purchase.reconciled``. (Killing a real process at each step: tests/reliability.)
"""

from datetime import timedelta

import pytest
from django.core import mail
from django.db import transaction
from django.utils import timezone

from handlers.specialists.booking_confirm_and_purchase import purchase_key
from handlers.supplier import SupplierError
from tests.trips.commerce.flow import to_held
from trips.hosting.factory import tool_deps
from trips.models import ApprovalRequest, AuditEvent, Booking, ChatMessage, Hold, Trip
from trips.services.approvals import approval_claim, approval_grant
from trips.services.chat import chat_message_add
from trips.services.purchase_reconcile import purchases_reconcile

pytestmark = pytest.mark.django_db(transaction=True)  # the core runs tools in worker threads


@pytest.fixture
def orphan(trip, traveller, approver, card, frozen):
    """A purchase that died after the supplier sold its first item: (approval, the order sold)."""
    traveller.email = "alice@example.test"
    traveller.save(update_fields=["email"])
    approval = to_held(trip, traveller)
    token = approval_grant(approval=approval, approver=approver, reason="ok", now=frozen())
    approval.refresh_from_db()
    with transaction.atomic(durable=True):
        chat_message_add(
            trip_id=trip.pk,
            role=ChatMessage.Role.USER,
            kind=ChatMessage.Kind.ACTION,
            text="Buy",
            event={
                "type": "USER_APPROVED_PURCHASE",
                "data": {"approval_id": str(approval.pk), "payment_method_id": str(card.pk)},
            },
            turn_status=ChatMessage.TurnStatus.FAILED,  # its retries ran out: no turn sweep runs it again
        )
    assert approval_claim(trip_id=trip.pk, token=token, hold_ids=approval.hold_ids, now=frozen()).ok
    supplier = tool_deps(clock=frozen).supplier
    first = approval.hold_ids[0]
    order = supplier.purchase(
        hold_id=first,
        amount_due=supplier.price_hold(first, now=frozen())["amount"],
        payment_method=card.as_core(),
        idempotency_key=purchase_key(str(approval.pk), first),
        now=frozen(),
    )
    return approval, order


def _charges(supplier) -> list[dict]:
    return [entry for entry in supplier.charges() if entry["kind"] == "charge"]


def test_a_claim_younger_than_the_grace_or_with_a_turn_to_come_is_left_alone(orphan, trip, frozen):
    supplier = tool_deps(clock=frozen).supplier
    assert purchases_reconcile(supplier=supplier, now=frozen(), grace=timedelta(seconds=30)) == 0, "too young"
    Trip.objects.filter(pk=trip.pk).update(turn_lease_until=frozen() + timedelta(seconds=60))
    assert purchases_reconcile(supplier=supplier, now=frozen(), grace=timedelta(0)) == 0, "a turn is running"
    assert not AuditEvent.objects.filter(type="purchase.reconciled").exists()
    assert ApprovalRequest.objects.get(pk=orphan[0].pk).claimed_until is not None


def test_a_usable_approval_is_resumed_into_one_booking_each_item_charged_once(orphan, trip, frozen):
    approval, order = orphan
    supplier = tool_deps(clock=frozen).supplier
    mail.outbox.clear()

    assert purchases_reconcile(supplier=supplier, now=frozen(), grace=timedelta(0)) == 1

    booking = Booking.objects.get(trip=trip)
    assert booking.approval_id == approval.pk and len(booking.record_locators) == len(approval.hold_ids)
    assert order["order_id"] in [o["order_id"] for o in booking.orders], "the sold item is replayed, not bought again"
    assert len(_charges(supplier)) == len(approval.hold_ids), "each item charged once"
    approval.refresh_from_db()
    assert approval.status == ApprovalRequest.Status.USED and approval.claimed_until is None
    event = AuditEvent.objects.get(trip=trip, type="purchase.reconciled")
    assert event.payload["outcome"] == "resumed" and event.payload["sold"] == [order["order_id"]]
    assert Trip.objects.get(pk=trip.pk).flagged
    assert AuditEvent.objects.get(trip=trip, type="trip.flagged").causation_id == f"reconcile:{approval.pk}"
    resumed = ChatMessage.objects.get(trip=trip, role="system", event__type="USER_APPROVED_PURCHASE")
    assert resumed.turn_status == ChatMessage.TurnStatus.DONE and "finishing it" in resumed.text
    assert [b["booking_id"] for b in Trip.objects.get(pk=trip.pk).intent["working_memory"]["bookings"]] == [
        booking.booking_id
    ]
    subjects = [message.subject for message in mail.outbox]
    assert any(s.startswith("Your purchase is being finished") for s in subjects), subjects
    assert any(s.startswith("Booked:") for s in subjects), subjects
    assert purchases_reconcile(supplier=supplier, now=frozen(), grace=timedelta(0)) == 0, "once"


def test_an_expired_approval_is_undone_at_the_supplier_and_told(orphan, trip, frozen):
    approval, order = orphan
    ApprovalRequest.objects.filter(pk=approval.pk).update(status=ApprovalRequest.Status.EXPIRED)
    supplier = tool_deps(clock=frozen).supplier
    mail.outbox.clear()

    assert purchases_reconcile(supplier=supplier, now=frozen(), grace=timedelta(0)) == 1

    assert not Booking.objects.exists()
    assert sum(float(entry["amount"]) for entry in supplier.charges()) == 0, "voided and refunded in full"
    assert supplier.get_order(order["order_id"])["status"] == "voided"
    assert Hold.objects.get(hold_id=order["hold_id"]).status == Hold.Status.RELEASED
    event = AuditEvent.objects.get(trip=trip, type="purchase.reconciled")
    assert event.payload["outcome"] == "undone" and event.payload["voided"] == [order["order_id"]]
    assert ApprovalRequest.objects.get(pk=approval.pk).claimed_until is None
    assert Trip.objects.get(pk=trip.pk).flagged
    told = ChatMessage.objects.filter(trip=trip, text__startswith="Your purchase was interrupted").get()
    assert "voided and refunded in full" in told.text
    assert [m.subject.split(":")[0] for m in mail.outbox] == ["Your purchase was undone"]
    assert "tdk_apv_" not in mail.outbox[0].body and "4242" not in mail.outbox[0].body


def test_a_void_the_supplier_refuses_is_left_to_staff(orphan, trip, frozen, monkeypatch):
    approval, order = orphan
    ApprovalRequest.objects.filter(pk=approval.pk).update(status=ApprovalRequest.Status.REVOKED)
    supplier = tool_deps(clock=frozen).supplier

    def refuse(order_id, *, now=None):
        raise SupplierError("void_window_closed", "The order can no longer be voided; cancel it instead.")

    monkeypatch.setattr(supplier, "order_void", refuse)
    assert purchases_reconcile(supplier=supplier, now=frozen(), grace=timedelta(0)) == 1

    event = AuditEvent.objects.get(trip=trip, type="purchase.reconciled")
    assert event.payload["outcome"] == "needs_attention" and event.payload["not_voided"] == [order["order_id"]]
    flag = AuditEvent.objects.get(trip=trip, type="trip.flagged")
    assert order["order_id"] in flag.payload["reason"] and "by hand" in flag.payload["reason"]
    assert ChatMessage.objects.filter(trip=trip, text__contains="travel team has been alerted").exists()
    assert ApprovalRequest.objects.get(pk=approval.pk).claimed_until is None, "reconciled once, not every round"
    assert timezone.now() == frozen()
