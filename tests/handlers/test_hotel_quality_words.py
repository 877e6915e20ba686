"""A hotel wished good in words ("a nice hotel", "somewhere decent", "not a dump") ranks no hotel under
the stars those words mean first, as a work trip does; the cheapest hotel is still shown, and no search
is filtered by them (stars said, "4 star", stay the traveller's own filter)."""

from __future__ import annotations

import pytest

from handlers.extract.prefs import read_preferences
from handlers.testing import Harness


def _stars(bundle):
    return min(h["summary"]["stars"] for h in bundle.get("hotels") or [])


@pytest.mark.parametrize(
    ("text", "stars"),
    [
        ("me and my wife want a nice hotel in chicago, flying from boston feb 3-6", 3),
        ("boston to denver march 3-6 for 2, somewhere decent to stay please", 2),
        ("me and my gf, nyc to austin jan 15-18, need a hotel but not a dump lol", 2),
        ("2 adults boston to austin mar 3-6, no hostels please", 2),
    ],
)
def test_quality_words_put_a_hotel_of_those_stars_first_and_still_show_the_cheapest(text, stars):
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say(text)
    bundles = h.intent()["working_memory"]["ranked_bundles"]
    assert _stars(bundles[0]) >= stars
    assert any(b["label"] == "Cheapest" and _stars(b) < stars for b in bundles)


@pytest.mark.parametrize(
    ("wish", "stars"), [("somewhere decent to stay please", 2), ("no hostels please", 2), ("a really nice hotel", 3)]
)
def test_quality_words_after_options_are_said_back_and_rerank(wish, stars):
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say("2 adults boston to denver jan 12-15 with a hotel")
    out = h.say(wish)
    assert any(m.get("text") == f"Hotels of {stars}★ or better first." for m in out["ui_messages"])
    assert _stars(h.intent()["working_memory"]["ranked_bundles"][0]) >= stars


def test_a_leisure_trip_without_quality_words_ranks_as_before():
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say("2 adults boston to denver jan 12-15 with a hotel")
    assert _stars(h.intent()["working_memory"]["ranked_bundles"][0]) == 1


@pytest.mark.parametrize(
    ("text", "quality"),
    [
        ("a really nice hotel please", 3),
        ("want somewhere fancy for valentines", 4),
        ("clean decent hotel nothing fancy", 2),
        ("a proper hotel not a hostel", 2),
        ("the hotel should be nice", 3),
        ("nothing fancy", None),
        ("hotel doesn't need to be nice", None),
        ("have a nice day", None),
        ("vegas is a great place", None),
        ("a good price on the hotel", None),
        ("a nice 4 star hotel", None),  # stars said: the filter, not a wish
    ],
)
def test_quality_is_read_from_the_words(text, quality):
    assert read_preferences(text)["hotel_quality"] == quality


def test_a_group_wishing_somewhere_fancy_gets_it_first_though_it_needs_several_rooms():
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say("girls trip 5 of us to vegas from la mar 20-23, want somewhere fancy")
    bundles = h.intent()["working_memory"]["ranked_bundles"]
    assert _stars(bundles[0]) >= 4
    assert any(b["label"] == "Cheapest" and _stars(b) < 4 for b in bundles)
