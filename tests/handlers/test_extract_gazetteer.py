"""Towns people name (handlers/extract/places.py with data/gazetteer.json): other-language names,
misspellings, shared names told as an assumption, and never a closed airport."""

import pytest

from handlers.common import geo
from handlers.extract.places import find_places


def codes(text):
    return [m.place["code"] for m in find_places(text)]


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("Wien to Praha", ["VIE", "PRG"]),
        ("from Sevilla to Firenze", ["SVQ", "FLR"]),
        ("Goteborg to Kobenhavn", ["GOT", "CPH"]),
    ],
)
def test_names_in_other_languages(text, want):
    assert codes(text) == want


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("philadelpia to Nashvile", ["PHL", "BNA"]),
        ("from Clevland", ["CLE"]),
        ("Sacremento to San Deigo", ["SMF", "SAN"]),
    ],
)
def test_misspelt_towns_where_a_place_is_expected(text, want):
    assert codes(text) == want


@pytest.mark.parametrize(
    "text",
    ["we want to reserve a table", "I need to check in", "for games and fun", "fly home on Sunday", "to meet friends"],
)
def test_words_are_not_misspelt_towns(text):
    assert codes(text) == []


def test_a_shared_name_is_read_as_the_biggest_town_and_said():
    (m,) = find_places("to Springfield")
    assert m.place["code"] == "SGF"
    assert "Springfield, Missouri" in m.assumed and "Springfield, Illinois" in m.assumed
    (qualified,) = find_places("to Springfield, Illinois")
    assert qualified.place["code"] == "SPI" and qualified.assumed == ""


@pytest.mark.parametrize(("city", "closed"), [("Berlin", "TXL"), ("Istanbul", "ISL"), ("Doha", "DIA")])
def test_a_closed_airport_is_never_chosen(city, closed):
    (m,) = find_places(f"fly to {city}")
    assert m.place["code"] != closed
    assert closed not in geo.airports_for(m.place["code"])


def test_towns_of_us_territories_are_us_towns():
    # GeoNames files Puerto Rico under PR, airportsdata under the US: the gazetteer links them
    found = find_places("newark to san juan")
    assert found[1].place["code"] == "SJU" and "Argentina" in found[1].assumed
    assert find_places("san juan, argentina to buenos aires")[0].place["code"] == "UAQ"
