"""Place names in free text -> airports, cities and metro codes (handlers/extract/places.py)."""

import pytest

from handlers.extract.places import find_places, lookup


def names(text):
    return [(m.place["code"], m.place["name"]) for m in find_places(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("from Newark to Denver", [("EWR", "Newark"), ("DEN", "Denver")]),
        ("one way JFK to LAX", [("JFK", "New York"), ("LAX", "Los Angeles")]),
        ("New York to London, then Paris", [("NYC", "New York"), ("LON", "London"), ("PAR", "Paris")]),
        ("from nyc to la", [("NYC", "New York"), ("QLA", "Los Angeles")]),
        ("Washington D.C. to San Fran", [("WAS", "Washington"), ("QSF", "San Francisco")]),
        ("flying into Chi-town", [("CHI", "Chicago")]),
        ("we land in Vancouver, BC", [("YVR", "Vancouver")]),  # YVR's city in airportsdata is Richmond
        ("going to Seatle", [("SEA", "Seattle")]),  # one edit away, after a travel cue
    ],
)
def test_known_places(text, expected):
    assert names(text) == expected


def test_the_main_airport_of_a_city_wins():
    assert lookup("Portland")["code"] == "PDX"
    assert lookup("Sydney")["code"] == "SYD"


def test_a_region_after_the_city_picks_among_same_named_cities_and_is_not_a_place_itself():
    assert names("Portland, Maine") == [("PWM", "Portland, Maine")]  # named so, as it is not the Portland one expects
    assert names("I leave from Toronto, Ontario") == [("YTO", "Toronto")]  # not Ontario, California


@pytest.mark.parametrize(
    "text",
    [
        "I hope you can help me",  # Hope, BC
        "Nice to meet you",  # Nice, France, without a travel cue
        "Sound good to me",  # not a misspelt Souda
        "with Radisson Admiral Hotel",  # a small airport's town, not cued
        "Delta has a flight in the morning",
        "may I book for Monday",
    ],
)
def test_ordinary_words_are_not_places(text):
    assert names(text) == []


def test_plain_words_that_are_towns_count_after_a_travel_cue():
    assert names("a week in Nice") == [("NCE", "Nice")]


def test_lookup_of_a_bare_answer_or_code():
    assert lookup("los angeles")["name"] == "Los Angeles"
    assert lookup("EWR") == {"type": "airport", "code": "EWR", "name": "Newark"}
    assert lookup("qwertyuiop") is None


def test_a_city_that_is_also_a_dictionary_word_starts_a_route_when_to_leads_to_a_city():
    """ "malaga" (a wine), "faro" (a card game) and "split" are words too: before "to <a city>" they are the origin."""
    from handlers.extract.places import find_places

    for text, first in [
        ("Malaga to London on March 3", "AGP"),
        ("malaga to london march 3-9, 2 people", "AGP"),
        ("Faro to London on March 3", "FAO"),
        ("Split to Paris May 3-8 for 2", "SPU"),
    ]:
        codes = [m.place["code"] for m in find_places(text)]
        assert codes[0] == first and len(codes) == 2, (text, codes)
    # a word that only looks like a name stays a word
    assert [m.place["code"] for m in find_places("Nice to meet you! A flight from Boston to Chicago")] == ["BOS", "CHI"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Nice to London on May 3 for 2, back May 9", ["NCE", "LON"]),
        ("Reno to Denver Feb 12-15", ["RNO", "DEN"]),
        ("Darwin to Sydney 4 Feb", ["DRW", "SYD"]),
        ("Mobile, AL to Atlanta", ["BFM", "ATL"]),
        ("Nice to Rome", ["NCE", "ROM"]),  # both names are words too
        ("nice to paris march 10", ["NCE", "PAR"]),  # a lower-case message that opens with the route
        ("from reno to seattle", ["RNO", "SEA"]),
        ("boston to rome may 3-10", ["BOS", "ROM"]),  # lower case, right after "<a place> to"
        ("london to nice may 3", ["LON", "NCE"]),
    ],
)
def test_a_town_that_is_a_plain_word_starts_or_ends_a_route_between_places(text, expected):
    assert [m.place["code"] for m in find_places(text)] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("nice to meet you", []),
        ("Nice to meet you, I need London to Paris", ["LON", "PAR"]),
        ("It would be nice to go to Rome", ["ROM"]),  # Rome after the cue, not Nice
        ("Nice to have a hotel near London", ["LON"]),
        ("paris to nice hotels", ["PAR"]),  # an adjective before a noun
        ("Reading to Edinburgh", ["EDI"]),  # a town too small to assume (and Reading, PA has the airport)
        ("switch to mobile", []),
    ],
)
def test_the_same_words_as_phrases_stay_words(text, expected):
    assert [m.place["code"] for m in find_places(text)] == expected


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        ("phx to sea on the 8th", ["PHX", "SEA"]),  # a code that is a word, beside a code
        ("bos-den-bos jan 3-6", ["BOS", "DEN", "BOS"]),
        ("sea to lax", ["SEA", "LAX"]),
        ("i love the sea to be honest", []),  # beside no code: a word
        ("by the sea", []),
    ],
)
def test_codes_that_are_words_count_only_beside_a_code(text, codes):
    assert [m.place["code"] for m in find_places(text)] == codes


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a state or province code after a comma, in lower case, closing the name
        ("london, on to vancouver", ["YXU", "YVR"]),
        ("portland, me to orlando", ["PWM", "MCO"]),
        ("toronto to london, on the 5th", ["YTO", "LON"]),  # "on the 5th" is a date's
        ("portland, me and my wife", ["PDX"]),
        # a postal code that is also a word, in lower case without a comma, where the word could not stand
        ("need a hotel in portland me for dec 12-14", ["PWM"]),
        ("portland me dec 3-5", ["PWM"]),
        ("portland me and my wife to boston", ["PDX", "BOS"]),
        ("hotel in columbus in, dec 3-5", ["CLU"]),
        ("columbus in march from boston", ["CMH", "BOS"]),  # "in march" is a month's
        ("flights to portland for me and my wife", ["PDX"]),
        # a town served by an international airport named for two towns, filed under a third
        ("greenville sc to boston", ["GSP", "BOS"]),
        # as the date reader leaves them: a masked "feb 11-13" is spaces and its dash
        ("hotel in portland me       -  , 1 adult", ["PWM"]),
        ("charleston wv       -   from dc", ["CRW", "WAS"]),
        ("toronto to london, on                , 1 adult", ["YTO", "LON"]),
        # a town with no airline airport, named with its state, flies from the one that serves it
        ("springfield ma to orlando", ["BDL", "MCO"]),
        ("fayetteville, ar from dallas", ["XNA", "DFW"]),
        ("springfield to orlando", ["SGF", "MCO"]),
        # a name that is also a word or a person's is a place when its state follows
        ("jackson ms, from chicago", ["JAN", "CHI"]),
        ("reading pa to orlando", ["RDG", "MCO"]),
        # a state's code that is also a word or a nickname is the town's, not the next place ("la": not Los Angeles)
        ("flights lafayette la to houston", ["LFT", "HOU"]),
        ("portland me to boston", ["PWM", "BOS"]),
        ("bath me and my wife to london", ["LON"]),
        # a big town abroad after a comma is the next town, not the place's region; a region of its country is
        ("from sfo, tokyo then seoul", ["SFO", "TYO", "SEL"]),
        ("London, Ontario to toronto", ["YXU", "YTO"]),
        ("leaving boston: lisbon, madrid", ["BOS", "LIS", "MAD"]),
    ],
)
def test_the_region_said_picks_the_town(text, expected):
    assert [m.place["code"] for m in find_places(text)] == expected


@pytest.mark.parametrize(
    ("text", "code", "told"),
    [
        ("from Hartford to Orlando", "BDL", "BDL"),  # not Hartford-Brainard, a field with no airline service
        ("scranton to orlando", "AVP", "AVP"),  # filed under "Wilkes-Barre/Scranton"
        ("Fort Worth to Denver", "DFW", "DFW"),
        ("flying out of St. Paul to Boston", "MSP", "MSP"),
        # holiday towns whose own field has no airline service, or whose name is another place's
        ("boston to panama city beach", "ECP", "Panama City Beach"),  # not Panama's Tocumen
        ("from nyc to hood river", "PDX", "Hood River"),  # not Masterton, New Zealand
        ("flying to niagara falls from atlanta", "BUF", "Niagara Falls"),
    ],
)
def test_a_town_flies_from_the_airport_that_serves_it_and_says_so(text, code, told):
    first = next(m for m in find_places(text) if m.assumed)
    assert first.place["code"] == code
    assert told in first.assumed


def test_a_twin_town_name_with_one_airport_is_one_place():
    assert [m.place["code"] for m in find_places("dallas/fort worth to atlanta")] == ["DFW", "ATL"]
    assert [m.place["code"] for m in find_places("DFW-DFW")] == ["DFW", "DFW"]  # one name said twice is no twin


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Amsterdam - Lisbon, 02/04 till 09/04", ["AMS", "LIS"]),  # names that are dictionary entries too
        ("Warsaw -> Copenhagen 3 March", ["WAW", "CPH"]),
        ("Hartford CT to Fort Lauderdale", ["BDL", "FLL"]),  # the state said still finds the airport that serves it
        ("it was nice - really", []),
    ],
)
def test_a_dash_or_an_arrow_between_two_cities_is_a_route(text, expected):
    assert [m.place["code"] for m in find_places(text)] == expected


def test_a_lower_case_postal_code_that_is_a_word_says_which_town_and_leaves_nothing_to_assume():
    columbus = find_places("columbus oh to denver")[0]
    assert columbus.place["code"] == "CMH" and not columbus.assumed


@pytest.mark.parametrize(
    ("text", "code", "told"),
    [
        ("DFW to south florida jan 10", "MIA", "Fort Lauderdale (FLL)"),
        ("flying from socal to boston", "LAX", "San Diego (SAN)"),
        ("from the east bay to denver", "OAK", "San Francisco (SFO)"),
        ("long island to orlando", "ISP", "New York (JFK or LGA)"),
    ],
)
def test_a_metro_area_or_region_flies_from_its_main_airport_and_offers_the_others(text, code, told):
    region = next(m for m in find_places(text) if m.place["code"] == code)
    assert told in region.assumed


def test_a_town_that_is_a_word_is_a_place_after_fly_into_but_not_after_any_into():
    assert [m.place["code"] for m in find_places("fly into rome out of venice, from chicago")] == ["ROM", "VCE", "CHI"]
    assert find_places("we want to get into nice restaurants") == []


def test_a_town_that_is_a_word_is_a_place_right_after_another_and_then():
    assert [m.place["code"] for m in find_places("paris and then rome, flying from atlanta")] == ["PAR", "ROM", "ATL"]
    assert [m.place["code"] for m in find_places("athens then nice hotels")] == ["ATH"]  # "nice hotels": no town
