"""Towns that share a name and the people who travel, as travellers type them: the most populous town
first, a state written short in lower case, the other end of the route picking the town, "&" in a name,
the other town chosen after the guess; who goes on a visit or a work trip, form counts, a child alone."""

import pytest

from handlers.extract.party import read_party, unaccompanied
from handlers.extract.places import find_places
from handlers.testing import Harness


def codes(text):
    return [m.place["code"] for m in find_places(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("nyc to venice may 12-20", ["NYC", "VCE"]),  # Italy's, filed by airportsdata under "Venezia"
        ("charleston to nyc", ["CHS", "NYC"]),  # South Carolina's, not West Virginia's CRW
        ("wilkes-barre to tampa", ["AVP", "TPA"]),  # the town's international airport, not the small field
        ("Saint Louis to New Orleans", ["STL", "MSY"]),  # St. Louis, Missouri, not Saint-Louis, Senegal
        ("orlando to tampa", ["MCO", "TPA"]),  # a town's bigger airport stays first
        ("kansas city to denver", ["MCI", "DEN"]),
    ],
)
def test_a_shared_name_is_the_most_populous_town(text, expected):
    assert codes(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("springfield il to dallas", ["SPI", "DFW"]),
        ("athens ga to denver", ["AHN", "DEN"]),
        ("at mayo clinic, rochester mn, we fly from phoenix", ["RST", "PHX"]),  # a clinic is no town
        ("atlanta to columbia mo", ["ATL", "COU"]),
    ],
)
def test_a_state_written_short_in_lower_case_picks_the_town(text, expected):
    assert codes(text) == expected


def test_a_postal_code_that_is_a_word_does_not_pick_a_town():
    assert codes("portland me and my wife to denver")[0] == "PDX"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("birmingham to chicago", ["BHM", "CHI"]),  # a domestic hop: Alabama's
        ("madrid to valencia", ["MAD", "VLC"]),
        ("atlanta to athens", ["ATL", "ATH"]),  # Athens, Georgia is a drive from Atlanta: Greece's
        ("toronto to london", ["YTO", "LON"]),
        ("nyc to athens", ["NYC", "ATH"]),  # Athens, Georgia's airfield serves few airlines: Greece's
        ("vancouver to kingston", ["YVR", "KIN"]),
        ("brisbane to newcastle", ["BNE", "NTL"]),  # half a million people: Australia's
        ("la to salem", ["QLA", "SLE"]),  # India's Salem has no international airport either
    ],
)
def test_the_other_end_of_the_route_picks_the_town(text, expected):
    assert codes(text) == expected


def test_the_town_picked_by_the_route_is_told_with_the_other():
    (birmingham, _) = find_places("birmingham to chicago")
    assert "Birmingham, Alabama (BHM)" in birmingham.assumed and "United Kingdom (BHX)" in birmingham.assumed


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("miami to turks & caicos", ["MIA", "PLS"]),
        ("Trinidad & Tobago from nyc", ["POS", "NYC"]),
        ("boston to Aruba", ["BOS", "AUA"]),  # a lower-case city before a capitalised island
        ("dallas & houston", ["DFW", "HOU"]),  # two towns joined by "&" stay two
    ],
)
def test_an_ampersand_in_a_name(text, expected):
    assert codes(text) == expected


def _segments(h):
    seg = h.intent()["itinerary"]["segments"][0]
    return seg["origin"]["code"], seg["destination"]["code"]


@pytest.mark.parametrize("answer", ["i meant portland maine", "no, portland ME", "maine", "the one in maine"])
def test_the_other_town_of_the_name_replaces_the_guess(answer):
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say("to denver from portland jan 9-12, 1 adult")
    assert _segments(h) == ("PDX", "DEN")
    h.say(answer)
    assert _segments(h) == ("PWM", "DEN")
    assumptions = h.intent()["status"]["assumptions"]
    assert not any("Portland, Oregon" in a for a in assumptions)  # the guess is no longer told


def test_a_region_answering_another_assistants_question_picks_that_town():
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say("to denver from portland jan 9-12, 1 adult")
    doc = h.intent()
    doc["status"]["pending_question"] = {"text": "Did you mean Portland, Oregon (PDX) or Portland, Maine (PWM)?"}
    h.trips.save(h.trip_id, doc, expected_version=doc.get("version"))
    h.say("maine")
    assert _segments(h) == ("PWM", "DEN")


@pytest.mark.parametrize(
    ("text", "adults", "children", "ages"),
    [
        ("me and my 2 yr old son seattle to SLC", 1, 1, [2]),
        ("we fly from phoenix feb 2-5, me and him", 2, None, None),
        ("2 adults, kids: 4, 8, 12. denver to orlando", 2, 3, [4, 8, 12]),
        ("2A 1C (7yo) bos-sfo", 2, 1, [7]),
        ("2ADT 2CHD (6,10) JFK-MIA", 2, 2, [6, 10]),
        ("for a girls        , 4 of us", 4, None, None),  # "a girls weekend" (the weekend read as a date)
        ("visiting my sister and her kids in denver", None, None, None),  # they stay home
        ("my daughter is 7, boston to miami with me", 1, 1, [7]),
    ],
)
def test_who_travels_as_typed(text, adults, children, ages):
    party = read_party(text)
    assert (party["adults"], party["children"], party["child_ages"]) == (adults, children, ages)


@pytest.mark.parametrize(
    ("text", "alone", "adults"),
    [
        ("my son is 10 and will be flying alone to his dad in denver", True, 0),
        ("sending my 8 yr old daughter to her grandparents, she flies alone", True, 0),
        ("my 16 year old is flying solo to boston", True, 1),  # from 15: a passenger of their own
        ("im flying alone with my son (6)", False, None),
        ("just me, flying alone", False, None),
        ("me and my daughter, on our own this time", False, None),
    ],
)
def test_a_child_travelling_alone(text, alone, adults):
    assert unaccompanied(text) is alone
    if alone:
        assert read_party(text)["adults"] == adults


def test_a_child_alone_is_flagged_and_asked_whether_a_grown_up_goes():
    h = Harness(today="2026-12-01", tz="America/New_York")
    turn = h.say("my daughter (13) is flying by herself from boston to atlanta jan 4, one way")
    said = " ".join(m.get("text") or "" for m in turn["ui_messages"])
    assert "unaccompanied minor" in said
    assert h.intent()["party"]["travelers"] == {"adults": 0, "children": 1, "infants": 0}
    h.say("actually i'll go with her")
    assert h.intent()["party"]["travelers"] == {"adults": 1, "children": 1, "infants": 0}
    assert not any("unaccompanied" in a for a in h.intent()["status"]["assumptions"])


@pytest.mark.parametrize(
    "text",
    [
        "heading home to see my folks in omaha from dallas dec 23-27",
        "visiting my parents in tampa from pittsburgh jan 2-9",
        "work trip, den to sfo jan 20-22",
        "need to get from chicago to london ontario jan 19-21 for work",
    ],
)
def test_a_trip_only_the_writer_makes_is_one_traveller_said(text):
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say(text)
    doc = h.intent()
    assert doc["party"]["travelers"]["adults"] == 1
    assert any("travelling alone" in a for a in doc["status"]["assumptions"])


@pytest.mark.parametrize(
    "text", ["visiting our daughter in denver from austin feb 2-5", "business trip with my boss, sfo to sea jan 5-7"]
)
def test_a_visit_or_work_trip_with_others_is_not_one_traveller(text):
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say(text)
    assert h.intent()["party"]["travelers"]["adults"] != 1


@pytest.mark.parametrize(
    "later", ["my mother-in-law is coming too", "my sister is joining us", "my boss wants to come along"]
)
def test_someone_joining_is_added_to_those_going(later):
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say("nyc to la jan 9-12 for me")
    h.say(later)
    assert h.intent()["party"]["travelers"]["adults"] == 2


def test_the_kids_uncounted_are_the_same_kids():
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say("2 adults 2 kids (5, 9) nyc to orlando feb 14-21")
    h.say("actually my husband can't make it, it'll just be me and the kids")
    doc = h.intent()
    assert doc["party"]["travelers"] == {"adults": 1, "children": 2, "infants": 0}
    assert doc["party"]["child_ages"] == [5, 9]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("seattle to kingston jamaica", ["SEA", "KIN"]),  # the town's country, not a second place
        ("naples italy from phoenix", ["NAP", "PHX"]),
        ("the amalfi coast from boston", ["NAP", "BOS"]),
        ("lake tahoe from la", ["RNO", "QLA"]),
        ("martha's vineyard from nyc", ["MVY", "NYC"]),
    ],
)
def test_a_country_after_a_town_and_a_region_by_its_airport(text, expected):
    assert codes(text) == expected


def test_a_region_flown_to_by_a_nearby_airport_is_told():
    (tahoe, _) = find_places("lake tahoe from la")
    assert tahoe.assumed == (
        "Flying into Reno (RNO) for Lake Tahoe, which has no airline airport of its own; "
        "say if you would rather fly into Sacramento (SMF)"
    )
    assert tahoe.stay == {"type": "city", "code": "TVL", "name": "Lake Tahoe"}  # the hotel stays at the lake


@pytest.mark.parametrize("later", ["the kid is staying with grandma, so just us two", "we're going without the kids"])
def test_children_who_stay_home_no_longer_travel(later):
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say("boston to denver mar 4-8, 2 adults 1 child (6)")
    h.say(later)
    doc = h.intent()
    assert doc["party"]["travelers"] == {"adults": 2, "children": 0, "infants": 0}
    assert doc["party"]["child_ages"] == []


def test_a_client_meeting_is_the_writers_trip_alone():
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say("Client meeting in Boston, leaving from Raleigh on Jan 13, back Jan 14.")
    assert h.intent()["party"]["travelers"]["adults"] == 1


def test_everyone_in_their_own_room_is_a_room_each():
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say("5 of us, denver to austin march 12-16, everyone gets their own room")
    assert h.intent()["itinerary"]["lodging"]["rooms"] == 5


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Minneapolis-St. Paul to Orlando", ["MSP", "MCO"]),  # one metro written as its two towns
        ("dallas/fort worth to atlanta", ["DFW", "ATL"]),
        ("bos-mco", ["BOS", "MCO"]),  # a route joins towns far apart
        ("halifax to sydney ns", ["YHZ", "YQY"]),  # a province written short
        ("sault ste. marie to toronto", ["YAM", "YTO"]),
    ],
)
def test_twin_towns_provinces_and_abbreviations(text, expected):
    assert codes(text) == expected


@pytest.mark.parametrize(
    ("text", "adults", "children", "infants"),
    [
        ("just the 2 of us + baby on lap, nyc to sju", 2, None, 1),
        ("me and a group of 5 coworkers, atl to chicago", 6, None, None),
        ("a group of 6 coworkers from atl to chicago", 6, None, None),
        ("grandpa (78) and me, cleveland to phoenix", 2, None, None),
        ("3 teens and 2 chaperones, chicago to dc", 2, 3, None),
    ],
)
def test_more_ways_to_say_who_travels(text, adults, children, infants):
    party = read_party(text)
    assert (party["adults"], party["children"], party["infants"]) == (adults, children, infants)


def test_a_conference_is_the_writers_trip_alone():
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say("conference in san diego from boston jan 25-28")
    assert h.intent()["party"]["travelers"]["adults"] == 1
