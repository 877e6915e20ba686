"""The Reducer's decisions on hand-built trips: no supplier, no extractor."""

from __future__ import annotations

import copy

import pytest

from handlers.common.clock import parse_now
from handlers.common.intent import new_trip_intent
from handlers.reducer import Reducer
from handlers.tool_calls import hold_args, hotel_args, ranking_key, tool_call
from handlers.tools import args_hash
from handlers.trip_read import flight_key, missing_slots, stays_of
from handlers.wording import assumptions_said, money, route_label

NOW = "2026-12-01T14:00:00+00:00"


def place(code):
    return {"type": "airport", "code": code, "name": code}


def seg(n, origin, destination, day):
    return {"segment_id": f"seg_{n}", "origin": place(origin), "destination": place(destination), "depart_date": day}


def reduce(doc, event_type, **data):
    result = Reducer().run({"trip_intent": doc, "event": {"type": event_type, "data": data}, "now": NOW})
    assert result["success"], result
    return result["output"]


def names(out):
    return [c["name"] for c in out["tool_calls"]]


def texts(out):
    return " ".join(m["text"] for m in out["ui_messages"])


@pytest.fixture
def trip():
    doc = new_trip_intent("t1", parse_now(NOW))
    doc["party"]["travelers"]["adults"] = 3
    doc["itinerary"]["trip_type"] = "round_trip"
    doc["itinerary"]["segments"] = [seg(1, "JFK", "SFO", "2027-03-11"), seg(2, "SFO", "JFK", "2027-03-16")]
    return doc


def with_quotes(doc, first_night=None):
    """The trip after both flight searches and then the hotel search answered (the outbound's
    flights needing a bed from ``first_night`` when given)."""
    wm = doc["working_memory"]
    for _ in range(2):  # the flights, then the stay they land at
        for call in reduce(doc, "INTENT_READY")["tool_calls"]:
            a = call["arguments"]
            if call["name"] == "flight_quote_search":
                landing = {"searched": flight_key(a), "first_night": first_night} if first_night else {}
                wm["flight_quotes"].append(
                    {
                        "segment_id": a["segment_id"],
                        "offers": [{"offer_id": f"o_{a['segment_id']}"}],
                        "args_hash": args_hash(a),
                        **(landing if a["segment_id"] == "seg_1" else {}),
                    }
                )
            elif call["name"] == "hotel_quote_search":
                wm["hotel_quotes"].append(
                    {"stay_id": a["stay_id"], "rates": [{"rate_id": "r1"}], "args_hash": args_hash(a)}
                )
    return doc


def presented(doc):
    doc = with_quotes(doc)
    wm = doc["working_memory"]
    wm["ranking"] = {"key": ranking_key(doc)}
    wm["ranked_bundles"] = [
        {
            "bundle_id": "B1",
            "total": "900.00",
            "currency": "USD",
            "flights": [{"segment_id": "seg_1", "offer_id": "o_seg_1"}, {"segment_id": "seg_2", "offer_id": "o_seg_2"}],
            "hotels": [{"stay_id": "H1", "rate_id": "r1"}],
        },
        {"bundle_id": "B2", "total": "950.00", "currency": "USD", "flights": [], "hotels": []},
    ]
    return doc


def selected(doc, ok=True):
    doc = presented(doc)
    wm = doc["working_memory"]
    wm["selected"]["bundle_id"] = "B1"
    wm["risk_report"] = {
        "bundle_id": "B1",
        "ok": ok,
        "blocking": [] if ok else [{"code": "cap", "message": "Over the cap."}],
        "warnings": [],
    }
    return doc


def held(doc, deadline="2026-12-02T14:00:00+00:00"):
    doc = selected(doc)
    items = [("flight", "offer_id", "o_seg_1"), ("flight", "offer_id", "o_seg_2"), ("hotel", "rate_id", "r1")]  # B1's
    doc["working_memory"]["holds"] = [
        {
            "hold_id": f"h{i}",
            "item_type": kind,
            key: ref,
            "status": "held",
            "payment_required_by": deadline,
            "held_total": {"amount": "300.00", "currency": "USD"},
        }
        for i, (kind, key, ref) in enumerate(items, start=1)
    ]
    return doc


def test_missing_requirements_become_at_most_three_questions_and_no_tools():
    doc = new_trip_intent("t1", parse_now(NOW))
    out = reduce(doc, "INTENT_READY")
    assert out["tool_calls"] == []
    [msg] = out["ui_messages"]
    assert [q["slot"] for q in msg["widget"]["questions"]] == ["origin", "destination", "depart_date"]
    assert out["trip_intent"]["status"]["pending_question"]["slots"] == ["origin", "destination", "depart_date"]
    assert out["trip_intent"]["status"]["missing_required"] == [
        "origin",
        "destination",
        "depart_date",
        "adults",
        "return_date",
    ]


def test_a_round_trip_or_a_hotel_implies_a_return_date(trip):
    trip["itinerary"]["segments"] = trip["itinerary"]["segments"][:1]
    trip["itinerary"]["trip_type"] = None
    assert missing_slots(trip) == ["return_date"]
    trip["itinerary"]["trip_type"] = "one_way"
    trip["itinerary"]["lodging"]["needed"] = False
    assert missing_slots(trip) == []
    trip["itinerary"]["lodging"]["needed"] = True
    assert missing_slots(trip) == ["check_out"], "a one-way trip with a hotel needs the hotel's end date"


def test_complete_trip_searches_every_flight_then_the_stay_they_land_at(trip):
    out = reduce(trip, "INTENT_READY")
    assert names(out) == ["flight_quote_search", "flight_quote_search"], "the stay waits for the flight out"
    assert out["trip_intent"]["status"]["phase"] == "quoting"
    doc = with_quotes(copy.deepcopy(trip))
    [hotel] = [q for q in doc["working_memory"]["hotel_quotes"]]
    [stay] = stays_of(doc)
    assert (stay["location_code"], stay["check_in"], stay["check_out"]) == ("SFO", "2027-03-11", "2027-03-16")
    assert stay["rooms"] * stay["guests_per_room"] >= 3, "rooms fit the party"
    assert reduce(doc, "TOOL_RESULT", tool_name="hotel_quote_search", output={})["tool_calls"][0]["name"] == (
        "trip_option_ranker"
    )


def test_a_stay_starts_the_day_every_flight_out_lands(trip):
    """An overnight flight out: the hotel is searched from the day it lands, and the trip says why."""
    doc = with_quotes(copy.deepcopy(trip), first_night="2027-03-12")
    [stay] = stays_of(doc)
    assert (stay["check_in"], stay["check_out"], stay["first_night"]) == ("2027-03-12", "2027-03-16", "2027-03-12")
    [hotel] = doc["working_memory"]["hotel_quotes"]
    assert hotel["args_hash"] == args_hash(hotel_args(doc, stay)), "the hotel was searched from that day"
    assert any(line.startswith("Hotel in San Francisco from Fri Mar 12") for line in assumptions_said(doc))


@pytest.mark.parametrize(
    "landing, reason",
    [
        ("2027-03-11", "a flight lands the day it leaves"),
        ("2027-03-16", "landing the day the flight home leaves: no night to move to"),
    ],
)
def test_a_stay_keeps_its_day_when_a_flight_lands_in_time(trip, landing, reason):
    doc = with_quotes(copy.deepcopy(trip), first_night=landing)
    [stay] = stays_of(doc)
    assert stay["check_in"] == "2027-03-11" and "first_night" not in stay, reason


def test_a_landing_found_for_another_day_moves_nothing(trip):
    doc = with_quotes(copy.deepcopy(trip), first_night="2027-03-12")
    doc["itinerary"]["segments"][0]["depart_date"] = "2027-03-10"  # moved: that search is no longer current
    [stay] = stays_of(doc)
    assert stay["check_in"] == "2027-03-10" and "first_night" not in stay


def test_multi_city_stays_are_derived_between_legs(trip):
    trip["itinerary"]["trip_type"] = "multi_city"
    trip["itinerary"]["segments"] = [
        seg(1, "JFK", "LHR", "2027-02-10"),
        seg(2, "LHR", "CDG", "2027-02-14"),
        seg(3, "CDG", "JFK", "2027-02-18"),
    ]
    stays = stays_of(trip)
    assert [(s["location_code"], s["check_in"], s["check_out"]) for s in stays] == [
        ("LHR", "2027-02-10", "2027-02-14"),
        ("CDG", "2027-02-14", "2027-02-18"),
    ]


def test_quotes_then_ranker_then_present_in_the_same_turn(trip):
    doc = with_quotes(trip)
    out = reduce(doc, "TOOL_RESULT", tool_name="hotel_quote_search", output={})
    assert names(out) == ["trip_option_ranker"]
    doc = presented(trip)
    out = reduce(doc, "TOOL_RESULT", tool_name="trip_option_ranker", output={})
    assert out["tool_calls"] == []
    summary, bundles = out["ui_messages"]
    assert [summary["widget"]["type"], bundles["widget"]["type"]] == ["trip_summary", "bundles"], (
        "the understood trip comes first"
    )
    assert summary["widget"]["travelers"]["adults"] == 3
    assert summary["text"] == "Here's what I understood — 2 options below."
    assert bundles["text"] == "Here are 2 options for JFK ⇄ SFO, cheapest $900.00 in all for 3 adults."


def test_amounts_and_routes_read_as_a_traveller_reads_them(trip):
    assert money("1234.56", "USD") == "$1,234.56" and money("99", "CAD") == "CA$99.00"
    assert route_label(trip) == "JFK ⇄ SFO"
    trip["itinerary"]["segments"].append(seg(3, "JFK", "BOS", "2027-03-20"))
    trip["itinerary"]["segments"][1]["destination"] = place("LAX")
    assert route_label(trip) == "JFK → SFO → LAX, JFK → BOS"  # the third flight starts from JFK again


def test_empty_results_get_a_clear_message_and_no_ranker(trip):
    doc = with_quotes(trip)
    doc["working_memory"]["flight_quotes"][0]["offers"] = []
    out = reduce(doc, "TOOL_RESULT", tool_name="hotel_quote_search", output={})
    assert out["tool_calls"] == [] and "no flights JFK → SFO" in texts(out)


def test_a_failed_call_is_not_reissued_until_retry(trip):
    first = reduce(trip, "INTENT_READY")["tool_calls"][0]
    trip["working_memory"]["last_error"] = {
        "tool": "flight_quote_search",
        "code": "timeout",
        "retryable": True,
        "call": first,
    }
    out = reduce(trip, "TOOL_RESULT", tool_name="hotel_quote_search", output={})
    assert first not in out["tool_calls"]
    out = reduce(trip, "USER_RETRY")
    assert first in out["tool_calls"] and out["trip_intent"]["working_memory"]["last_error"] is None


def test_tool_errors_are_explained(trip):
    out = reduce(
        trip,
        "TOOL_ERROR",
        tool_name="flight_quote_search",
        error={"code": "timeout", "message": "Too slow.", "retryable": True},
    )
    [msg] = out["ui_messages"]
    assert msg["kind"] == "error" and "Too slow." in msg["text"] and "try again" in msg["text"]
    out = reduce(
        trip,
        "TOOL_ERROR",
        tool_name="hotel_quote_search",
        error={"code": "invalid_arguments", "message": "Bad.", "retryable": False},
    )
    assert "try again" not in texts(out)


def test_select_sets_the_selection_and_checks_policy(trip):
    doc = presented(trip)
    out = reduce(doc, "USER_SELECTED_BUNDLE", bundle_id="B1")
    assert names(out) == ["policy_and_risk_check"]
    assert out["tool_calls"][0]["arguments"]["bundle"]["bundle_id"] == "B1"
    assert out["trip_intent"]["working_memory"]["selected"] == {
        "bundle_id": "B1",
        "flight_option_id": ["o_seg_1", "o_seg_2"],
        "hotel_option_id": ["r1"],
    }


def test_selecting_another_bundle_releases_the_holds(trip):
    doc = held(trip)
    out = reduce(doc, "USER_SELECTED_BUNDLE", bundle_id="B2")
    assert names(out) == ["reservation_hold_release", "policy_and_risk_check"]
    assert out["trip_intent"]["working_memory"]["holds"] == []


def test_unknown_bundle_changes_nothing(trip):
    doc = presented(trip)
    out = reduce(doc, "USER_SELECTED_BUNDLE", bundle_id="B5")
    assert out["tool_calls"] == [] and out["trip_intent"] == doc


@pytest.mark.parametrize(
    ("setup", "reason"),
    [
        (presented, "Pick a bundle first"),
        (lambda d: selected(d, ok=False), "Over the cap"),
    ],
)
def test_hold_refusals_give_a_reason(trip, setup, reason):
    out = reduce(setup(trip), "USER_REQUEST_HOLD")
    assert out["tool_calls"] == [] and reason in texts(out)


def test_a_stale_risk_report_blocks_the_hold(trip):
    doc = selected(trip)
    doc["working_memory"]["risk_report"] = None
    out = reduce(doc, "USER_REQUEST_HOLD")
    assert out["tool_calls"] == [] and "isn't current" in texts(out)


def test_hold_covers_every_item_with_a_stable_idempotency_key(trip):
    doc = selected(trip)
    out = reduce(doc, "USER_REQUEST_HOLD")
    [call] = out["tool_calls"]
    assert call["name"] == "reservation_hold_create" and len(call["arguments"]["items"]) == 3
    assert (
        call["arguments"]["idempotency_key"]
        == hold_args(doc, doc["working_memory"]["ranked_bundles"][0])["idempotency_key"]
    )


def test_holds_needing_approval_wait(trip):
    doc = selected(trip)
    doc["policy"]["rules"]["holds_allowed_without_approval"] = False
    out = reduce(doc, "USER_REQUEST_HOLD")
    assert out["tool_calls"] == [] and out["ui_messages"][0]["widget"]["type"] == "hold_request"
    assert out["trip_intent"]["status"]["phase"] == "awaiting_hold_approval"
    approved = reduce(out["trip_intent"], "HOLD_APPROVAL_DECIDED", approved=True)
    assert names(approved) == ["reservation_hold_create"]
    denied = reduce(out["trip_intent"], "HOLD_APPROVAL_DECIDED", approved=False, reason="too dear")
    assert denied["tool_calls"] == [] and "too dear" in texts(denied)


def test_purchase_needs_live_holds(trip):
    out = reduce(selected(trip), "USER_APPROVED_PURCHASE", approval_token="tdk_apv_zzzzzzzzzz", payment_method_id="pm")
    assert out["tool_calls"] == [] and "nothing on hold" in texts(out)
    expired = held(copy.deepcopy(trip), deadline="2026-12-01T13:00:00+00:00")
    out = reduce(expired, "USER_APPROVED_PURCHASE", approval_token="tdk_apv_zzzzzzzzzz", payment_method_id="pm")
    assert out["tool_calls"] == [] and "expired" in texts(out) and "'hold'" in texts(out)
    assert {h["status"] for h in out["trip_intent"]["working_memory"]["holds"]} == {"expired"}


def partly_lapsed(trip):
    """B1 held; both flight holds passed their deadline, the hotel hold is still live."""
    doc = held(trip, deadline="2026-12-03T14:00:00+00:00")
    for hold in doc["working_memory"]["holds"][:2]:
        hold["payment_required_by"] = "2026-12-01T13:00:00+00:00"
    doc["working_memory"]["approval"] = {
        "approval_id": "apr_1",
        "status": "granted",
        "amount": "900.00",
        "currency": "USD",
    }
    doc["status"].update(phase="approved")
    return doc


def test_hold_after_partial_expiry_holds_again_what_lapsed_and_keeps_the_rest(trip):
    out = reduce(partly_lapsed(trip), "USER_REQUEST_HOLD")
    [call] = out["tool_calls"]
    assert call["name"] == "reservation_hold_create"
    assert [i.get("offer_id") or i.get("rate_id") for i in call["arguments"]["items"]] == ["o_seg_1", "o_seg_2"]
    wm = out["trip_intent"]["working_memory"]
    assert [h["status"] for h in wm["holds"]] == ["expired", "expired", "held"]
    assert wm["approval"]["status"] == "void", "the approval covered the old set of holds"
    assert (
        "already on hold" not in texts(out) and "keeping" in texts(out) and "approval for the old holds" in texts(out)
    )


def test_hold_with_everything_live_is_already_on_hold(trip):
    out = reduce(held(trip), "USER_REQUEST_HOLD")
    assert out["tool_calls"] == [] and "already on hold, until Wed Dec 2, 9:00 AM EST" in texts(out)


def test_a_lapsed_offer_is_searched_again_instead_of_held(trip):
    doc = partly_lapsed(trip)
    doc["working_memory"]["ranked_bundles"][0]["flights"][0]["summary"] = {"expires_at": "2026-12-01T13:30:00+00:00"}
    out = reduce(doc, "USER_REQUEST_HOLD")
    assert names(out)[0] == "reservation_hold_release" and out["tool_calls"][0]["arguments"]["hold_ids"] == ["h3"]
    assert "reservation_hold_create" not in names(out) and "flight_quote_search" in names(out)
    assert out["trip_intent"]["working_memory"]["ranked_bundles"] == [] and "searching again" in texts(out)


def test_purchase_with_only_part_of_the_bundle_held_buys_nothing(trip):
    out = reduce(
        partly_lapsed(trip), "USER_APPROVED_PURCHASE", approval_token="tdk_apv_zzzzzzzzzz", payment_method_id="pm"
    )
    assert out["tool_calls"] == [] and out["ui_messages"][0]["widget"]["code"] == "hold_incomplete"
    assert out["trip_intent"]["working_memory"]["approval"]["status"] == "void"


@pytest.mark.parametrize(
    ("status", "said"), [("released", "support released it (Duplicate booking)"), ("expired", "deadline passed")]
)
def test_holds_changed_by_the_host_are_written_down_and_told(trip, status, said):
    doc = held(trip)
    doc["working_memory"]["approval"] = {"approval_id": "apr_1", "status": "granted"}
    doc["status"].update(phase="approved")
    out = reduce(doc, "HOLDS_CHANGED", hold_ids=["h3"], status=status, reason="Duplicate booking")
    wm = out["trip_intent"]["working_memory"]
    assert [h["status"] for h in wm["holds"]] == ["held", "held", status] and out["tool_calls"] == []
    assert wm["approval"]["status"] == "void" and out["trip_intent"]["status"]["phase"] == "selected"
    assert said in texts(out) and "Say 'hold' to hold B1 again" in texts(out)
    again = reduce(out["trip_intent"], "HOLDS_CHANGED", hold_ids=["h3"], status=status, reason="Duplicate booking")
    assert again["ui_messages"] == [] and again["trip_intent"] == out["trip_intent"], "a repeated event changes nothing"


def test_holds_changed_never_touches_purchased_holds(trip):
    doc = held(trip)
    for hold in doc["working_memory"]["holds"]:
        hold["status"] = "purchased"
    out = reduce(doc, "HOLDS_CHANGED", hold_ids=["h1"], status="released", reason="x")
    assert out["trip_intent"] == doc and out["ui_messages"] == []


def test_the_token_goes_only_into_the_tool_arguments(trip):
    doc = held(trip)
    out = reduce(doc, "USER_APPROVED_PURCHASE", approval_token="tdk_apv_secretsecret", payment_method_id="pm_1")
    [call] = out["tool_calls"]
    assert call["arguments"]["approval_token"] == "tdk_apv_secretsecret"
    assert call["arguments"]["hold_ids"] == ["h1", "h2", "h3"] and call["arguments"]["expected_total"] == "900.00"
    assert "tdk_apv_secretsecret" not in str(out["trip_intent"]) + str(out["ui_messages"])


def test_purchase_text_is_refused_and_audited(trip):
    out = reduce(trip, "USER_MESSAGE", text="purchase now", purchase_text_refused=True)
    assert out["tool_calls"] == [] and out["audit"][0]["type"] == "purchase_text_refused"
    assert "approver's token" in texts(out)


@pytest.mark.parametrize("text", ["", "   ", "x" * 20001])
def test_unusable_texts_get_a_reply_and_no_tools(trip, text):
    out = reduce(trip, "USER_MESSAGE", text=text)
    assert out["tool_calls"] == [] and out["ui_messages"] and out["trip_intent"] == trip


def test_a_message_goes_to_the_extractor_with_the_pending_question(trip):
    trip["status"]["pending_question"] = {"slots": ["origin"], "text": "Where are you flying from?"}
    out = reduce(trip, "USER_MESSAGE", text="Boston")
    [call] = out["tool_calls"]
    assert call == tool_call("trip_requirements_extract", call["arguments"])
    assert call["arguments"]["pending_question"]["slots"] == ["origin"] and call["arguments"]["today"] == "2026-12-01"


def test_a_not_understood_question_about_bundles_asks_for_a_followup(trip):
    doc = presented(trip)
    call = {"arguments": {"text": "which one has the most legroom?"}}
    out = reduce(
        doc,
        "TOOL_RESULT",
        tool_name="trip_requirements_extract",
        call=call,
        output={},
        applied={"changed_paths": [], "understood": False},
    )
    assert out["followup"] == {"question": "which one has the most legroom?"} and out["ui_messages"]


def test_a_change_after_purchase_answers_with_cancellation(trip):
    trip["working_memory"]["bookings"] = [{"booking_id": "bk1"}]
    out = reduce(
        trip,
        "TOOL_RESULT",
        tool_name="trip_requirements_extract",
        call={"arguments": {"text": "x"}},
        output={},
        applied={"change_after_purchase": ["party.travelers.adults"]},
    )
    assert out["ui_messages"][0]["widget"] == {"type": "cancellation", "booking_id": "bk1", "action": "quote"}


def test_cancel_quote_then_confirm(trip):
    trip["working_memory"]["bookings"] = [{"booking_id": "bk1"}]
    assert reduce(trip, "USER_CANCEL_BOOKING", booking_id="bk1")["tool_calls"][0]["arguments"] == {
        "booking_id": "bk1",
        "action": "quote",
    }
    confirm = reduce(trip, "USER_CANCEL_BOOKING", booking_id="bk1", quote_id="cq1")["tool_calls"][0]["arguments"]
    assert confirm == {"booking_id": "bk1", "action": "confirm", "quote_id": "cq1"}
    assert reduce(trip, "USER_CANCEL_BOOKING", booking_id="nope")["tool_calls"] == []


def test_bad_payloads_fail_without_raising():
    assert Reducer().run({})["success"] is False
    assert (
        Reducer().run({"trip_intent": {}, "event": {"type": "USER_MESSAGE"}})["output"]["error"]["code"]
        == "invalid_payload"
    )


def test_chat_names_a_metro_by_its_city_never_by_its_pseudo_code():
    from handlers.wording import place_label

    assert place_label({"type": "city", "code": "QSF", "name": "San Francisco"}) == "San Francisco"
    assert place_label({"type": "airport", "code": "EWR", "name": "Newark"}) == "Newark (EWR)"
    assert place_label({"type": "airport", "code": "EWR", "name": "Newark"}, compact=True) == "EWR"
