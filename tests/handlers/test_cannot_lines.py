"""What the desk cannot do for a trip is said once, in a line of its own, and the trip is searched:
help at the airport (a wheelchair, a service dog, oxygen) is arranged with the airline once booked; a
rental car is booked elsewhere. Words that only look alike ("a wheelchair accessible room", "car
seat") say nothing of it."""

import pytest

from handlers.extract.prefs import asks_for_assistance, asks_for_car
from handlers.testing import Harness


def _said(turn):
    return " ".join(m.get("text") or "" for m in turn["ui_messages"])


@pytest.mark.parametrize(
    ("text", "assistance"),
    [
        ("I need to fly my mom from Tampa to Pittsburgh on the 15th, she uses a wheelchair", True),
        ("my dad needs wheelchair assistance at the airport", True),
        ("travelling with my service dog", True),
        ("she's on oxygen", True),
        ("a wheelchair accessible room please", False),
        ("2 adults boston to denver jan 12-15", False),
    ],
)
def test_help_at_the_airport_is_recognised(text, assistance):
    assert asks_for_assistance(text) is assistance


@pytest.mark.parametrize(
    ("text", "car"),
    [
        ("trip to denver from la, dec 12-15, 3 adults, need a car too", True),
        ("and a rental car please", True),
        ("can you add a car", True),
        ("we need a car seat for the baby", False),
        ("2 adults boston to denver jan 12-15", False),
    ],
)
def test_a_rental_car_is_recognised(text, car):
    assert asks_for_car(text) is car


def test_a_first_message_with_a_wheelchair_and_a_car_is_searched_and_says_both():
    h = Harness(today="2026-12-01")
    turn = h.say("trip to denver from la, dec 12-15, 3 adults, need a car too, my dad uses a wheelchair")
    said = _said(turn)
    assert "I can't book rental cars" in said
    assert "Wheelchair help, a service animal or oxygen is arranged with the airline" in said
    assert h.intent()["working_memory"]["ranked_bundles"]
