"""Replies once options are on screen: "which one has the best hotel?" names that option and why (never
every option again), "hold on, the dates are wrong" asks what to fix (never "Nothing changed"), an
option named with a wish and no comma ("b4 nonstop please") is the wish searched, a choice made for
its times says what it costs against the option it replaced, and two names of one day are read once."""

from __future__ import annotations

import re

import pytest

from handlers.testing import Harness

TRIP = "2 adults boston to denver jan 12-15 with a hotel"  # out Tue Jan 12, back Fri Jan 15


def said(turn):
    return " ".join(m.get("text") or "" for m in turn["ui_messages"])


def conversation(*lines):
    h = Harness(today="2026-12-01", tz="America/New_York")
    turn = {}
    for line in lines:
        turn = h.send("USER_MESSAGE", text=line, conversation=[])
    return h, said(turn)


def named(reply):
    return set(re.findall(r"\bB\d\b", reply))


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("which one has the best hotel?", r"^B2 \(Better hotel\) has the best hotel: the 3★ Denver Garden Hotel"),
        ("whats the quickest option", r"is the fastest: \dh\d\dm of flying"),
        ("which one's got the nicest hotel", r"^B2 \(Better hotel\) has the best hotel"),
        ("which has the cheapest flights", r"has the cheapest flights: flights \$"),
        ("which option has the earliest flight out?", r"has the earliest flight out: leaves \d"),
    ],
)
def test_which_most_names_the_option_and_why_not_every_option(question, answer):
    h, reply = conversation(TRIP, question)
    assert re.search(answer, reply)
    assert len(named(reply)) <= 2  # the one asked for and the next best, never the whole list
    assert re.search(r"\((?:\$[\d,.]+ (?:more|less)|the same price)\)", reply)  # what the next best costs against it
    assert h.intent()["working_memory"]["selected"]["bundle_id"] is None


@pytest.mark.parametrize(
    ("lines", "asks", "holds"),
    [
        ((TRIP, "hold on, the dates are wrong"), "Which dates should it be?", "leaving Tue Jan 12, back Fri Jan 15"),
        ((TRIP, "wait that's not right"), "What isn't right?", "Boston (BOS) → Denver (DEN)"),
        ((TRIP, "hang on, thats the wrong airport"), "Where should it be from or to?", "Boston (BOS) → Denver (DEN)"),
        (
            (TRIP, "B2", "wait the hotel is wrong"),
            "What should the hotel be?",
            "B2's hotel: the 3★ Denver Garden Hotel",
        ),
        ((TRIP, "B1", "hold it", "these arent the dates i wanted"), "Which dates should it be?", "back Fri Jan 15"),
    ],
)
def test_something_wrong_asks_what_to_fix(lines, asks, holds):
    h, reply = conversation(*lines)
    assert "Nothing changed" not in reply
    assert asks in reply and holds in reply
    assert h.intent()["itinerary"]["segments"][0]["depart_date"] == "2027-01-12"  # nothing moved on a guess


@pytest.mark.parametrize(
    ("wish", "path", "value"),
    [
        ("b4 nonstop please", ("flight", "max_stops"), 0),
        ("b1 w/ breakfast pls", ("hotel", "board"), "breakfast"),
        ("lets do b1 but on delta", ("flight", "airlines"), ["DL"]),
    ],
)
def test_an_option_named_with_a_wish_searches_the_wish(wish, path, value):
    h, reply = conversation(TRIP, wish)
    assert h.intent()["preferences"][path[0]][path[1]] == value
    assert "Nothing changed" not in reply


def test_b5_then_a_description_of_it_is_still_the_pick():
    h, _ = conversation(TRIP, "B5 — the refundable one")
    assert h.intent()["working_memory"]["selected"]["bundle_id"] == "B5"


def test_a_later_flight_chosen_says_what_it_costs_against_the_one_it_replaced():
    _, reply = conversation(TRIP, "B1", "is there a later flight home on the 15th")
    assert re.search(r"Chose B\d instead of B1: .*\$[\d,.]+ (?:more|less) than B1", reply)


def test_two_names_of_one_day_are_read_once():
    h, _ = conversation("boston to new orleans for mardi gras / fat tuesday, 2 ppl, 3 nights")
    taking = [a for a in h.intent()["status"]["assumptions"] if a.startswith("Taking")]
    assert taking == ["Taking mardi gras (fat tuesday) as Tue Feb 9; say the day if it is another"]


@pytest.mark.parametrize(
    ("lines", "said"),
    [
        (("B1 but with a nicer hotel",), "Chose B2 instead of B1: its hotel is the 3★ Denver Garden Hotel, not the 1★"),
        (("B2", "a different hotel"), "Chose B1 instead of B2: its hotel is the 1★ Denver City Hostel"),
    ],
)
def test_a_choice_by_its_hotel_says_what_it_costs_against_the_one_it_replaced(lines, said):
    _, reply = conversation(TRIP, *lines)
    assert said in reply
    assert re.search(r"\$[\d,.]+ (?:more|less) than B\d", reply)
