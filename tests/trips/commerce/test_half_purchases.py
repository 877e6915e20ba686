"""A purchase stopped half way by a retryable failure: never a silent half trip (DESIGN.md).

The real core buys the first item and times out on the second, keeping what it bought so the
traveller can submit again. The beat's deadline task waits out the grace period (or the end of
the other holds), then flags the trip for staff and tells the traveller, once.
"""

from datetime import timedelta

import pytest
from django.urls import reverse

from handlers.supplier import SandboxSupplier, SupplierError
from tests.factories import sign_in
from tests.trips.commerce.flow import to_held
from trips.models import AuditEvent, Booking, ChatMessage, Hold, Trip
from trips.services.approvals import approval_grant
from trips.services.half_purchases import half_purchases_flag
from trips.services.purchases import purchase_submit
from trips.tasks.deadlines import hold_deadlines_notify

pytestmark = pytest.mark.django_db(transaction=True)  # the core runs tools in worker threads

TOLD = "Part of your purchase went through"


@pytest.fixture
def supplier_times_out(monkeypatch):
    """The supplier sells the first item, then times out (retryable) until the returned function is called."""
    real_purchase, state = SandboxSupplier.purchase, {"bought": 0, "down": True}

    def first_then_timeout(self, **kwargs):
        if state["down"] and state["bought"]:
            raise SupplierError("timeout", "The supplier did not answer in time.", retryable=True)
        state["bought"] += 1
        return real_purchase(self, **kwargs)

    monkeypatch.setattr(SandboxSupplier, "purchase", first_then_timeout)
    return lambda: state.update(down=False)


@pytest.fixture
def half_bought(trip, traveller, approver, card, frozen, supplier_times_out):
    """``(trip, token)`` after a purchase that bought one item and stopped on a timeout."""
    approval = to_held(trip, traveller)
    token = approval_grant(approval=approval, approver=approver, now=frozen())
    purchase_submit(trip=trip, user=traveller, approval_token=token, payment_method_id=str(card.pk))
    assert Hold.objects.filter(trip=trip, status=Hold.Status.PURCHASED).count() == 1
    assert not Booking.objects.exists()
    return trip, token


def flags(trip):
    return list(AuditEvent.objects.filter(trip=trip, type="trip.flagged"))


def told(trip):
    return list(ChatMessage.objects.filter(trip=trip, role="assistant", text__startswith=TOLD))


def test_within_the_grace_period_nothing_happens(half_bought, frozen):
    trip, _ = half_bought
    frozen.advance(minutes=29)
    assert hold_deadlines_notify()["half_purchases_flagged"] == 0
    trip.refresh_from_db()
    assert not trip.flagged and not flags(trip) and not told(trip)


def test_after_the_grace_period_the_trip_is_flagged_and_the_traveller_told_once(half_bought, frozen):
    trip, _ = half_bought
    frozen.advance(minutes=31)
    assert hold_deadlines_notify()["half_purchases_flagged"] == 1
    assert hold_deadlines_notify()["half_purchases_flagged"] == 0  # the next beat run

    trip.refresh_from_db()
    assert trip.flagged
    assert Trip.objects.filter(flagged=True).get() == trip  # what the admin's "flagged" filter lists
    [flag] = flags(trip)
    paid = Hold.objects.get(trip=trip, status=Hold.Status.PURCHASED)
    assert flag.actor == "system"
    assert [item["hold_id"] for item in flag.payload["bought"]] == [paid.hold_id]
    assert flag.payload["bought"][0]["amount"] == str(paid.amount)
    assert paid.hold_id not in {item["hold_id"] for item in flag.payload["not_bought"]}
    assert len(flag.payload["not_bought"]) == 2
    assert len(flag.payload["supplier_orders"]) == 1 and flag.payload["supplier_orders"][0] in flag.payload["reason"]
    [message] = told(trip)
    assert f"the {paid.item_type}, ${paid.amount:,}" in message.text and "won't be charged twice" in message.text


def test_a_successful_resubmission_leaves_nothing_to_flag(half_bought, traveller, card, frozen, supplier_times_out):
    trip, token = half_bought
    supplier_times_out()  # the supplier answers again
    purchase_submit(trip=trip, user=traveller, approval_token=token, payment_method_id=str(card.pk))
    assert Booking.objects.filter(trip=trip).exists()

    frozen.advance(minutes=31)
    assert hold_deadlines_notify()["half_purchases_flagged"] == 0
    trip.refresh_from_db()
    assert not trip.flagged and not told(trip)


def test_once_the_rest_has_ended_it_is_flagged_without_waiting(half_bought, frozen):
    trip, _ = half_bought
    assert half_purchases_flag(now=frozen(), grace=timedelta(hours=6)) == 0
    Hold.objects.filter(trip=trip, status=Hold.Status.HELD).update(status=Hold.Status.RELEASED)
    assert half_purchases_flag(now=frozen(), grace=timedelta(hours=6)) == 1
    assert len(flags(trip)) == 1 and len(told(trip)) == 1


def test_a_trip_whose_turn_is_running_waits_for_the_next_run(half_bought, frozen):
    trip, _ = half_bought
    later = frozen() + timedelta(minutes=31)
    Trip.objects.filter(pk=trip.pk).update(turn_lease_until=later + timedelta(minutes=1))
    assert half_purchases_flag(now=later, grace=timedelta(minutes=30)) == 0
    assert half_purchases_flag(now=later + timedelta(minutes=2), grace=timedelta(minutes=30)) == 1


def test_staff_see_the_flag_and_its_reason(half_bought, frozen, client, support):
    trip, _ = half_bought
    frozen.advance(minutes=31)
    hold_deadlines_notify()
    [order_id] = flags(trip)[0].payload["supplier_orders"]
    sign_in(client, support)

    flagged_list = client.get(reverse("admin:trips_trip_changelist"), {"flagged__exact": "1"}).content.decode()
    assert reverse("admin:trips_trip_change", args=[trip.pk]) in flagged_list
    page = client.get(reverse("admin:trips_trip_change", args=[trip.pk])).content.decode()
    glance = page[page.index("At a glance") : page.index("TripIntent")]
    assert "Flagged" in glance and "Purchase left half finished" in glance and order_id in glance
