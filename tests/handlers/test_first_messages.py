"""Realistic first messages: a trip with a hotel wish but no flight words still flies to the stay;
two short words are not a misspelt city; the writer asking to travel alone is one traveller, said."""

from __future__ import annotations

from datetime import date

import pytest

from handlers.extract.extractor import ASSUMED_ALONE, extract_fields
from handlers.testing import Harness

TODAY = date(2026, 12, 1)


def read(text):
    assumptions: list = []
    fields, _ = extract_fields(text=text, today=TODAY, assumptions=assumptions)
    return fields, assumptions


def asked(turn):
    return [q["slot"] for m in turn["ui_messages"] for q in (m.get("widget") or {}).get("questions") or []]


@pytest.mark.parametrize(
    "text",
    [
        "Looking for a family trip to Orlando over spring break (March 14-21) - 2 adults, kids ages 7 and 11. "
        "We'd like a hotel with a pool near Disney. Budget around $3000 total.",
        "trip to Orlando March 14-21 for 2, hotel near disney",
    ],
)
def test_a_trip_to_a_place_with_a_hotel_flies_there_for_the_stay_and_asks_only_where_from(text):
    h = Harness()
    turn = h.say(text)
    assert asked(turn) == ["origin"]
    h.say("from boston")
    segments = h.intent()["itinerary"]["segments"]
    assert [(s["origin"]["code"], s["destination"]["code"], s["depart_date"]) for s in segments] == [
        ("BOS", "MCO", "2027-03-14"),
        ("MCO", "BOS", "2027-03-21"),
    ]
    assert h.intent()["itinerary"]["lodging"]["stays"][0]["location_code"] == "MCO"


def test_a_hotel_asked_for_over_several_answers_stays_a_hotel_alone():
    h = Harness()
    h.say("I'd like to book a hotel in Chicago")
    assert h.intent()["itinerary"]["flights_needed"] is False


@pytest.mark.parametrize(
    ("text", "destination"),
    [
        ("Me and 3 friends want to do a bachelor party in Nashville, fly out of Denver Friday Feb 12", "BNA"),
        ("we want to do a trip to boston", "BOS"),
        ("flying sn francisco to boston", "BOS"),
    ],
)
def test_two_short_words_are_a_phrase_not_a_misspelt_city(text, destination):
    fields, _ = read(text)
    assert fields["destination"]["code"] == destination
    assert fields["origin"] is None or fields["origin"]["code"] != "DOH"


def test_a_misspelt_two_word_city_is_still_forgiven():
    fields, _ = read("flying sn francisco to boston")
    assert fields["origin"]["code"] in ("QSF", "SFO")


@pytest.mark.parametrize(
    "text",
    [
        "can u book me a flight atl to lga monday morning returning tuesday evening, no hotel needed",
        "I need to fly to Seattle for work on 12/8 and come back 12/10. I'm based in Boston.",
        "i'm flying boston to austin jan 9-12",
        "I want to visit my grandma in cleveland for christmas, from nashville, dec 23 to dec 27",
        "Book a flight for me from Miami to New Orleans on January 8th and back January 11th",
        "i need a cheap one way from LA to seattle on the 19th",
    ],
)
def test_the_writer_asking_to_travel_is_one_traveller_and_is_told_so(text):
    fields, assumptions = read(text)
    assert fields["adults"] == 1
    assert ASSUMED_ALONE in assumptions


@pytest.mark.parametrize(
    "text",
    [
        "we need to fly to boston dec 9",
        "book me and my wife to denver jan 3-5",
        "i need to fly boston to austin jan 9-12 with my kids",
        "I need a flight to denver",  # no date: nothing to assume yet
    ],
)
def test_anyone_else_named_or_implied_is_not_read_as_travelling_alone(text):
    fields, assumptions = read(text)
    assert fields["adults"] != 1 or ASSUMED_ALONE not in assumptions
    assert ASSUMED_ALONE not in assumptions


def said(turn):
    return " ".join(m.get("text") or "" for m in turn["ui_messages"] if m.get("kind") != "progress")


def route(h):
    return [
        ((s.get("origin") or {}).get("code"), (s.get("destination") or {}).get("code"))
        for s in h.intent()["itinerary"]["segments"]
    ]


@pytest.mark.parametrize(
    ("trip", "answer", "airport"), [("need to go to chicago", "ord", "ORD"), ("fly to new york", "jfk", "JFK")]
)
def test_an_airport_of_the_destination_answered_for_where_from_is_where_the_trip_lands(trip, answer, airport):
    h = Harness()
    h.say(trip)
    turn = h.say(answer)
    assert route(h) == [(None, airport)]
    assert "Landing at" in said(turn) and f"({airport})" in said(turn)
    assert "origin" in asked(turn)  # still: where from?


def test_an_airport_elsewhere_answered_for_where_from_is_the_origin():
    h = Harness()
    h.say("need to go to chicago")
    h.say("from dfw")
    assert route(h)[0] == ("DFW", "CHI")


@pytest.mark.parametrize(("text", "origin"), [("fly out of logan", "BOS"), ("leaving from sea-tac", "SEA")])
def test_big_airports_called_by_their_own_names(text, origin):
    h = Harness()
    h.say("to denver jan 3-5 for 2")
    h.say(text)
    assert route(h)[0] == (origin, "DEN")


def test_a_trip_turned_one_way_in_an_answer_searches_flights_without_a_hotel_question():
    h = Harness()
    for line in ("fly to austin", "dallas", "dec 12", "3"):
        h.say(line)
    turn = h.say("one way")
    assert "check_out" not in asked(turn)
    assert h.intent()["working_memory"]["ranked_bundles"]
    assert not any(b.get("hotels") for b in h.intent()["working_memory"]["ranked_bundles"])


def test_a_one_way_flight_with_no_stay_said_asks_no_hotel_question():
    h = Harness()
    turn = h.say("i need a cheap one way from LA to seattle on the 19th")
    assert h.intent()["itinerary"]["lodging"]["needed"] is False
    assert "check_out" not in asked(turn)
    h2 = Harness()
    h2.say("one way from LA to seattle on the 19th for 2, and a hotel for 3 nights")
    assert h2.intent()["itinerary"]["lodging"]["needed"] is True


@pytest.mark.parametrize(
    ("text", "out", "back"),
    [
        ("atl to lga monday morning returning tuesday evening", "morning", "evening"),
        ("Business trip: ATL -> ORD, Dec 14 morning, return Dec 16 evening.", "morning", "evening"),
        ("fly atl to lga tomorrow morning, one way, just me", "morning", None),
    ],
)
def test_a_day_said_with_its_time_of_day_is_that_flights_time(text, out, back):
    fields, _ = read(text)
    assert (fields["time_out"], fields["time_return"]) == (out, back)


@pytest.mark.parametrize(
    "text",
    [
        "i have a meeting monday morning in nyc, flying from atl sunday",
        "the wedding is saturday evening, fly atl to lga friday",
    ],
)
def test_an_events_time_is_not_a_flights_time(text):
    fields, _ = read(text)
    assert (fields["time_out"], fields["time_return"]) == (None, None)


@pytest.mark.parametrize(
    ("text", "adults"),
    [
        ("I have a job interview in Charlotte on Dec 10, I'm in Pittsburgh", 1),
        ("I've got a conference in Austin Feb 22-24, flying from Nashville", 1),
        ("We have a conference in Austin Feb 22-24, flying from Nashville", None),  # who "we" are is asked
        ("my family is in tulsa and i want to go home for xmas, leaving from denver dec 22", 1),
    ],
)
def test_the_writers_own_errand_is_a_trip_alone(text, adults):
    fields, assumptions = read(text)
    assert fields["adults"] == adults
    assert (ASSUMED_ALONE in assumptions) == (adults == 1)


def ends(fields):
    return tuple((fields.get(k) or {}).get("code") for k in ("origin", "destination")) + (
        fields.get("depart_date"),
        fields.get("return_date"),
    )


@pytest.mark.parametrize(
    ("text", "origin", "destination"),
    [
        ("chi to vegas dec 12-14, 3 adults", "CHI", "LAS"),
        ("dallas to music city dec 12-14 1 adult", "DFW", "BNA"),
        ("from the city of angels to big d dec 12-14", "QLA", "DFW"),
        ("hotlanta to the lou dec 12-14", "ATL", "STL"),
        ("steel city to bmore dec 12-14", "PIT", "BWI"),
    ],
)
def test_city_nicknames_people_type_are_the_city(text, origin, destination):
    assert ends(read(text)[0])[:2] == (origin, destination)


@pytest.mark.parametrize(
    "text",
    [
        "BOS-ORD 12/14, ORD-BOS 12/16",
        "bos to ord 12/14 then ord to bos 12/16",
        "boston to chicago dec 14 and chicago to boston dec 16",
    ],
)
def test_a_round_trip_written_as_its_two_flights_keeps_the_first_flights_direction(text):
    origin, destination, out, back = ends(read(text)[0])
    assert (origin, out, back) == ("BOS", "2026-12-14", "2026-12-16")
    assert destination in ("ORD", "CHI")


@pytest.mark.parametrize(
    ("text", "cabin"),
    [
        ("traveling to london from newark jan 15 return jan 22 business, 1 pax", "business"),
        ("jfk to lhr jan 15 - jan 22 business 1 adult", "business"),
        ("2 adults business sfo to tokyo feb 3-10", "business"),
        ("nyc to paris jan 15-22 business trip 2 adults", None),
        ("nyc to chicago dec 10 business meeting, 1 adult", None),
        ("flying nyc to chicago dec 10 for business, 2 adults", None),
        ("nyc to chicago dec 10, hotel in the business district, 1 adult", None),
        ("boston to sf jan 12-15, reason: business, 1 adult", None),
    ],
)
def test_business_typed_beside_a_date_or_a_head_count_is_the_cabin(text, cabin):
    assert read(text)[0].get("cabin") == cabin


@pytest.mark.parametrize(
    ("text", "out", "back"),
    [
        ("going home for the holidays! pittsburgh to tampa dec 22, back jan 3", "2026-12-22", "2027-01-03"),
        ("for the holidays, pittsburgh to tampa dec 22, 1 adult", "2026-12-22", "2026-12-27"),
        ("pittsburgh to tampa for the holidays 1 adult", "2026-12-19", "2026-12-27"),
    ],
)
def test_a_holiday_named_for_the_occasion_yields_to_the_days_said(text, out, back):
    h = Harness()
    h.say(text)
    segments = h.intent()["itinerary"]["segments"]
    assert [s["depart_date"] for s in segments] == [out, back]


@pytest.mark.parametrize(
    ("text", "origin", "destination"),
    [
        ("Flying from dc to Boston dec 12-14", "WAS", "BOS"),
        ("I need to get from la to Denver on dec 12", "QLA", "DEN"),
        ("Going to sf from Chicago dec 12-14", "CHI", "QSF"),
    ],
)
def test_a_short_city_name_typed_in_lower_case_right_after_from_or_to_is_the_city(text, origin, destination):
    assert ends(read(text)[0])[:2] == (origin, destination)


@pytest.mark.parametrize(
    ("text", "hotel"),
    [
        ("boston to denver dec 12-15 1 adult, airbnb already booked", False),
        ("boston to denver dec 12-15 1 adult, I already booked an airbnb", False),
        ("boston to denver dec 12-15 1 adult, we have a vrbo", False),
        ("boston to denver dec 12-15 1 adult, the company is putting me up", False),
        ("boston to denver dec 12-15 1 adult, staying at my brother's", False),
        ("boston to denver dec 12-15 1 adult, got lodging sorted", False),
        ("boston to denver dec 12-15 1 adult, accommodation is taken care of", False),
        ("boston to denver dec 12-15 1 adult, I've got somewhere to stay", False),
        ("boston to denver dec 12-15 1 adult, looking for an airbnb", None),
        ("boston to denver dec 12-15 1 adult, staying at a hotel near the airport", True),
        ("boston to denver dec 12-15 1 adult, we'd like a place to stay downtown", True),
    ],
)
def test_a_bed_arranged_another_way_is_no_hotel_wanted(text, hotel):
    assert read(text)[0].get("hotel_needed") is hotel


@pytest.mark.parametrize(
    ("text", "out"),
    [
        ("flying back to boston from la on dec 14, 1 adult", "2026-12-14"),
        ("I need to get back to chicago from denver on friday, 1 adult", "2026-12-04"),
        ("i want to fly back to boston from la on the 14th", "2026-12-14"),
    ],
)
def test_the_way_home_as_the_trips_only_flight_is_one_way_on_the_day_said(text, out):
    fields = read(text)[0]
    assert (fields.get("depart_date"), fields.get("return_date"), fields.get("one_way")) == (out, None, True)


@pytest.mark.parametrize(
    "text",
    [
        "boston to denver, flying back to boston on the 14th",
        "going to denver, returning to boston on the 14th",
        "return flight from miami to nyc on the 20th",
    ],
)
def test_coming_back_after_a_way_out_said_is_still_the_way_back(text):
    fields = read(text)[0]
    assert fields.get("depart_date") is None and fields.get("one_way") is not True


@pytest.mark.parametrize(
    ("text", "origin"),
    [
        ("chicago to door county dec 12-14 1 adult", "CHI"),
        ("houston to south padre dec 12-14 1 adult", "HOU"),
        ("sea to sac dec 12-14 1 adult", "SEA"),
    ],
)
def test_a_place_before_to_and_a_name_not_known_is_where_the_trip_starts(text, origin):
    h = Harness()
    turn = h.say(text)
    first = h.intent()["itinerary"]["segments"][0]
    assert (first["origin"]["code"], first.get("destination")) == (origin, None)
    assert asked(turn) == ["destination"]


@pytest.mark.parametrize(
    "text",
    ["nyc to see my mom dec 12-14", "boston to spend christmas with family dec 22-27", "flying to boston dec 12"],
)
def test_a_place_before_to_and_a_verb_is_still_where_the_trip_goes(text):
    fields = read(text)[0]
    assert fields.get("origin") is None and fields.get("destination") is not None


@pytest.mark.parametrize(
    ("text", "adults"),
    [
        # whose occasion the writer goes to is not someone travelling: alone, and told so
        ("flying boston to tampa dec 18-22 for my grandmother's 90th", 1),
        ("I'm flying to denver from chicago jan 9-11 for my sister's wedding", 1),
        (
            "flying to vegas from LA jan 8-10 for my wife's birthday",
            None,
        ),  # a partner's birthday: likely both go, asked
        ("flying to orlando from boston jan 8-10 with my son", 1),  # the writer and the son (the son counts apart)
    ],
)
def test_someone_elses_occasion_is_the_writers_errand(text, adults):
    fields, assumptions = read(text)
    assert fields["adults"] == adults
    assert (ASSUMED_ALONE in assumptions) == (adults == 1 and not fields.get("children"))
