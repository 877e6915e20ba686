"""One message -> requirements fields (handlers/extract/extractor.py): counts, bare answers,
multi-city, preferences and bad input."""

from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from handlers.extract import REQUIREMENTS_SCHEMA, extract_fields, understood

TODAY = date(2026, 12, 1)


def read(text, **kwargs):
    fields, _ = extract_fields(text=text, today=TODAY, **kwargs)
    return fields


def code(place):
    return place["code"] if place else None


def test_one_message_trip():
    f = read("4 people going from Newark to Denver for 3 nights on January 30")
    assert (code(f["origin"]), code(f["destination"])) == ("EWR", "DEN")
    assert (f["depart_date"], f["nights"], f["adults"]) == ("2027-01-30", 3, 4)
    assert f["return_date"] is None  # the patch derives it from the nights


def test_out_and_back_dates():
    f = read("2 adults, out March 11 back March 16")
    assert (f["depart_date"], f["return_date"], f["adults"]) == ("2027-03-11", "2027-03-16", 2)


@pytest.mark.parametrize(
    ("text", "adults", "children", "infants"),
    [
        ("4 people", 4, None, None),
        ("me and my wife", 2, None, None),
        ("just me", 1, None, None),
        ("2 adults and a child (age 5)", 2, 1, None),
        ("two adults and an infant", 2, None, 1),
        ("party of six", 6, None, None),
        ("me and 2 colleagues", 3, None, None),
        ("I need three economy class tickets", 3, None, None),
    ],
)
def test_party(text, adults, children, infants):
    f = read(text)
    assert (f["adults"], f["children"], f["infants"]) == (adults, children, infants)


def test_child_ages():
    assert read("2 adults and a child (age 5)")["child_ages"] == [5]


def test_preferences():
    f = read(
        "business class on Delta, nonstop, no red-eye, under $3000, refundable hotel only, "
        "4 star hotel near the convention center, 2 rooms"
    )
    assert f["cabin"] == "business" and f["airlines"] == ["DL"]
    assert (f["max_stops"], f["avoid_red_eye"]) == (0, True)
    assert (f["budget_total"], f["currency"]) == (3000.0, "USD")
    assert (f["refundable"], f["hotel_min_stars"], f["rooms"]) == ("hotel", 4, 2)
    assert f["hotel_near"] == "the convention center"


def test_business_trip_is_not_business_class():
    assert read("I'm going on a business trip to Denver")["cabin"] is None


def test_one_way_and_no_hotel():
    f = read("one way JFK to LAX on March 3, just me, no hotel")
    assert (f["one_way"], f["hotel_needed"], f["adults"], f["depart_date"]) == (True, False, 1, "2027-03-03")


@pytest.mark.parametrize(
    ("text", "one_way", "depart", "back"),
    [
        ("heading back home to boston from la dec 14, 1 adult", True, "2026-12-14", None),
        ("flying home to seattle from austin dec 22, 2 of us", True, "2026-12-22", None),
        ("going home from denver to chicago on jan 3", True, "2027-01-03", None),
        # the way home is the return of a trip said before it
        ("flying to denver jan 3, home to chicago jan 9", None, "2027-01-03", "2027-01-09"),
        ("boston to denver jan 3, 1 adult", None, "2027-01-03", None),
    ],
)
def test_the_flight_home_is_one_way(text, one_way, depart, back):
    f = read(text)
    assert (f["one_way"], f["depart_date"], f["return_date"]) == (one_way, depart, back)


@pytest.mark.parametrize(
    ("question", "answer", "field", "value"),
    [
        ({"slots": ["origin"], "text": "Where are you flying from?"}, "Los Angeles", "origin", "QLA"),
        ({"slots": ["destination"], "text": "Where are you going?"}, "los angeles", "destination", "QLA"),
        ({"text": "Where are you flying from?"}, "Denver", "origin", "DEN"),  # slots read from the words
        ({"slots": ["depart_date"], "text": "When do you leave?"}, "the 11th", "depart_date", "2026-12-11"),
        ({"slots": ["return_date"], "text": "When do you come back?"}, "the 20th", "return_date", "2026-12-20"),
        ({"slots": ["adults"], "text": "How many people are travelling?"}, "4", "adults", 4),
        ({"text": "How many rooms do you need?"}, "two", "rooms", 2),
    ],
)
def test_bare_answers_fill_the_pending_question(question, answer, field, value):
    f = read(answer, pending_question=question)
    got = code(f[field]) if isinstance(f[field], dict) else f[field]
    assert got == value
    assert [k for k, v in f.items() if v is not None and k != "hotel_needed"] == [field]


def test_a_bare_place_without_a_question_fills_the_missing_end():
    current = {
        "itinerary": {
            "segments": [
                {
                    "segment_id": "seg_1",
                    "origin": None,
                    "destination": {"type": "city", "code": "QSF", "name": "San Francisco"},
                }
            ]
        }
    }
    assert code(read("from JFK", current=current)["origin"]) == "JFK"
    assert code(read("Boston", current=current)["origin"]) == "BOS"


def test_multi_city():
    f = read(
        "New York to London Feb 10, London to Paris Feb 14, Paris back to New York Feb 18, "
        "2 adults, hotels in London and Paris"
    )
    assert [(code(leg["origin"]), code(leg["destination"]), leg["depart_date"]) for leg in f["legs"]] == [
        ("NYC", "LON", "2027-02-10"),
        ("LON", "PAR", "2027-02-14"),
        ("PAR", "NYC", "2027-02-18"),
    ]
    assert [code(s["location"]) for s in f["stays"]] == ["LON", "PAR"] and f["adults"] == 2


def test_a_stay_alone():
    f = read("I need a hotel in Chicago, checking in March 3 for 2 nights, 2 rooms")
    assert f["stays"] == [
        {
            "location": {"type": "city", "code": "CHI", "name": "Chicago"},
            "check_in": "2027-03-03",
            "check_out": "2027-03-05",
        }
    ]
    assert f["origin"] is None and f["destination"] is None and f["rooms"] == 2


def test_hotel_there_means_the_trip_destination():
    current = {
        "itinerary": {
            "segments": [
                {
                    "segment_id": "seg_1",
                    "origin": None,
                    "destination": {"type": "city", "code": "DEN", "name": "Denver"},
                }
            ]
        }
    }
    assert code(read("I need a hotel there", current=current)["stays"][0]["location"]) == "DEN"


def test_yes_to_a_question_that_proposed_values():
    f = read("Yes, that's right", pending_question={"text": "Do you want a hotel in Paris from the 3rd?"})
    assert code(f["stays"][0]["location"]) == "PAR" and f["stays"][0]["check_in"] == "2026-12-03"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "\x00\x01\x1b[31m\x7f",
        "asdf qwer zxcv",
        "Je voudrais un café s'il vous plaît",
        "😀😀😀",
        "ok",
        "x" * 1_000_000,
        "12345678901234567890",
        None,
        42,
    ],
)
def test_bad_input_is_not_understood_and_invents_nothing(text):
    fields, _ = extract_fields(text=text, today=TODAY)
    assert understood(fields) is False
    assert set(fields) == set(REQUIREMENTS_SCHEMA["properties"])


def test_a_long_message_is_cut_with_a_note():
    fields, notes = extract_fields(text="from Boston to Denver " + "blah " * 5000, today=TODAY)
    assert code(fields["origin"]) == "BOS" and notes


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=300))
def test_never_raises_on_any_text(text):
    fields, notes = extract_fields(text=text, today=TODAY, pending_question={"text": text[:50]})
    assert set(fields) == set(REQUIREMENTS_SCHEMA["properties"]) and isinstance(notes, list)


@pytest.mark.parametrize(
    ("text", "budget", "currency"),
    [
        ("under $3000", 3000.0, "USD"),
        ("budget of 2k", 2000.0, None),
        ("no more than 1500 euros", 1500.0, "EUR"),
        ("up to 4 people", None, None),
        ("at most 3 nights", None, None),
    ],
)
def test_budget(text, budget, currency):
    f = read(text)
    assert (f["budget_total"], f["currency"]) == (budget, currency)


def test_a_hotel_wish_ends_where_a_price_or_another_clause_begins():
    assert read("hotel near the loop under 250 a night")["hotel_near"] == "the loop"
    assert read("hotel close to the convention center max $300/night")["hotel_near"] == "the convention center"
    assert read("a hotel near union square but not too pricey")["hotel_near"] == "union square"
    assert read("near pier 39 please")["hotel_near"] == "pier 39"


@pytest.mark.parametrize(
    ("text", "depart", "nights"),
    [
        ("vegas this weekend from LA, 4 of us", "2026-12-05", 1),
        ("long weekend in new orleans from houston over presidents day, 2 ppl", "2027-02-13", 2),
        ("the 3rd weekend of january, denver to slc, 1 adult", "2027-01-16", 1),
        ("sea to sfo the weekend of feb 13 for 2 nights", "2027-02-13", 2),  # the length said wins
        ("boston to chicago the weekend of the 14th, one way", "2026-12-12", None),
    ],
)
def test_a_weekend_brings_its_way_back_unless_told_otherwise(text, depart, nights):
    fields, _ = extract_fields(text=text, today=date(2026, 12, 1))
    assert (fields["depart_date"], fields["nights"]) == (depart, nights)


@pytest.mark.parametrize(
    ("text", "depart", "ret"),
    [
        ("nyc from atlanta for new years eve, in on the 30th out jan 2, 2 ppl", "2026-12-30", "2027-01-02"),
        ("flying into denver, in on the 3rd and out on the 6th", "2026-12-03", "2026-12-06"),
        ("boston to miami, fly in jan 5, fly out jan 9", "2027-01-05", "2027-01-09"),
        ("boston to miami, out jan 5 back jan 9", "2027-01-05", "2027-01-09"),  # "out" alone is the way out
    ],
)
def test_in_and_out_are_the_days_at_the_destination(text, depart, ret):
    fields, _ = extract_fields(text=text, today=date(2026, 12, 1))
    assert (fields["depart_date"], fields["return_date"]) == (depart, ret)


@pytest.mark.parametrize(
    ("text", "depart", "back"),
    [
        # two flights said by their hours on one day: there and back that day
        ("fly from boston to chicago at 7am and back at 6pm on the 9th, just me", "2026-12-09", "2026-12-09"),
        ("boston to chicago dec 9 at 7am, back at 6pm", "2026-12-09", "2026-12-09"),
        ("boston to chicago dec 9 at 7am, back dec 12 at 6pm", "2026-12-09", "2026-12-12"),
        ("boston to chicago dec 9 at 7pm, 1 adult", "2026-12-09", None),
    ],
)
def test_out_and_back_by_the_hour_on_one_day_is_a_day_trip(text, depart, back):
    f = read(text)
    assert (f["depart_date"], f["return_date"]) == (depart, back)
