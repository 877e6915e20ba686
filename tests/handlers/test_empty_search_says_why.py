"""A search the traveller's own filters empty says which preference did it and how to let it go."""

import pytest

from handlers.extract.prefs import read_relax
from handlers.reducer.intake import RELAX_HINTS
from handlers.testing import Harness


def last(turn):
    return [m.get("text") or "" for m in turn.get("ui_messages") or []][-1]


def test_a_nightly_cap_that_rules_out_every_hotel_is_named_and_can_be_dropped():
    h = Harness(today="2026-12-01", tz="America/New_York")
    reply = last(h.say("Boston to Denver Jan 12-15, 2 adults, keep the hotel under $10 a night"))
    assert "hotels in Denver" in reply and "at most $10.00 a night" in reply and '"no hotel cap"' in reply
    assert not h.intent()["working_memory"]["ranked_bundles"]
    h.say("no hotel cap")
    assert h.intent()["constraints"]["hotel_max_per_night"] is None
    assert h.intent()["itinerary"]["lodging"]["needed"] is True  # "no hotel cap" is not "no hotel"
    assert h.intent()["working_memory"]["ranked_bundles"]


def test_flight_filters_are_named_with_what_they_rule_out():
    h = Harness(today="2026-12-01", tz="America/New_York")
    reply = last(h.say("Boston to Denver Jan 12-15, 1 adult, only Air Canada, nonstop"))
    assert "only Air Canada rules out" in reply and "nonstop only rules out" in reply
    assert '"any airline"' in reply and '"stops are fine"' in reply
    h.say("stops are fine")
    assert h.intent()["preferences"]["flight"]["max_stops"] is None
    h.say("any airline")
    assert h.intent()["preferences"]["flight"]["airlines_required"] == []
    assert h.intent()["working_memory"]["ranked_bundles"]


@pytest.mark.parametrize("name", sorted(RELAX_HINTS))
def test_every_offered_phrase_is_read_as_letting_go_of_that_filter(name):
    assert read_relax(RELAX_HINTS[name])[0] == [name]


def test_a_time_wish_that_empties_one_legs_search_is_named_for_that_leg():
    h = Harness(today="2026-12-01", tz="America/New_York")
    reply = last(h.say("sf to nyc, leaving the morning of jan 7, returning the evening of jan 10, 1 adult"))
    assert "but leaving in the morning rules out" in reply and 'drop "leaving in the morning"?' in reply
    assert "evening" not in reply  # the return's wish did not empty the way out
