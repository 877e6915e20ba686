"""How people type (handlers/extract): accents, arrows, ranges in one month, day-first and dotted
dates, weekday checks, named days, money per night / per person / total, airlines by stance,
time of day, trip shapes. Sentences here are not in the phrasing evaluation."""

from datetime import date

import pytest

from handlers.extract import extract_fields, fields_to_patch
from handlers.extract.dates import find_dates, order_for
from handlers.extract.prefs import read_airlines, read_budgets, read_times
from handlers.extract.text import clean

TODAY = date(2026, 12, 1)


def read(text, **kwargs):
    fields, _ = extract_fields(text=text, today=TODAY, **kwargs)
    return fields


def code(place):
    return place["code"] if place else None


def days(text, **kwargs):
    return [d.value.isoformat() for d in find_dates(text, TODAY, **kwargs)[0]]


@pytest.mark.parametrize(
    ("raw", "cleaned"),
    [
        ("Zürich → Málaga", "Zurich to Malaga"),
        ("lodz->gdansk", "lodz to gdansk"),
        ("ORD>MSP 5–9 Mar 🙂", "ORD to MSP 5-9 Mar"),
        ("Łódź, Øresund, Straße", "Lodz, Oresund, Strasse"),
        ("<b>x</b>", "<b>x</b>"),  # no arrows made of tags
    ],
)
def test_text_is_ascii_with_arrows_as_to(raw, cleaned):
    assert clean(raw) == cleaned


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("may 10-13", ["2027-05-10", "2027-05-13"]),
        ("sept 2nd-5th", ["2027-09-02", "2027-09-05"]),
        ("4 to 8 june", ["2027-06-04", "2027-06-08"]),
        ("jun4-8", ["2027-06-04", "2027-06-08"]),
        ("Wednesday March 3", ["2027-03-03"]),  # the weekday agrees: one date
        ("21/03 until 25/03", ["2027-03-21", "2027-03-25"]),  # a day over 12: day first
        ("06/21", ["2027-06-21"]),
        ("5.6. - 9.6.", ["2027-06-05", "2027-06-09"]),  # dots: day first
        # a dotted range on a US desk: month first, unless a part over 12 or the trip's length says otherwise
        ("12.10-12.14", ["2026-12-10", "2026-12-14"]),
        ("1.15 - 1.19", ["2027-01-15", "2027-01-19"]),
        ("3.4 to 3.8", ["2027-03-04", "2027-03-08"]),
        ("23.12 - 02.01", ["2026-12-23", "2027-01-02"]),  # the 23rd says both are day first
        ("03.02 - 07.02", ["2027-02-03", "2027-02-07"]),  # Mar 2 - Jul 2 is no trip
        ("rated 4.5 - 4.8", []),
        ("labor day", ["2027-09-06"]),
        ("new year's eve", ["2026-12-31"]),
        ("3.5 stars", []),
    ],
)
def test_dates_people_type(text, want):
    assert days(text) == want


def test_a_dotted_range_off_a_us_desk_is_day_first():
    assert days("03.04 - 08.04", order="dmy") == ["2027-04-03", "2027-04-08"]
    assert days("03.04 - 08.04", order=None) == ["2027-04-03", "2027-04-08"]


def test_a_weekday_that_disagrees_with_the_date_is_a_doubt_not_a_date():
    doubts = []
    assert days("Monday March 3", doubts=doubts) == []
    assert [d.kind for d in doubts] == ["weekday"]


def test_numeric_order_follows_the_locale_and_is_asked_when_unknown():
    assert days("05/06", order=order_for("en-US")) == ["2027-05-06"]
    assert days("05/06", order=order_for("fr-FR")) == ["2027-06-05"]
    doubts = []
    assert days("05/06", order=order_for("en"), doubts=doubts) == []
    assert [d.kind for d in doubts] == ["order"]
    f = read("Boston to Miami 05/06 to 05/09, 1 adult", locale="en")
    assert f["depart_date"] is None and f["return_date"] is None


@pytest.mark.parametrize(
    ("text", "key", "amount"),
    [
        ("rooms under 140 a night", "hotel_max_per_night", 140),
        ("nightly cap of $95", "hotel_max_per_night", 95),
        ("450 per passenger", "budget_per_person", 450),
        ("$700 apiece", "budget_per_person", 700),
        ("3.5k for everything, max", "budget_total", 3500),
        ("we can spend 1800", "budget_total", 1800),
    ],
)
def test_money_per_night_per_person_or_total(text, key, amount):
    found = read_budgets(text)
    assert found[key] == amount
    assert [k for k in ("budget_total", "budget_per_person", "hotel_max_per_night") if found[k]] == [key]


def test_a_per_night_cap_never_moves_a_date():
    f = read("Boston to Miami Jan 8-12, 2 adults, hotel below 250 per night")
    assert (f["depart_date"], f["return_date"], f["hotel_max_per_night"], f["budget_total"]) == (
        "2027-01-08",
        "2027-01-12",
        250,
        None,
    )


@pytest.mark.parametrize(
    ("text", "preferred", "required", "avoid"),
    [
        ("please not on Delta", None, None, ["DL"]),
        ("Air Canada only", None, ["AC"], None),
        ("ideally KLM", ["KL"], None, None),
        ("no UA or AA, prefer JetBlue", ["B6"], None, ["UA", "AA"]),
    ],
)
def test_airlines_by_what_the_traveller_wants_of_them(text, preferred, required, avoid):
    found, _ = read_airlines(text)
    assert (found["airlines"], found["airlines_required"], found["airlines_avoid"]) == (preferred, required, avoid)


def test_time_of_day_for_each_way():
    assert read_times("fly out in the afternoon and home in the evening") == {
        "time_out": "afternoon",
        "time_return": "evening",
        "arrive_out": None,
        "arrive_return": None,
    }
    assert read_times("a morning in Paris") == {
        "time_out": None,
        "time_return": None,
        "arrive_out": None,
        "arrive_return": None,
    }


def test_hotel_only_trip_keeps_the_city_driven_from_out():
    f = read("no flights, I'm driving up from Austin; a room in Dallas Mar 2-4")
    assert f["flights_needed"] is False
    assert [code(s["location"]) for s in f["stays"]] == ["DFW"] or [code(s["location"]) for s in f["stays"]] == ["DAL"]
    assert f["origin"] is None and f["destination"] is None
    patch = fields_to_patch(f, None, TODAY)
    assert patch["itinerary"]["flights_needed"] is False and "segments" not in patch["itinerary"]


def test_no_hotel_keeps_the_route():
    f = read("Denver to Boise Feb 3-6, 1 adult, no hotel")
    assert (code(f["origin"]), code(f["destination"]), f["return_date"]) == ("DEN", "BOI", "2027-02-06")
    assert f["hotel_needed"] is False and not f["stays"]


@pytest.mark.parametrize(
    "said",
    ["separate rooms", "each needs own room", "each of us needs our own room", "individual rooms pls", "own room each"],
)
def test_separate_rooms_are_one_per_adult(said):
    f = read(f"3 adults, {said}, Austin to Tulsa Feb 3-5")
    patch = fields_to_patch(f, None, TODAY)
    assert patch["itinerary"]["lodging"]["rooms"] == 3


@pytest.mark.parametrize("said", ["we share a room", "each room has its own bathroom"])
def test_a_shared_room_or_a_rooms_own_things_are_no_separate_rooms(said):
    assert not read(f"3 adults, Austin to Tulsa Feb 3-5, {said}")["separate_rooms"]


def test_avoiding_an_airline_takes_it_out_of_the_preferred_list():
    current = {"preferences": {"flight": {"airlines": ["UA", "DL"]}}}
    patch = fields_to_patch(read("no United"), current, TODAY)
    assert patch["preferences"]["flight"]["airlines"] == ["DL"]
    assert patch["preferences"]["flight"]["airlines_avoid"] == ["UA"]


@pytest.mark.parametrize(
    ("text", "hotel"),
    [
        ("Tulsa to Omaha Mar 2-5, 1 adult, I'll stay with my grandma", False),
        ("Tulsa to Omaha Mar 2-5 for 2, staying at our daughter's house", False),
        ("Tulsa to Omaha Mar 2-5, crashing with him for the week", False),
        ("Tulsa to Omaha Mar 2-5, we've got a condo there", False),
        ("going home to Omaha from Tulsa for easter, Mar 26-30", False),
        ("my family is in Omaha and I want to go home for easter, from Tulsa Mar 26-30", False),
        ("Tulsa to Omaha Mar 2-5 to see my sister, staying with her", False),
        ("Tulsa to Omaha Mar 2-5, me, my wife and her mom, a hotel downtown", True),
        ("Tulsa to Omaha Mar 2-5, book nothing but flights", False),
        ("Tulsa to Omaha Mar 2-5, we'd like to stay at a place near the river", None),
        ("Tulsa to Omaha Mar 2, heading home Mar 5, a hotel downtown", True),
    ],
)
def test_a_bed_that_already_waits_means_no_hotel(text, hotel):
    assert read(text)["hotel_needed"] is hotel


@pytest.mark.parametrize(
    "text",
    [
        "Omaha to New Orleans for mardi gras Feb 13-16, 2 adults",
        "Omaha to New Orleans at mardi gras time Feb 13-16, 2 adults",
        "Omaha to New Orleans and mardi gras Feb 13-16, 2 adults",
    ],
)
def test_a_word_one_typo_from_a_town_after_a_purpose_is_not_that_town(text):
    f = read(text)
    assert (code(f["origin"]), code(f["destination"])) == ("OMA", "MSY")


def test_a_typo_after_a_travel_cue_is_still_forgiven():
    assert code(read("flying to chicgo Feb 13-16, 2 adults")["destination"]) in ("CHI", "ORD")


@pytest.mark.parametrize(
    ("text", "adults", "children"),
    [
        ("Tulsa to Omaha Mar 2-5, 5 girls", 5, None),
        ("Tulsa to Omaha Mar 2-5, me and 3 guys", 4, None),
        ("Tulsa to Omaha Mar 2-5, 2 adults and 2 boys (6 and 9)", 2, 2),
        ("Tulsa to Omaha Mar 2-5, me and my 2 girls", 1, 2),
    ],
)
def test_a_group_of_grown_ups_by_a_group_word(text, adults, children):
    f = read(text)
    assert (f["adults"], f["children"]) == (adults, children)


@pytest.mark.parametrize(
    ("text", "adults"),
    [("we're actually 5 now", 5), ("we'll be 3", 3), ("we are now 4", 4), ("we're 5 minutes from the airport", None)],
)
def test_we_are_n_with_words_between(text, adults):
    assert read(text)["adults"] == adults


@pytest.mark.parametrize(
    "text", ["me and 3 buddies, vegas from LA jan 22-24", "ok so denver from NYC jan 22-24, I guess 2 of us"]
)
def test_a_lower_case_message_with_codes_in_capitals_still_names_cities_in_lower_case(text):
    f = read(text)
    assert code(f["destination"]) in ("LAS", "DEN") and code(f["origin"]) in ("QLA", "LAX", "NYC", "JFK")


@pytest.mark.parametrize(
    ("text", "origin", "destination"),
    [
        ("Springfield, MO to Portland, ME Mar 2-5, 1 adult", "SGF", "PWM"),
        ("kauai from san jose mar 2-5, 1 adult", "SJC", "LIH"),
        ("Bostn to Mami march 2-5 2 adults", "BOS", "MIA"),  # an island is no typo's target
    ],
)
def test_states_written_as_codes_and_islands(text, origin, destination):
    f = read(text)
    assert (code(f["origin"]), code(f["destination"])) == (origin, destination)


@pytest.mark.parametrize(
    ("text", "adults", "children", "ages"),
    [
        ("Omaha to Tulsa Mar 2-5, 2 adults, kids 3, 11", 2, 2, [3, 11]),
        ("Omaha to Tulsa Mar 2-5, adults: 3, kids: 2", 3, 2, None),
        ("Omaha to Tulsa Mar 2-5, 2 adults 3 kids 2 rooms", 2, 3, None),
    ],
)
def test_counts_and_ages_written_as_on_a_form(text, adults, children, ages):
    f = read(text)
    assert (f["adults"], f["children"], f.get("child_ages")) == (adults, children, ages)


@pytest.mark.parametrize(
    ("text", "near"),
    [
        ("Tulsa to Boston Mar 2-5, 1 adult, hotel in Back Bay", "Back Bay"),
        ("tulsa to boston mar 2-5, 1 adult, staying in the seaport district", "the seaport district"),
        ("Tulsa to Boston Mar 2-5, 1 adult, hotel in Boston", None),  # the town itself
        ("Tulsa to Boston Mar 2-5, 1 adult, book the hotel in advance", None),
        ("Tulsa to Boston Mar 2-5, 1 adult, a hotel in March is fine", None),
    ],
)
def test_a_part_of_town_for_the_hotel_is_a_wish_to_be_near_it(text, near):
    assert read(text)["hotel_near"] == near


@pytest.mark.parametrize(
    ("text", "adults"),
    [
        ("Tulsa to Omaha Mar 2-5 with my husband and our son (4)", 2),
        ("Tulsa to Omaha Mar 2-5, a golf trip with 3 buddies", 4),
        ("Tulsa to Omaha Mar 2-5, flights for my parents", 2),
    ],
)
def test_with_my_companions_the_writer_goes_too(text, adults):
    assert read(text)["adults"] == adults
