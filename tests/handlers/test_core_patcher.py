"""The Patcher's merge, changed paths and invalidation table (handlers/README.md), both directions."""

from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handlers.common.clock import parse_now
from handlers.common.intent import new_trip_intent
from handlers.patcher import Patcher, apply_patch, deep_merge, diff_paths

NOW = "2026-12-01T14:00:00+00:00"
CACHES = ("flight_quotes", "hotel_quotes", "ranked_bundles", "risk_report", "selected", "holds")


def seg(n, origin, destination, day):
    return {
        "segment_id": f"seg_{n}",
        "origin": {"code": origin},
        "destination": {"code": destination},
        "depart_date": day,
    }


@pytest.fixture
def trip():
    """A presented, selected, held trip: every cache full."""
    doc = new_trip_intent("t1", parse_now(NOW))
    doc["party"]["travelers"]["adults"] = 2
    doc["itinerary"]["segments"] = [seg(1, "JFK", "SFO", "2027-03-11"), seg(2, "SFO", "JFK", "2027-03-16")]
    doc["itinerary"]["lodging"]["stays"] = [
        {"stay_id": "st_1", "location_code": "SFO", "check_in": "2027-03-11", "check_out": "2027-03-16"}
    ]
    wm = doc["working_memory"]
    wm["flight_quotes"] = [
        {"segment_id": "seg_1", "offers": [{"offer_id": "o1"}]},
        {"segment_id": "seg_2", "offers": [{"offer_id": "o2"}]},
    ]
    wm["hotel_quotes"] = [{"stay_id": "st_1", "rates": [{"rate_id": "r1"}]}]
    wm["ranked_bundles"] = [{"bundle_id": "B1"}]
    wm["risk_report"] = {"bundle_id": "B1", "ok": True, "blocking": [], "warnings": []}
    wm["selected"] = {"bundle_id": "B1", "flight_option_id": ["o1", "o2"], "hotel_option_id": ["r1"]}
    wm["holds"] = [{"hold_id": "h1", "status": "held"}, {"hold_id": "h2", "status": "expired"}]
    return doc


def kept(before, after):
    return {k for k in CACHES if after["working_memory"][k] == before["working_memory"][k]}


# changed path → (caches that must be cleared, caches that must stay)
TABLE = [
    ({"party": {"travelers": {"adults": 3}}}, set(CACHES), set()),
    (
        {"preferences": {"hotel": {"refundable_only": True}}},
        {"hotel_quotes", "ranked_bundles", "risk_report", "selected", "holds"},
        {"flight_quotes"},
    ),
    (
        {"itinerary": {"lodging": {"rooms": 2}}},
        {"hotel_quotes", "ranked_bundles", "risk_report", "selected", "holds"},
        {"flight_quotes"},
    ),
    (
        {"preferences": {"flight": {"cabin": "business"}}},
        {"flight_quotes", "ranked_bundles", "risk_report", "selected", "holds"},
        {"hotel_quotes"},
    ),
    (
        {"constraints": {"budget_total": "3000"}},
        {"risk_report", "holds"},
        {"flight_quotes", "hotel_quotes", "ranked_bundles", "selected"},
    ),
    (
        {"constraints": {"refundable_preference": "all"}},
        {"risk_report", "holds"},
        {"flight_quotes", "hotel_quotes", "ranked_bundles", "selected"},
    ),
    (
        {"policy": {"hotel_nightly_cap": "200.00"}},
        {"risk_report", "holds"},
        {"flight_quotes", "hotel_quotes", "ranked_bundles", "selected"},
    ),
    (
        {"constraints": {"budget_per_person": "900"}},
        {"risk_report", "holds"},
        {"flight_quotes", "hotel_quotes", "ranked_bundles", "selected"},
    ),
    (
        {"constraints": {"hotel_max_per_night": "250.00"}},
        {"hotel_quotes", "ranked_bundles", "risk_report", "selected", "holds"},
        {"flight_quotes"},
    ),
    (
        {"itinerary": {"lodging": {"city": {"type": "city", "code": "QSF"}}}},
        {"hotel_quotes", "ranked_bundles", "risk_report", "selected", "holds"},
        {"flight_quotes"},
    ),
    (
        {"itinerary": {"lodging": {"needed": False}}},
        {"hotel_quotes", "ranked_bundles", "risk_report", "selected", "holds"},
        {"flight_quotes"},
    ),
    (
        {"preferences": {"flight": {"airlines_avoid": ["UA"], "time_of_day": {"outbound": "morning"}}}},
        {"flight_quotes", "ranked_bundles", "risk_report", "selected", "holds"},
        {"hotel_quotes"},
    ),
    (
        {"itinerary": {"flights_needed": False}},
        {"flight_quotes", "ranked_bundles", "risk_report", "selected", "holds"},
        {"hotel_quotes"},  # the explicit stay keeps its dates
    ),
    ({"request": {"user_message": "hi"}}, set(), set(CACHES)),
    ({"status": {"notes": ["x"]}}, set(), set(CACHES)),
]


@pytest.mark.parametrize(("patch", "cleared", "stays"), TABLE)
def test_invalidation_table_both_directions(trip, patch, cleared, stays):
    out = apply_patch(trip, patch)
    after = out["trip_intent"]
    survived = kept(trip, after)
    assert not (cleared & survived), f"should have cleared {cleared & survived}"
    assert stays <= survived, f"should have kept {stays - survived}"
    assert set(out["invalidations"]) == {k for k in cleared if trip["working_memory"][k]}


def test_a_changed_segment_clears_only_its_own_flight_quotes(trip):
    segments = copy.deepcopy(trip["itinerary"]["segments"])
    segments[1]["depart_date"] = "2027-03-17"
    out = apply_patch(trip, {"itinerary": {"segments": segments}})
    wm = out["trip_intent"]["working_memory"]
    assert [q["segment_id"] for q in wm["flight_quotes"]] == ["seg_1"]
    assert wm["ranked_bundles"] == [] and wm["holds"] == []
    assert wm["hotel_quotes"], "explicit stay dates did not move"


@pytest.mark.parametrize(
    ("flight", "searched_again"),
    [
        ({"time_of_day": {"outbound": "after 17:00"}}, ["seg_1"]),
        ({"arrival": {"return": "before 18:00"}}, ["seg_2"]),
        ({"max_stops": 0}, ["seg_1", "seg_2"]),
    ],
)
def test_a_time_wish_for_one_leg_clears_only_that_legs_flight_quotes(trip, flight, searched_again):
    trip["itinerary"]["trip_type"] = "round_trip"
    out = apply_patch(trip, {"preferences": {"flight": flight}})
    wm = out["trip_intent"]["working_memory"]
    assert sorted({"seg_1", "seg_2"} - {q["segment_id"] for q in wm["flight_quotes"]}) == searched_again
    assert wm["ranked_bundles"] == [] and wm["hotel_quotes"]


def test_moving_stay_dates_with_the_segments_clears_hotel_quotes(trip):
    segments = copy.deepcopy(trip["itinerary"]["segments"])
    segments[1]["depart_date"] = "2027-03-17"
    stays = [{**trip["itinerary"]["lodging"]["stays"][0], "check_out": "2027-03-17"}]
    out = apply_patch(trip, {"itinerary": {"segments": segments, "lodging": {"stays": stays}}})
    assert out["trip_intent"]["working_memory"]["hotel_quotes"] == []


def test_released_holds_are_the_unpurchased_ones_and_bookings_stay(trip):
    trip["working_memory"]["holds"].append({"hold_id": "h3", "status": "purchased"})
    trip["working_memory"]["bookings"] = [{"booking_id": "bk1", "status": "cancelled"}]
    out = apply_patch(trip, {"constraints": {"budget_total": "100"}})
    assert [h["hold_id"] for h in out["released_holds"]] == ["h1", "h2"]
    wm = out["trip_intent"]["working_memory"]
    assert [h["hold_id"] for h in wm["holds"]] == ["h3"] and wm["bookings"] == trip["working_memory"]["bookings"]
    assert "reservation_hold_release" in out["suggested_next_tools"]


def test_a_change_after_purchase_is_reported_not_applied(trip):
    trip["working_memory"]["bookings"] = [{"booking_id": "bk1"}]
    out = apply_patch(trip, {"party": {"travelers": {"adults": 6}}, "constraints": {"budget_total": "9000"}})
    after = out["trip_intent"]
    assert out["change_after_purchase"] == ["party.travelers.adults"]
    assert after["party"] == trip["party"] and after["working_memory"]["bookings"] == [{"booking_id": "bk1"}]
    assert after["constraints"]["budget_total"] == "9000", "non-requirement changes still apply"


def test_protected_keys_are_never_patched(trip):
    out = apply_patch(trip, {"working_memory": {"bookings": []}, "trip_id": "other", "version": 99})
    assert out["changed_paths"] == [] and out["trip_intent"]["trip_id"] == "t1"


def test_working_memory_is_ensured_before_invalidating():
    doc = new_trip_intent("t1", parse_now(NOW))
    del doc["working_memory"]
    out = Patcher().run({"trip_intent": doc, "patch": {"party": {"travelers": {"adults": 1}}}, "now": NOW})
    assert out["success"] and out["output"]["trip_intent"]["working_memory"]["flight_quotes"] == []


def test_changed_paths_and_suggestions(trip):
    out = apply_patch(trip, {"preferences": {"flight": {"cabin": "business", "max_stops": 0}}})
    assert out["changed_paths"] == ["preferences.flight.cabin", "preferences.flight.max_stops"]
    assert out["suggested_next_tools"] == ["reservation_hold_release", "flight_quote_search", "trip_option_ranker"]


def test_bad_payloads_fail_without_raising():
    assert Patcher().run({"trip_intent": None, "patch": {}})["success"] is False
    assert Patcher().run({})["output"]["error"]["code"] == "invalid_payload"


scalars = st.one_of(st.none(), st.integers(), st.text(max_size=5), st.booleans())
docs = st.recursive(
    scalars, lambda inner: st.dictionaries(st.text("abc", min_size=1, max_size=2), inner, max_size=3), max_leaves=10
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    base=st.dictionaries(st.text("abc", min_size=1, max_size=2), docs, max_size=3),
    patch=st.dictionaries(st.text("abc", min_size=1, max_size=2), docs, max_size=3),
)
def test_merge_properties(base, patch):
    merged = deep_merge(base, patch)
    assert deep_merge(merged, patch) == merged, "merging twice is merging once"
    assert diff_paths(merged, merged) == []
    assert deep_merge(base, {}) == base
    for path in diff_paths(base, merged):
        assert path.split(".")[0] in patch, "only patched keys change"


def test_moving_a_leg_moves_stays_derived_from_the_legs(trip):
    trip["itinerary"]["lodging"]["stays"] = []
    segments = copy.deepcopy(trip["itinerary"]["segments"])
    segments[1]["depart_date"] = "2027-03-18"
    out = apply_patch(trip, {"itinerary": {"segments": segments}})
    assert out["trip_intent"]["working_memory"]["hotel_quotes"] == []


def test_working_copy_is_independent_but_shares_the_replace_only_lists():
    from decimal import Decimal

    from handlers.patcher import SHARED_CACHES, working_copy

    doc = new_trip_intent("t1", parse_now(NOW))
    doc["constraints"]["budget_total"] = Decimal("5000.00")
    doc["working_memory"]["flight_quotes"] = [{"offer_id": "f1"}]
    doc["working_memory"]["selected"] = {"bundle_id": "B1"}
    copied = working_copy(doc)
    assert copied == doc and copied["constraints"]["budget_total"] == Decimal("5000.00")
    copied["party"]["travelers"]["adults"] = 9
    copied["working_memory"]["selected"]["bundle_id"] = "B2"
    assert doc["party"]["travelers"].get("adults") != 9
    assert doc["working_memory"]["selected"]["bundle_id"] == "B1"
    for key in SHARED_CACHES:
        if key in doc["working_memory"]:
            assert copied["working_memory"][key] is doc["working_memory"][key]


def test_working_copy_copies_what_pickle_refuses():
    from handlers.patcher import working_copy

    doc = new_trip_intent("t1", parse_now(NOW))
    doc["request"]["note"] = {"key": lambda: None}  # not plain data: copied by copy.deepcopy
    copied = working_copy(doc)
    assert copied["request"]["note"] is not doc["request"]["note"]
    assert copied["request"]["note"]["key"] is doc["request"]["note"]["key"]
