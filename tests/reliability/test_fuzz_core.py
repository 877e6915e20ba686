"""Hostile text against the extractor and the router: arbitrary unicode, control characters, huge
strings, malformed payloads. They never raise, always answer in the contract's shape, and no text,
whatever it says, buys anything.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handlers.common.types import EVENT_TYPES
from handlers.router import Router, route_text
from handlers.specialists.trip_requirements_extract import TripRequirementsExtract
from handlers.testing import Harness

from .missions import SCENARIOS

FIELDS = {
    "origin",
    "destination",
    "depart_date",
    "return_date",
    "nights",
    "one_way",
    "legs",
    "adults",
    "children",
    "infants",
    "child_ages",
    "rooms",
    "cabin",
    "airlines",
    "max_stops",
    "prefer_nonstop",
    "avoid_red_eye",
    "relax",
    "budget_total",
    "currency",
    "refundable",
    "hotel_needed",
    "stays",
    "hotel_min_stars",
    "hotel_near",
    "hotel_board",
    "hotel_beds",
    "airlines_required",
    "airlines_avoid",
    "time_out",
    "time_return",
    "arrive_out",
    "arrive_return",
    "budget_per_person",
    "hotel_max_per_night",
    "flights_needed",
    "separate_rooms",
    "for_work",
    "hotel_quality",
    "friends_sharing",
    "colleagues",
}
REQUIREMENT_KEYS = {"party", "itinerary", "preferences", "constraints", "status"}  # what a patch may touch
PURCHASE_WORDS = [
    "purchase now",
    "buy it",
    "approve",
    "approval_token=",
    "tdk_apv_",
    "confirm booking",
    "pay",
    "The approval policy has been amended",
    "book it",
    "B1",
    "hold",
    "try again",
    "\x00",
    "\u202e",
]

# Text of every kind: any code point (control characters, surrogates excluded by Python), words
# a purchase might be smuggled in with, and long runs of either.
any_text = st.one_of(
    st.text(max_size=400),
    st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x1F), max_size=200),
    st.lists(st.sampled_from(PURCHASE_WORDS + list(SCENARIOS)), max_size=12).map(" ".join),
    st.builds(lambda s, n: s * n, st.text(min_size=1, max_size=20), st.integers(100, 60_000)),
)
json_value = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)
URLSAFE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
BUNDLES_ON_SCREEN = {
    "working_memory": {"ranked_bundles": [{"bundle_id": f"B{i}", "total": f"{900 - i}.00"} for i in range(1, 6)]},
    "status": {"pending_question": None},
}


def extract(args, now="2026-12-01T14:00:00+00:00"):
    return TripRequirementsExtract().run({"args": args, "now": now, "trip_id": "t1"})


@FUZZ
@given(
    text=any_text,
    pending=st.none()
    | st.fixed_dictionaries(
        {
            "slots": st.lists(
                st.sampled_from(["origin", "destination", "depart_date", "adults", "nights"]), max_size=3
            ),
            "text": st.text(max_size=40),
        }
    ),
)
def test_the_extractor_answers_any_text_in_the_schema(text, pending):
    result = extract({"text": text, "today": "2026-12-01", "timezone": "America/New_York", "pending_question": pending})
    assert result["success"], result["output"]
    out = result["output"]
    assert set(out["fields"]) <= FIELDS
    assert set(out["patch"]) <= REQUIREMENT_KEYS, "a message may only change requirements"
    assert isinstance(out["understood"], bool) and all(isinstance(a, str) for a in out["assumptions"])


@FUZZ
@given(args=json_value, now=st.none() | st.text(max_size=30))
def test_the_extractor_survives_malformed_arguments(args, now):
    result = extract(args, now=now)
    assert set(result) == {"success", "input", "output", "stack"}
    if not result["success"]:
        assert {"code", "message"} <= set(result["output"]["error"])


@FUZZ
@given(text=any_text | json_value)
def test_the_router_never_routes_text_to_a_purchase(text):
    event = route_text(text, BUNDLES_ON_SCREEN)
    assert event["type"] in {"USER_MESSAGE", "USER_RETRY", "USER_REQUEST_HOLD", "USER_SELECTED_BUNDLE"}
    if event["type"] == "USER_SELECTED_BUNDLE":
        assert event["data"]["bundle_id"] in {f"B{i}" for i in range(1, 6)}


@FUZZ
@given(before=any_text, secret=st.text(alphabet=URLSAFE, min_size=43, max_size=43), after=st.text(max_size=100))
def test_a_pasted_approval_token_is_refused_and_never_passed_on(before, secret, after):
    token = f"tdk_apv_{secret}"
    event = route_text(f"{before} {token} {after}", BUNDLES_ON_SCREEN)
    assert event["type"] == "USER_MESSAGE" and event["data"]["purchase_text_refused"]
    assert token not in str(event)


@FUZZ
@given(event=json_value, trip_intent=json_value)
def test_the_router_handler_refuses_what_it_does_not_know(event, trip_intent):
    result = Router().run({"event": event, "trip_intent": trip_intent})
    if not result["success"]:
        assert result["output"]["error"]["code"] and not (
            isinstance(event, dict) and event.get("type") == "USER_MESSAGE" and isinstance(trip_intent, dict)
        )
        return
    assert isinstance(event, dict) and event["type"] in EVENT_TYPES
    if event["type"] == "USER_MESSAGE":
        assert result["output"]["event"]["type"] != "USER_APPROVED_PURCHASE"


@pytest.fixture(scope="module")
def held():
    """A trip whose holds wait for the purchase: the moment words could do the most harm."""
    h = Harness()
    h.say(SCENARIOS[1])
    for bundle in h.intent()["working_memory"]["ranked_bundles"]:
        h.select(bundle["bundle_id"])
        if h.intent()["working_memory"]["risk_report"]["ok"]:
            break
    h.hold()
    assert h.intent()["working_memory"]["holds"]
    return h


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(text=any_text)
def test_no_chat_text_buys_anything(held, text):
    turn = held.say(text)
    assert "booking_confirm_and_purchase" not in held.tools_run(turn=turn)
    assert held.intent()["working_memory"]["bookings"] == [] and held.deps.supplier.charges() == []
    said = [m for m in turn["ui_messages"] if m["kind"] != "progress"]
    assert said and all(m["text"].strip() for m in said), "every message gets a reply"
