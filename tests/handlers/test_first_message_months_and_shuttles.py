"""A trip said in months ("for a month": to the same day of the next month), bare days with their month
said apart ("home on the 18th, out on the 12th ... in january"), and a time said of a shuttle flight
("the 6am shuttle")."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from tests.handlers.test_first_messages import read


@pytest.mark.parametrize(
    "text, depart, back",
    [
        ("going to bali for a month from LA, leaving jan 5, just me", "2027-01-05", "2027-02-05"),
        ("nyc to lisbon march 1 for 2 months, 1 adult", "2027-03-01", "2027-05-01"),
        (
            "coming home on the 18th, going out on the 12th - nyc to miami in january, just me",
            "2027-01-12",
            "2027-01-18",
        ),
        ("boston to denver the 3rd to the 7th in may", "2027-05-03", "2027-05-07"),
    ],
)
def test_months_said(text, depart, back):
    fields, _ = read(text)  # the way back as said, else the nights after the way out
    end = fields["return_date"] or (date.fromisoformat(depart) + timedelta(days=fields["nights"])).isoformat()
    assert (fields["depart_date"], end) == (depart, back)


def test_a_month_from_the_last_day_of_a_month_ends_on_the_next_months_last():
    fields, _ = read("airbnb in lisbon for a month starting jan 31")
    assert (fields["stays"][0]["check_in"], fields["stays"][0]["check_out"]) == ("2027-01-31", "2027-02-28")


@pytest.mark.parametrize(
    "text, wish",
    [
        ("boston to dc jan 12, take the 6am shuttle down and back by 8pm same day, just me", "around 06:00"),
        ("boston to dc jan 12-14, we take the 6am shuttle to the airport", None),
    ],
)
def test_a_shuttle_at_a_time_is_a_flight_at_that_time(text, wish):
    fields, _ = read(text)
    assert fields["time_out"] == wish


def test_back_on_a_later_shuttle_the_same_day_is_a_day_trip():
    fields, _ = read("nyc to dc feb 2, the 7am shuttle down, back on the 5pm shuttle same day, 1 adult")
    assert (fields["depart_date"], fields["return_date"], fields["time_return"]) == (
        "2027-02-02",
        "2027-02-02",
        "around 17:00",
    )
