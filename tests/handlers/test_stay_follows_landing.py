"""A hotel stay starts the first night its travellers need a bed: an overnight flight across the
Pacific lands the next day, so the hotel is searched (and paid) from then, and the trip says why."""

from __future__ import annotations

import pytest

from handlers.common.clock import first_night
from handlers.testing import Harness
from handlers.trip_read import stays_of


@pytest.mark.parametrize(
    "arrivals, night",
    [
        (["2027-03-04T10:55:00+00:00"], "2027-03-04"),
        (["2027-03-04T02:55:00+00:00"], "2027-03-03"),  # the small hours: the bed of the night before
        (["2027-03-04T06:00:00+09:00"], "2027-03-04"),
        (["2027-03-05T14:50:00+09:00", "2027-03-05T03:20:00+09:00", "2027-03-06T09:00:00+09:00"], "2027-03-04"),
        ([], None),
    ],
)
def test_the_first_night_a_bed_is_needed(arrivals, night):
    assert first_night(arrivals) == night


def test_across_the_pacific_the_hotel_starts_the_night_the_flights_land():
    h = Harness()
    h.say("sf to tokyo march 3, back the 12th, 2 adults, hotel too")
    doc = h.intent()
    assert h.tools_run()[1:] == [
        "flight_quote_search",
        "flight_quote_search",
        "hotel_quote_search",
        "trip_option_ranker",
    ], "the hotel is searched once, after the flight out"
    [stay] = stays_of(doc)
    assert (stay["check_in"], stay["check_out"]) == ("2027-03-04", "2027-03-12")
    bundles = doc["working_memory"]["ranked_bundles"]
    assert bundles and {b["hotels"][0]["summary"]["check_in"] for b in bundles} == {"2027-03-04"}
    assert {b["hotels"][0]["summary"]["nights"] for b in bundles} == {8}
    [summary] = h.widgets("trip_summary")
    assert any(line.startswith("Hotel in Tokyo from Thu Mar 4") for line in summary["assumptions"])


def test_a_flight_landing_in_the_small_hours_keeps_the_night_it_leaves():
    h = Harness()
    h.say("nyc to london march 3 back the 10th 2 adults hotel")
    [stay] = stays_of(h.intent())
    assert stay["check_in"] == "2027-03-03" and "first_night" not in stay
    [summary] = h.widgets("trip_summary")
    assert not any(line.startswith("Hotel in London from") for line in summary["assumptions"])


def test_a_hotel_dated_by_the_traveller_away_from_the_flight_stays_as_said():
    h = Harness()
    h.say("sf to tokyo march 3, back the 12th, 2 adults, hotel from the 5th to the 12th")
    [stay] = stays_of(h.intent())
    assert stay["check_in"] == "2027-03-05" and "first_night" not in stay


@pytest.mark.parametrize(
    "text",
    ["chicago to london mar 3-8, 1 adult", "nyc to paris feb 2-9, 2 adults", "nyc to london dec 5-12, 1 adult"],
)
def test_the_best_overall_lands_in_time_for_the_first_night_paid(text):
    """Where some flights out land in time for the check-in night and others the day after, the
    best overall is one that lands in time: a night paid while still in the air is an unmet wish."""
    h = Harness()
    h.say(text)
    bundles = h.intent()["working_memory"]["ranked_bundles"]
    unslept = [any("not slept in" in line for line in b["why"]) for b in bundles]
    assert any(unslept), "the search has flights that land the day after (the test needs both kinds)"
    assert not unslept[0]
