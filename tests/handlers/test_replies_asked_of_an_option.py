"""Replies once options are on screen, second batch: an option id with a few words and a "?" ("b2
nonstop?") is a question about that option, never a wish for the trip; a change of who travels beside a
pick ("b4 but for 3 people") is made; "which one gets in earliest" names the option; a flying day said
beside its own leg ("can we fly out later on thursday") names that leg, never "I can't tell"."""

from __future__ import annotations

import pytest

from handlers.testing import Harness

TRIP = "2 adults boston to denver jan 12-15 with a hotel"  # out Tue Jan 12, back Fri Jan 15


def conversation(*lines):
    h = Harness(today="2026-12-01", tz="America/New_York")
    turn = {}
    for line in lines:
        turn = h.send("USER_MESSAGE", text=line, conversation=[])
    return h, " ".join(m.get("text") or "" for m in turn["ui_messages"])


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("b2 nonstop?", "B2 (Better hotel): BOS→DEN nonstop, DEN→BOS nonstop."),
        ("b3 refundable?", "B3 (Another hotel): flights non-refundable; hotel Denver Riverside Inn refundable."),
        ("b4 checked bags?", "B4 (Cheapest): a carry-on, no checked bag on each flight."),
        ("which one gets in earliest", "B1 (Best overall) lands first: 10:55 AM in DEN"),
        ("what lands last on the way back", "B5 (Refundable) gets home last: 1:15 AM in BOS on Sat Jan 16"),
        ("which flight leaves first", "B1 (Best overall) has the earliest flight out: leaves 8:50 AM"),
    ],
)
def test_an_option_asked_about_is_answered_and_nothing_changes(question, answer):
    h, reply = conversation(TRIP, question)
    assert answer in reply
    assert set(h.tools_run()) <= {"trip_requirements_extract"}  # nothing searched
    assert h.intent()["working_memory"]["selected"]["bundle_id"] is None
    assert h.intent()["preferences"]["flight"]["max_stops"] is None
    assert h.intent()["constraints"]["refundable_preference"] == "either"


def test_who_travels_said_beside_a_pick_is_searched():
    h, reply = conversation(TRIP, "b4 but for 3 people")
    assert h.intent()["party"]["travelers"]["adults"] == 3
    assert "3 adults" in reply


def test_the_same_party_beside_a_pick_is_the_pick():
    h, _ = conversation(TRIP, "b2, with my wife")
    assert h.intent()["working_memory"]["selected"]["bundle_id"] == "B2"


def test_a_flying_day_said_beside_its_own_leg_is_that_leg():
    h, reply = conversation("sf to portland apr 8-11 for 2, need a hotel", "can we fly out later on thursday")
    assert "can't tell" not in reply
    assert h.intent()["itinerary"]["segments"][0]["depart_date"] == "2027-04-08"
    assert "its outbound flight leaves at" in reply


def test_wrong_month_asks_for_the_dates():
    _, reply = conversation(TRIP, "nope wrong month")
    assert "Which dates should it be?" in reply and "Nothing changed" not in reply


@pytest.mark.parametrize(
    ("lines", "answer"),
    [
        (
            ("B2", "hold it", "what time do we leave"),
            "Outbound leaves, earliest first: B2 (Better hotel) 8:50 AM. Return",
        ),
        (("B2", "when do we land"), "Outbound lands: B2 (Better hotel) 10:55 AM in DEN. Return lands: B2"),
    ],
)
def test_a_question_about_our_trip_after_a_choice_is_about_the_choice(lines, answer):
    h, reply = conversation(TRIP, *lines)
    assert answer in reply and "B1" not in reply


def test_which_ones_after_a_choice_is_still_about_every_option():
    _, reply = conversation(TRIP, "B2", "which ones leave after 5")
    assert "B5 (Refundable) 11:10 PM" in reply


@pytest.mark.parametrize("doubt", ["hmm not sure thats right", "that doesnt look right"])
def test_a_doubt_after_a_choice_asks_what_to_fix(doubt):
    h, reply = conversation(TRIP, "B2", doubt)
    assert "What isn't right?" in reply and "Nothing changed" not in reply
    assert h.intent()["working_memory"]["selected"]["bundle_id"] == "B2"


@pytest.mark.parametrize(
    ("lines", "answer"),
    [
        (("is breakfast included in b2",), "Room only, no meals: B2 (Better hotel) Denver Garden Hotel."),
        (("B2", "do i get breakfast"), "Room only, no meals: B2 (Better hotel) Denver Garden Hotel."),
        (("do we get breakfast",), "Room only, no meals: B1 (Best overall) Denver City Hostel"),
        (
            ("B4", "do we get a checked bag"),
            "Bags per adult: B4 (Cheapest): a carry-on, no checked bag on each flight.",
        ),
    ],
)
def test_a_yes_no_question_about_what_is_included_is_answered_not_searched(lines, answer):
    h, reply = conversation(TRIP, *lines)
    assert answer in reply
    assert h.intent()["preferences"]["hotel"].get("board") is None and set(h.tools_run()) <= {
        "trip_requirements_extract"
    }


PHOENIX = "portland to phoenix apr 2-6 for 3 with a hotel"


@pytest.mark.parametrize(
    ("lines", "answer"),
    [
        (
            ("wait is this for 3 people?",),
            "Yes: each total is for all 3 of you. B5 (Cheapest) is $1,679.46 in all ($559.82",
        ),
        (
            ("B1", "is that the total for everyone"),
            "Yes: each total is for all 3 of you. B1 (Best overall) is $1,734.18",
        ),
        (("which one is best for all of us",), "I'd pick B1 (Best overall)"),
    ],
)
def test_whom_the_totals_are_for_is_answered(lines, answer):
    _, reply = conversation(PHOENIX, *lines)
    assert answer in reply


@pytest.mark.parametrize(
    ("lines", "asks"),
    [
        (
            ("b1 looks good but the dates are wrong",),
            "Which dates should it be? I have: leaving Fri Apr 2, back Tue Apr 6.",
        ),
        (
            ("B3", "wait the hotel is wrong"),
            "What should the hotel be? I have: B3's hotel: the 2★ Phoenix Express Inn.",
        ),
    ],
)
def test_a_pick_said_with_something_wrong_asks_what_to_fix(lines, asks):
    h, reply = conversation(PHOENIX, *lines)
    assert asks in reply
    assert h.intent()["working_memory"]["selected"]["bundle_id"] in (None, "B3")  # no pick on a doubt
