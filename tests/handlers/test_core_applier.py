"""The Applier writes each tool's result into its working_memory slot, and records failures."""

from __future__ import annotations

import pytest

from handlers.applier import Applier
from handlers.common.clock import parse_now
from handlers.common.intent import new_trip_intent
from handlers.tools import args_hash

NOW = "2026-12-01T14:00:00+00:00"


def ok(output):
    """What an SHC returns for a wrapper whose specialist succeeded."""
    return {"success": True, "output": {"tool_name": "x", "result": {"success": True, "output": output}}}


def failed(code, retryable=False, **extra):
    return {
        "success": False,
        "output": {"error": {"code": code, "message": f"{code} happened", "retryable": retryable}, **extra},
    }


def apply(doc, tool, arguments, result):
    out = Applier().run(
        {
            "trip_intent": doc,
            "tool_name": tool,
            "tool_call": {"name": tool, "arguments": arguments},
            "result": result,
            "now": NOW,
        }
    )
    assert out["success"], out
    return out["output"]


@pytest.fixture
def doc():
    return new_trip_intent("t1", parse_now(NOW))


def test_quotes_are_stored_per_segment_and_stay_with_their_args_hash(doc):
    args = {"segment_id": "seg_1", "origin": {"code": "JFK"}}
    doc = apply(
        doc, "flight_quote_search", args, ok({"segment_id": "seg_1", "offers": [{"offer_id": "o1"}], "count": 1})
    )["trip_intent"]
    doc = apply(
        doc, "flight_quote_search", args, ok({"segment_id": "seg_1", "offers": [{"offer_id": "o2"}], "count": 1})
    )["trip_intent"]
    [quote] = doc["working_memory"]["flight_quotes"]
    assert (
        quote["offers"] == [{"offer_id": "o2"}]
        and quote["args_hash"] == args_hash(args)
        and quote["searched_at"] == NOW
    )
    doc = apply(doc, "hotel_quote_search", {"stay_id": "st_1"}, ok({"stay_id": "st_1", "rates": [], "count": 0}))[
        "trip_intent"
    ]
    assert doc["working_memory"]["hotel_quotes"][0]["count"] == 0 and doc["status"]["phase"] == "quoting"


def test_at_most_five_bundles_numbered_b1_to_b5(doc):
    bundles = [{"bundle_id": f"X{i}", "rank": 7 - i, "total": "1"} for i in range(7)]
    out = apply(doc, "trip_option_ranker", {"top_k": 5}, ok({"bundles": bundles, "considered": 49}))
    wm = out["trip_intent"]["working_memory"]
    assert [b["bundle_id"] for b in wm["ranked_bundles"]] == ["B1", "B2", "B3", "B4", "B5"]
    assert [b["rank"] for b in wm["ranked_bundles"]] == [1, 2, 3, 4, 5]
    assert wm["ranking"]["considered"] == 49 and out["trip_intent"]["status"]["phase"] == "presenting"


def test_a_risk_report_with_blocking_findings_is_not_ok(doc):
    report = {"bundle_id": "B1", "ok": True, "blocking": [{"code": "cap", "message": "Over"}], "warnings": []}
    wm = apply(doc, "policy_and_risk_check", {"bundle": {"bundle_id": "B1"}}, ok(report))["trip_intent"][
        "working_memory"
    ]
    assert wm["risk_report"]["ok"] is False and wm["risk_report"]["checked_at"] == NOW


def test_holds_then_purchase_then_replay(doc):
    holds = [
        {"hold_id": "h1", "status": "held", "held_total": {"amount": "100.00", "currency": "USD"}},
        {"hold_id": "h2", "status": "held", "held_total": {"amount": "50.50", "currency": "USD"}},
    ]
    doc = apply(
        doc,
        "reservation_hold_create",
        {"bundle_id": "B1"},
        ok({"bundle_id": "B1", "holds": holds, "earliest_deadline": "2026-12-02T00:00:00+00:00"}),
    )["trip_intent"]
    wm = doc["working_memory"]
    assert wm["approval"] == {
        "approval_id": None,
        "status": "requested",
        "amount": "150.50",
        "currency": "USD",
        "expires_at": "2026-12-02T00:00:00+00:00",
    }
    booking = {"booking_id": "bk1", "approval_id": "apr_1", "record_locators": ["ABC123", "DEF456"]}
    buy = {"hold_ids": ["h1", "h2"], "approval_token": "tdk_apv_secretsecret"}
    doc = apply(doc, "booking_confirm_and_purchase", buy, ok({"booking": booking, "replayed": False}))["trip_intent"]
    doc = apply(doc, "booking_confirm_and_purchase", buy, ok({"booking": booking, "replayed": True}))["trip_intent"]
    wm = doc["working_memory"]
    assert wm["bookings"] == [booking] and {h["status"] for h in wm["holds"]} == {"purchased"}
    assert doc["status"]["phase"] == "purchased" and "secretsecret" not in str(doc)


def test_a_rehold_keeps_the_live_holds_and_the_approval_covers_the_whole_set(doc):
    hotel = {
        "hold_id": "h_hotel",
        "item_type": "hotel",
        "status": "held",
        "payment_required_by": "2026-12-03T14:00:00+00:00",
        "held_total": {"amount": "200.00", "currency": "USD"},
    }
    lapsed = {
        "hold_id": "h_old",
        "item_type": "flight",
        "status": "expired",
        "payment_required_by": "2026-12-01T13:00:00+00:00",
        "held_total": {"amount": "99.00", "currency": "USD"},
    }
    doc["working_memory"]["holds"] = [lapsed, hotel]
    flight = {
        "hold_id": "h_new",
        "item_type": "flight",
        "status": "held",
        "payment_required_by": "2026-12-02T14:00:00+00:00",
        "held_total": {"amount": "100.00", "currency": "USD"},
    }
    out = apply(
        doc,
        "reservation_hold_create",
        {"bundle_id": "B1"},
        ok({"bundle_id": "B1", "holds": [flight], "earliest_deadline": flight["payment_required_by"]}),
    )
    wm = out["trip_intent"]["working_memory"]
    assert [h["hold_id"] for h in wm["holds"]] == ["h_hotel", "h_new"]
    assert wm["approval"]["amount"] == "300.00" and wm["approval"]["expires_at"] == "2026-12-02T14:00:00+00:00"


@pytest.mark.parametrize(
    ("code", "effect"),
    [
        (
            "hold_expired",
            lambda wm, doc: {h["status"] for h in wm["holds"]} == {"expired"} and wm["approval"]["status"] == "void",
        ),
        (
            "price_changed",
            lambda wm, doc: (
                wm["approval"]["status"] == "needs_new_approval" and wm["approval"]["new_total"] == "999.00"
            ),
        ),
        ("partial_failure", lambda wm, doc: doc["status"]["phase"] == "needs_attention"),
    ],
)
def test_purchase_failures(doc, code, effect):
    doc["working_memory"]["holds"] = [{"hold_id": "h1", "status": "held"}]
    truth = [{"hold_id": "h1", "status": "expired" if code == "hold_expired" else "held"}]
    out = apply(
        doc,
        "booking_confirm_and_purchase",
        {"approval_token": "tdk_apv_secretsecret", "hold_ids": ["h1"]},
        failed(code, new_total="999.00", holds=truth),
    )
    after = out["trip_intent"]
    assert effect(after["working_memory"], after)
    assert after["working_memory"]["last_error"]["call"]["arguments"]["approval_token"] == "[REDACTED]"


def held_pair(doc):
    doc["working_memory"]["holds"] = [{"hold_id": "h1", "status": "held"}, {"hold_id": "h2", "status": "held"}]
    doc["working_memory"]["approval"] = {"approval_id": None, "status": "requested"}
    doc["status"].update(phase="held", state="needs_input")
    return {"approval_token": "tdk_apv_secretsecret", "hold_ids": ["h1", "h2"]}


def test_a_purchase_stopped_half_way_shows_what_the_supplier_bought(doc):
    buy = held_pair(doc)
    truth = [{"hold_id": "h1", "status": "purchased"}, {"hold_id": "h2", "status": "held"}]
    after = apply(
        doc, "booking_confirm_and_purchase", buy, failed("timeout", retryable=True, holds=truth, bought_orders=["o1"])
    )["trip_intent"]
    wm = after["working_memory"]
    assert [h["status"] for h in wm["holds"]] == ["purchased", "held"]
    assert wm["approval"]["status"] == "requested", "the resubmission uses the same approval"
    assert after["status"]["state"] == "error" and wm["bookings"] == []


def test_a_purchase_undone_shows_the_holds_the_supplier_ended_and_voids_the_approval(doc):
    buy = held_pair(doc)
    truth = [{"hold_id": "h1", "status": "released"}, {"hold_id": "h2", "status": "failed"}]
    after = apply(doc, "booking_confirm_and_purchase", buy, failed("sold_out", holds=truth, voided_orders=["o1"]))[
        "trip_intent"
    ]
    assert [h["status"] for h in after["working_memory"]["holds"]] == ["released", "failed"]
    assert after["working_memory"]["approval"]["status"] == "void" and after["status"]["phase"] == "selected"


def test_a_failure_keeps_the_slot_and_records_a_retryable_error(doc):
    doc["working_memory"]["flight_quotes"] = [{"segment_id": "seg_1", "offers": [{"offer_id": "o1"}]}]
    wm = apply(doc, "flight_quote_search", {"segment_id": "seg_1"}, failed("timeout", retryable=True))["trip_intent"][
        "working_memory"
    ]
    assert wm["flight_quotes"] == doc["working_memory"]["flight_quotes"]
    assert wm["last_error"]["tool"] == "flight_quote_search" and wm["last_error"]["retryable"] is True


def test_a_later_success_of_the_same_search_clears_the_error(doc):
    doc["working_memory"]["last_error"] = {
        "tool": "flight_quote_search",
        "code": "timeout",
        "call": {"name": "flight_quote_search", "arguments": {"segment_id": "s"}},
    }
    wm = apply(doc, "flight_quote_search", {"segment_id": "s"}, ok({"segment_id": "s", "offers": []}))["trip_intent"][
        "working_memory"
    ]
    assert wm["last_error"] is None


def test_another_segments_search_leaves_the_failure_and_the_error_state(doc):
    failure = apply(doc, "flight_quote_search", {"segment_id": "s1"}, failed("timeout", retryable=True))["trip_intent"]
    after = apply(
        failure, "flight_quote_search", {"segment_id": "s2"}, ok({"segment_id": "s2", "offers": [{"offer_id": "o"}]})
    )["trip_intent"]
    assert after["working_memory"]["last_error"]["call"]["arguments"] == {"segment_id": "s1"}
    assert (after["status"]["phase"], after["status"]["state"]) == ("quoting", "error")
    hotel = apply(after, "hotel_quote_search", {"stay_id": "h1"}, ok({"stay_id": "h1", "rates": [{"rate_id": "r"}]}))[
        "trip_intent"
    ]
    assert hotel["status"]["state"] == "error"


def test_the_extractor_patch_goes_through_the_patcher(doc):
    doc["working_memory"]["hotel_quotes"] = [{"stay_id": "st_1", "rates": [1]}]
    out = apply(
        doc,
        "trip_requirements_extract",
        {"text": "4 stars"},
        ok(
            {
                "patch": {"preferences": {"hotel": {"min_stars": 4}}},
                "assumptions": ["Assumed economy"],
                "understood": True,
            }
        ),
    )
    assert out["changed_paths"] == ["preferences.hotel.min_stars"] and out["invalidations"] == ["hotel_quotes"]
    assert out["trip_intent"]["status"]["assumptions"] == ["Assumed economy"] and out["understood"] is True


def test_a_bare_shc_failure_is_read_too(doc):
    out = apply(
        doc,
        "hotel_quote_search",
        {},
        {"success": False, "output": {"error": {"code": "invalid_arguments", "message": "m", "retryable": False}}},
    )
    assert out["trip_intent"]["working_memory"]["last_error"]["code"] == "invalid_arguments"
    assert Applier().run({"trip_intent": None})["success"] is False
