import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from handlers.supplier import SupplierError
from tests.trips.commerce.flow import to_held
from trips.hosting.factory import tool_deps
from trips.models import AuditEvent, ChatMessage, Hold, Trip
from trips.services.holds import holds_release
from trips.services.staff import trip_flag, trip_holds_release


def test_support_flags_with_a_reason(trip, support):
    trip_flag(trip=trip, actor=support, reason="  call the traveller ")
    assert Trip.objects.get(pk=trip.pk).flagged
    event = AuditEvent.objects.get(trip=trip, type="staff.flagged")
    assert (event.actor, event.actor_user, event.payload) == (
        f"staff:{support.pk}",
        support,
        {"reason": "call the traveller"},
    )


def test_a_reason_is_required(trip, support):
    with pytest.raises(ValidationError):
        trip_flag(trip=trip, actor=support, reason=" ")
    assert not Trip.objects.get(pk=trip.pk).flagged


@pytest.mark.parametrize("who", ["approver", "traveller", "globex_support"])
def test_others_may_not_flag(trip, request, who):
    with pytest.raises(PermissionDenied):
        trip_flag(trip=trip, actor=request.getfixturevalue(who), reason="because")
    assert not AuditEvent.objects.filter(trip=trip, type="staff.flagged").exists()


def test_the_system_flags_without_a_person(trip):
    trip_flag(trip=trip, actor=None, reason="Purchase failed half way")
    event = AuditEvent.objects.get(trip=trip, type="trip.flagged")
    assert event.actor == "system" and Trip.objects.get(pk=trip.pk).flagged


class FailsAfterFirst:
    """A supplier that releases one hold, then is down."""

    def __init__(self):
        self.released = []

    def hold_release(self, hold_id, *, now=None):
        if self.released:
            raise SupplierError("supplier_error", "down for maintenance", retryable=True)
        self.released.append(hold_id)
        return {"hold_id": hold_id, "status": "released"}


@pytest.mark.django_db(transaction=True)  # the core runs tools in worker threads
def test_releasing_all_holds_runs_one_turn_and_sends_one_reply(trip, traveller, support, frozen):
    to_held(trip, traveller)
    held = sorted(Hold.objects.filter(trip=trip, status=Hold.Status.HELD).values_list("hold_id", flat=True))
    assert len(held) == 3, "two flights and a hotel"
    last_seq = ChatMessage.objects.filter(trip=trip).order_by("-seq").values_list("seq", flat=True).first()

    supplier = tool_deps(clock=timezone.now).supplier
    released = trip_holds_release(trip=trip, actor=support, reason="Traveller called to cancel", supplier=supplier)

    assert sorted(h.hold_id for h in released) == held
    assert not Hold.objects.filter(trip=trip, status=Hold.Status.HELD).exists()
    assert AuditEvent.objects.filter(trip=trip, type="hold.released").count() == 3, "one audited release per hold"
    after = ChatMessage.objects.filter(trip=trip, seq__gt=last_seq).order_by("seq")
    [system] = [m for m in after if m.role == "system"]
    assert system.event["type"] == "HOLDS_CHANGED" and sorted(system.event["data"]["hold_ids"]) == held
    assert system.turn_status == "done" and "holds on the flight and hotel" in system.text
    reply, card = [m for m in after if m.role == "assistant"]
    assert (
        "The 2 flights and the hotel are no longer on hold" in reply.text and "Traveller called to cancel" in reply.text
    )
    assert card.widget["type"] == "approval" and card.widget["status"] == "superseded", "the request's card follows"
    statuses = {h["status"] for h in Trip.objects.get(pk=trip.pk).intent["working_memory"]["holds"]}
    assert statuses == {"released"}


@pytest.mark.django_db
def test_a_supplier_failure_midway_keeps_what_was_released(held_trip, support, clock):
    """The supplier releases the first hold and fails the second: the first is recorded and told, then the error."""
    first, second = Hold.objects.filter(trip=held_trip).order_by("payment_required_by")
    supplier = FailsAfterFirst()

    with pytest.raises(ValidationError, match=second.hold_id):
        holds_release(holds=[first, second], actor=support, reason="Duplicate", supplier=supplier, now=clock())

    assert supplier.released == [first.hold_id]
    assert Hold.objects.get(pk=first.pk).status == Hold.Status.RELEASED
    assert Hold.objects.get(pk=second.pk).status == Hold.Status.HELD
    [system] = ChatMessage.objects.filter(trip=held_trip, event__type="HOLDS_CHANGED")
    assert system.event["data"]["hold_ids"] == [first.hold_id]
