"""Dates said to be flexible ("flexible by a day or two", "+/- 2 days", "give or take a day") keep the
days said, are never read as a day or a trip's length, and the traveller is told how to compare other
days; a "flexible ticket" is still a refundable one."""

import pytest

from handlers.extract.prefs import dates_flexible
from handlers.testing import Harness

TRIP = "SF to NYC Dec 19 - Jan 3, 2 adults"


def _said(turn):
    return " ".join(m.get("text") or "" for m in turn["ui_messages"])


def _days(h):
    segments = h.intent()["itinerary"]["segments"]
    return segments[0]["depart_date"], segments[-1]["depart_date"]


@pytest.mark.parametrize(
    "text",
    [
        "flexible by a day or two",
        "the dates are flexible by a day or two if it's cheaper",
        "we're flexible on dates",
        "our travel dates are pretty flexible",
        "+/- 2 days",
        "give or take a day",
        "a day or two either side is fine",
    ],
)
def test_flexible_dates_keep_the_trip_and_say_how_to_compare(text):
    h = Harness(today="2026-12-01")
    h.say(TRIP)
    before = h.intent()["working_memory"]["ranked_bundles"]
    turn = h.say(text)
    assert _days(h) == ("2026-12-19", "2027-01-03")
    assert h.intent()["working_memory"]["ranked_bundles"] == before
    assert 'ask "what if we leave a day earlier?"' in _said(turn)


def test_a_first_message_with_flexible_dates_searches_the_days_said_and_says_so():
    h = Harness(today="2026-12-01")
    turn = h.say("boston to denver march 3-7, give or take a day, 2 adults")
    assert _days(h) == ("2027-03-03", "2027-03-07")
    assert h.intent()["working_memory"]["ranked_bundles"]
    assert "The options are for the days you gave (Wed Mar 3 – Sun Mar 7)" in _said(turn)


@pytest.mark.parametrize("text", ["i want a flexible ticket", "flexible fares only", "a day trip to boston", "2 days"])
def test_other_flexibility_and_lengths_are_not_flexible_dates(text):
    assert dates_flexible(text) == []
