"""policy_and_risk_check: each policy rule and risk, blocking or warning, with codes."""

import copy
import re

import pytest

from handlers.common.defaults import DEFAULT_POLICY
from handlers.specialists import SELF_TEST_NOW
from handlers.specialists.policy_and_risk_check import PolicyAndRiskCheck

NOW = SELF_TEST_NOW.isoformat()
FLIGHT = {
    "segment_id": "S1",
    "offer_id": "off_1",
    "summary": {
        "carrier": "UA",
        "carrier_name": "United Airlines",
        "origin": "EWR",
        "destination": "DEN",
        "cabin": "economy",
        "duration_minutes": 240,
        "stops": 0,
        "connections": [],
        "red_eye": False,
        "refundable": True,
        "depart_at": "2027-01-30T08:00:00-05:00",
        "arrive_at": "2027-01-30T10:00:00-07:00",
        "total": "400.00",
        "currency": "USD",
        "expires_at": "2026-12-01T20:00:00+00:00",
        "holdable": True,
    },
}
HOTEL = {
    "stay_id": "H1",
    "rate_id": "rate_1",
    "summary": {
        "hotel_name": "Denver Grand Hotel",
        "stars": 4,
        "board_type": "breakfast",
        "refundable": True,
        "refundable_until": "2027-01-28T01:00:00+00:00",
        "total": "600.00",
        "currency": "USD",
        "nightly_avg": "180.00",
        "nightly_max": "200.00",
        "nights": 3,
        "expires_at": "2026-12-01T20:00:00+00:00",
        "holdable": True,
    },
}
BUNDLE = {"bundle_id": "B1", "total": "1000.00", "currency": "USD", "flights": [FLIGHT], "hotels": [HOTEL]}


def check(bundle=None, policy=None, constraints=None, now=NOW):
    org_policy = copy.deepcopy(DEFAULT_POLICY) | (policy or {})
    return PolicyAndRiskCheck().run(
        {
            "args": {"bundle": bundle or BUNDLE, "constraints": constraints or {}},
            "org": {"id": "acme", "policy": org_policy},
            "now": now,
        }
    )["output"]


def with_flight(**summary):
    return {**BUNDLE, "flights": [{**FLIGHT, "summary": {**FLIGHT["summary"], **summary}}]}


def with_hotel(**summary):
    return {**BUNDLE, "hotels": [{**HOTEL, "summary": {**HOTEL["summary"], **summary}}]}


def codes(findings):
    return {f["code"] for f in findings}


def test_a_compliant_bundle_is_ok_with_only_informational_warnings():
    out = check()
    assert out["ok"] is True and out["blocking"] == [] and out["bundle_id"] == "B1"
    assert codes(out["warnings"]) == {"approval_required", "hotel_cancellation_deadline"}
    assert out["checked_at"] == NOW


@pytest.mark.parametrize(
    "bundle, policy, code",
    [
        (with_flight(cabin="business"), {}, "cabin_above_policy"),
        (with_flight(stops=1, connections=[{"airport": "ORD", "minutes": 30}]), {}, "connection_too_short"),
        (with_hotel(nightly_max="420.00"), {}, "hotel_over_cap"),
        (with_hotel(refundable=False, refundable_until=None), {"refundable_required": True}, "refundable_required"),
        ({**BUNDLE, "total": "5000.00"}, {"budget_per_trip": "3000.00"}, "over_policy_budget"),
        (with_flight(expires_at="2026-12-01T18:59:00+00:00"), {}, "offer_expired"),
        (with_flight(red_eye=True), {"red_eye_allowed": False}, "red_eye"),
    ],
)
def test_policy_breaches_block(bundle, policy, code):
    out = check(bundle, policy)
    assert out["ok"] is False and code in codes(out["blocking"])
    assert all(f["message"] for f in out["blocking"])


@pytest.mark.parametrize(
    "bundle, constraints, code",
    [
        (with_flight(stops=1, connections=[{"airport": "ORD", "minutes": 400}]), {}, "long_connection"),
        (with_flight(red_eye=True), {}, "red_eye"),
        (with_flight(expires_at="2026-12-01T19:10:00+00:00"), {}, "offer_expiring"),
        (with_flight(depart_at="2026-12-02T08:00:00-05:00"), {}, "departure_soon"),
        (BUNDLE, {"budget_total": "900"}, "over_budget"),
        (with_hotel(nightly_max="260.00"), {"hotel_max_per_night": "250"}, "over_nightly_cap"),
        (with_flight(refundable=False), {"refundable_preference": "all"}, "not_refundable"),
        (with_flight(max_hold_minutes=60), {}, "short_hold"),
        (with_flight(holdable=False), {}, "not_holdable"),  # reserved, bought at once when paid
        (with_hotel(max_hold_minutes=2880, price_guarantee_minutes=None), {}, "no_price_guarantee"),
        (with_flight(max_hold_minutes=1440, price_guarantee_minutes=240), {}, "price_guarantee_shorter_than_hold"),
    ],
)
def test_risks_warn_without_blocking(bundle, constraints, code):
    out = check(bundle, constraints=constraints)
    assert out["ok"] is True and code in codes(out["warnings"])


def test_long_flights_allow_a_better_cabin():
    assert check(with_flight(cabin="business", duration_minutes=11 * 60))["ok"] is True
    assert "cabin_above_policy" in codes(check(with_flight(cabin="business", duration_minutes=7 * 60))["blocking"])


def test_auto_approval_below_a_threshold_drops_the_approval_warning():
    policy = {"rules": {"require_user_approval_to_purchase": False, "auto_approve_below": "2000.00"}}
    assert "approval_required" not in codes(check(policy=policy)["warnings"])


ISO_INSTANT = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")


def messages(out):
    return [f["message"] for f in out["blocking"] + out["warnings"]]


def test_times_read_in_the_trips_timezone_not_as_iso():
    bundle = with_flight(expires_at="2026-12-01T19:10:00+00:00")
    out = PolicyAndRiskCheck().run(
        {"args": {"bundle": bundle}, "now": NOW, "org": {"policy": {}, "timezone": "America/Denver"}}
    )["output"]
    by_code = {f["code"]: f["message"] for f in out["warnings"]}
    assert (
        by_code["hotel_cancellation_deadline"] == "Denver Grand Hotel: free cancellation ends Wed Jan 27, 6:00 PM MST."
    )
    assert "expires at Tue Dec 1, 12:10 PM MST" in by_code["offer_expiring"]
    assert not any(ISO_INSTANT.search(m) for m in messages(out))


def test_two_legs_with_the_same_airline_are_named_apart_and_nothing_repeats():
    back = {
        **FLIGHT,
        "segment_id": "S2",
        "offer_id": "off_2",
        "summary": {**FLIGHT["summary"], "origin": "DEN", "destination": "EWR"},
    }
    legs = [
        {
            **f,
            "summary": {
                **f["summary"],
                "carrier_name": "Alaska Airlines",
                "max_hold_minutes": 1440,
                "price_guarantee_minutes": 240,
                "red_eye": True,
            },
        }
        for f in (FLIGHT, back)
    ]
    out = check({**BUNDLE, "flights": legs})
    guarantees = [f["message"] for f in out["warnings"] if f["code"] == "price_guarantee_shorter_than_hold"]
    assert guarantees == [
        "The price of EWR → DEN (Alaska Airlines) is guaranteed for 4 h of the hold; after that it may change.",
        "The price of DEN → EWR (Alaska Airlines) is guaranteed for 4 h of the hold; after that it may change.",
    ]
    assert len(messages(out)) == len(set(messages(out)))


def test_the_same_finding_twice_is_reported_once():
    twin = {**FLIGHT, "offer_id": "off_twin"}
    red = check({**BUNDLE, "flights": [{**f, "summary": {**f["summary"], "red_eye": True}} for f in (FLIGHT, twin)]})
    assert [f["code"] for f in red["warnings"]].count("red_eye") == 1
    assert len(messages(red)) == len(set(messages(red)))


def test_a_per_person_budget_counts_every_traveller():
    party = {"travelers": {"adults": 2, "children": 1, "infants": 0}}

    def run(constraints):
        return PolicyAndRiskCheck().run(
            {"args": {"bundle": BUNDLE, "constraints": constraints, "party": party}, "org": {"policy": {}}, "now": NOW}
        )["output"]

    assert "over_budget" not in codes(run({"budget_per_person": "350"})["warnings"])  # 1,050 for three
    over = [w for w in run({"budget_per_person": "300"})["warnings"] if w["code"] == "over_budget"]
    assert over and over[0]["message"] == "$1,000.00 is over your budget of $300.00 per person ($900.00 for 3 people)."
