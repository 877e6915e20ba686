"""Short names people type for cities: "ny" beside a capitalised code ("ny to LA"), famous short names
("rio", "hk", "bombay"), a state's abbreviation for its airport ("nj": Newark, told); words that are
also abbreviations ("me", "in", "ok", "or") stay words."""

from __future__ import annotations

import pytest

from tests.handlers.test_first_messages import read  # (the fields and what was told of one first message)


def code(place):
    return (place or {}).get("code")


@pytest.mark.parametrize(
    "text, origin, destination",
    [
        ("ny to LA, leaving tomorrow", "NYC", "QLA"),
        ("la to NY jan 5-9", "QLA", "NYC"),
        ("rio from miami feb 20-27, 2 adults", "MIA", "RIO"),
        ("hk to tokyo jan 5-9, 2 adults", "HKG", "TYO"),
        ("bombay to dubai jan 5-9", "BOM", "DXB"),
        ("ok so boston to denver jan 12-15, just me", "BOS", "DEN"),
        ("me and my husband want to go to miami from philly jan 8-12", "PHL", "MIA"),
        ("i'm in boston, flying to denver dec 12-15", "BOS", "DEN"),
    ],
)
def test_short_names_and_words(text, origin, destination):
    fields, _ = read(text)
    assert (code(fields["origin"]), code(fields["destination"])) == (origin, destination)


def test_a_states_abbreviation_is_its_airport_told():
    fields, told = read("nj to orlando feb 12-16, 2 adults")
    assert code(fields["origin"]) == "EWR"
    assert any("Newark (EWR) for New Jersey" in line for line in told), told


def test_rio_grande_is_not_rio():
    fields, _ = read("flying to rio grande from dallas jan 3-6")
    assert code(fields["destination"]) != "RIO"


@pytest.mark.parametrize(
    "text, destination",
    [("plan a trip to rome from chicago may 3-10", "ROM"), ("flying to nice from boston may 3-10", "NCE")],
)
def test_a_town_that_is_also_a_word_after_flying_to_or_a_trip_to(text, destination):
    fields, _ = read(text)
    assert code(fields["destination"]) == destination
