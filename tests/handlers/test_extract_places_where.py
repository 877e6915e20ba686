"""Places as travellers name them (handlers/extract/places.py): airports by their own name, shorthand,
alternatives within one metro, countries that are not one place, a town named after its state."""

from datetime import date

import pytest

from handlers.extract import extract_fields
from handlers.extract.places import find_places, lookup
from handlers.testing import Harness


def codes(text):
    return [m.place["code"] for m in find_places(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("out of o'hare to LGA", ["ORD", "LGA"]),
        ("into midway from atlanta", ["MDW", "ATL"]),
        ("boston to heathrow march 3", ["BOS", "LHR"]),
        ("dallas love field to houston hobby", ["DAL", "HOU"]),
        ("from DFW to Dulles", ["DFW", "IAD"]),
        ("Chicago Midway to Denver", ["MDW", "DEN"]),
    ],
)
def test_an_airport_by_its_own_name_where_an_airport_is_expected(text, expected):
    assert codes(text) == expected


@pytest.mark.parametrize("text", ["midway through the trip we want a pool", "a hotel with a lovely national park view"])
def test_an_airport_name_that_is_a_word_stays_a_word_elsewhere(text):
    assert codes(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("oakland to san diego", ["OAK", "SAN"]),  # not Pontiac's Oakland County airport
        ("orlando to sacramento", ["MCO", "SMF"]),  # the towns' main airports, not their executive fields
        ("houston to denver", ["HOU", "DEN"]),  # Houston's city code: Bush and Hobby both searched
        ("den to aus", ["DEN", "AUS"]),  # two codes that are words, beside each other
        ("lisbon from newark", ["LIS", "EWR"]),
        ("chicgo to pheonix", ["CHI", "PHX"]),  # two swapped letters are one typo
        ("albuquerqe from denver", ["ABQ", "DEN"]),
        ("looking at cabo from seattle", ["SJD", "SEA"]),
        ("atl to the keys", ["ATL", "EYW"]),
        ("philly to nola", ["PHL", "MSY"]),
    ],
)
def test_cities_as_people_type_them(text, expected):
    assert codes(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("miami to JFK or newark", ["MIA", "NYC"]),
        ("flying ord/mdw to lax", ["CHI", "LAX"]),
        ("sfo or oak to sea", ["QSF", "SEA"]),
        ("JFK or Boston to Miami", ["JFK", "BOS", "MIA"]),  # not one metro: both stay
    ],
)
def test_airports_of_one_metro_offered_as_alternatives_are_the_metro(text, expected):
    assert codes(text) == expected


@pytest.mark.parametrize(
    "text", ["somewhere warm in mexico from chicago", "flying to lebanon from boston", "to peru from miami"]
)
def test_a_country_with_many_airports_is_not_a_city(text):
    assert [c for c in codes(text) if c not in ("CHI", "BOS", "MIA")] == []


def test_a_country_that_is_one_place_stays_one():
    assert codes("malta from london") == ["MLA", "LON"]
    assert codes("Boston to Cancun, Mexico") == ["BOS", "CUN"]


def test_a_town_picked_by_its_state_is_named_with_it():
    (paris,) = [m.place for m in find_places("to paris texas")]
    assert (paris["code"], paris["name"]) == ("PRX", "Paris, Texas")


def _asked(turn):
    """The slots the turn's question widget asks."""
    return [
        q["slot"]
        for m in turn["ui_messages"]
        if (m.get("widget") or {}).get("type") == "questions"
        for q in m["widget"]["questions"]
    ]


def test_a_country_for_a_destination_is_asked_not_guessed():
    h = Harness(today="2026-12-01", tz="America/New_York")
    turn = h.send("USER_MESSAGE", text="somewhere warm in mexico from chicago feb 12-19, 2 adults", conversation=[])
    asked = _asked(turn)
    assert "destination" in asked
    assert h.intent()["itinerary"]["segments"][0].get("destination") is None


def test_a_guess_between_keys_and_mainland_is_told():
    assumed = [m.assumed for m in find_places("atl to the keys")]
    assert "Key West (EYW)" in assumed[1] and "Miami" in assumed[1]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("need a trip to rome italy from boston", ["ROM", "BOS"]),  # a country after a city that is also a word
        ("going to san jose costa rica from houston", ["SJO", "HOU"]),  # the country picks the San Jose
        ("atlanta portland", ["ATL", "PDX"]),  # Portland is a parish in Jamaica, not Atlanta's region
        ("kc to denver", ["MCI", "DEN"]),
        ("orange county to vegas", ["SNA", "LAS"]),
    ],
)
def test_a_state_or_country_after_a_name_and_more_shorthand(text, expected):
    assert codes(text) == expected


def test_a_town_picked_by_its_country_is_named_with_it():
    assert find_places("to san jose costa rica")[0].place["name"] == "San Jose, Costa Rica"


def test_a_landmark_is_its_airport_and_the_guess_is_told():
    (disney,) = find_places("going to disney world")
    assert disney.place["code"] == "MCO" and "Disney World" in disney.assumed


def test_an_airport_name_alone_answers_where():
    assert lookup("o'hare")["code"] == "ORD"
    assert lookup("Heathrow")["code"] == "LHR"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("tampa to aruba feb 10-17", ["TPA", "AUA"]),  # the island found, so Tampa stays the origin
        ("we want to go to jamaica from atlanta", ["MBJ", "ATL"]),
        ("denver to the bahamas, march 5 to 12", ["DEN", "NAS"]),
        ("honeymoon in st lucia! leaving from boston", ["UVF", "BOS"]),
        ("going to turks and caicos from dallas", ["PLS", "DFW"]),
        ("cayman islands from miami", ["GCM", "MIA"]),
        ("Bermuda from Philly", ["BDA", "PHL"]),
        ("nyc to st thomas", ["NYC", "STT"]),  # the Virgin Islands, not St. Thomas, Ontario
        ("lax to bali", ["LAX", "DPS"]),  # Denpasar, not Bali in Cameroon
    ],
)
def test_an_island_with_no_town_of_its_name_is_its_main_airport(text, expected):
    assert codes(text) == expected


def test_the_main_airport_of_an_island_is_told_with_the_other_one():
    (jamaica,) = find_places("to jamaica")
    assert "Montego Bay (MBJ)" in jamaica.assumed and "Kingston (KIN)" in jamaica.assumed
    (aruba,) = find_places("to aruba")
    assert "AUA" in aruba.assumed


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("heathrow to jfk jan 12", ["LHR", "JFK"]),
        ("o'hare to lax tomorrow", ["ORD", "LAX"]),
        ("Midway to Denver Jan 8", ["MDW", "DEN"]),
        ("need flights, laguardia to miami", ["LGA", "MIA"]),
        ("flights gatwick to orlando", ["LGW", "MCO"]),
        ("Heathrow-JFK jan 3", ["LHR", "JFK"]),
        ("midway - denver", ["MDW", "DEN"]),
    ],
)
def test_an_airport_by_its_own_name_opening_a_route(text, expected):
    assert codes(text) == expected


def test_an_airport_name_that_is_a_word_before_to_inside_a_sentence_stays_a_word():
    assert codes("we are midway to planning this") == []


@pytest.mark.parametrize(
    "text", ["flights from boston to washington state jan 10-15", "upstate new york from miami", "to new york state"]
)
def test_a_state_named_as_a_state_is_not_its_city(text):
    assert not {"WAS", "NYC", "DCA", "IAD"} & set(codes(text))


def test_washington_state_leaves_the_destination_to_ask():
    h = Harness(today="2026-12-01", tz="America/New_York")
    turn = h.send("USER_MESSAGE", text="flights from boston to washington state jan 10-15, 2 adults", conversation=[])
    asked = _asked(turn)
    assert "destination" in asked


@pytest.mark.parametrize(
    ("text", "origin", "destination"),
    [
        # after the way there, "back to" another town names where the trip starts
        ("going home to austin dec 19, back to nyc jan 3", "NYC", "AUS"),
        # ...and "back to" the town the traveller is in is the way home, not a new destination
        ("I'm in Houston next week and need to get to Austin wed then back to Houston fri", "HOU", "AUS"),
    ],
)
def test_back_to_a_town(text, origin, destination):
    fields, _ = extract_fields(text=text, today=date(2026, 12, 1))
    assert (fields["origin"]["code"], fields["destination"]["code"]) == (origin, destination)
