"""Who shares a room and a bed: friends two to a room get rooms with 2 beds first; colleagues get
a room each, said, until they say they'll share; a couple or a family is left as it was."""

from __future__ import annotations

import pytest

from handlers.testing import Harness


def _trip(*said: str) -> Harness:
    h = Harness(today="2026-12-01", tz="America/New_York")
    for text in said:
        h.say(text)
    return h


def _hotel(h: Harness) -> dict:
    return (h.intent().get("preferences") or {}).get("hotel") or {}


def _assumed(h: Harness) -> list:
    return h.widgets("trip_summary")[-1].get("assumptions") or []


@pytest.mark.parametrize(
    "text",
    [
        "going to vegas with 5 buddies for a bachelor party, we're all in denver, feb 19-21",
        "girls trip to nashville! 4 of us from atlanta march 5-8",
        "6 guys to vegas from denver feb 19-21",
        "me and 3 friends, chicago to miami jan 8-11",
    ],
)
def test_friends_two_to_a_room_get_rooms_with_two_beds_first(text):
    h = _trip(text)
    assert _hotel(h).get("beds") == "2 beds"
    assert h.intent()["itinerary"]["lodging"]["guests_per_room"] == 2


@pytest.mark.parametrize(
    "text",
    [
        "me and my wife boston to denver jan 12-15",
        "2 adults 2 kids from boston to orlando feb 14-18",
        "honeymoon! 2 of us to cancun from nyc march 3-10",
        "4 friends from nyc to miami jan 8-11, a king bed each, separate rooms",  # beds said
    ],
)
def test_couples_families_and_beds_said_are_left_as_said(text):
    assert _hotel(_trip(text)).get("beds") in (None, "king")


def test_a_king_said_after_replaces_the_two_beds():
    h = _trip("6 guys to vegas from denver feb 19-21", "a king is fine")
    assert _hotel(h).get("beds") == "king"


def test_colleagues_get_a_room_each_said_until_they_share():
    h = _trip("me and a coworker, boston to chicago jan 12-14 for a conference")
    lodging = h.intent()["itinerary"]["lodging"]
    assert (lodging["rooms"], lodging["guests_per_room"]) == (2, 1)
    assert "Assumed a room each for 2 colleagues; say if you'll share a room" in _assumed(h)
    h.say("we'll share a room")
    assert h.intent()["itinerary"]["lodging"]["rooms"] == 1
    assert not any("colleagues" in line for line in _assumed(h))


def test_sharing_a_car_is_not_sharing_a_room():
    h = _trip("me and 2 colleagues, boston to chicago jan 12-14")
    assert h.intent()["itinerary"]["lodging"]["rooms"] == 3
    h.say("we'll share a car")
    assert h.intent()["itinerary"]["lodging"]["rooms"] == 3
