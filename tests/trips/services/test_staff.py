import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from trips.models import AuditEvent, Trip
from trips.services.staff import trip_flag


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
