"""First messages that say a trip's flights as a list ("out of chicago: denver jan 10, phoenix jan 13,
home jan 16"), a day counted from an event the other way ("the thursday before fat tuesday and home
the day after"), and a flight the traveller already has beside a hotel ("a hotel near lax on jan 7, i
have an early flight next morning": the hotel searched, no flight)."""

from __future__ import annotations

import pytest

from tests.handlers.test_first_messages import read


def legs_of(fields):
    return [(leg["origin"]["code"], leg["destination"]["code"], leg["depart_date"]) for leg in fields["legs"] or []]


@pytest.mark.parametrize(
    "text, legs",
    [
        (
            "out of chicago: denver jan 10, phoenix jan 13, home jan 16, just me",
            [("CHI", "DEN", "2027-01-10"), ("DEN", "PHX", "2027-01-13"), ("PHX", "CHI", "2027-01-16")],
        ),
        (
            "flying boston to miami jan 8 then miami to new orleans jan 11 and back to boston jan 14, 2 of us",
            [("BOS", "MIA", "2027-01-08"), ("MIA", "MSY", "2027-01-11"), ("MSY", "BOS", "2027-01-14")],
        ),
        (
            "from seattle: portland feb 1, then sf feb 4, and back home feb 7",
            [("SEA", "PDX", "2027-02-01"), ("PDX", "QSF", "2027-02-04"), ("QSF", "SEA", "2027-02-07")],
        ),
    ],
)
def test_a_list_of_dated_stops_is_a_flight_to_each(text, legs):
    fields, _ = read(text)
    assert legs_of(fields) == legs


def test_boston_to_denver_and_back_is_still_a_round_trip():
    fields, _ = read("boston to denver jan 8 and back jan 12, 1 adult")
    assert (fields["depart_date"], fields["return_date"], fields["legs"]) == ("2027-01-08", "2027-01-12", None)


@pytest.mark.parametrize(
    "text, depart, back",
    [
        ("from memphis to new orleans, thursday before fat tuesday and home the day after", "2027-02-04", "2027-02-10"),
        ("chicago to new orleans the saturday before mardi gras, back the day after", "2027-02-06", "2027-02-10"),
    ],
)
def test_the_day_after_counts_from_the_event_the_way_out_was_counted_from(text, depart, back):
    fields, _ = read(text)
    assert (fields["depart_date"], fields["return_date"]) == (depart, back)


@pytest.mark.parametrize(
    "text, code, check_in, check_out",
    [
        ("need a hotel near lax on jan 7, i have an early flight next morning", "LAX", "2027-01-07", "2027-01-08"),
        ("hotel by JFK the night of feb 3, flying out early feb 4, 2 adults", "JFK", "2027-02-03", "2027-02-04"),
        ("hotel near the denver airport jan 9, we've got a 6am flight the next day", "DEN", "2027-01-09", "2027-01-10"),
    ],
)
def test_a_flight_had_beside_a_hotel_is_no_flight_to_search(text, code, check_in, check_out):
    fields, told = read(text)
    stay = fields["stays"][0]
    assert fields["flights_needed"] is False
    assert (stay["location"]["code"], stay["check_in"], stay["check_out"]) == (code, check_in, check_out)
    assert any("only a hotel" in line for line in told), told


def test_a_hotel_with_flights_asked_still_searches_the_flights():
    fields, _ = read("boston to denver jan 9-12, hotel near the airport, we have an early flight home")
    assert fields["flights_needed"] is not False
    assert (fields["origin"]["code"], fields["destination"]["code"]) == ("BOS", "DEN")
