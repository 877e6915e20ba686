"""The follow-up agent: read-only bundle tools, side-effecting tools never offered nor run."""

from __future__ import annotations

import json

import pytest

from handlers.common.defaults import DEFAULT_TOOLS, SIDE_EFFECT_TOOLS
from handlers.llm.bundle_tools import BUNDLE_TOOLS, bundle_tool_executors
from handlers.llm.followup import FollowupAgent
from handlers.testing import Harness
from tests.fakes.openai_server import Reply

NOW = "2026-12-01T19:00:00+00:00"


@pytest.fixture(scope="module")
def trip_with_bundles():
    """Scenario 1 run offline: a TripIntent with real sandbox offers, rates and bundles."""
    h = Harness(trip_id="trip-followup")
    h.say("4 people going from Newark to Denver for 3 nights on January 30")
    doc = h.intent()
    assert len(doc["working_memory"]["ranked_bundles"]) >= 3
    return doc


def _tool_output(server, request_index: int = 1) -> str:
    return next(
        i["output"] for i in server.sent_bodies[request_index]["input"] if i.get("type") == "function_call_output"
    )


def test_side_effecting_and_internal_tools_are_never_offered(server, make_loop, trip_with_bundles):
    # Executors exist for every registry tool, so only the registry flags can keep them out.
    def every_executor(doc):
        return {**bundle_tool_executors(doc), **{t["name"]: (lambda args: {"ran": True}) for t in DEFAULT_TOOLS}}

    agent = FollowupAgent(loop=make_loop(), registry=DEFAULT_TOOLS + BUNDLE_TOOLS, executors_for=every_executor)
    server.script(Reply.ok(text="B1 is the cheapest."))

    agent.answer("Which one is cheapest?", trip_with_bundles, NOW)

    offered = {t["name"] for t in server.sent_bodies[0]["tools"]}
    internal = {t["name"] for t in DEFAULT_TOOLS if t.get("internal")}
    assert offered.isdisjoint(SIDE_EFFECT_TOOLS | internal)
    assert {t["name"] for t in BUNDLE_TOOLS} <= offered
    assert {"reservation_hold_create", "booking_confirm_and_purchase"} <= SIDE_EFFECT_TOOLS


def test_a_call_to_a_side_effecting_tool_is_refused_not_run(server, make_loop, trip_with_bundles):
    ran = []

    def with_hold_executor(doc):
        return {**bundle_tool_executors(doc), "reservation_hold_create": lambda args: ran.append(args)}

    agent = FollowupAgent(loop=make_loop(), registry=DEFAULT_TOOLS + BUNDLE_TOOLS, executors_for=with_hold_executor)
    server.script(
        Reply.ok(calls=[{"name": "reservation_hold_create", "arguments": {"bundle_id": "B1"}}]),
        Reply.ok(text="Please use the Hold button to hold B1."),
    )

    answer = agent.answer("Hold B1 for me", trip_with_bundles, NOW)

    assert ran == []
    assert _tool_output(server).startswith("(tool failed: refused: 'reservation_hold_create'")
    assert answer["text"] == "Please use the Hold button to hold B1."
    assert answer["tool_calls"][0]["status"] == "failed" and answer["tool_calls"][0]["error"] == "forbidden"
    assert [e["status"] for e in answer["accounting"] if e["type"] == "tool"] == ["failed"]


def test_baggage_comes_from_the_bundle_offers(server, make_loop, trip_with_bundles):
    agent = FollowupAgent(loop=make_loop())
    server.script(
        Reply.ok(calls=[{"name": "bundle_baggage", "arguments": {"bundle_id": "b2"}}]),
        Reply.ok(text="One carry-on each, no checked bag."),
    )

    answer = agent.answer("How many bags on B2?", trip_with_bundles, NOW)

    wm = trip_with_bundles["working_memory"]
    bundle = next(b for b in wm["ranked_bundles"] if b["bundle_id"] == "B2")
    looked_up = json.loads(_tool_output(server))
    assert looked_up["bundle_id"] == "B2"
    for flight, seen in zip(bundle["flights"], looked_up["flights"], strict=True):
        quote = next(q for q in wm["flight_quotes"] if q["segment_id"] == flight["segment_id"])
        offer = next(o for o in quote["offers"] if o["offer_id"] == flight["offer_id"])
        assert seen["baggage_by_passenger_type"] == offer["baggage"] and set(offer["baggage"]) == {"adult"}
    assert answer["text"] == "One carry-on each, no checked bag." and answer["error"] is None


def test_cancellation_terms_and_times_of_a_bundle(trip_with_bundles):
    tools = bundle_tool_executors(trip_with_bundles)
    bundle = trip_with_bundles["working_memory"]["ranked_bundles"][0]

    terms = tools["bundle_cancellation_terms"]({"bundle_id": bundle["bundle_id"]})
    times = tools["bundle_times"]({"bundle_id": bundle["bundle_id"]})

    assert len(terms["flights"]) == len(bundle["flights"]) and len(terms["hotels"]) == len(bundle["hotels"])
    assert all(
        f["refund_before_departure"] is not None and "allowed" in f["refund_before_departure"] for f in terms["flights"]
    )
    assert all(isinstance(h["conditions"], list) and h["conditions"] for h in terms["hotels"])
    first = times["flights"][0]
    assert first["depart_at"] == bundle["flights"][0]["summary"]["depart_at"]
    assert first["legs"] and first["legs"][0]["depart_at"] == first["depart_at"]
    assert (times["hotels"][0]["check_in"], times["hotels"][0]["check_out"]) == ("2027-01-30", "2027-02-02")


def test_a_bundle_not_on_screen_is_an_error_naming_those_that_are(trip_with_bundles):
    result = bundle_tool_executors(trip_with_bundles)["bundle_times"]({"bundle_id": "B99"})

    on_screen = [b["bundle_id"] for b in trip_with_bundles["working_memory"]["ranked_bundles"]]
    assert result == {"error": "bundle 'B99' is not on screen", "bundles_on_screen": on_screen}


def test_a_failed_model_still_gives_the_traveller_an_answer(server, make_loop, trip_with_bundles):
    server.script(Reply.unauthorized())

    answer = FollowupAgent(loop=make_loop()).answer("Is B1 refundable?", trip_with_bundles, NOW)

    assert answer["error"]["code"] == "llm_auth"
    assert "couldn't look that up" in answer["text"] and len(answer["accounting"]) == 1


def test_the_runner_shows_the_followup_answer_in_chat(server, make_loop):
    server.script(
        Reply.ok(calls=[{"name": "bundle_baggage", "arguments": {"bundle_id": "B2"}}]),
        Reply.ok(text="Each traveller on B2 can bring one carry-on."),
    )
    h = Harness(trip_id="trip-chat", followup=FollowupAgent(loop=make_loop()))
    h.say("4 people going from Newark to Denver for 3 nights on January 30")
    assert server.requests == []  # the offline extractor read the trip; no model needed yet

    h.say("how many bags can I bring on B2?")

    assert "Each traveller on B2 can bring one carry-on." in [m["text"] for m in h.last["ui_messages"]]
    assert 'Question: "how many bags can I bring on B2?"' in server.sent_bodies[0]["input"][0]["content"]


def test_a_tool_that_is_not_offered_is_not_run(server, make_loop, trip_with_bundles):
    agent = FollowupAgent(loop=make_loop(), registry=DEFAULT_TOOLS + BUNDLE_TOOLS)  # no executor for the searches
    server.script(
        Reply.ok(calls=[{"name": "flight_quote_search", "arguments": {"segment_id": "seg_1"}}]),
        Reply.ok(text="I can only look at the bundles on screen."),
    )

    answer = agent.answer("Search again for later flights", trip_with_bundles, NOW)

    assert "flight_quote_search" not in {t["name"] for t in server.sent_bodies[0]["tools"]}
    assert _tool_output(server).startswith("(tool failed: unknown tool 'flight_quote_search'; available tools: bundle_")
    assert answer["tool_calls"][0]["error"] == "unknown_tool"
