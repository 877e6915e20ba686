"""Who travels, as people type it: agent codes with the count after ("ADT 2 CHD 1 (7)"), one age for
twins or for every child ("my 15 yo twins", "2 kids both 10"), someone else's couple trip ("my
parents' anniversary trip"), twin babies on two laps, and someone asked to join once options are shown."""

from __future__ import annotations

import pytest

from handlers.testing import Harness


def _going(*turns):
    h = Harness(today="2026-12-01", tz="America/New_York")
    out = None
    for turn in turns:
        out = h.say(turn)
    doc = h.intent()
    said = " ".join(m.get("text") or "" for m in out["ui_messages"])
    return doc["party"]["travelers"], doc["party"]["child_ages"], said, doc["status"]["assumptions"]


@pytest.mark.parametrize(
    ("text", "party", "ages"),
    [
        ("JFK-LHR 12JAN-19JAN ADT 2 CHD 1 (7)", {"adults": 2, "children": 1, "infants": 0}, [7]),
        ("ADT2/CHD1/INF1 bos-mco feb 3-8", {"adults": 2, "children": 1, "infants": 1}, []),
        ("2 adults + 2 kids both 10, nyc to denver jan 3-8", {"adults": 2, "children": 2, "infants": 0}, [10, 10]),
        ("my 12 year old twins and me, seattle to la mar 1-5", {"adults": 1, "children": 2, "infants": 0}, [12, 12]),
        (
            "2 adults and twin babies 6 months old, boston to miami jan 10-17",
            {"adults": 2, "children": 0, "infants": 2},
            [],
        ),
    ],
)
def test_the_party_is_counted_as_typed(text, party, ages):
    going, child_ages, _, _ = _going(text)
    assert going == party
    assert child_ages == ages


def test_teen_twins_flying_alone_are_two_passengers_of_their_own():
    going, _, _, told = _going("my 15 yo twins flying alone to see their grandma, atlanta to orlando dec 20-27")
    assert going == {"adults": 2, "children": 0, "infants": 0}
    assert any("your 2 teenagers" in line for line in told)


@pytest.mark.parametrize(
    "text",
    [
        "booking my parents' anniversary trip, philly to honolulu may 3-10",
        "want to surprise my mom and dad with a trip to vegas, they fly out of phoenix feb 6-9",
        "my in-laws trip to rome, they fly from boston mar 3-10",
    ],
)
def test_someone_elses_couple_trip_is_the_two_of_them(text):
    going, _, said, _ = _going(text)
    assert going["adults"] == 2
    assert "how many" not in said.lower()


def test_their_occasion_without_a_trip_asks_who_travels():
    going, _, _, _ = _going("flying to tampa for my parents' 40th anniversary party, from nyc dec 18-21")
    assert going["adults"] in (0, 1)


def test_two_babies_are_never_the_baby():
    _, _, said, _ = _going(
        "2 adults and twin babies 6 months old, boston to miami jan 10-17", "do the babies need their own seats?"
    )
    assert "each of your 2 babies flies as a lap infant" in said
    assert "the baby" not in said


@pytest.mark.parametrize(
    ("ask", "adults"),
    [("can my mom come too?", 3), ("could my brother join us?", 3), ("could our friend tag along?", 3)],
)
def test_someone_asked_to_join_after_options_joins(ask, adults):
    going, _, said, _ = _going("2 adults, boston to chicago feb 3-6", ask)
    assert going["adults"] == adults
    assert "can't tell" not in said
