"""First messages: the currency said is kept (never silently dollars), "Newcastle" is England's unless
Australia is said, and resort towns with no airline airport fly to the airport that serves them while
the hotel stays in the town."""

from __future__ import annotations

from datetime import date

import pytest

from handlers.extract.extractor import extract_fields
from handlers.extract.places import find_places
from handlers.extract.prefs import currency_said, read_budgets
from handlers.testing import Harness

TODAY = date(2026, 12, 1)


@pytest.mark.parametrize(
    ("text", "key", "amount", "currency"),
    [
        ("budget 2000 euros total", "budget_total", 2000, "EUR"),
        ("around 1500 AUD all up", "budget_total", 1500, "AUD"),
        ("hotel up to 200 CHF per night", "hotel_max_per_night", 200, "CHF"),
        ("budget 20,000 pesos", "budget_total", 20000, "MXN"),
        ("hotel max C$250 a night", "hotel_max_per_night", 250, "CAD"),
        ("about 3000 canadian dollars for everything", "budget_total", 3000, "CAD"),
        ("$2500 CAD all in", "budget_total", 2500, "CAD"),
        ("50,000 yen budget", "budget_total", 50000, "JPY"),
        ("keep it under $1500", "budget_total", 1500, "USD"),
    ],
)
def test_an_amount_keeps_the_currency_written_beside_it(text, key, amount, currency):
    read = read_budgets(text)
    assert (read[key], read["currency"]) == (amount, currency)


@pytest.mark.parametrize(
    ("text", "currency"),
    [
        ("prices in CAD please", "CAD"),
        ("can you quote me in euros", "EUR"),
        ("show everything in GBP", "GBP"),
        ("in canadian dollars please", "CAD"),
        ("currency: AUD", "AUD"),
        ("we're flying in march", None),
        ("2 nights in paris", None),
    ],
)
def test_a_currency_asked_for_without_an_amount(text, currency):
    assert currency_said(text) == currency


def test_a_currency_code_beside_an_amount_is_no_airport():
    fields, _ = extract_fields(text="zurich to london 3-6 feb, 1 adult, hotel up to 200 CHF per night", today=TODAY)
    assert (fields["origin"]["code"], fields["destination"]["code"], fields["currency"]) == ("ZRH", "LON", "CHF")


def test_prices_asked_in_a_currency_are_kept_on_the_trip():
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say("toronto to vancouver feb 10-14, 2 adults, prices in CAD please")
    assert h.intent()["constraints"]["currency"] == "CAD"


@pytest.mark.parametrize(
    ("text", "code", "told"),
    [
        ("newcastle to london jan 15-17", "NCL", "say if you meant Newcastle, Australia (NTL)"),
        ("from Newcastle to Amsterdam", "NCL", "say if you meant Newcastle, Australia (NTL)"),
        ("flights from newcastle nsw to brisbane", "NTL", ""),
        ("Newcastle, Australia to Sydney", "NTL", ""),
        ("melbourne to newcastle", "NTL", "say if you meant Newcastle, United Kingdom (NCL)"),
    ],
)
def test_newcastle_is_englands_unless_australia_is_said(text, code, told):
    (place,) = [m for m in find_places(text) if m.place["code"] in ("NCL", "NTL")]
    assert place.place["code"] == code
    assert told in place.assumed


@pytest.mark.parametrize(
    ("text", "airport", "hotel"),
    [
        ("going to napa for a wine weekend from chicago, feb 12-15, me and my wife", "SFO", "APC"),
        ("boulder CO from dallas mar 4-7 1 adult", "DEN", "WBU"),
        ("sedona trip from seattle apr 10-14, 2 adults", "PHX", "SDX"),
        ("lake tahoe feb 19-22 from san diego, 3 of us", "RNO", "TVL"),
        ("the hamptons july 2-5 from dc, 2 adults", "ISP", "HTO"),
        # no airfield of its own: the town's own place (handlers/common/geo.py TOWNS), not the airport's city
        ("park city from LA feb 6-9 2 adults", "SLC", "PARKCITY"),
        ("zermatt hotel feb 2-9 flying from nyc, 2 adults", "ZRH", "ZERMATT"),
        ("chamonix from boston dec 20-27, 2 adults, need flights and a hotel", "GVA", "CHAMONIX"),
        ("whistler ski trip from sf feb 12-18, 3 adults", "YVR", "WHISTLER"),
    ],
)
def test_a_resort_town_flies_to_its_airport_and_keeps_the_hotel_in_town(text, airport, hotel):
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say(text)
    itinerary = h.intent()["itinerary"]
    assert itinerary["segments"][0]["destination"]["code"] == airport
    assert itinerary["lodging"]["stays"][0]["location_code"] == hotel
    assert any(f"({airport})" in line for line in h.intent()["status"]["assumptions"])


def test_a_town_without_an_airport_has_its_hotels_searched_in_the_town():
    from handlers.common import geo
    from handlers.common.landmarks import km

    zermatt, zurich = geo.place("ZERMATT"), geo.place("ZRH")
    assert zermatt["city"] == "Zermatt" and zermatt["airport"] == "ZRH" and zermatt["tz"] == "Europe/Zurich"
    assert km(zermatt["lat"], zermatt["lon"], zurich["lat"], zurich["lon"]) > 150
    assert geo.town_code("Zermatt") == "ZERMATT" and geo.town_code("Zurich") is None
    for code, (name, lat, lon, _tz, _country, airport) in geo.TOWNS.items():
        served = geo.place(airport)
        assert code not in geo.airports() and served is not None, name  # never an airport's code
        assert km(lat, lon, served["lat"], served["lon"]) < 300, name  # near the airport that serves it


def test_a_town_that_is_also_a_word_needs_a_cue():
    assert find_places("a boulder fell on the road") == []
    assert [m.place["code"] for m in find_places("flying to boulder")] == ["DEN"]


def test_a_hotel_alone_in_a_resort_town_is_in_the_town_and_says_nothing_of_flying():
    assumptions: list = []
    fields, _ = extract_fields(text="hotel in boulder jan 3-5", today=TODAY, assumptions=assumptions)
    assert fields["stays"][0]["location"]["code"] == "WBU"
    assert not any("Flying into" in line for line in assumptions)


def test_a_one_way_flight_to_a_resort_town_books_no_hotel():
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say("one way to sedona from seattle jan 9, 1 adult")
    itinerary = h.intent()["itinerary"]
    assert itinerary["segments"][0]["destination"]["code"] == "PHX"
    assert not itinerary["lodging"].get("stays")
