"""A trip said to be for work ranks no hostel first: its best overall has a hotel of WORK_STARS or more
when the search found one, and the cheapest option (a hostel, as it may be) is still shown."""

from __future__ import annotations

import pytest

from handlers.common.intent import WORK_STARS
from handlers.extract.prefs import read_preferences
from handlers.testing import Harness


def _hotels(bundle):
    return [h["summary"]["stars"] for h in bundle.get("hotels") or []]


@pytest.mark.parametrize(
    "text",
    [
        "business trip boston to denver jan 12-15, 1 adult, need a hotel",
        "heading to denver for a client meeting jan 12-15 from boston, 1 adult, hotel too",
        "conference in austin march 4-8 flying from seattle, 1 adult, hotel as well",
        "my company is sending me to denver jan 12-15 from boston, hotel needed",
    ],
)
def test_a_work_trip_puts_no_hostel_first_and_still_shows_the_cheapest(text):
    h = Harness()
    h.say(text)
    wm = h.intent()["working_memory"]
    bundles = wm["ranked_bundles"]
    assert h.intent()["preferences"]["hotel"]["for_work"] is True
    assert min(_hotels(bundles[0])) >= WORK_STARS
    assert any(b["label"] == "Cheapest" and min(_hotels(b)) < WORK_STARS for b in bundles)


def test_a_trip_not_said_for_work_ranks_as_before():
    h = Harness()
    h.say("2 adults boston to denver jan 12-15 with a hotel")
    assert not h.intent()["preferences"]["hotel"]["for_work"]
    assert _hotels(h.intent()["working_memory"]["ranked_bundles"][0]) == [1]


@pytest.mark.parametrize(
    ("text", "for_work"),
    [
        ("work trip to austin", True),
        ("flying out for work on the 3rd", True),
        ("trade show in vegas", True),
        ("family vacation to orlando", None),
        ("visiting my parents", None),
        ("we're going to a wedding", None),
    ],
)
def test_work_is_read_from_the_words(text, for_work):
    assert read_preferences(text)["for_work"] is for_work
