"""Several flights said as a chain of places or with a different way home (handlers/extract/journeys.py)."""

from datetime import date

import pytest

from handlers.extract import extract_fields

TODAY = date(2026, 12, 1)


def legs(text):
    fields, _ = extract_fields(text=text, today=TODAY)
    return [(leg["origin"]["code"], leg["destination"]["code"], leg["depart_date"]) for leg in fields["legs"] or []]


@pytest.mark.parametrize(
    ("text", "want"),
    [
        (
            "NYC → London → Paris → home, leaving feb 10, paris feb 14, home feb 18",
            [("NYC", "LON", "2027-02-10"), ("LON", "PAR", "2027-02-14"), ("PAR", "NYC", "2027-02-18")],
        ),
        (
            "boston > chicago > denver > boston mar 3, mar 5, mar 8",
            [("BOS", "CHI", "2027-03-03"), ("CHI", "DEN", "2027-03-05"), ("DEN", "BOS", "2027-03-08")],
        ),
        # a day for each flight: each leg its day, even with "then"
        ("nyc to london then paris, mar 3 and mar 8", [("NYC", "LON", "2027-03-03"), ("LON", "PAR", "2027-03-08")]),
        # a leg's end said again as the next leg's start is one stop
        (
            "flights from ord to sea and then sea to anc, jan 4 and jan 9",
            [("ORD", "SEA", "2027-01-04"), ("SEA", "ANC", "2027-01-09")],
        ),
    ],
)
def test_a_chain_of_places_is_a_trip_of_several_flights(text, want):
    assert legs(text) == want


@pytest.mark.parametrize(
    ("text", "want"),
    [
        (
            "flying into Rome and out of Milan, from Chicago, May 2-12",
            [("CHI", "ROM", "2027-05-02"), ("MIL", "CHI", "2027-05-12")],
        ),
        (
            "from boston, into lisbon and home from porto apr 3-12",
            [("BOS", "LIS", "2027-04-03"), ("OPO", "BOS", "2027-04-12")],
        ),
    ],
)
def test_a_different_way_home_is_two_flights(text, want):
    assert legs(text) == want


@pytest.mark.parametrize(
    "text",
    [
        "boston to denver jan 12-15",
        "boston to denver and back jan 12-15",
        "from boston to denver, then home jan 15",
        "nyc to london to paris and back home feb 10-18",  # three flights, two dates: read as usual
    ],
)
def test_there_and_back_or_too_few_dates_is_no_chain(text):
    assert legs(text) == []


def test_a_chain_with_too_few_dates_says_how_to_give_them():
    said = []
    fields, _ = extract_fields(text="nyc to london to paris and back home feb 10-18", today=TODAY, assumptions=said)
    assert fields["legs"] is None
    assert any(s.startswith("To fly New York → London → Paris → New York, give each flight its date") for s in said)


def test_the_options_name_a_way_home_from_elsewhere():
    from handlers.testing import Harness

    turn = Harness(today="2026-12-01", tz="America/New_York").say(
        "flying into Rome and out of Milan, from Chicago, May 2-12, 2 adults"
    )
    texts = " ".join(m.get("text") or "" for m in turn["ui_messages"])
    assert "options for Chicago → Rome, Milan → Chicago," in texts


def test_leaving_from_home_is_not_the_way_back():
    assert legs("flying from Chicago into Rome May 2, and back from Milan May 12") == [
        ("CHI", "ROM", "2027-05-02"),
        ("MIL", "CHI", "2027-05-12"),
    ]


def test_home_from_another_town_after_a_route_is_an_open_jaw():
    # the towns between ("then florence") are by land; the flights are out to Rome and home from Milan
    assert legs("nyc to rome march 5, then florence, fly home from milan march 15, 2 adults") == [
        ("NYC", "ROM", "2027-03-05"),
        ("MIL", "NYC", "2027-03-15"),
    ]
    assert legs("boston to denver jan 5, back from denver jan 9") == []  # the same town: a round trip


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("nyc to london then paris march 3-12", [("NYC", "LON", "2027-03-03"), ("PAR", "NYC", "2027-03-12")]),
        (
            "from atlanta to lisbon then porto then madrid, april 2-16",
            [("ATL", "LIS", "2027-04-02"), ("MAD", "ATL", "2027-04-16")],
        ),
        (
            "miami to sao paulo then buenos aires then back to miami, march 1 to march 15",
            [("MIA", "SAO", "2027-03-01"), ("BUE", "MIA", "2027-03-15")],
        ),
        (
            "rome then florence then venice from dc may 2-14",
            [("WAS", "ROM", "2027-05-02"), ("VCE", "WAS", "2027-05-14")],
        ),
        # the last day from the trip's length; Galway has no airport, Cork has
        (
            "dublin then galway then cork, 10 days starting march 5, flying from boston",
            [("BOS", "DUB", "2027-03-05"), ("ORK", "BOS", "2027-03-15")],
        ),
        # listed without "to": the home named apart, the towns by commas, "and" or "then"
        (
            "from sfo, tokyo then seoul, mar 3 - 15, 2 adults",
            [("SFO", "TYO", "2027-03-03"), ("SEL", "SFO", "2027-03-15")],
        ),
        (
            "leaving boston apr 2: lisbon, madrid, barcelona, home apr 16",
            [("BOS", "LIS", "2027-04-02"), ("BCN", "BOS", "2027-04-16")],
        ),
        (
            "from dallas, vegas and then la, leaving jan 15, home the 20th",
            [("DFW", "LAS", "2027-01-15"), ("QLA", "DFW", "2027-01-20")],
        ),
    ],
)
def test_towns_toured_between_the_first_and_last_day_fly_home_from_the_last(text, want):
    assert legs(text) == want


def test_a_tour_that_flies_home_from_the_last_town_says_the_way_between_is_not_searched():
    said = []
    extract_fields(text="nyc to london then paris march 3-12", today=TODAY, assumptions=said)
    assert any(s.startswith("Flying home from Paris") and "London to Paris" in s for s in said)
