"""Wishes against filters, as travellers type them: a nonstop wished ("ideally nonstop") is ranked
first without hiding connections, one required ("must be nonstop") filters; airlines avoided in
other words, avoided again in a later message, or let back in; a cabin wished on a condition or
let go of; money in words; a hotel cap raised, a budget dropped, a hotel scratched."""

from datetime import date

import pytest

from handlers.extract import extract_fields
from handlers.extract.prefs import read_airlines, read_budgets
from handlers.testing import Harness

TODAY = date(2026, 12, 1)
TRIP = "tampa to boise mar 2-5, 1 adult"


def read(text, **kwargs):
    fields, _ = extract_fields(text=text, today=TODAY, **kwargs)
    return fields


def harness():
    return Harness(today="2026-12-01", tz="America/New_York")


def flight_prefs(h):
    return h.intent()["preferences"]["flight"]


@pytest.mark.parametrize(
    ("text", "stops", "wished"),
    [
        ("ideally nonstop", None, True),
        ("a direct flight would be great", None, True),
        ("nonstop preferred but i'm flexible", None, True),
        ("prefer nonstop but will take a connection to save money", None, True),
        ("as few layovers as possible", None, True),
        ("nonstop if possible, otherwise one stop", 1, True),
        ("must be nonstop", 0, None),
        ("nonstop or nothing", 0, None),
        ("no connections", 0, None),
        ("two stops is fine", 2, None),
    ],
)
def test_a_nonstop_wished_is_not_a_filter_and_one_required_is(text, stops, wished):
    f = read(f"{TRIP}, {text}")
    assert (f["max_stops"], f["prefer_nonstop"]) == (stops, wished)


def test_a_wished_nonstop_ranks_nonstops_first_and_still_shows_connections():
    h = harness()
    turn = h.say("Boston to Denver Jan 12-15, 1 adult, ideally nonstop")
    assert (flight_prefs(h)["max_stops"], flight_prefs(h)["prefer_nonstop"]) == (None, True)
    bundles = h.intent()["working_memory"]["ranked_bundles"]
    stops = [[f["summary"]["stops"] for f in b["flights"]] for b in bundles]
    assert stops[0] == [0, 0]  # the best option flies nonstop both ways
    assert any(max(s) > 0 for s in stops)  # a cheaper connection is still on screen, not filtered out
    details = [
        m["widget"]["details"] for m in turn["ui_messages"] if (m.get("widget") or {}).get("type") == "trip_summary"
    ]
    assert {"label": "Stops", "value": "nonstop preferred, connections shown too"} in details[0]


def test_nonstop_only_said_again_as_a_wish_lets_the_filter_go_and_says_so():
    h = harness()
    h.say("Boston to Denver Jan 12-15, 1 adult, nonstop only")
    assert flight_prefs(h)["max_stops"] == 0
    turn = h.say("actually nonstop would just be nice, not a must")
    assert (flight_prefs(h)["max_stops"], flight_prefs(h)["prefer_nonstop"]) == (None, True)
    said = " ".join(m.get("text") or "" for m in turn["ui_messages"])
    assert "Nonstops first, connections shown too" in said
    h.say("stops are fine")
    assert (flight_prefs(h)["max_stops"], flight_prefs(h)["prefer_nonstop"]) == (None, False)


@pytest.mark.parametrize(
    ("text", "avoid"),
    [
        ("never again with frontier", ["F9"]),
        ("not a fan of spirit", ["NK"]),
        ("can't stand american airlines", ["AA"]),
        ("keep me off jetblue", ["B6"]),
        ("stay away from spirit and frontier", ["NK", "F9"]),
        ("i won't fly united", ["UA"]),
        ("united is the worst", ["UA"]),
        ("delta is fine", None),
        ("the united center", None),
    ],
)
def test_an_airline_the_traveller_is_through_with_is_avoided(text, avoid):
    assert read_airlines(text)[0]["airlines_avoid"] == avoid


def test_airlines_avoided_in_two_messages_are_both_avoided_and_one_can_be_let_back_in():
    h = harness()
    h.say("Boston to Denver Jan 12-15, 1 adult, no united")
    h.say("no delta either")
    assert flight_prefs(h)["airlines_avoid"] == ["UA", "DL"]
    h.say("actually united is fine too")
    fp = flight_prefs(h)
    assert (fp["airlines_avoid"], fp["airlines"], fp["airlines_required"]) == (["DL"], [], [])


def test_an_airline_let_in_beside_a_required_one_is_required_too():
    h = harness()
    h.say("Boston to Denver Jan 12-15, 1 adult, delta only")
    h.say("united is ok too")
    assert flight_prefs(h)["airlines_required"] == ["DL", "UA"]
    assert flight_prefs(h)["airlines"] == []


@pytest.mark.parametrize(
    ("text", "cabin"),
    [
        ("first if reasonable, otherwise business", "first"),
        ("biz if it's not too pricey", "business"),
        ("business if under 2000", "business"),
        ("first thing in the morning", None),
    ],
)
def test_a_cabin_wished_on_a_condition_is_searched(text, cabin):
    assert read(f"{TRIP}, {text}")["cabin"] == cabin


def test_a_better_cabin_let_go_of_is_economy_again():
    h = harness()
    h.say("Boston to Denver Jan 12-15, 1 adult, business class")
    h.say("nevermind on business, too pricey")
    assert flight_prefs(h)["cabin"] == "economy"


@pytest.mark.parametrize(
    ("text", "key", "amount"),
    [
        ("hotel under two hundred a night", "hotel_max_per_night", 200),
        ("fifteen hundred all in", "budget_total", 1500),
        ("three hundred and fifty per night max", "hotel_max_per_night", 350),
        ("raise the hotel cap to 300", "hotel_max_per_night", 300),
    ],
)
def test_money_in_words_and_a_cap_raised(text, key, amount):
    found = read_budgets(text)
    assert found[key] == amount
    assert [k for k in ("budget_total", "budget_per_person", "hotel_max_per_night") if found[k]] == [key]


def test_a_budget_dropped_is_gone_and_said():
    h = harness()
    h.say("Boston to Denver Jan 12-15, 2 adults, under 2000 total")
    assert h.intent()["constraints"]["budget_total"] == "2000.00"
    turn = h.say("actually forget the budget")
    assert h.intent()["constraints"]["budget_total"] is None
    assert "No trip budget" in " ".join(m.get("text") or "" for m in turn["ui_messages"])


@pytest.mark.parametrize("text", ["nix the hotel", "scratch the hotel", "no need for the hotel anymore"])
def test_a_hotel_scratched(text):
    h = harness()
    h.say("Boston to Denver Jan 12-15, 1 adult")
    h.say(text)
    assert h.intent()["itinerary"]["lodging"]["needed"] is False


@pytest.mark.parametrize(
    ("text", "preferred", "required", "avoid"),
    [
        ("we do not care for Spirit Airlines", None, None, ["NK"]),
        ("had a terrible experience with frontier, don't book them", None, None, ["F9"]),
        ("jetblue or alaska, nothing else", None, ["B6", "AS"], None),
        ("i'm gold with delta", ["DL"], None, None),
    ],
)
def test_airlines_in_more_words(text, preferred, required, avoid):
    found, _ = read_airlines(text)
    assert (found["airlines"], found["airlines_required"], found["airlines_avoid"]) == (preferred, required, avoid)


def test_a_negated_booking_verb_is_no_purchase_and_the_trip_is_read():
    h = harness()
    turn = h.say("Newark to Tampa Feb 13-17, 2 adults. bad luck with spirit before, please don't book them")
    assert flight_prefs(h)["airlines_avoid"] == ["NK"]
    assert h.intent()["working_memory"]["ranked_bundles"]
    assert "can't buy" not in " ".join(m.get("text") or "" for m in turn["ui_messages"])


@pytest.mark.parametrize(
    ("text", "stops", "wished"),
    [
        ("would much prefer no connections but we're flexible", None, True),
        ("ok allow one stop", 1, None),
        ("happy to take a connection if it's cheaper", None, None),
    ],
)
def test_stops_wished_and_allowed_in_more_words(text, stops, wished):
    f = read(f"{TRIP}, {text}")
    assert (f["max_stops"], f["prefer_nonstop"]) == (stops, wished)


def test_coach_as_a_cabin_is_not_a_bus():
    h = harness()
    h.say("Boston to Denver Jan 12-15, 1 adult, business class")
    h.say("yikes. just do coach then")
    assert flight_prefs(h)["cabin"] == "economy"


def test_a_hotel_cap_raised_with_the_hotel_named_after_the_amount():
    h = harness()
    h.say("Boston to Denver Jan 12-15, 1 adult, hotel under 150 a night")
    h.say("could we go up to 240 for the hotel")
    assert (h.intent()["constraints"]["hotel_max_per_night"], h.intent()["constraints"]["budget_total"]) == (
        "240.00",
        None,
    )


def test_a_refundable_hotel_no_longer_needed():
    h = harness()
    h.say("Boston to Denver Jan 12-15, 1 adult, refundable hotel")
    assert h.intent()["preferences"]["hotel"]["refundable_only"] is True
    h.say("the hotel doesn't have to be refundable")
    assert h.intent()["preferences"]["hotel"]["refundable_only"] is False


def test_a_district_without_a_hotel_word_is_where_to_stay():
    f = read("Atlanta to Savannah Mar 5-8, 2 adults, we'd like to be near the arts district")
    assert f["hotel_near"] == "the arts district"
