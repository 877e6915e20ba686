"""A party leaving from several towns is told the towns heard and asked which to search from, never
searched from one of them silently (handlers/extract/origins.py); "jersey" beside US towns is New
Jersey (Newark, told), the island when the trip is in Europe (handlers/extract/places.py)."""

from __future__ import annotations

import pytest

from handlers.testing import Harness
from tests.handlers.test_first_message_short_names import code
from tests.handlers.test_first_messages import asked, read


def first_turn(text):
    h = Harness(today="2026-12-01", tz="America/New_York")
    turn = h.send("USER_MESSAGE", text=text, conversation=[])
    return h, turn, " ".join(m.get("text") or "" for m in turn["ui_messages"])


@pytest.mark.parametrize(
    "text, towns",
    [
        ("3 of us from NYC and 3 from Chicago, meeting in denver jan 15-18", ("New York", "Chicago")),
        ("me from boston, my sister from philly, meeting up in nashville feb 5-8", ("Boston", "Philadelphia")),
        ("4 girls from houston + 2 from austin, miami feb 19-22", ("Houston", "Austin")),
        ("we're flying out of two cities: 2 from LA and 2 from SF to cabo, dec 28 - jan 2", ("Los Angeles", "San")),
    ],
)
def test_several_origins_are_named_and_asked_nothing_searched(text, towns):
    h, turn, said = first_turn(text)
    assert "origin" in asked(turn)
    assert all(town in said for town in towns), said
    assert "Searching flights" not in said
    assert code(h.intent()["itinerary"]["segments"][0].get("origin")) is None


def test_the_town_answered_is_searched_from():
    h, _, _ = first_turn("3 of us from NYC and 3 from Chicago, meeting in denver jan 15-18")
    h.say("chicago")
    first = h.intent()["itinerary"]["segments"][0]
    assert (code(first["origin"]), code(first["destination"])) == ("CHI", "DEN")


@pytest.mark.parametrize(
    "text, origins",
    [
        ("flying from boston to denver jan 5, then from denver to vegas jan 8, 1 adult", ("BOS",)),  # a chain
        ("from JFK or from newark to miami jan 5-9, 1 adult", ("JFK", "EWR")),  # either airport
    ],
)
def test_one_origin_said_twice_or_a_chain_is_not_several(text, origins):
    fields, _ = read(text)
    assert code(fields["origin"] or (fields["legs"] or [{}])[0].get("origin")) in origins


@pytest.mark.parametrize(
    "text, origin, destination",
    [
        ("flying from jersey to orlando jan 16-20, 2 adults 2 kids", "EWR", "MCO"),
        ("jersey to fort lauderdale, mar 3-10, 2 of us", "EWR", "FLL"),
        ("from jersey city to orlando feb 2-6", "EWR", "MCO"),
        ("new jersey to orlando feb 2-6", "EWR", "MCO"),
        ("flying out of jersey to cancun feb 13-20, 2 of us", "EWR", "CUN"),
        ("we live in south jersey, need flights to myrtle beach jun 4-8", "PHL", "MYR"),
        ("london to jersey for a long weekend, feb 12-15, 2 adults", "LON", "JER"),
        ("paris to jersey mar 3-6", "PAR", "JER"),
    ],
)
def test_jersey_in_a_trip_in_the_americas_is_new_jersey(text, origin, destination):
    fields, told = read(text)
    assert (code(fields["origin"]), code(fields["destination"])) == (origin, destination)
    if destination != "JER":
        assert any(f"({origin})" in line for line in told), told
