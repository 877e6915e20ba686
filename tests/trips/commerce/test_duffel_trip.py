"""A trip from the first message to a booking and its cancellation through the Duffel adapter,
against the fake Duffel server, through Django and the real core — and afterwards no date of
birth, document number or phone number in clear anywhere but the passenger rows."""

import json
import logging

import pytest

from tests.fakes.duffel_server import FakeDuffel
from tests.trips.commerce.flow import QUOTE, press, replies_after, say
from tests.trips.commerce.test_scenarios import llm  # noqa: F401  (the fake LLM fixture)
from trips.models import (
    ApprovalRequest,
    AuditEvent,
    Booking,
    ChatMessage,
    Hold,
    SupplierState,
    ToolRun,
    Trip,
    TripPassenger,
)
from trips.services.approvals import approval_grant
from trips.services.purchases import purchase_submit
from trips.services.travellers import trip_passengers_set
from trips.sheets import approval_sheet

pytestmark = pytest.mark.django_db(transaction=True)  # the core runs tools in worker threads

SECRETS = ("1979-04-17", "1984-09-02", "1990-11-30", "1962-06-25", "2080160508", "7700900123", "KTN998877")


def person(i, born):
    return {
        "type": "adult",
        "title": "mr" if i % 2 else "ms",
        "gender": "m" if i % 2 else "f",
        "given_name": ["Ada", "Alan", "Grace", "Edsger"][i],
        "family_name": ["Lovelace", "Turing", "Hopper", "Dijkstra"][i],
        "born_on": born,
        "email": f"traveller{i}@example.com",
        "phone_number": "+44 20 8016 0508" if i == 0 else "+44 7700 900123",
        "known_traveller_number": "KTN998877" if i == 1 else "",
    }


@pytest.fixture
def duffel(settings, frozen):
    with FakeDuffel(clock=frozen) as server:
        conf = {"ACCESS_TOKEN": FakeDuffel.TOKEN, "BASE_URL": server.base_url, "TIMEOUT_S": 5.0}
        settings.TRIPDESK = {**settings.TRIPDESK, "SUPPLIER": "duffel", "DUFFEL": conf}
        yield server


def test_duffel_booking_and_cancelling_leak_nothing(trip, traveller, approver, card, frozen, duffel, llm, caplog):  # noqa: F811
    caplog.set_level(logging.DEBUG)
    say(trip, traveller, QUOTE)
    trip.refresh_from_db()
    bundles = trip.intent["working_memory"]["ranked_bundles"]
    assert bundles and duffel.writes("/air/offer_requests") and duffel.writes("/stays/search")
    press(trip, traveller, type="select", bundle_id=bundles[0]["bundle_id"])

    asked = press(trip, traveller, type="hold")  # nobody named yet: the chat asks, nothing is held
    cards = [m.widget for m in replies_after(asked) if (m.widget or {}).get("type") == "travellers"]
    assert cards == [
        {
            "type": "travellers",
            "bundle_id": bundles[0]["bundle_id"],
            "travelers": {"adults": 4, "children": 0, "infants": 0},
        }
    ], [m.text for m in replies_after(asked)]
    assert not duffel.writes("/air/orders") and not Hold.objects.filter(trip=trip).exists()

    trip_passengers_set(trip=trip, actor=traveller, passengers=[person(i, SECRETS[i]) for i in range(4)])
    press(trip, traveller, type="hold", bundle_id=cards[0]["bundle_id"])  # what the saved card sends
    holds = list(Hold.objects.filter(trip=trip))
    flight = next(h for h in holds if h.item_type == "flight")
    order = duffel.app.orders[flight.hold_id]
    assert flight.payment_required_by.isoformat().startswith(order["payment_status"]["payment_required_by"][:16])
    sent = duffel.writes("/air/orders")[0].json["data"]["passengers"]
    assert sorted(p["family_name"] for p in sent) == ["Dijkstra", "Hopper", "Lovelace", "Turing"]

    approval = ApprovalRequest.objects.get(trip=trip, kind=ApprovalRequest.Kind.PURCHASE, status="pending")
    token = approval_grant(approval=approval, approver=approver, reason="Budgeted", now=frozen())
    purchase_submit(trip=trip, user=traveller, approval_token=token, payment_method_id=str(card.pk))
    booking = Booking.objects.get(trip=trip)
    assert order["booking_reference"] in booking.record_locators
    assert any(r.startswith("H") for r in booking.record_locators)  # the stay's reference
    assert duffel.writes("/air/payments") and duffel.writes("/stays/bookings")

    quoted = press(trip, traveller, type="cancel_booking", booking_id=booking.booking_id)
    quote = next(m.widget for m in replies_after(quoted) if m.widget and m.widget.get("type") == "cancellation")
    press(trip, traveller, type="cancel_booking", booking_id=booking.booking_id, quote_id=quote["quote_id"])
    booking.refresh_from_db()
    assert booking.status == Booking.Status.CANCELLED and order["cancelled_at"]

    stored = json.dumps(
        [
            *ChatMessage.objects.values_list("text", "widget", "event"),
            *AuditEvent.objects.values_list("payload", flat=True),
            *ToolRun.objects.values_list("arguments", "result", "error"),
            *Trip.objects.values_list("intent", flat=True),
            *SupplierState.objects.values_list("key", "value"),
            *ApprovalRequest.objects.values_list("snapshot", "reason"),
            *Booking.objects.values_list("orders", "record_locators"),
        ],
        default=str,
    )
    found = [s for s in SECRETS if s in stored or s in caplog.text or s in llm.all_sent_text()]
    assert found == [], "personal data outside the passenger rows"
    assert "Lovelace" not in llm.all_sent_text() and "Lovelace" not in stored
    assert TripPassenger.objects.filter(trip=trip, born_on="1979-04-17").exists()  # where it belongs
    assert len(llm.sent_bodies) >= 1, "the LLM really was asked"


def test_an_instant_fare_is_approved_and_bought_through_the_host(trip, traveller, approver, card, frozen, duffel, llm):  # noqa: F811
    """A bundle whose flight must be paid at once: reserved (a Hold row, nothing at Duffel), the same
    approval and token, then one instant order at the refreshed price; the booking keeps the references."""
    duffel.sell_instant_only()
    say(trip, traveller, QUOTE)
    trip.refresh_from_db()
    instant = trip.intent["working_memory"]["ranked_bundles"][0]
    assert {f["summary"]["holdable"] for f in instant["flights"]} == {False}
    press(trip, traveller, type="select", bundle_id=instant["bundle_id"])
    trip.refresh_from_db()
    assert trip.intent["working_memory"]["risk_report"]["ok"], trip.intent["working_memory"]["risk_report"]
    trip_passengers_set(trip=trip, actor=traveller, passengers=[person(i, SECRETS[i]) for i in range(4)])
    held = press(trip, traveller, type="hold", bundle_id=instant["bundle_id"])
    reserved = list(Hold.objects.filter(trip=trip, hold_id__startswith="ins_"))
    assert len(reserved) == 2 and {h.status for h in reserved} == {Hold.Status.HELD}
    assert "paid at once" in " ".join(m.text for m in replies_after(held))
    assert duffel.writes("/air/orders") == [] and duffel.writes("/stays/quotes")  # flights: nothing placed yet

    approval = ApprovalRequest.objects.get(trip=trip, kind=ApprovalRequest.Kind.PURCHASE, status="pending")
    sheet = approval_sheet(approval)  # the approver's decision page says what paying at once means
    assert {(i.kind, i.deadline.startswith("Paid at once when bought")) for i in sheet.items} == {
        ("Flight", True),
        ("Hotel", False),
    }
    token = approval_grant(approval=approval, approver=approver, reason="Budgeted", now=frozen())
    purchase_submit(trip=trip, user=traveller, approval_token=token, payment_method_id=str(card.pk))
    booking = Booking.objects.get(trip=trip)
    bought = [o for o in booking.orders if o["instant"]]
    assert sorted(o["hold_id"] for o in bought) == sorted(h.hold_id for h in reserved)
    for o in bought:
        order = duffel.app.orders[o["order_id"]]
        assert order["type"] == "instant" and o["record_locator"] == order["booking_reference"]
        assert o["supplier"] == "duffel" and order["booking_reference"] in booking.record_locators
    assert [w.json["data"]["type"] for w in duffel.writes("/air/orders")] == ["instant", "instant"]
    assert duffel.writes("/air/payments") == []  # paid inline with each order
    assert {h.status for h in Hold.objects.filter(trip=trip)} == {Hold.Status.PURCHASED}
