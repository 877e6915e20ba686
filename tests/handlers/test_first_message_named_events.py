"""Events people date trips by: days found by rule ("mardi gras", "the kentucky derby") and the days
counted from them ("the friday before"); an event held in one town is the destination, told; an
event whose days change every year is asked about, not read as this weekend."""

from __future__ import annotations

from datetime import date

import pytest

from handlers.extract.dates import named_day
from handlers.testing import Harness
from tests.handlers.test_first_messages import read  # (the fields and what was told of one first message)


@pytest.mark.parametrize(
    "name, today, day",
    [
        ("mardi gras", date(2026, 12, 1), date(2027, 2, 9)),
        ("fat tuesday", date(2027, 3, 1), date(2028, 2, 29)),  # Easter 2028 is April 16
        ("ash wednesday", date(2026, 12, 1), date(2027, 2, 10)),
        ("carnival", date(2026, 12, 1), date(2027, 2, 6)),  # the Saturday before Fat Tuesday
        ("kentucky derby", date(2026, 12, 1), date(2027, 5, 1)),
        ("kentucky derby", date(2027, 5, 2), date(2028, 5, 6)),
        ("boston marathon", date(2026, 12, 1), date(2027, 4, 19)),
    ],
)
def test_event_days_by_rule(name, today, day):
    assert named_day(name, today) == day


@pytest.mark.parametrize(
    "text, out, back",
    [
        (
            "new orleans for mardi gras from dallas, leave the friday before and back fat tuesday",
            "2027-02-05",
            "2027-02-09",
        ),
        (
            "louisville for the kentucky derby from denver, in the thursday before, home the day after",
            "2027-04-29",
            "2027-05-02",
        ),
        ("carnaval in rio from miami, arrive the friday before, back ash wednesday", "2027-02-05", "2027-02-10"),
    ],
)
def test_days_counted_from_an_event(text, out, back):
    fields, _ = read(text)
    assert (fields["depart_date"], fields["return_date"]) == (out, back)


@pytest.mark.parametrize(
    "text, code, town",
    [
        ("mardi gras! flying from houston, the saturday before to ash wednesday", "MSY", "New Orleans"),
        ("the kentucky derby, from charlotte, friday before through sunday", "SDF", "Louisville"),
    ],
)
def test_an_event_held_in_one_town_is_the_destination_and_told(text, code, town):
    fields, told = read(text)
    assert fields["destination"]["code"] == code
    assert any(town in line and "say if you're going somewhere else" in line for line in told), told


def test_a_town_said_beats_the_events():
    fields, told = read("mardi gras in mobile this year, from atlanta, the saturday before to ash wednesday")
    assert (fields["destination"] or {}).get("code") != "MSY"  # asked where, not New Orleans
    assert not any("New Orleans" in line for line in told)


@pytest.mark.parametrize(
    "text",
    ["coachella weekend 1, sf to palm springs, 4 of us", "super bowl weekend, boston to LA, 2 adults"],
)
def test_the_weekend_of_an_event_of_no_fixed_days_is_asked(text):
    fields, _ = read(text)
    assert fields["depart_date"] is None


def test_a_carnival_cruise_is_no_day():
    fields, _ = read("boston to miami for a carnival cruise jan 9-16, 2 adults")
    assert (fields["depart_date"], fields["return_date"]) == ("2027-01-09", "2027-01-16")


def test_a_trip_for_an_event_with_no_day_said_asks_the_day_before_or_its_day():
    # not flown on the day itself without a word: "for mardi gras" names no day of travel
    h = Harness(today="2026-12-01", tz="America/New_York")
    turn = h.send("USER_MESSAGE", text="new orleans for mardi gras from atlanta, 2 adults", conversation=[])
    said = " ".join(m.get("text") or "" for m in turn["ui_messages"])
    assert "Mon Feb 8, the day before your Mardi Gras, or Tue Feb 9, its day?" in said
    assert h.intent()["itinerary"]["segments"][0].get("depart_date") is None
    h.say("the day before")
    assert h.intent()["itinerary"]["segments"][0]["depart_date"] == "2027-02-08"


def test_an_event_day_said_as_the_way_back_is_told_as_read():
    fields, told = read("atlanta to new orleans feb 6, back ash wednesday, 2 adults")
    assert fields["return_date"] == "2027-02-10"
    assert "Taking ash wednesday as Wed Feb 10; say the day if it is another" in told
