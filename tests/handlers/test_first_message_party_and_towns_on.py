"""First messages: the party said as relations ("my 2 teenage nephews (14, 16)", "couple + toddler"),
days of "next month", and a town gone on to ("lisbon then porto") kept in view, never dropped silently."""

from __future__ import annotations

from datetime import date

import pytest

from handlers.extract.extractor import extract_fields
from handlers.extract.party import read_party
from handlers.testing import Harness

TODAY = date(2026, 12, 1)


def read(text):
    assumptions: list = []
    fields, _ = extract_fields(text=text, today=TODAY, assumptions=assumptions)
    return fields, assumptions


@pytest.mark.parametrize(
    ("text", "adults", "children", "infants", "ages"),
    [
        ("me + my mom + my 2 teenage nephews (14, 16)", 2, 2, None, [14, 16]),
        ("me and my niece (9)", 1, 1, None, [9]),
        ("me and my niece (22)", 2, None, None, None),
        ("couple + toddler (18 months)", 2, None, 1, None),
        ("couple + 2 kids (4, 6)", 2, 2, None, [4, 6]),
        ("married couple w/ 2 kids", 2, 2, None, None),
        ("a couple of days in rome", None, None, None, None),
    ],
)
def test_the_party_said_as_relations(text, adults, children, infants, ages):
    party = read_party(text)
    assert (party["adults"], party["children"], party["infants"], party["child_ages"]) == (
        adults,
        children,
        infants,
        ages,
    )


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("atlanta to austin next month, the 14th to 17th, just me", ("2027-01-14", "2027-01-17")),
        ("the 14th to 17th of next month nyc to la", ("2027-01-14", "2027-01-17")),
        ("next month on the 3rd, boston to denver, back the 7th", ("2027-01-03", "2027-01-07")),
        ("nyc to la on the 14th, back the 17th", ("2026-12-14", "2026-12-17")),
    ],
)
def test_days_of_next_month(text, days):
    fields, _ = read(text)
    assert (fields["depart_date"], fields["return_date"]) == days


def test_a_town_gone_on_to_is_no_new_destination_and_is_told():
    fields, told = read("boston to rome mar 3-12, a few days in rome then florence, 2 adults")
    assert (fields["origin"]["code"], fields["destination"]["code"]) == ("BOS", "ROM")
    assert any("not in this search yet" in line and "(FLR)" not in line for line in told)
    assert any("Firenze" in line or "Florence" in line for line in told)


def test_flying_home_from_the_town_gone_on_to_flies_into_the_first_and_says_where_the_hotel_is():
    fields, told = read("a few days in lisbon then porto, flying home from porto, from nyc mar 3-12, 2 adults")
    legs = [(leg["origin"]["code"], leg["destination"]["code"], leg["depart_date"]) for leg in fields["legs"]]
    assert legs == [("NYC", "LIS", "2027-03-03"), ("OPO", "NYC", "2027-03-12")]
    assert "The hotel is in Lisbon for every night; say how many nights in Porto to add a hotel there" in told


def test_the_note_reaches_the_traveller():
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say("boston to lisbon march 10, a few days in lisbon then porto, flying home from porto on the 18th. 2 of us")
    assert any("nights in Porto" in line for line in h.intent()["status"]["assumptions"])


@pytest.mark.parametrize(
    "text", ["grandma (72), me and my two girls (3 and 6)", "grandma, me and my two girls (3 and 6)"]
)
def test_a_grown_up_named_before_the_writer_in_the_list_travels(text):
    party = read_party(text)
    assert (party["adults"], party["children"], party["child_ages"]) == (2, 2, [3, 6])
