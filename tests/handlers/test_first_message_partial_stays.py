"""A hotel for part of the trip: the flights keep their days and the stay is the nights said
("hotel only for the first 3 nights", "no hotel for the last night", "hotel jan 20-23")."""

from __future__ import annotations

from datetime import date

import pytest

from handlers.extract.extractor import extract_fields
from handlers.extract.stays import partial_stay, stay_nights
from handlers.testing import Harness

TODAY = date(2026, 12, 1)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("hotel only for the first 3 nights", ("first", 3, False)),
        ("hotel for the last 2 nights only", ("last", 2, False)),
        ("no hotel for the last night (staying w friends)", ("last", 1, True)),
        ("we don't need a room the first night", ("first", 1, True)),
        ("the last two nights in a hotel", ("last", 2, False)),
        ("staying with friends the last night", ("last", 1, True)),
        ("staying at my sister's place for the first 2 nights", ("first", 2, True)),
        ("a hotel near the beach", None),
        ("no hotel needed", None),
    ],
)
def test_the_part_of_the_trip_a_hotel_is_for(text, said):
    found = partial_stay(text)
    assert (found[:3] if found else None) == said


@pytest.mark.parametrize(
    ("said", "stay"),
    [
        (("first", 3, False), ("2027-02-02", "2027-02-05")),
        (("last", 2, False), ("2027-02-07", "2027-02-09")),
        (("last", 1, True), ("2027-02-02", "2027-02-08")),
        (("first", 1, True), ("2027-02-03", "2027-02-09")),
        (("first", 7, False), None),  # the whole trip or more: not a part of it
    ],
)
def test_the_nights_counted_from_the_end_of_the_trip_said(said, stay):
    assert stay_nights((*said, (0, 0)), "2027-02-02", "2027-02-09") == stay


@pytest.mark.parametrize(
    ("text", "stay", "back"),
    [
        (
            "atlanta to seattle feb 2-9, hotel only for the first 3 nights, 1 adult",
            ("2027-02-02", "2027-02-05"),
            "2027-02-09",
        ),
        (
            "Miami to NYC march 5-10, 2 adults, hotel for the last 2 nights only",
            ("2027-03-08", "2027-03-10"),
            "2027-03-10",
        ),
        (
            "denver to chicago jan 12-16 for 2, need a hotel but no hotel for the last night (staying w friends)",
            ("2027-01-12", "2027-01-15"),
            "2027-01-16",
        ),
        (
            "denver to boston dec 12 - 15, 1 adult, staying with friends the last night so hotel till the 14th",
            ("2026-12-12", "2026-12-14"),
            "2026-12-15",
        ),
        (
            "phoenix to boston jan 20-25, just me, hotel jan 20-23 then I'm at my sister's",
            ("2027-01-20", "2027-01-23"),
            "2027-01-25",
        ),
    ],
)
def test_the_flights_keep_their_days_and_the_hotel_its_nights(text, stay, back):
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say(text)
    itinerary = h.intent()["itinerary"]
    first = itinerary["lodging"]["stays"][0]
    assert itinerary["lodging"]["needed"] is True
    assert (first["check_in"], first["check_out"]) == stay
    assert itinerary["segments"][1]["depart_date"] == back


def test_a_hotel_for_part_of_the_trip_is_no_hotel_only_trip_nor_its_length():
    fields, _ = extract_fields(text="atlanta to seattle feb 2-9, hotel only for the first 3 nights", today=TODAY)
    assert fields["flights_needed"] is not False
    assert fields["nights"] is None
    assert fields["return_date"] == "2027-02-09"


@pytest.mark.parametrize(
    ("text", "out", "stay", "back"),
    [
        (
            "boston to LA dec 3, back dec 7, 1 adult. flight lands late so keep the hotel from the 4th",
            "2026-12-03",
            ("2026-12-04", "2026-12-07"),
            "2026-12-07",
        ),
        (
            "seattle to nyc dec 10-14, 1 adult, but only need the hotel from the 11th",
            "2026-12-10",
            ("2026-12-11", "2026-12-14"),
            "2026-12-14",
        ),
        (
            "chicago to miami jan 6 to jan 10, 1 adult, red eye out so hotel starting jan 7",
            "2027-01-06",
            ("2027-01-07", "2027-01-10"),
            "2027-01-10",
        ),
        (
            "denver to boston dec 12-15, 1 adult, only need the hotel till the 14th",
            "2026-12-12",
            ("2026-12-12", "2026-12-14"),
            "2026-12-15",
        ),
    ],
)
def test_one_end_of_the_stay_said_moves_the_hotel_not_the_flights(text, out, stay, back):
    """ "keep the hotel from the 4th" after the trip's days: the stay starts (or ends) then, the flights
    keep their days, and "only need the hotel from ..." is no hotel-only trip."""
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say(text)
    itinerary = h.intent()["itinerary"]
    first = itinerary["lodging"]["stays"][0]
    assert [s["depart_date"] for s in itinerary["segments"]] == [out, back]
    assert (first["check_in"], first["check_out"]) == stay
