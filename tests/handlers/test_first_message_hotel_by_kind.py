"""A first message that needs no hotel by what it asks for or why the traveller goes ("just need
airfare", "going home for christmas") searches flights only and says so; one that names a hotel,
or goes to someone's event, or comes after options, keeps the hotel."""

from __future__ import annotations

import pytest

from handlers.testing import Harness
from tests.handlers.test_first_messages import read  # (the fields and what was told of one first message)


@pytest.mark.parametrize(
    "text",
    [
        "just need airfare, chicago to phoenix jan 14-18, 2 adults",
        "need plane tickets for 3 from atlanta to orlando feb 12-15",
        "book me a flight SFO-ORD 1/9, return 1/12",
        "fly home for christmas, seattle to boise dec 20-27",
        "headed back home to pittsburgh for the holidays dec 19 - jan 2, flying out of atlanta",
        "thanksgiving at my parents in columbus, from boston nov 24-28 2027",
        "visiting my folks in tampa over new year's, from philly dec 29 - jan 3",
    ],
)
def test_no_hotel_by_the_trips_kind_and_told(text):
    fields, told = read(text)
    assert fields["hotel_needed"] is False
    assert any(line.endswith("say if you want a hotel") for line in told), told


@pytest.mark.parametrize(
    "text",
    [
        "need a flight and a hotel, dallas to denver jan 8-11, 1 adult",
        "airfare plus 3 nights hotel for 2, austin to nyc feb 5-8",
        "visiting my parents in columbus dec 20-24 from nyc, need a hotel near them",
        "flying to denver for my sister's wedding at my sister's ranch jan 8-11",
        "denver for my brother's wedding, at my brother's wedding jan 8-11 from boston",
        "christmas in orlando with my family, from boston dec 22-27, 2 adults 2 kids",
        "going to visit my sister in austin march 3-6 from chicago",
        "home for christmas, boston to denver dec 20-27, book the marriott downtown",
        "just need airfare and places to stay, atlanta to orlando feb 12-15",
    ],
)
def test_a_hotel_said_or_not_ruled_out_stays(text):
    fields, told = read(text)
    assert fields["hotel_needed"] is not False
    assert not any(line.endswith("say if you want a hotel") for line in told), told


def test_airfare_asked_about_once_options_are_shown_keeps_the_hotel():
    h = Harness()
    h.say("2 adults boston to denver jan 12-15")
    assert h.intent()["itinerary"]["lodging"]["needed"] is True
    h.say("how much is the airfare on the first one?")
    assert h.intent()["itinerary"]["lodging"]["needed"] is True
