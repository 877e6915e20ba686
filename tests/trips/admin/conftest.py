"""The back office's fixtures: a trip with a row in every table the admin shows."""

import pytest
from django.utils import timezone

from trips.models import ApprovalRequest
from trips.services.approvals import approval_consume
from trips.services.chat import chat_message_create
from trips.services.holds import holds_sync
from trips.services.payment_methods import payment_method_create
from trips.services.toolruns import toolrun_record
from trips.services.travellers import companion_save, profile_save, trip_passengers_set

HELD = {
    "hold_id": "hld_smoke",
    "item_type": "flight",
    "offer_id": "off_1",
    "segment_id": "seg_1",
    "status": "held",
    "payment_required_by": "2030-01-01T00:00:00+00:00",
    "price_guarantee_expires_at": None,
    "held_total": {"amount": "100.00", "currency": "USD"},
    "idempotency_key": "k1",
    "created_at": "2026-12-01T14:00:00+00:00",
}


@pytest.fixture
def populated(trip, traveller):
    """A trip with a row in every table the back office shows."""
    now = timezone.now()
    chat_message_create(trip_id=trip.pk, message={"role": "assistant", "text": "Hello"})
    toolrun_record(
        trip_id=trip.pk,
        message_id=None,
        call_id="call_1",
        tool="flight_quote_search",
        arguments={"a": 1},
        result={"success": True},
        success=True,
        error=None,
        latency_ms=12,
        attempt=1,
        accounting=[],
    )
    person = {"title": "ms", "gender": "f", "given_name": "Ada", "family_name": "Lovelace", "born_on": "1985-12-10"}
    contact = {"email": "ada@example.com", "phone_number": "+442080160508"}
    trip_passengers_set(trip=trip, actor=traveller, passengers=[{"type": "adult", **person, **contact}])
    profile_save(user=traveller, data={**person, **contact})
    companion_save(user=traveller, data={**person, "given_name": "Grace"})
    intent = {**trip.intent, "working_memory": {**trip.intent["working_memory"], "holds": [HELD]}}
    holds_sync(trip=trip, trip_intent=intent, now=now)
    approval = ApprovalRequest.objects.get(trip=trip)
    approval_consume(
        approval_id=approval.pk,
        booking={"booking_id": "bk_1", "total": "100.00", "currency": "USD", "record_locators": ["ABC123"]},
        now=now,
    )
    payment_method_create(owner=traveller, brand="visa", last4="4242", label="Sandbox Visa")
    return trip
