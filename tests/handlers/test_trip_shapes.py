"""Every trip shape through the whole core: hotel only, flights only, a hotel city of its own, caps,
budgets, airlines, times of day, rooms and children, from the TripIntent fields to the searches,
the ranker, the policy check, holds and the booking (handlers/README.md, SCENARIOS.md 18-20).

The TripIntent fields are set directly (what the extractor fills), so these tests pin the core's
side of each shape whatever words a traveller used.
"""

from __future__ import annotations

import copy
from typing import Any, Dict

import pytest

from handlers.patcher import deep_merge
from handlers.testing import Harness
from handlers.trip_read import missing_slots, stays_of
from handlers.wording import QUESTIONS

PLACE = {
    "EWR": {"type": "airport", "code": "EWR", "name": "Newark"},
    "DEN": {"type": "airport", "code": "DEN", "name": "Denver"},
    "AUS": {"type": "airport", "code": "AUS", "name": "Austin"},
    "COS": {"type": "airport", "code": "COS", "name": "Colorado Springs"},
}


def round_trip(adults: int = 1, **extra: Any) -> Dict[str, Any]:
    fields = {
        "party": {"travelers": {"adults": adults, "children": 0, "infants": 0}},
        "itinerary": {
            "trip_type": "round_trip",
            "segments": [
                {
                    "segment_id": "seg_1",
                    "origin": PLACE["EWR"],
                    "destination": PLACE["DEN"],
                    "depart_date": "2027-01-30",
                },
                {
                    "segment_id": "seg_2",
                    "origin": PLACE["DEN"],
                    "destination": PLACE["EWR"],
                    "depart_date": "2027-02-02",
                },
            ],
        },
    }
    return deep_merge(fields, extra)


def hotel_only(**extra: Any) -> Dict[str, Any]:
    fields = {
        "party": {"travelers": {"adults": 2, "children": 0, "infants": 0}},
        "itinerary": {
            "flights_needed": False,
            "lodging": {"city": PLACE["AUS"], "check_in": "2026-12-10", "check_out": "2026-12-12"},
        },
    }
    return deep_merge(fields, extra)


def trip(fields: Dict[str, Any], **harness: Any) -> Harness:
    """A harness whose trip holds ``fields`` (as the extractor would have written them), then quoted."""
    h = Harness(**harness)
    h.send("INTENT_READY")  # creates the empty trip
    set_fields(h, fields)
    return h


def set_fields(h: Harness, fields: Dict[str, Any]) -> Dict[str, Any]:
    doc = h.trips.get(h.trip_id)
    h.trips.save(h.trip_id, deep_merge(doc, fields), expected_version=doc["version"])
    return h.send("INTENT_READY")


def calls(turn: Dict[str, Any], name: str):
    return [c for c in turn["tool_calls"] if c["name"] == name]


def book(h: Harness) -> Dict[str, Any]:
    """Select bundles in rank order until one passes policy, hold it, grant, buy: the booking."""
    for bundle in h.intent()["working_memory"]["ranked_bundles"]:
        h.select(bundle["bundle_id"])
        if h.intent()["working_memory"]["risk_report"]["ok"]:
            break
    h.hold()
    assert h.intent()["status"]["phase"] == "held", h.last["ui_messages"]
    h.purchase(h.grant())
    bookings = h.intent()["working_memory"]["bookings"]
    assert len(bookings) == 1 and h.intent()["status"]["phase"] == "purchased"
    return bookings[0]


# -- hotel only ------------------------------------------------------------------------------------
def test_a_hotel_only_trip_is_quoted_ranked_held_and_bought_without_any_flight():
    h = trip(hotel_only())
    turn = h.last
    assert h.tools_run(turn=turn) == ["hotel_quote_search", "trip_option_ranker"]
    (search,) = calls(turn, "hotel_quote_search")
    assert search["arguments"]["location_code"] == "AUS"
    assert (search["arguments"]["check_in"], search["arguments"]["check_out"]) == ("2026-12-10", "2026-12-12")
    bundles = h.intent()["working_memory"]["ranked_bundles"]
    assert len(bundles) >= 3 and all(not b["flights"] and len(b["hotels"]) == 1 for b in bundles)
    text = " ".join(m["text"] for m in turn["ui_messages"])
    assert "a hotel in Austin" in text and "flying from" not in text and "Comparing hotels…" in text
    (summary,) = h.widgets("trip_summary", turn=turn)
    assert summary["segments"] == [] and {"label": "Flights", "value": "none: hotel only"} in summary["details"]
    booking = book(h)
    holds = h.intent()["working_memory"]["holds"]
    assert [x["item_type"] for x in holds] == ["hotel"] and len(booking["record_locators"]) == 1


def test_a_hotel_only_trip_asks_for_the_hotel_not_for_flights():
    h = trip(hotel_only(itinerary={"lodging": {"city": None, "check_in": None, "check_out": None}}))
    asked = h.intent()["status"]["pending_question"]
    assert asked["slots"] == ["hotel_location", "check_in", "check_out"]
    assert "flying" not in asked["text"] and QUESTIONS["hotel_location"] in asked["text"]
    assert h.tools_run(turn=h.last) == []


def test_dates_said_as_if_flying_are_the_hotel_only_stay():
    doc = copy.deepcopy(h_intent_with(hotel_only(itinerary={"lodging": {"check_in": None, "check_out": None}})))
    doc["itinerary"]["segments"] = [
        {"segment_id": "seg_1", "origin": None, "destination": PLACE["AUS"], "depart_date": "2026-12-10"},
        {"segment_id": "seg_2", "origin": PLACE["AUS"], "destination": None, "depart_date": "2026-12-12"},
    ]
    assert missing_slots(doc) == []
    (stay,) = stays_of(doc)
    assert (stay["location_code"], stay["check_in"], stay["check_out"]) == ("AUS", "2026-12-10", "2026-12-12")


def h_intent_with(fields: Dict[str, Any]) -> Dict[str, Any]:
    from handlers.common.clock import parse_now
    from handlers.common.intent import new_trip_intent

    return deep_merge(new_trip_intent("t", parse_now("2026-12-01T14:00:00+00:00")), fields)


# -- flights only, dropping the hotel, a hotel city of its own --------------------------------------
def test_i_already_have_a_hotel_means_flights_only():
    h = trip(round_trip(itinerary={"lodging": {"needed": False}}))
    assert h.tools_run(turn=h.last) == ["flight_quote_search", "flight_quote_search", "trip_option_ranker"]
    assert all(not b["hotels"] for b in h.intent()["working_memory"]["ranked_bundles"])


def test_dropping_the_hotel_later_keeps_the_flights_and_says_so():
    h = trip(round_trip())
    assert h.intent()["working_memory"]["hotel_quotes"]
    turn = set_fields(h, {"itinerary": {"lodging": {"needed": False}}})
    # set_fields bypasses the extractor, so the echo comes with the extractor's path (see test_echo_*)
    assert h.tools_run(turn=turn) == ["trip_option_ranker"]
    wm = h.intent()["working_memory"]
    assert len(wm["flight_quotes"]) == 2 and all(not b["hotels"] for b in wm["ranked_bundles"])


def test_a_hotel_city_other_than_the_destination_is_where_the_hotel_is_searched():
    h = trip(round_trip(itinerary={"lodging": {"city": PLACE["COS"]}}))
    (search,) = calls(h.last, "hotel_quote_search")
    assert search["arguments"]["location_code"] == "COS"
    assert {s["arguments"]["destination"]["code"] for s in calls(h.last, "flight_quote_search")} == {"DEN", "EWR"}
    assert all(
        b["hotels"][0]["summary"]["hotel_name"].startswith("Colorado Springs")
        for b in h.intent()["working_memory"]["ranked_bundles"]
    )


# -- money: a nightly cap apart from the total, per-person budgets -----------------------------------
def test_a_nightly_cap_filters_hotels_and_leaves_dates_and_flights_alone():
    h = trip(round_trip())
    before, found_before = h.intent(), h.found("hotel_quotes")
    turn = set_fields(h, {"constraints": {"hotel_max_per_night": "200.00"}})
    after = h.intent()
    assert after["itinerary"]["segments"] == before["itinerary"]["segments"]
    assert after["itinerary"]["lodging"]["stays"] == before["itinerary"]["lodging"]["stays"]
    (search,) = calls(turn, "hotel_quote_search")
    assert search["arguments"]["max_nightly"] == "200.00" and not calls(turn, "flight_quote_search")
    rates = h.found("hotel_quotes")[0]["rates"]
    assert rates and all(float(r["summary"]["nightly_max"]) <= 200 for r in rates)
    assert len(rates) < len(found_before[0]["rates"])


def test_a_per_person_budget_reaches_the_ranker_and_the_policy_check():
    h = trip(round_trip(adults=2, constraints={"budget_per_person": "400.00"}))
    (ranker,) = calls(h.last, "trip_option_ranker")
    assert ranker["arguments"]["party"]["travelers"]["adults"] == 2
    b1 = h.intent()["working_memory"]["ranked_bundles"][0]
    assert any("$400.00 per person ($800.00 in all)" in line for line in b1["why"])
    h.select("B1")
    over = [w for w in h.intent()["working_memory"]["risk_report"]["warnings"] if w["code"] == "over_budget"]
    assert over and "$400.00 per person ($800.00 for 2 people)" in over[0]["message"]


# -- flight preferences ----------------------------------------------------------------------------
def test_an_avoided_airline_is_never_offered_even_when_also_preferred():
    h = trip(round_trip())
    carriers = {o["summary"]["carrier"] for q in h.found() for o in q["offers"]}
    avoided = sorted(carriers)[0]
    turn = set_fields(h, {"preferences": {"flight": {"airlines": [avoided], "airlines_avoid": [avoided]}}})
    for call in calls(turn, "flight_quote_search"):
        assert call["arguments"]["airlines_avoid"] == [avoided] and call["arguments"]["airlines"] == []
    offered = {o["summary"]["carrier"] for q in h.found() for o in q["offers"]}
    assert offered and avoided not in offered


def test_required_airlines_nonstop_and_no_red_eyes_filter_the_search():
    h = trip(round_trip(preferences={"flight": {"max_stops": 0, "avoid_red_eye": True}}))
    offers = [o["summary"] for q in h.found() for o in q["offers"]]
    assert offers and all(s["stops"] == 0 and not s["red_eye"] for s in offers)
    carrier = offers[0]["carrier"]
    set_fields(h, {"preferences": {"flight": {"airlines_required": [carrier]}}})
    offers = [o["summary"] for q in h.found() for o in q["offers"]]
    assert offers and {s["carrier"] for s in offers} == {carrier}


def test_time_of_day_windows_apply_to_their_own_leg():
    h = trip(round_trip(preferences={"flight": {"time_of_day": {"outbound": "morning", "return": "evening"}}}))
    quotes = {q["segment_id"]: q["offers"] for q in h.found()}
    out = [o["summary"]["depart_at"][11:16] for o in quotes["seg_1"]]
    back = [o["summary"]["depart_at"][11:16] for o in quotes["seg_2"]]
    assert out and all("05:00" <= t <= "11:59" for t in out)
    assert back and all("17:00" <= t <= "20:59" for t in back)


def test_cabin_reaches_the_search_and_the_summary():
    h = trip(round_trip(preferences={"flight": {"cabin": "business"}}))
    assert {c["arguments"]["cabin"] for c in calls(h.last, "flight_quote_search")} == {"business"}
    (summary,) = h.widgets("trip_summary", turn=h.last)
    assert {"label": "Cabin", "value": "business"} in summary["details"]


# -- rooms and children ----------------------------------------------------------------------------
def test_separate_rooms_reach_the_hotel_search_and_its_price():
    h = trip(round_trip(adults=2))
    shared = h.found("hotel_quotes")[0]["rates"]
    turn = set_fields(h, {"itinerary": {"lodging": {"rooms": 2, "guests_per_room": 1}}})
    (search,) = calls(turn, "hotel_quote_search")
    assert search["arguments"]["rooms"] == 2
    separate = h.found("hotel_quotes")[0]["rates"]
    assert all(r["summary"]["rooms"] == 2 for r in separate) and all(r["summary"]["rooms"] == 1 for r in shared)
    by_hotel = {r["summary"]["hotel_id"]: float(r["summary"]["total"]) for r in shared}
    pairs = [
        (by_hotel[r["summary"]["hotel_id"]], float(r["summary"]["total"]))
        for r in separate
        if r["summary"]["hotel_id"] in by_hotel
    ]
    assert pairs and sum(two for _, two in pairs) > 1.5 * sum(one for one, _ in pairs)


def test_a_child_of_unknown_age_is_asked_about_never_made_a_lap_infant():
    h = trip(round_trip(party={"travelers": {"adults": 2, "children": 1, "infants": 0}}))
    asked = h.intent()["status"]["pending_question"]
    assert asked["slots"] == ["child_ages"] and "lap" in asked["text"]
    assert h.tools_run(turn=h.last) == [] and h.intent()["party"]["travelers"]["infants"] == 0
    turn = set_fields(h, {"party": {"child_ages": [5]}})
    for call in calls(turn, "flight_quote_search"):
        assert call["arguments"]["passengers"] == {"adults": 2, "children": 1, "infants": 0, "child_ages": [5]}
    offer = h.found()[0]["offers"][0]
    assert list(offer["baggage"]) == ["adult", "child"]  # the child flies on a fare of its own


def test_children_on_a_hotel_only_trip_are_not_asked_their_age():
    h = trip(hotel_only(party={"travelers": {"adults": 2, "children": 2, "infants": 0}}))
    assert h.intent()["status"]["pending_question"] is None and h.intent()["working_memory"]["ranked_bundles"]


@pytest.mark.parametrize(
    ("fields", "label", "value"),
    [
        ({"itinerary": {"lodging": {"city": PLACE["COS"]}}}, "Hotel city", "Colorado Springs"),
        ({"constraints": {"hotel_max_per_night": "250"}}, "Hotel price", "up to $250.00 a night"),
        (
            {"preferences": {"flight": {"airlines_avoid": ["UA"], "airlines": ["DL"]}}},
            "Airlines",
            "prefer Delta Airlines; avoid United Airlines",
        ),
        ({"preferences": {"flight": {"max_stops": 0}}}, "Stops", "nonstop only"),
        ({"party": {"travelers": {"children": 2}, "child_ages": [4, 9]}}, "Children's ages", "4, 9"),
    ],
)
def test_the_understood_trip_shows_each_preference(fields, label, value):
    h = trip(round_trip(**fields))
    (summary,) = h.widgets("trip_summary", turn=h.last)
    assert {"label": label, "value": value} in summary["details"]


def test_several_stays_without_flights_are_searched_ranked_and_held_together():
    stays = [
        {
            "stay_id": "st_1",
            "location_code": "AUS",
            "location_hint": "Austin",
            "check_in": "2026-12-10",
            "check_out": "2026-12-12",
        },
        {
            "stay_id": "st_2",
            "location_code": "DEN",
            "location_hint": "Denver",
            "check_in": "2026-12-12",
            "check_out": "2026-12-15",
        },
    ]
    h = trip(hotel_only(itinerary={"lodging": {"stays": stays}}))
    searched = [
        (c["arguments"]["location_code"], c["arguments"]["check_in"]) for c in calls(h.last, "hotel_quote_search")
    ]
    assert searched == [("AUS", "2026-12-10"), ("DEN", "2026-12-12")]
    bundles = h.intent()["working_memory"]["ranked_bundles"]
    assert bundles and all(
        [x["stay_id"] for x in b["hotels"]] == ["st_1", "st_2"] and not b["flights"] for b in bundles
    )
    book(h)
    assert sorted(x["stay_id"] for x in h.intent()["working_memory"]["holds"]) == ["st_1", "st_2"]


@pytest.mark.parametrize(
    "text",
    ["going to London on May 3 returning May 8", "I need to get to Denver on June 2, back June 6, 2 adults"],
)
def test_a_round_trip_named_only_by_its_destination_asks_where_from_not_where_to(text):
    """The way home ends where the trip starts: the one unknown is the origin, asked once."""
    h = Harness()
    h.say(text)
    asked = h.intent()["status"]["pending_question"]["text"]
    assert "Where are you flying from?" in asked and "Where are you going?" not in asked
    h.say("from Boston")
    segments = h.intent()["itinerary"]["segments"]
    assert [s["origin"]["code"] for s in segments][0] == "BOS" and segments[1]["destination"]["code"] == "BOS"
