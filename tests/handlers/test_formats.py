"""One way to read money, durations and times, in the core's words and the host's alike."""

import pytest

from handlers.common.formats import (
    airport_clock_text,
    duration_text,
    flight_zones,
    money_text,
    party_text,
)
from handlers.language import looks_non_english
from handlers.wording import place_label, route_label, stay_place
from trips.formats import money_text as host_money_text


@pytest.mark.parametrize(
    ("amount", "currency", "text"),
    [("2287.84", "USD", "$2,287.84"), ("310", "EUR", "€310.00"), (99, "CAD", "CA$99.00"), (None, "USD", "—")],
)
def test_money_by_locale_with_its_currency(amount, currency, text):
    assert money_text(amount, currency) == text == host_money_text(amount, currency)


@pytest.mark.parametrize(("minutes", "text"), [(240, "4 h"), (245, "4 h 5 min"), (45, "45 min"), (0, "0 min")])
def test_durations_in_words(minutes, text):
    assert duration_text(minutes) == text


def test_flight_times_carry_their_airports_zone():
    assert airport_clock_text("2027-01-30T09:46:00-05:00", "EWR") == "9:46 AM EST"
    assert airport_clock_text("2027-07-30T14:46:00+00:00", "CDG") == "4:46 PM CEST"
    summary = {
        "origin": "EWR",
        "destination": "DEN",
        "depart_at": "2027-01-30T06:05:00-05:00",
        "arrive_at": "2027-01-30T07:50:00-07:00",
    }
    assert flight_zones(summary) == {"depart": "EST", "arrive": "MST"}


def test_totals_say_who_they_cover():
    assert party_text({"adults": 1, "children": 2}) == "1 adult, 2 children"
    assert party_text({}) == "" and party_text({}, nobody="not known") == "not known"


def test_a_metro_code_is_never_shown():
    sf = {"type": "city", "code": "QSF", "name": "San Francisco"}
    newark = {"type": "city", "code": "EWR", "name": "Newark"}
    assert place_label(sf) == place_label(sf, compact=True) == "San Francisco"
    assert place_label(newark) == "Newark (EWR)" and place_label(newark, compact=True) == "EWR"
    assert stay_place({"location_code": "QSF"}) == "San Francisco"
    doc = {"itinerary": {"segments": [{"segment_id": "s1", "origin": newark, "destination": sf}]}}
    assert route_label(doc) == "EWR → San Francisco"


@pytest.mark.parametrize(
    ("text", "foreign"),
    [
        ("Quiero un vuelo a Madrid para dos personas", True),
        ("東京への便", True),
        ("hola", True),
        ("Can I add a checked bag", False),
        ("Is breakfast included?", False),
        ("4 people from Newark to Denver on January 30", False),
    ],
)
def test_another_language_is_recognised(text, foreign):
    assert looks_non_english(text) is foreign
