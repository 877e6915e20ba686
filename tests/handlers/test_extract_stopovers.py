"""A stopover on the way and a town a flight connects in (handlers/extract/stopovers.py)."""

from datetime import date

import pytest

from handlers.extract import extract_fields

TODAY = date(2026, 12, 1)


def read(text):
    said = []
    fields, _ = extract_fields(text=text, today=TODAY, assumptions=said)
    legs = [(leg["origin"]["code"], leg["destination"]["code"], leg["depart_date"]) for leg in fields["legs"] or []]
    return fields, legs, said


@pytest.mark.parametrize(
    ("text", "want"),
    [
        (
            "sfo to amsterdam april 4-15 with a 3 night stopover in reykjavik on the way, 2 adults",
            [("SFO", "KEF", "2027-04-04"), ("KEF", "AMS", "2027-04-07"), ("AMS", "SFO", "2027-04-15")],
        ),
        (
            "boston to dubai march 2, back march 12, with a 2 day stopover in istanbul on the way back",
            [("BOS", "DXB", "2027-03-02"), ("DXB", "IST", "2027-03-12"), ("IST", "BOS", "2027-03-14")],
        ),
        (
            "seattle to tokyo, stopping over in honolulu for 3 days, leaving march 10",
            [("SEA", "HNL", "2027-03-10"), ("HNL", "TYO", "2027-03-13")],
        ),
    ],
)
def test_a_stopover_of_a_said_length_is_a_flight_there_and_one_on(text, want):
    fields, legs, _ = read(text)
    assert legs == want
    assert fields["nights"] is None  # the stopover's days are not the trip's


def test_a_stopover_without_its_length_is_told_and_is_neither_the_destination_nor_the_hotel():
    fields, legs, said = read("sfo to amsterdam with a stopover in reykjavik on the way, april 4, home april 15")
    assert legs == []
    assert (fields["origin"]["code"], fields["destination"]["code"]) == ("SFO", "AMS")
    assert not any((s.get("location") or {}).get("code") == "KEF" for s in fields["stays"] or [])
    assert "A stopover in Reykjavik is not in this search yet; say how many days there to add it" in said


@pytest.mark.parametrize(
    "text",
    [
        "denver to boston jan 5-8 via chicago, 1 adult",
        "denver to boston jan 5-8, connecting through chicago is fine",
        "denver to boston jan 5-8, layover in chicago ok",
        "denver to boston jan 5-8, a stop in chicago is fine",
        "denver to boston jan 5-8, no layover in chicago please",
    ],
)
def test_a_town_a_flight_connects_in_is_no_end_of_the_trip(text):
    fields, legs, said = read(text)
    assert (fields["origin"]["code"], fields["destination"]["code"], legs) == ("DEN", "BOS", [])
    assert any(s.startswith("Took Chicago as where a flight connects") for s in said)
