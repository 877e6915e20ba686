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
