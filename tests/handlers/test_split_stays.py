"""Stays in several towns said by nights ("3 nights lisbon then 2 in porto"): read in order, each
checked in the day the one before checks out, flown to the first and home from the last (or the town
said), and searched and shown as one hotel per town. Sentences here are not in the phrasing evaluation."""

from datetime import date

import pytest

from handlers.extract.places import find_places
from handlers.extract.stays import split_stays
from handlers.testing import Harness


def _town(name):
    found = find_places(f"hotel in {name}")
    return found[0].place if len(found) == 1 else None


@pytest.mark.parametrize(
    ("text", "stays"),
    [
        ("3 nights lisbon then 2 in porto", [("LIS", 3), ("OPO", 2)]),
        ("4 nights rome then 3 florence", [("ROM", 4), ("FLR", 3)]),
        ("rome for 3 nights, then florence for 2 nights", [("ROM", 3), ("FLR", 2)]),
        ("lisbon 3 nights + porto 2 nights", [("LIS", 3), ("OPO", 2)]),
        ("5 nights in cancun and 2 nights in mexico city", [("CUN", 5), ("MEX", 2)]),
        ("2 nights in paris, 3 in london and then 2 in dublin", [("PAR", 2), ("LON", 3), ("DUB", 2)]),
    ],
)
def test_stays_in_several_towns_are_read_in_order_each_from_the_last_check_out(text, stays):
    got = split_stays(text, _town, date(2027, 5, 10))
    assert got is not None
    assert [
        (s["location"]["code"], (date.fromisoformat(s["check_out"]) - date.fromisoformat(s["check_in"])).days)
        for s in got
    ] == stays
    assert got[0]["check_in"] == "2027-05-10"
    assert all(a["check_out"] == b["check_in"] for a, b in zip(got, got[1:], strict=False))


@pytest.mark.parametrize(
    "text",
    [
        "2 adults boston to denver jan 5 for 3 nights",  # one stay
        "2 adults 3 kids boston to denver",  # people, not nights
        "3 nights in boston, and my wife flies to denver for 2 nights later",  # not one after the other
        "3 nights in boston then 2 more in boston",  # one town
    ],
)
def test_one_stay_or_people_are_no_stays_in_several_towns(text):
    assert split_stays(text, _town, date(2027, 5, 10)) is None


def _trip(text):
    h = Harness(today="2026-12-01", tz="America/New_York", trip_id="split")
    h.say(text)
    doc = h.intent()
    legs = [(s["origin"]["code"], s["destination"]["code"], s["depart_date"]) for s in doc["itinerary"]["segments"]]
    stays = [(s["location_code"], s["check_in"], s["check_out"]) for s in doc["itinerary"]["lodging"]["stays"]]
    return doc, legs, stays


def test_a_trip_of_two_stays_flies_to_the_first_and_home_from_the_last_and_says_so():
    doc, legs, stays = _trip("boston to lisbon may 10, 3 nights lisbon then 2 in porto, 2 adults")
    assert legs == [("BOS", "LIS", "2027-05-10"), ("OPO", "BOS", "2027-05-15")]
    assert stays == [("LIS", "2027-05-10", "2027-05-13"), ("OPO", "2027-05-13", "2027-05-15")]
    assert any("Flying home from Porto" in a for a in doc["status"]["assumptions"])
    card = " ".join(doc["working_memory"]["ranked_bundles"][0]["why"])
    assert "Lisbon" in card and "Porto" in card


def test_the_town_said_for_the_way_home_is_flown_from():
    _, legs, stays = _trip("chicago to rome jun 1-8 2 adults, 4 nights rome then 3 florence, flying home from rome")
    assert legs == [("CHI", "ROM", "2027-06-01"), ("ROM", "CHI", "2027-06-08")]
    assert stays == [("ROM", "2027-06-01", "2027-06-05"), ("FLR", "2027-06-05", "2027-06-08")]


def test_stays_in_several_towns_without_flights_are_hotels_only():
    doc, legs, stays = _trip("hotels: 2 nights in orlando then 3 nights in miami starting jan 12, 2 adults, no flights")
    assert legs == [] and doc["itinerary"]["flights_needed"] is False
    assert stays == [("MCO", "2027-01-12", "2027-01-14"), ("MIA", "2027-01-14", "2027-01-17")]


def test_nights_that_do_not_fill_the_days_said_keep_the_days():
    _, legs, _ = _trip("chicago to rome jun 1-10 2 adults, 4 nights rome then 3 florence")
    assert legs[0][2] == "2027-06-01" and legs[-1][2] == "2027-06-10"


def test_a_stay_in_a_town_without_an_airport_is_slept_there_and_flown_through_its_airport():
    doc, legs, stays = _trip("boston to denver jan 10-15, 3 nights in denver and 2 nights in boulder, 2 adults")
    assert legs == [("BOS", "DEN", "2027-01-10"), ("DEN", "BOS", "2027-01-15")]
    assert stays == [("DEN", "2027-01-10", "2027-01-13"), ("WBU", "2027-01-13", "2027-01-15")]
    assert any("Flying home from Denver, for Boulder" in a for a in doc["status"]["assumptions"])


@pytest.mark.parametrize(
    ("text", "stays"),
    [
        # the first town said before its day ("denver jan 10 for 3 nights", the day masked by the extractor)
        ("denver        for 3 nights then vegas for 2", [("DEN", 3), ("LAS", 2)]),
        # the first town said before its nights, a comma between; the next with a bare number closing its clause
        ("sf to seattle      , 2 nights, then portland for 3 nights, then home", [("SEA", 2), ("PDX", 3)]),
        ("rome, 4 nights, then florence for 3, then home", [("ROM", 4), ("FLR", 3)]),
        ("from boston, 2 nights in denver then 3 in aspen", [("DEN", 2), ("ASE", 3)]),
        # the first stay's day after its nights ("from feb 1", masked)
        ("hotels only: austin 2 nights from      , then houston 2 nights", [("AUS", 2), ("HOU", 2)]),
    ],
)
def test_a_town_said_before_its_day_or_a_bare_number_after_the_first_stay_still_chains(text, stays):
    got = split_stays(text, _town, date(2027, 1, 10))
    assert got is not None
    assert [
        (s["location"]["code"], (date.fromisoformat(s["check_out"]) - date.fromisoformat(s["check_in"])).days)
        for s in got
    ] == stays


@pytest.mark.parametrize(
    "text",
    [
        "denver for 3 nights then vegas for 2 adults",  # the number counts people
        "vegas for 2, 3 nights",  # no first stay said by nights before the bare number
    ],
)
def test_a_bare_number_that_counts_people_or_opens_the_talk_is_no_stay(text):
    assert split_stays(text, _town, date(2027, 1, 10)) is None


def test_a_stay_said_after_its_day_then_another_is_flown_to_the_first_and_home_from_the_last():
    _, legs, stays = _trip("from chicago: denver jan 10 for 3 nights then vegas for 2, 1 adult")
    assert legs == [("CHI", "DEN", "2027-01-10"), ("LAS", "CHI", "2027-01-15")]
    assert stays == [("DEN", "2027-01-10", "2027-01-13"), ("LAS", "2027-01-13", "2027-01-15")]


def test_nights_after_the_flight_day_are_the_destination_s_stay():
    _, legs, stays = _trip(
        "phoenix to chicago dec 8, 2 nights, then milwaukee 1 night, fly home from milwaukee, 1 adult"
    )
    assert legs == [("PHX", "CHI", "2026-12-08"), ("MKE", "PHX", "2026-12-11")]
    assert stays == [("CHI", "2026-12-08", "2026-12-10"), ("MKE", "2026-12-10", "2026-12-11")]
