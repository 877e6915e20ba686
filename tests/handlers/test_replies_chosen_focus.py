"""Once an option is chosen, a question that names no option and compares none is about the chosen one
("is breakfast included" after "B2"), never every option again; one about them all still is."""

from __future__ import annotations

import pytest

from handlers.testing import Harness

TRIP = "2 adults boston to denver jan 12-15 with a hotel"


def said_after(*lines):
    h = Harness(today="2026-12-01", tz="America/New_York")
    turn = {}
    for line in lines:
        turn = h.send("USER_MESSAGE", text=line, conversation=[])
    return " ".join(m.get("text") or "" for m in turn["ui_messages"])


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("is breakfast included", "Room only, no meals: B2 (Better hotel) Denver Garden Hotel."),
        ("how far is the hotel from downtown", "B2 (Better hotel) Denver Garden Hotel 4.0 km from the centre"),
    ],
)
def test_once_one_is_chosen_a_question_naming_none_is_about_it(question, answer):
    reply = said_after(TRIP, "B2", question)
    assert answer in reply and "B1" not in reply


def test_a_question_about_them_all_after_a_choice_is_still_about_them_all():
    reply = said_after(TRIP, "B2", "which ones leave after 5")
    assert "B5 (Refundable) 11:10 PM" in reply
