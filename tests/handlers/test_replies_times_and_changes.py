"""Replies once options are on screen that ask for other times on one of the trip's days, or name an
option and ask for a change in the same breath: the day names the leg (never a new date), and the
change is made (never dropped for the pick)."""

from __future__ import annotations

import pytest

from handlers.options_answer import answer_about_options
from handlers.router import route_text
from handlers.testing import Harness

TRIP = "2 adults boston to denver jan 12-15 with a hotel"  # out Tue Jan 12, back Fri Jan 15


@pytest.fixture(scope="module")
def shown():
    h = Harness()
    h.say(TRIP)
    return h.intent()


def said(turn):
    return " ".join(m.get("text") or "" for m in turn["ui_messages"])


@pytest.mark.parametrize(
    ("text", "leg"),
    [
        ("anything earlier on tuesday?", "fly out before 08:50"),
        ("any later flights on friday", "later_return"),
        ("is there an earlier departure tues tho", "fly out before 08:50"),
        ("any flights after 5pm on the 15th?", "any flights after 5pm on the way back?"),
        ("what other times are there on jan 12", "what other times are there on the way out"),
    ],
)
def test_a_flying_day_said_about_times_is_that_leg(shown, text, leg):
    data = route_text(text, shown)["data"]
    assert leg in (data.get("read_as"), (data.get("because") or {}).get("why"))


@pytest.mark.parametrize(
    "text",
    [
        "can we leave friday instead",  # a move: the day is a date
        "anything earlier on wednesday?",  # no leg flies that day
        "what about an earlier flight home on the 12th",  # the leg is said
    ],
)
def test_other_days_and_moves_are_read_as_they_are(shown, text):
    assert "read_as" not in route_text(text, shown)["data"] or "way" not in route_text(text, shown)["data"]["read_as"]


def test_earlier_on_the_outbound_day_searches_that_leg_and_keeps_the_dates():
    h = Harness()
    h.say(TRIP)
    turn = h.say("anything earlier on tuesday?")
    segments = h.intent()["itinerary"]["segments"]
    assert [s["depart_date"] for s in segments] == ["2027-01-12", "2027-01-15"]
    assert "before 8:50 AM" in said(turn) and "can't tell" not in said(turn)


def test_later_on_the_return_day_never_moves_the_departure():
    h = Harness()
    h.say(TRIP)
    h.say("any later flights on friday")
    assert h.intent()["itinerary"]["segments"][0]["depart_date"] == "2027-01-12"


def test_a_clock_bound_asked_is_answered_from_the_screen_with_the_search_that_finds_more(shown):
    bundles = shown["working_memory"]["ranked_bundles"]
    answer = answer_about_options("any flights after 5pm on the way back?", bundles)
    assert answer.startswith("Return leaves after 5:00 PM on screen: B5")
    assert "Say 'fly back after 5:00 PM'" in answer and "Outbound" not in answer
    none = answer_about_options("any flights before 7am on the way back?", bundles)
    assert none.startswith("No return on screen leaves before 7:00 AM (earliest: B3")


@pytest.mark.parametrize(
    ("text", "read_as"),
    [
        ("b4, can you find a nonstop", "can you find a nonstop"),
        ("b5 but in business class", "in business class"),
        ("B2 looks good but can we come back saturday instead", "can we come back saturday instead"),
        ("b3, and can we get breakfast included", "can we get breakfast included"),
    ],
)
def test_a_pick_with_a_change_is_the_change(shown, text, read_as):
    event = route_text(text, shown)
    assert event["type"] == "USER_MESSAGE" and event["data"].get("read_as") == read_as


def test_a_pick_with_a_nicer_hotel_is_that_option_with_a_nicer_hotel(shown):
    event = route_text("B1 but with a nicer hotel", shown)
    assert event["data"]["bundle_id"] == "B2" and event["data"]["because"]["instead_of"] == "B1"


@pytest.mark.parametrize("text", ["b2, thanks", "b2, is it refundable?", "b1, can you hold it?"])
def test_a_pick_with_no_change_is_not_read_as_one(shown, text):
    assert "read_as" not in route_text(text, shown)["data"]


def test_a_pick_with_a_nonstop_asked_searches_nonstop():
    h = Harness()
    h.say("seattle to austin march 4-8, 1 adult")
    h.say("b4, can you find a nonstop")
    assert h.intent()["preferences"]["flight"]["max_stops"] == 0
