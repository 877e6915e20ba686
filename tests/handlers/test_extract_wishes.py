"""What the traveller wishes of the trip, as people type it (handlers/extract/prefs.py): money in
its usual shorthands, stops, refundability in other words, airlines listed together, flights
already booked. Sentences here are not in the phrasing evaluation."""

from datetime import date

import pytest

from handlers.extract import extract_fields
from handlers.extract.prefs import bags_wished, read_airlines, read_budgets

TODAY = date(2026, 12, 1)


def read(text, **kwargs):
    fields, _ = extract_fields(text=text, today=TODAY, **kwargs)
    return fields


@pytest.mark.parametrize(
    ("text", "key", "amount"),
    [
        ("budget 1200pp", "budget_per_person", 1200),
        ("900 p.p. max", "budget_per_person", 900),
        ("under a grand each", "budget_per_person", 1000),
        ("we have two grand for everything", "budget_total", 2000),
        ("under 700 round trip per person", "budget_per_person", 700),
        ("650 all in per head", "budget_per_person", 650),
    ],
)
def test_money_in_shorthand(text, key, amount):
    found = read_budgets(text)
    assert found[key] == amount
    assert [k for k in ("budget_total", "budget_per_person", "hotel_max_per_night") if found[k]] == [key]


@pytest.mark.parametrize(
    "text",
    [
        "austin to reno feb 3-6, 5 of us, keep it around 400 a person",
        "5 of us, about 400 a head, austin to reno feb 3-6",
    ],
)
def test_an_amount_a_person_is_a_budget_not_a_traveller(text):
    f = read(text)
    assert (f["adults"], f["budget_per_person"]) == (5, 400)


@pytest.mark.parametrize(
    ("text", "stops"),
    [
        ("only nonstops pls", 0),
        ("non-stops only", 0),
        ("directs only", 0),
        ("one stop or less", 1),
        ("max of one connection", 1),
        ("1 layover tops", 1),
        ("we don't mind stopping", None),
    ],
)
def test_stops_as_people_say_them(text, stops):
    assert read(f"tampa to boise mar 2-5, 1 adult, {text}")["max_stops"] == stops


@pytest.mark.parametrize(
    ("text", "which"),
    [
        ("flexible tickets please", "flight"),
        ("changeable fares", "flight"),
        ("the hotel must have free cancellation", "hotel"),
        ("a room with free cancellation, flights whatever", "hotel"),
        ("something we can cancel if plans change", "all"),
        ("non-refundable is fine", None),
        ("no free cancellation needed", None),
    ],
)
def test_refundable_in_other_words(text, which):
    assert read(f"tampa to boise mar 2-5, 1 adult, {text}")["refundable"] == which


@pytest.mark.parametrize(
    ("text", "preferred", "avoid"),
    [
        ("prefer alaska or delta, def not american", ["AS", "DL"], ["AA"]),
        ("delta or united pls", ["DL", "UA"], None),
        ("no spirit, frontier or allegiant", None, ["NK", "F9", "G4"]),
        ("we'll pay with american express", None, None),
        ("near the united center", None, None),
    ],
)
def test_lower_case_airlines_listed_together(text, preferred, avoid):
    found, _ = read_airlines(text)
    assert (found["airlines"], found["airlines_avoid"]) == (preferred, avoid)


@pytest.mark.parametrize(
    "text",
    [
        "already have flights, need a room in tulsa feb 3-5 for 2",
        "flights are booked already, need a hotel in tulsa feb 3-5",
        "i booked my own flight. hotel in tulsa feb 3-5",
        "got my flights sorted, just need somewhere to stay in tulsa feb 3-5",
    ],
)
def test_flights_already_booked_means_a_hotel_alone(text):
    f = read(text)
    assert f["flights_needed"] is False
    assert f["stays"][0]["location"]["code"] == "TUL"


@pytest.mark.parametrize(
    ("text", "key", "amount"),
    [
        ("hotel under 150", "hotel_max_per_night", 150),
        ("a room for less than $120", "hotel_max_per_night", 120),
        ("flights under 300", "budget_per_person", 300),
        ("flights under 900 total", "budget_total", 900),
        ("hotel budget 1500", "budget_total", 1500),
    ],
)
def test_a_cap_right_after_a_hotel_is_nightly_and_after_flights_is_a_fare(text, key, amount):
    found = read_budgets(text)
    assert found[key] == amount
    assert [k for k in ("budget_total", "budget_per_person", "hotel_max_per_night") if found[k]] == [key]


@pytest.mark.parametrize(
    ("text", "preferred", "required", "avoid"),
    [
        ("star alliance if possible", ["UA", "AC", "LH", "LX", "TP", "TK", "NH", "SQ", "AV", "CM", "NZ"], None, None),
        ("oneworld only", None, ["AA", "AS", "BA", "IB", "QF", "CX", "JL", "QR", "AY"], None),
        ("no budget airlines", None, None, ["NK", "F9", "G4", "SY"]),
        ("flying delta, no ULCCs", ["DL"], None, ["NK", "F9", "G4", "SY"]),
        ("i have status with delta", ["DL"], None, None),
        ("use my aadvantage miles", ["AA"], None, None),
        ("a united states passport", None, None, None),
    ],
)
def test_airline_groups_and_loyalty(text, preferred, required, avoid):
    found, _ = read_airlines(text)
    assert (found["airlines"], found["airlines_required"], found["airlines_avoid"]) == (preferred, required, avoid)


@pytest.mark.parametrize(
    ("text", "stars", "near"),
    [
        ("4* hotel", 4, None),
        ("four or five star hotel", 4, None),
        ("4-5 star hotel", 4, None),
        ("beachfront hotel", None, "the beach"),
        ("a room by the ocean", None, "the beach"),
        ("a hotel near the beach", None, "the beach"),
    ],
)
def test_hotel_stars_and_the_beach(text, stars, near):
    f = read(f"tampa to miami mar 2-5, 1 adult, {text}")
    assert (f["hotel_min_stars"], f["hotel_near"]) == (stars, near)


@pytest.mark.parametrize(
    ("text", "cabin"),
    [
        ("upgrade to first", "first"),
        ("make it first", "first"),
        ("make it first thing in the morning", None),
        ("business or first", "business"),
        ("switch to the first one", None),
    ],
)
def test_cabin_changes_in_few_words(text, cabin):
    assert read(text)["cabin"] == cabin


@pytest.mark.parametrize(
    ("text", "wished"),
    [
        ("we'll have 2 checked bags each", True),
        ("carry-on only", True),
        ("do they include checked bags?", False),
        ("3 nights in denver", False),
    ],
)
def test_bags_the_party_brings(text, wished):
    assert bags_wished(text) is wished


@pytest.mark.parametrize(
    ("text", "flights", "hotel"),
    [
        ("no flights before 8am", None, None),
        ("no flights with more than one stop", None, None),
        ("no hotels near the airport", None, True),
        ("no hotel over 200", None, True),
        ("no flights needed, hotel in tulsa", False, True),
        ("make sure we can cancel the hotel", None, True),
        ("cancel the hotel", None, False),
    ],
)
def test_no_flights_or_hotel_only_when_none_is_wanted(text, flights, hotel):
    f = read(f"tampa to tulsa mar 2-5, 1 adult, {text}")
    assert (f["flights_needed"], f["hotel_needed"]) == (flights, hotel)


@pytest.mark.parametrize(
    ("text", "stops"),
    [
        ("nonstop preferred but 1 stop ok", 1),
        ("direct if possible, otherwise 1 stop", 1),
        ("one connection is ok but not more", 1),
        ("nonstop only", 0),
        ("stops are fine", None),
    ],
)
def test_a_stop_allowed_beside_nonstop_is_the_limit(text, stops):
    assert read(f"tampa to tulsa mar 2-5, 1 adult, {text}")["max_stops"] == stops


@pytest.mark.parametrize(
    ("text", "cabin"),
    [("bump us up to business", "business"), ("put me in first", "first"), ("move us into biz", "business")],
)
def test_a_cabin_moved_to(text, cabin):
    assert read(text)["cabin"] == cabin


@pytest.mark.parametrize(
    ("text", "one_way"),
    [
        ("1 way boston to denver jan 3", True),
        ("no return flight needed, boston to denver jan 3", True),
        ("boston to denver jan 3, not coming back", True),
        ("boston to denver jan 3-5, return flight in the evening", False),
    ],
)
def test_one_way_in_other_words(text, one_way):
    assert read(text)["one_way"] is one_way


def test_set_on_flights_means_a_hotel_alone():
    assert read("we're set on flights, need a hotel in tulsa feb 3-5")["flights_needed"] is False


@pytest.mark.parametrize(
    ("text", "cabin"),
    [
        ("how much more for business", "business"),
        ("what would it cost in business?", "business"),
        ("what about biz", "business"),
        ("how much is a business trip to denver", None),
        ("what's the price for business travel", None),
    ],
)
def test_a_price_asked_for_business_is_business_searched(text, cabin):
    assert read(text)["cabin"] == cabin
