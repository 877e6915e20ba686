"""First messages typed short or with a slip put right: "bos-chs mar 3-6 2a", "PHX>SEA ow 12/9",
"lax>jfk 12/18 ow 1a biz", "✈️ Philly ➡️ San Juan", "Jan 8 - sorry, Jan 9", "Seattle, oops I meant Portland"."""

from __future__ import annotations

from datetime import date

import pytest

from handlers.extract.corrections import self_corrected
from handlers.extract.extractor import extract_fields
from handlers.extract.party import read_party
from handlers.extract.prefs import read_preferences
from handlers.extract.text import clean

TODAY = date(2026, 12, 1)


def read(text):
    fields, _ = extract_fields(text=text, today=TODAY)
    return fields


@pytest.mark.parametrize(
    ("text", "route"),
    [
        ("bos-chs mar 3-6 2a", ("BOS", "CHS")),
        ("den to las 1A1C (kid is 6) feb 13-16", ("DEN", "LAS")),
        ("jfk>lgw feb 2 1a", ("JFK", "LGW")),
        ("ric-pvd jan 9-11 2 pax", ("RIC", "PVD")),
    ],
)
def test_airport_codes_typed_in_lower_case_as_a_route(text, route):
    fields = read(text)
    assert (fields["origin"]["code"], fields["destination"]["code"]) == route


@pytest.mark.parametrize(
    ("text", "adults", "children", "infants"),
    [
        ("bos-chs mar 3-6 2a", 2, None, None),
        ("lax>jfk 12/18 ow 1a biz", 1, None, None),
        ("2a1c", 2, 1, None),
        ("we need 2a 2c", 2, 2, None),
        ("1a1c1i", 1, 1, 1),
        ("seat 2a please", None, None, None),
        ("terminal 1a", None, None, None),
    ],
)
def test_a_party_typed_as_on_a_booking_form(text, adults, children, infants):
    party = read_party(text)
    assert (party["adults"], party["children"], party["infants"]) == (adults, children, infants)


@pytest.mark.parametrize(
    ("text", "one_way", "cabin"),
    [
        ("PHX>SEA ow 12/9", True, None),
        ("lax>jfk 12/18 ow 1a biz", True, "business"),
        ("bos-mia OW", True, None),
        ("ow jan 5 bos to mia", True, None),
        ("ow, that hurts, 3 nights", None, None),
        ("ow 2 nights is a lot", None, None),
        ("jfk lhr rt feb 1-8", False, None),
        ("biz trip to denver jan 4", None, None),
        ("going for biz jan 4", None, None),
    ],
)
def test_one_way_and_business_typed_short(text, one_way, cabin):
    prefs = read_preferences(text)
    assert (prefs["one_way"], prefs["cabin"]) == (one_way, cabin)


@pytest.mark.parametrize(
    ("text", "cleaned"),
    [
        ("✈️ Philly ➡️ San Juan 🏝️ dec 20-27", "Philly to San Juan dec 20-27"),
        ("Dallas ✈ Denver jan 9→12", "Dallas to Denver jan 9 to 12"),
        ("LA 👉 NYC jan 5", "LA to NYC jan 5"),
        ("hi! ✈️ boston to rome", "hi! boston to rome"),
    ],
)
def test_a_plane_opening_the_message_is_no_route(text, cleaned):
    assert clean(text) == cleaned


def test_emoji_route_reads_both_ends():
    fields = read("✈️ Philly ➡️ San Juan 🏝️ dec 20-27")
    assert (fields["origin"]["code"], fields["destination"]["code"]) == ("PHL", "SJU")
    assert (fields["depart_date"], fields["return_date"]) == ("2026-12-20", "2026-12-27")


@pytest.mark.parametrize(
    ("text", "read_as"),
    [
        ("houston to nashville Jan 8 - sorry, Jan 9 - back the 12th", "houston to nashville Jan 9"),
        ("boston to Seattle, oops I meant Portland, feb 3-7", "boston to Portland"),
        ("2 adults chicago to miami feb 5-9 actually make that 3 adults", "3 adults chicago to miami feb 5-9"),
        ("nyc to denver march 2-5, wait no, march 3-6", "nyc to denver march 3-6"),
        ("denver to miami, sorry, to orlando jan 3", "denver to orlando"),
        ("boston to denver jan 4, sorry, i meant from providence", "providence to denver jan 4"),
        (
            "From Boston to Denver, no, sorry, from Providence to Denver, Dec 12-15",
            "From Providence to Denver, Dec 12-15",
        ),
        ("Boston to Denver, sorry I mean Providence to Denver, Dec 12-15", "Providence to Denver, Dec 12-15"),
        ("BOS to ORD, no wait, ORD to BOS, dec 14", "ORD to BOS, dec 14"),
        ("a flight to Boston, no, Providence, from DC", "a flight to Providence, from DC"),
        ("denver to boston, actually providence, dec 12-15", "denver to providence, dec 12-15"),
        ("boston to denver dec 12, actually dec 13", "boston to denver dec 13"),
    ],
)
def test_a_slip_put_right_in_the_message_is_read_as_put_right(text, read_as):
    assert self_corrected(text).startswith(read_as)


@pytest.mark.parametrize(
    "text",
    [
        "sorry to bother, nyc to la jan 4",
        "denver to miami jan 4, actually we need 2 rooms",
        "I mean, we could fly jan 8",
        "2 adults, denver jan 5, sorry for the typo",
        "flying to Denver, actually from Boston, dec 12",
        "no, I want to go to boston",
        "flying to denver, no hotel needed, dec 12",
        "dec 12 to 15, actually, I also need a hotel",
    ],
)
def test_words_of_regret_that_put_nothing_right_change_nothing(text):
    assert self_corrected(text) == text


def test_the_corrected_values_reach_the_trip():
    fields = read("houston to nashville Jan 8 - sorry, Jan 9 - back the 12th, 1 adult")
    assert (fields["depart_date"], fields["return_date"]) == ("2027-01-09", "2027-01-12")
    fields = read("boston to Seattle, oops I meant Portland, feb 3-7, 2 adults")
    assert (fields["origin"]["code"], fields["destination"]["code"]) == ("BOS", "PDX")
    assert read("2 adults chicago to miami feb 5-9 actually make that 3 adults")["adults"] == 3


def test_a_day_put_right_before_its_month_keeps_the_month():
    fields = read("chicago to nashville on the 9th - i mean the 10th - of january, back the 12th, me")
    assert (fields["depart_date"], fields["return_date"]) == ("2027-01-10", "2027-01-12")
