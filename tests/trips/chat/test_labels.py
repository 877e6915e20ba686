"""How the trip list names trips and phases."""

from trips.models import Phase, Trip
from trips.web.labels import PHASE_LABELS, itinerary_label, phase_label, trip_label


def segment(origin=None, destination=None, depart_date=None):
    return {"segment_id": "seg_1", "origin": origin, "destination": destination, "depart_date": depart_date}


def trip_with(*segments, title=""):
    return Trip(pk=7, title=title, intent={"itinerary": {"segments": list(segments)}})


def test_a_title_wins():
    assert trip_label(trip_with(segment({"code": "EWR"}, {"code": "DEN"}), title="Offsite")) == "Offsite"


def test_route_and_date_of_the_first_segment():
    first = segment({"code": "EWR", "name": "Newark"}, {"code": "DEN", "name": "Denver"}, "2027-01-30")
    assert trip_label(trip_with(first, segment({"code": "DEN"}, {"code": "EWR"}))) == "EWR → DEN · Jan 30"


def test_half_known_routes_read_as_words():
    assert trip_label(trip_with(segment(destination={"code": "QSF", "name": "San Francisco"}))) == "To San Francisco"
    assert trip_label(trip_with(segment(origin={"code": "JFK", "name": "New York JFK"}))) == "From New York JFK"


def test_an_empty_trip_is_new():
    assert trip_label(trip_with()) == "New trip #7"
    assert trip_label(Trip(pk=8, intent={})) == "New trip #8"


def test_a_trip_summary_widget_names_a_trip_as_the_intent_does():
    first = segment({"code": "EWR", "name": "Newark"}, {"code": "DEN", "name": "Denver"}, "2027-01-30")
    widget = {"type": "trip_summary", "segments": [{**first, "segment_id": "S1"}], "stays": []}
    assert itinerary_label(widget["segments"]) == trip_label(trip_with(first)) == "EWR → DEN · Jan 30"
    assert itinerary_label([]) == itinerary_label(None) == itinerary_label(["EWR"]) == ""


def test_every_phase_has_words():
    assert set(PHASE_LABELS) == set(Phase.values)
    assert phase_label("purchased") == "Booked"
    assert phase_label("something_new") == "Something new"


def test_a_hotel_only_trip_is_named_by_its_hotel():
    stay = {
        "stay_id": "st_1",
        "location_code": "AUS",
        "location_hint": "Austin",
        "check_in": "2026-12-10",
        "check_out": "2026-12-12",
    }
    intent = {
        "itinerary": {
            "flights_needed": False,
            # what an extractor may leave behind: dates said as if flying, no route
            "segments": [segment(depart_date="2026-12-10")],
            "lodging": {"stays": [stay]},
        }
    }
    assert trip_label(Trip(pk=9, intent=intent)) == "Hotel in Austin · Dec 10"
    widget = {"type": "trip_summary", "segments": [], "stays": [stay]}
    assert itinerary_label(widget["segments"], widget["stays"]) == "Hotel in Austin · Dec 10"


def test_a_metro_code_is_never_a_title():
    to_sf = segment(
        {"type": "city", "code": "JFK", "name": "New York"},
        {"type": "city", "code": "QSF", "name": "San Francisco"},
        "2027-03-11",
    )
    assert trip_label(trip_with(to_sf)) == "JFK → San Francisco · Mar 11"
