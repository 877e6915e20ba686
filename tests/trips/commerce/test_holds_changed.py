"""Holds that change outside a turn reach the TripIntent: staff releases and expiries run a
``HOLDS_CHANGED`` turn through the trip's queue, so the core, the rows and the chat agree."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.trips.commerce.flow import press, replies_after, say, to_held
from trips.hosting.factory import tool_deps
from trips.models import ApprovalRequest, ChatMessage, Hold, Trip
from trips.services.holds import hold_release, holds_expire_due
from trips.tasks.deadlines import hold_deadlines_notify

pytestmark = pytest.mark.django_db(transaction=True)  # the core runs tools in worker threads


def core_holds(trip):
    return {h["hold_id"]: h for h in Trip.objects.get(pk=trip.pk).intent["working_memory"]["holds"]}


def test_a_staff_release_updates_the_trip_intent_and_tells_the_traveller(trip, traveller, support, frozen):
    approval = to_held(trip, traveller)
    hold = Hold.objects.get(trip=trip, item_type="hotel")
    supplier = tool_deps(clock=timezone.now).supplier
    hold_release(hold=hold, actor=support, reason="Duplicate booking", supplier=supplier, now=frozen())

    intent = Trip.objects.get(pk=trip.pk).intent
    assert core_holds(trip)[hold.hold_id]["status"] == "released"
    assert intent["working_memory"]["approval"]["status"] == "void" and intent["status"]["phase"] == "selected"
    system, reply, card = ChatMessage.objects.filter(trip=trip).order_by("-seq")[:3][::-1]
    assert system.role == "system" and system.event["type"] == "HOLDS_CHANGED" and system.turn_status == "done"
    assert card.widget["approval_id"] == approval.pk and card.widget["status"] == "superseded"
    assert card.text == "That approval request no longer applies: the holds it covered changed."
    assert (
        reply.role == "assistant" and "Duplicate booking" in reply.text and "Say 'hold' to hold B1 again" in reply.text
    )
    approval.refresh_from_db()
    assert approval.status == ApprovalRequest.Status.SUPERSEDED, "the request covered a hold that is gone"

    press(trip, traveller, type="hold")  # the hotel is held again; the flights, still live, are kept
    rows = Hold.objects.filter(trip=trip, status=Hold.Status.HELD)
    assert rows.count() == 3 and hold.hold_id not in {h.hold_id for h in rows}
    fresh = ApprovalRequest.objects.get(trip=trip, kind=ApprovalRequest.Kind.PURCHASE, status="pending")
    assert sorted(fresh.hold_ids) == sorted(h.hold_id for h in rows)


def test_expiry_is_written_into_the_trip_intent_once_per_trip(trip, traveller, frozen):
    approval = to_held(trip, traveller)
    frozen.advance(hours=25)  # past the flights' payment deadline, not the hotel's
    assert hold_deadlines_notify() == {
        "warned": 0,
        "holds_expired": 2,
        "approvals_expired": 1,
        "trips_told": 1,
        "half_purchases_flagged": 0,
    }
    statuses = {h["item_type"] + ":" + h["status"] for h in core_holds(trip).values()}
    assert statuses == {"flight:expired", "hotel:held"}
    assert Trip.objects.get(pk=trip.pk).intent["working_memory"]["approval"]["status"] == "void"
    told = ChatMessage.objects.filter(trip=trip, role="assistant", text__contains="deadline passed")
    assert told.count() == 1 and "the 2 flights are no longer on hold" in told.get().text.lower()
    assert not ChatMessage.objects.filter(trip=trip, turn_status="queued").exists()
    approval.refresh_from_db()
    assert approval.status == ApprovalRequest.Status.EXPIRED, "expired by its own deadline, not superseded"
    assert hold_deadlines_notify()["trips_told"] == 0 and holds_expire_due(now=frozen() + timedelta(minutes=1)) == 0


def test_the_traveller_releases_the_holds_in_words_and_the_request_is_withdrawn(trip, traveller, frozen):
    approval = to_held(trip, traveller)
    asked = say(trip, traveller, "has my manager approved yet?")
    [answer] = [m for m in replies_after(asked) if m.kind == ChatMessage.Kind.MESSAGE]
    assert "asked your approver" in answer.text and "Review and pay" in answer.text

    said = say(trip, traveller, "never mind, cancel the hold")
    [reply] = [m for m in replies_after(said) if m.kind == ChatMessage.Kind.MESSAGE]
    assert (
        reply.text.startswith("Released the 2 flights and the hotel.") and "Say 'hold' to hold B1 again" in reply.text
    )
    assert not Hold.objects.filter(trip=trip, status=Hold.Status.HELD).exists()
    assert {h["status"] for h in core_holds(trip).values()} == {"released"}
    approval.refresh_from_db()
    assert approval.status == ApprovalRequest.Status.SUPERSEDED, "an approver can no longer say yes to it"
    [card] = [m for m in replies_after(said) if (m.widget or {}).get("type") == "approval"]
    assert card.widget["approval_id"] == approval.pk and card.widget["status"] == "superseded", "the card says so"
    intent = Trip.objects.get(pk=trip.pk).intent
    assert intent["working_memory"]["approval"]["status"] == "void" and intent["status"]["phase"] == "selected"


def test_the_hold_cards_release_button_releases_once_and_is_audited(trip, traveller, frozen):
    """The hold card's "Release…" is "cancel the hold" as a button, through the one action schema."""
    from django.core.exceptions import ValidationError

    from trips.models import AuditEvent
    from trips.web.protocol import traveller_action_parse

    approval = to_held(trip, traveller)
    first = Hold.objects.filter(trip=trip).order_by("pk").first()
    act = traveller_action_parse(
        {"action": {"type": "release_holds", "hold_id": first.hold_id}}, client_id_required=False
    )
    pressed = press(trip, traveller, **act.action)
    assert pressed.text == "Release the holds" and pressed.event == {"type": "USER_RELEASE_HOLDS", "data": {}}
    [reply] = [m for m in replies_after(pressed) if m.kind == ChatMessage.Kind.MESSAGE]
    assert reply.text.startswith("Released the 2 flights and the hotel.")
    assert not Hold.objects.filter(trip=trip, status=Hold.Status.HELD).exists()
    approval.refresh_from_db()
    assert approval.status == ApprovalRequest.Status.SUPERSEDED
    received = AuditEvent.objects.get(trip=trip, type="message.received", payload__message_id=pressed.pk)
    assert received.actor == f"user:{traveller.pk}" and received.payload["event"]["type"] == "USER_RELEASE_HOLDS"

    # Pressed again (a second tab, an old card): those holds are gone, so nothing is saved or run.
    count = ChatMessage.objects.filter(trip=trip).count()
    with pytest.raises(ValidationError, match="no longer held"):
        press(trip, traveller, type="release_holds", hold_id=first.hold_id)
    assert ChatMessage.objects.filter(trip=trip).count() == count
