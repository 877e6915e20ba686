"""First messages a blind set found misread: a party closed by "just 1", someone else flown
somewhere ("get my dad from Tampa"), children's ages after a dash, an airport wished for without a
cue ("Reagan airport if possible", "prefer LaGuardia"), and a trip home the day it leaves."""

from datetime import date

import pytest

from handlers.extract import extract_fields
from handlers.extract.party import read_party
from handlers.extract.prefs import money_mentions, read_clock_bounds
from handlers.testing import Harness

TODAY = date(2026, 12, 1)


def read(text):
    fields, _ = extract_fields(text=text, today=TODAY)
    return fields


def code(place):
    return place["code"] if place else None


@pytest.mark.parametrize(
    "text, adults",
    [
        ("Minneapolis to Detroit jan 7, back jan 9, avoid Spirit pls, just 1", 1),
        ("jan 7-9 bos to dtw, only 2.", 2),
        ("boston to miami feb 3-5 (just 3)", 3),
    ],
)
def test_a_count_closing_a_clause_is_the_party(text, adults):
    assert read_party(text)["adults"] == adults


@pytest.mark.parametrize(
    "text", ["just 3 nights in denver please", "we need to get to denver, just 1 bag each", "only 2 stops max"]
)
def test_a_count_of_something_else_is_not_the_party(text):
    assert read_party(text)["adults"] is None


@pytest.mark.parametrize(
    "text, adults",
    [
        ("need to get my dad from Tampa to Pittsburgh on Dec 20, one way", 1),
        ("I need to get my mom from Tampa to Pittsburgh on Dec 20, she's 78", 1),
        ("can you fly my boss from dallas to nyc jan 5", 1),
        ("can you get my wife and me to denver jan 3", 2),  # the writer says they go too
    ],
)
def test_someone_flown_somewhere_is_the_party(text, adults):
    party = read_party(text)
    assert (party["adults"], party["children"]) == (adults, None)


def test_children_fetched_are_not_a_flight_party():
    assert read_party("i want to get my kids from school to grandma in tampa")["children"] is None


@pytest.mark.parametrize(
    "text, ages",
    [
        ("family of 5 (3 kids - 4, 7 and 12) atlanta to cancun feb 14-21", [4, 7, 12]),
        ("2 adults and our kids \u2013 5 and 9", [5, 9]),
    ],
)
def test_ages_after_a_dash(text, ages):
    party = read_party(text)
    assert (party["children"], party["child_ages"]) == (len(ages), ages)


@pytest.mark.parametrize(
    "text, origin, destination",
    [
        ("from Indianapolis to Washington DC Jan 26, back Jan 28. Reagan airport if possible.", "IND", "DCA"),
        ("Chicago to New York jan 26-28, 1 adult, prefer LaGuardia", "CHI", "LGA"),
        ("dc to boston jan 12-14, just me, Reagan airport please", "DCA", "BOS"),
        ("London to Paris march 3-6, 2 adults, ideally Gatwick", "LGW", "PAR"),
    ],
)
def test_an_airport_wished_for_is_the_airport_of_the_end_it_serves(text, origin, destination):
    f = read(text)
    assert (code(f["origin"]), code(f["destination"])) == (origin, destination)


@pytest.mark.parametrize(
    "text",
    ["Boston to Denver jan 5-8, 1 adult, ideally Gatwick", "Boston to Denver jan 5-8, 1 adult, prefer LaGuardia"],
)
def test_an_airport_serving_neither_end_changes_no_end(text):
    f = read(text)
    assert (code(f["origin"]), code(f["destination"])) == ("BOS", "DEN")


def test_an_airport_wished_for_fills_the_end_not_yet_said():
    f = read("going to denver jan 5-8, 1 adult, prefer LaGuardia")
    assert (code(f["origin"]), code(f["destination"])) == ("LGA", "DEN")


@pytest.mark.parametrize(
    "text",
    [
        "day trip boston to dc jan 6, just me",
        "Milwaukee to Atlanta on January 6th for a job interview and fly back the same evening",
        "there and back in a day: seattle to portland jan 6, 1 person",
        "a same-day trip from chicago to detroit on jan 6 for 2",
    ],
)
def test_a_trip_home_the_day_it_leaves(text):
    f = read(text)
    assert (f["depart_date"], f["return_date"]) == ("2027-01-06", "2027-01-06")


def test_a_day_trip_inside_a_longer_trip_keeps_its_dates():
    f = read("boston to dc jan 6-9 with a hotel, plus a day trip to baltimore")
    assert (f["depart_date"], f["return_date"]) == ("2027-01-06", "2027-01-09")


def test_a_day_trip_searches_flights_only_and_shows_options():
    h = Harness()
    h.say("day trip boston to dc jan 6, just me")
    segments = h.intent()["itinerary"]["segments"]
    assert [s["depart_date"] for s in segments] == ["2027-01-06", "2027-01-06"]
    assert "hotel_quote_search" not in h.tools_run()
    assert h.widgets("bundles"), "the day trip's flights are on screen"


@pytest.mark.parametrize(
    "text, key, bound",
    [
        ("need to be in San Francisco by Monday Jan 11 at noon for a meeting", "arrive_out", "before 12:00"),
        ("need to be there by the 11th at 9am", "arrive_out", "before 09:00"),
        ("have to be home by sunday at 8pm", "arrive_return", "before 20:00"),
    ],
)
def test_a_day_then_its_time_bounds_the_arrival(text, key, bound):
    assert read_clock_bounds(text) == {key: bound}


@pytest.mark.parametrize("text", ["book it by friday at 5pm please", "by the way at 5pm I have dinner"])
def test_a_time_of_something_else_is_no_flight_bound(text):
    assert read_clock_bounds(text) == {}


@pytest.mark.parametrize(
    "text, key, amount, currency",
    [
        ("Vancouver to Calgary Jan 21-24 with a hotel, budget CAD 1200 total", "budget_total", 1200.0, "CAD"),
        ("hotel max EUR 180 per night", "hotel_max_per_night", 180.0, "EUR"),
        ("gbp 150 a night", "hotel_max_per_night", 150.0, "GBP"),
    ],
)
def test_a_currency_code_before_the_amount_is_its_currency(text, key, amount, currency):
    assert money_mentions(text)[0][:3] == (key, amount, currency)


def test_a_flight_number_is_no_amount():
    assert money_mentions("flight AC 123 at 9am") == []
