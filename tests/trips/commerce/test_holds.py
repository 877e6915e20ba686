"""Hold rows mirror the TripIntent; staff release at the supplier; deadlines are written down."""

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from handlers.supplier import SupplierError
from tests.trips.commerce.helpers import RecordingSupplier, held_intent, hold_for
from trips.models import ApprovalRequest, AuditEvent, ChatMessage, Hold
from trips.services.approvals import approvals_expire_due
from trips.services.holds import hold_release, holds_expire_due, holds_sync


def test_sync_is_idempotent(held_trip, clock):
    created = holds_sync(trip=held_trip, trip_intent=held_trip.intent, now=clock())
    assert created == []
    assert Hold.objects.filter(trip=held_trip).count() == 2
    assert ApprovalRequest.objects.filter(trip=held_trip).count() == 1
    assert AuditEvent.objects.filter(trip=held_trip, type="hold.created").count() == 2


def test_holds_the_core_dropped_are_released_and_their_approval_superseded(held_trip, pending_approval, clock):
    intent = held_trip.intent
    intent["working_memory"]["holds"] = []  # an invalidating change released them
    holds_sync(trip=held_trip, trip_intent=intent, now=clock())
    assert set(Hold.objects.values_list("status", flat=True)) == {Hold.Status.RELEASED}
    pending_approval.refresh_from_db()
    assert pending_approval.status == ApprovalRequest.Status.SUPERSEDED
    assert AuditEvent.objects.filter(trip=held_trip, type="hold.released").count() == 2


def test_new_holds_replace_the_request_for_the_old_ones(held_trip, pending_approval, clock):
    intent = held_intent(held_trip.intent, now=clock(), suffix="2", amounts=("100.00", "200.00"))
    holds_sync(trip=held_trip, trip_intent=intent, now=clock())
    pending_approval.refresh_from_db()
    assert pending_approval.status == ApprovalRequest.Status.SUPERSEDED
    fresh = ApprovalRequest.objects.get(trip=held_trip, status="pending")
    assert fresh.hold_ids == ["hld_f2", "hld_h2"] and fresh.snapshot["total"] == "300.00"


def test_staff_release_a_hold_at_the_supplier_with_a_reason(held_trip, support, globex_support, traveller, clock):
    hold = Hold.objects.get(hold_id="hld_h1")
    supplier = RecordingSupplier()
    for outsider in (traveller, globex_support):
        with pytest.raises(PermissionDenied):
            hold_release(hold=hold, actor=outsider, reason="mine", supplier=supplier, now=clock())
    with pytest.raises(ValidationError):
        hold_release(hold=hold, actor=support, reason=" ", supplier=supplier, now=clock())
    assert supplier.released == []
    hold_release(hold=hold, actor=support, reason="Duplicate booking", supplier=supplier, now=clock())
    hold.refresh_from_db()
    assert supplier.released == ["hld_h1"] and hold.status == Hold.Status.RELEASED
    event = AuditEvent.objects.get(trip=held_trip, type="hold.released")
    assert event.actor == f"staff:{support.pk}" and event.payload["reason"] == "Duplicate booking"
    assert "Duplicate booking" in ChatMessage.objects.filter(trip=held_trip).last().text


def test_a_supplier_refusal_leaves_the_hold_as_it_was(held_trip, support, clock):
    hold = Hold.objects.get(hold_id="hld_h1")
    with pytest.raises(ValidationError, match="could not release"):
        hold_release(
            hold=hold,
            actor=support,
            reason="x",
            supplier=RecordingSupplier(SupplierError("not_found", "No such hold.")),
            now=clock(),
        )
    hold.refresh_from_db()
    assert hold.status == Hold.Status.HELD


def test_expiry_is_written_down_once(held_trip, pending_approval, clock):
    assert holds_expire_due(now=clock()) == 0
    later = clock() + timedelta(hours=24)
    assert holds_expire_due(now=later) == 2 and holds_expire_due(now=later) == 0
    assert approvals_expire_due(now=later) == 1 and approvals_expire_due(now=later) == 0
    pending_approval.refresh_from_db()
    assert pending_approval.status == ApprovalRequest.Status.EXPIRED
    assert ChatMessage.objects.filter(trip=held_trip, text__contains="has expired").count() == 2


def test_the_request_is_announced_in_money_and_local_time(held_trip):
    [said] = ChatMessage.objects.filter(trip=held_trip, widget__type="approval").values_list("text", flat=True)
    assert said == (
        "I've asked your approver to approve $1,030.00. You'll see their answer here; "
        "the holds last until Wed Dec 2, 9:00 AM EST."
    )


def test_the_request_says_whom_it_covers(trip, clock):
    trip.intent["party"] = {**(trip.intent.get("party") or {}), "travelers": {"adults": 2, "children": 1}}
    hold_for(trip, now=clock())
    [said] = ChatMessage.objects.filter(trip=trip, widget__type="approval").values_list("text", flat=True)
    assert said.startswith("I've asked your approver to approve $1,030.00 for 2 adults, 1 child. "), said
