"""Driving a trip through the real mission core, as the chat would (SCENARIOS.md).

Turns go through ``turn_submit`` (Celery eager, so the turn runs on commit) and purchases
through ``purchase_submit``; the sandbox supplier and the offline extractor answer. Tests
that use these need ``django_db(transaction=True)``: the core runs tools in worker threads.
"""

from tests.factories import passengers_name
from trips.models import ApprovalRequest, ChatMessage, Trip
from trips.services.turns import turn_submit

QUOTE = "4 people going from Newark to Denver for 3 nights on January 30"


def say(trip: Trip, user, text: str) -> ChatMessage:
    return turn_submit(trip=trip, user=user, text=text)


def press(trip: Trip, user, **action) -> ChatMessage:
    return turn_submit(trip=trip, user=user, action=action)


def to_bundles(trip: Trip, user) -> Trip:
    say(trip, user, QUOTE)
    trip.refresh_from_db()
    assert trip.intent["working_memory"]["ranked_bundles"], "the sandbox should offer bundles"
    return trip


def to_selected(trip: Trip, user) -> Trip:
    """Bundles → B1 selected, everyone travelling named (a hold needs them)."""
    to_bundles(trip, user)
    passengers_name(trip)
    press(trip, user, type="select", bundle_id="B1")
    trip.refresh_from_db()
    assert trip.intent["working_memory"]["risk_report"]["ok"], trip.intent["working_memory"]["risk_report"]
    return trip


def to_held(trip: Trip, user) -> ApprovalRequest:
    """Bundles → B1 → hold; returns the purchase approval request the holds opened."""
    to_selected(trip, user)
    press(trip, user, type="hold")
    return ApprovalRequest.objects.get(trip=trip, kind=ApprovalRequest.Kind.PURCHASE, status="pending")


def replies_after(message: ChatMessage) -> list[ChatMessage]:
    """What the assistant said in answer to ``message``."""
    return list(ChatMessage.objects.filter(trip_id=message.trip_id, seq__gt=message.seq, role="assistant"))
