"""A hotel wished near a place: the place found in the stay's city (handlers/common/landmarks.py),
read from the message (handlers/extract/landmark_near.py), each rate measured from it by the
search, ranked by it and said on the card. Sentences here are not in the phrasing evaluation."""

import re
from datetime import date

import pytest

from handlers.common import geo
from handlers.common.landmarks import centre, km, where_near
from handlers.common.shape import trip_details
from handlers.extract import extract_fields
from handlers.extract.landmark_near import area_kind_said, landmark_near, landmark_spans
from handlers.specialists import SELF_TEST_NOW, self_test_deps
from handlers.specialists.flight_quote_search import FlightQuoteSearch
from handlers.specialists.hotel_quote_search import HotelQuoteSearch
from handlers.specialists.trip_option_ranker import TripOptionRanker
from handlers.supplier.hotels import STAR_SPREAD, city_hotels
from handlers.supplier.table import without_tables
from handlers.testing import Harness

NOW = SELF_TEST_NOW.isoformat()
TODAY = date(2026, 12, 1)


@pytest.mark.parametrize(
    ("said", "code", "name"),
    [
        ("the convention center", "LAS", "the Las Vegas Convention Center"),
        ("the convention center", "SAN", "the San Diego Convention Center"),
        ("walking distance to the convention center", "AUS", "the Austin Convention Center"),
        ("Times Sq", "LGA", "Times Square"),
        ("disney", "MCO", "Walt Disney World"),
        ("disneyland", "SNA", "Disneyland"),
        ("disneyland", "CDG", "Disneyland Paris"),
        ("downtown", "DEN", "the centre"),
        ("the airport", "AUS", "the airport"),
        # parts of town people name for the hotel; the same words in two cities are each city's own
        ("kensington", "LHR", "Kensington"),
        ("chelsea", "LHR", "Chelsea, London"),
        ("chelsea", "JFK", "Chelsea, New York"),
        ("soho", "LGA", "SoHo, New York"),
        ("shibuya", "HND", "Shibuya"),
        ("le marais", "CDG", "Le Marais"),
        ("capitol hill", "SEA", "Capitol Hill, Seattle"),
        ("capitol hill", "DCA", "the Capitol"),
        ("the mission", "SFO", "the Mission District"),
    ],
)
def test_a_place_is_found_in_the_stays_city(said, code, name):
    assert where_near(said, geo.place(code))["name"] == name


@pytest.mark.parametrize(
    ("said", "code"),
    [
        ("the client's office", "BOS"),
        ("my sister's house", "DEN"),
        ("the orange county convention center", "SNA"),  # in Orlando, not in Santa Ana
        ("times square", "LAX"),
        ("the sunset strip", "LAS"),  # in Los Angeles, not the Las Vegas Strip
    ],
)
def test_a_place_not_known_in_that_city_is_none(said, code):
    assert where_near(said, geo.place(code)) is None


def test_a_known_centre_is_near_its_airport_and_an_unknown_one_is_none():
    vegas = geo.place("LAS")
    point = centre(vegas)
    assert point is not None and 5 < km(*point, vegas["lat"], vegas["lon"]) < 20  # downtown, not the runway
    assert centre(geo.place("PWM")) is None  # Portland, Maine: the table's Portland is Oregon's


def test_the_sandbox_hotels_sit_around_the_centre_and_keep_their_names_stars_and_distances():
    vegas = geo.place("LAS")
    hotels = city_hotels(seed=7, city=vegas)
    lat, lon = centre(vegas)
    for h in hotels:
        from_centre = km(h["location"]["lat"], h["location"]["lon"], lat, lon)
        assert from_centre == pytest.approx(h["distance_to_center"]["value"], abs=0.2)
    elsewhere = {**vegas, "city": "Nowhere"}  # no centre known: around the airport
    for h in city_hotels(seed=7, city=elsewhere):
        from_airport = km(h["location"]["lat"], h["location"]["lon"], vegas["lat"], vegas["lon"])
        assert from_airport == pytest.approx(h["distance_to_center"]["value"], abs=0.2)


@pytest.mark.parametrize(
    ("text", "near"),
    [
        ("for a conference at mccormick place, hotel close by", "McCormick Place"),
        ("4 star on the strip", "the Las Vegas Strip"),
        ("hotel near times sq w/ breakfast", "Times Square"),
        ("a room in midtown", "Midtown Manhattan"),
        ("hotel by disneyland", "disneyland"),
        ("conference at moscone, walkable hotel pls", "the Moscone Center"),
    ],
)
def test_a_landmark_named_with_nearness_is_the_hotels_place(text, near):
    assert landmark_near(text) == near


@pytest.mark.parametrize(
    "text",
    [
        "a game at fenway park on saturday",
        "flying to hollywood burbank at 5pm",
        "keep me in the loop",
        "we love the eiffel tower",
    ],
)
def test_a_landmark_named_for_another_reason_is_no_hotel_wish(text):
    assert landmark_near(text) is None


def test_a_town_in_a_landmarks_name_is_not_the_route():
    text = "nyc to orlando feb 20-24 for 3 adults, need a hotel near the orange county convention center"
    assert [text[a:b] for a, b in landmark_spans(text)] == ["orange county convention center"]
    fields, _ = extract_fields(text=text, today=TODAY)
    assert fields["destination"]["code"] == "MCO"


def _stay(near):
    args = {"stay_id": "H1", "location_code": "LAS", "check_in": "2027-01-30", "check_out": "2027-02-02"}
    args.update(rooms=1, guests_per_room=1, near=near)
    return HotelQuoteSearch(self_test_deps()).run({"args": args, "now": NOW})["output"]


@pytest.mark.parametrize(
    ("code", "place"),
    [("MCO", "Walt Disney World"), ("SNA", "Disneyland"), ("CDG", "Disneyland Paris"), ("LAX", "Santa Monica Pier")],
)
def test_a_landmark_far_from_the_centre_has_hotels_beside_it_and_the_citys_own_do_not_change(code, place):
    city = geo.place(code)
    hotels = city_hotels(seed=7, city=city)
    mark = where_near(place, city)
    assert mark is not None
    beside = [h for h in hotels if km(h["location"]["lat"], h["location"]["lon"], mark["lat"], mark["lon"]) <= 1.6]
    assert len(beside) >= 2 and len({h["name"] for h in beside}) == len(beside)
    assert [h["star_rating"] for h in hotels[: len(STAR_SPREAD)]] == list(STAR_SPREAD)  # the city's own come first
    assert hotels == city_hotels(seed=7, city=city)  # the same every search


def test_a_city_with_no_landmark_away_from_its_centre_keeps_its_hotels_only():
    assert len(city_hotels(seed=7, city=geo.place("DEN"))) == len(STAR_SPREAD)


def test_the_search_measures_each_rate_from_a_known_place_and_names_an_unknown_one():
    known = _stay("the convention center")
    assert known["near"] == "the Las Vegas Convention Center" and "near_unknown" not in known
    assert all(r["summary"]["near_km"] >= 0 for r in known["rates"])
    unknown = _stay("my cousin's place")
    assert unknown["near_unknown"] == "my cousin's place"
    assert all("near_km" not in r["summary"] for r in unknown["rates"])
    central = _stay("downtown")  # the rates' distance_km is from the centre already
    assert "near" not in central and all("near_km" not in r["summary"] for r in central["rates"])


def test_the_ranker_puts_the_nearest_hotels_first_and_the_card_says_from_where():
    stay = _stay("the convention center")
    args = {"segment_id": "S1", "origin": {"code": "PDX"}, "destination": {"code": "LAS"}}
    args.update(depart_date="2027-01-30", passengers={"adults": 1})
    fly = without_tables(FlightQuoteSearch(self_test_deps()).run({"args": args, "now": NOW})["output"])
    prefs = {"hotel": {"near": "the convention center"}}
    rank = lambda quote, p: TripOptionRanker(self_test_deps()).run(  # noqa: E731
        {"args": {"flight_quotes": [fly], "hotel_quotes": [quote], "top_k": 5, "preferences": p}, "now": NOW}
    )["output"]["bundles"]
    near = rank(stay, prefs)
    anywhere = rank({**stay, "near": None}, {})
    mean = lambda bs: sum(float(b["hotels"][0]["summary"]["near_km"]) for b in bs) / len(bs)  # noqa: E731
    assert mean(near) < mean(anywhere)
    assert near[0]["why"][-1].endswith(
        f"{near[0]['hotels'][0]['summary']['near_km']} km from the Las Vegas Convention Center."
    )


def test_the_trip_summary_names_the_place_the_cards_measure_from():
    doc = {
        "itinerary": {"lodging": {"needed": True, "stays": [{"location_code": "LAS"}]}},
        "preferences": {"hotel": {"near": "the convention center"}, "flight": {}},
        "constraints": {},
    }
    assert trip_details(doc) == [{"label": "Hotel wishes", "value": "near the Las Vegas Convention Center"}]
    doc["preferences"]["hotel"]["near"] = "my aunt's place"
    assert trip_details(doc) == [{"label": "Hotel wishes", "value": "near my aunt's place"}]


@pytest.mark.parametrize(
    ("text", "place"),
    [
        ("dallas to orlando march 14-21 2 adults 2 kids 5 and 8, hotel near disney", "Walt Disney World"),
        ("seattle to santa ana feb 14-18 2 adults, hotel by disneyland", "Disneyland"),
    ],
)
def test_a_hotel_beside_a_place_far_from_the_centre_is_on_screen(text, place):
    h = Harness(today="2026-12-01", tz="America/New_York", trip_id="near")
    h.say(text)
    nearest = [b for b in h.intent()["working_memory"]["ranked_bundles"] if b["label"] == "Nearest hotel"]
    assert nearest and re.search(rf"\b[01]\.\d km from {place}\.$", nearest[0]["why"][-1])


@pytest.mark.parametrize(
    ("said", "code", "name"),
    [
        ("the beach", "MIA", "South Beach"),
        ("the beach", "SAN", "Mission Beach"),
        ("the water", "HNL", "Waikiki"),  # a beach is by the water
        ("the waterfront", "SEA", "the Seattle Waterfront"),
        ("the lake", "ORD", "Navy Pier"),
        ("the old town", "LIS", "Alfama"),
        ("the historic center", "FCO", "the Historic Centre of Rome"),
        ("the hotel zone", "CUN", "the Hotel Zone"),
    ],
)
def test_a_kind_of_area_is_the_citys_own_place_of_that_kind(said, code, name):
    found = where_near(said, geo.place(code))
    assert found is not None and found["name"] == name


@pytest.mark.parametrize(("said", "code"), [("the beach", "DEN"), ("the old town", "DFW"), ("the lake", "MIA")])
def test_a_kind_of_area_the_city_has_none_of_is_not_placed(said, code):
    assert where_near(said, geo.place(code)) is None


@pytest.mark.parametrize(
    ("text", "near"),
    [
        ("boston to lisbon may 4-9, something in the old town", "the old town"),
        ("hotel by the water pls", "the water"),
        ("a waterfront hotel if possible", "the waterfront"),
        ("staying somewhere in the historic centre", "the historic centre"),
        ("lakefront would be nice", "the lakefront"),
        ("hotel in Old Town Alexandria", None),  # a place of its own name, not a kind
        ("we're flying to old town, maine", None),
    ],
)
def test_a_kind_of_area_is_read_from_the_message(text, near):
    said = area_kind_said(text)
    assert (said[0] if said else None) == near


def test_a_kind_of_area_is_no_town_on_the_route_and_the_chat_names_the_place_measured_from():
    h = Harness(today="2026-12-01", tz="America/New_York", trip_id="kind")
    told = " ".join(
        m.get("text") or "" for m in h.say("boston to lisbon may 4-9 1 adult, something in the old town")["ui_messages"]
    )
    doc = h.intent()
    assert doc["itinerary"]["segments"][0]["origin"]["code"] == "BOS"
    assert doc["preferences"]["hotel"]["near"] == "the old town"
    assert "For a hotel in the old town in Lisbon I'm measuring from Alfama" in told
    assert all(re.search(r"km from Alfama\b", b["why"][-1]) for b in doc["working_memory"]["ranked_bundles"])


def test_a_kind_of_area_unknown_in_the_city_is_said_not_dropped():
    h = Harness(today="2026-12-01", tz="America/New_York", trip_id="kind")
    told = " ".join(
        m.get("text") or "" for m in h.say("boston to denver jan 12-15 2 adults, hotel near the beach")["ui_messages"]
    )
    assert "I don't know which hotels in Denver are near the beach, so the options are not ranked by it" in told


def test_a_town_that_is_also_a_word_is_read_after_a_stay_in():
    h = Harness(today="2026-12-01", tz="America/New_York", trip_id="rome")
    h.say("hotel in rome june 3-6 for 2 near the colosseum, no flight needed")
    doc = h.intent()
    assert doc["itinerary"]["lodging"]["stays"][0]["location_code"] == "ROM"
    assert re.search(r"km from the Colosseum\.$", doc["working_memory"]["ranked_bundles"][0]["why"][-1])


@pytest.mark.parametrize(
    ("text", "origin", "destination"),
    [
        # a venue named without its town: the town whose centre is nearest it, said as assumed
        ("conference at moscone center mar 9-12 from boston, 1 adult", "BOS", "QSF"),
        ("a show at msg from chicago jan 22-23, 2 adults", "CHI", "NYC"),
        ("cubs game at wrigley field from dallas, apr 10-12, 2 of us", "DFW", "CHI"),
        # the town said with it stays the town; a short name is a venue only after "at"
        ("hotel near times square in nyc dec 3-5, boston to nyc", "BOS", "NYC"),
        ("boston to denver dec 3-5, I'll send you a msg", "BOS", "DEN"),
    ],
)
def test_a_venue_without_its_town_is_in_its_town(text, origin, destination):
    assumptions: list = []
    f, _ = extract_fields(text=text, today=TODAY, assumptions=assumptions)
    assert (f["origin"]["code"], f["destination"]["code"]) == (origin, destination)
    venue_only = (origin, destination) in (("BOS", "QSF"), ("CHI", "NYC"), ("DFW", "CHI"))
    assert any(a.startswith("Assumed") and " for " in a for a in assumptions) == venue_only
