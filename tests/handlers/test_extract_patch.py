"""Requirements fields -> TripIntent patch (handlers/extract/patch.py), merged by the real Patcher."""

from datetime import UTC, date, datetime

from handlers.common.intent import new_trip_intent
from handlers.extract import extract_fields, fields_to_patch
from handlers.patcher import apply_patch

TODAY = date(2026, 12, 1)


class Trip:
    """A TripIntent fed one message at a time, the way the Applier does it."""

    def __init__(self):
        self.doc = new_trip_intent("t1", datetime(2026, 12, 1, 14, tzinfo=UTC))
        self.last_patch = None

    def say(self, text, question=None):
        fields, _ = extract_fields(text=text, today=TODAY, pending_question=question, current=self.doc)
        self.last_patch = fields_to_patch(fields, self.doc, TODAY)
        self.doc = apply_patch(self.doc, self.last_patch)["trip_intent"]
        return self

    def legs(self):
        return [
            ((s["origin"] or {}).get("code"), (s["destination"] or {}).get("code"), s["depart_date"])
            for s in self.doc["itinerary"]["segments"]
        ]

    def stays(self):
        return [
            (s["location_code"], s["check_in"], s["check_out"], s["rooms"], s["guests_per_room"])
            for s in self.doc["itinerary"]["lodging"]["stays"]
        ]


def test_one_message_round_trip_with_a_hotel_and_rooms_for_the_party():
    t = Trip().say("4 people going from Newark to Denver for 3 nights on January 30")
    assert t.legs() == [("EWR", "DEN", "2027-01-30"), ("DEN", "EWR", "2027-02-02")]
    assert t.doc["itinerary"]["trip_type"] == "round_trip"
    assert [s["segment_id"] for s in t.doc["itinerary"]["segments"]] == ["seg_1", "seg_2"]
    assert t.stays() == [("DEN", "2027-01-30", "2027-02-02", 2, 2)]
    assert t.doc["itinerary"]["lodging"]["stays"][0]["stay_id"] == "st_1"
    assert {"Assumed economy", "Assumed 2 guests per room"} <= set(t.doc["status"]["assumptions"])


def test_incremental_intake_keeps_ids_and_fills_both_legs():
    t = Trip().say("I'm going to San Francisco")
    assert t.legs() == [(None, "QSF", None)] and t.doc["itinerary"]["trip_type"] is None
    t.say("from JFK", {"slots": ["origin", "depart_date"], "text": "Where are you flying from? When do you leave?"})
    assert t.legs() == [("JFK", "QSF", None)]
    t.say("2 adults, out March 11 back March 16")
    assert t.legs() == [("JFK", "QSF", "2027-03-11"), ("QSF", "JFK", "2027-03-16")]
    assert t.stays() == [("QSF", "2027-03-11", "2027-03-16", 1, 2)]


def test_one_way_without_a_hotel():
    t = Trip().say("one way JFK to LAX on March 3, just me, no hotel")
    assert t.legs() == [("JFK", "LAX", "2027-03-03")]
    assert t.doc["itinerary"]["trip_type"] == "one_way"
    assert t.doc["itinerary"]["lodging"]["stays"] == [] and t.doc["itinerary"]["lodging"]["needed"] is False


def test_multi_city_with_hotels_between_the_flights():
    t = Trip().say(
        "New York to London Feb 10, London to Paris Feb 14, Paris back to New York Feb 18, "
        "2 adults, hotels in London and Paris"
    )
    assert t.legs() == [("NYC", "LON", "2027-02-10"), ("LON", "PAR", "2027-02-14"), ("PAR", "NYC", "2027-02-18")]
    assert t.doc["itinerary"]["trip_type"] == "multi_city"
    assert t.stays() == [("LON", "2027-02-10", "2027-02-14", 1, 2), ("PAR", "2027-02-14", "2027-02-18", 1, 2)]


def test_a_party_change_refits_the_rooms_and_keeps_the_itinerary():
    t = Trip().say("2 adults from Boston to Miami, out March 11 back March 16")
    before = t.legs()
    t.say("actually we are 6 adults")
    assert t.doc["party"]["travelers"]["adults"] == 6 and t.legs() == before
    assert t.stays()[0][3:] == (3, 2)


def test_stated_rooms_win_over_the_assumption():
    t = Trip().say("6 adults from Boston to Miami, out March 11 back March 16, 2 rooms")
    assert t.stays()[0][3:] == (2, 3)
    assert "Assumed 2 guests per room" not in t.doc["status"]["assumptions"]


def test_a_hotel_only_preference_touches_nothing_else():
    t = Trip().say("2 adults from Boston to Miami, out March 11 back March 16")
    t.say("actually, refundable hotel only")
    assert set(t.last_patch) == {"preferences", "constraints"}
    assert t.last_patch["preferences"] == {"hotel": {"refundable_only": True}}
    assert t.doc["constraints"]["refundable_preference"] == "hotel"


def test_a_stated_cabin_replaces_the_economy_assumption():
    t = Trip().say("from Boston to Miami on March 11")
    assert "Assumed economy" in t.doc["status"]["assumptions"]
    t.say("premium economy please")
    assert t.doc["preferences"]["flight"]["cabin"] == "premium_economy"
    assert "Assumed economy" not in t.doc["status"]["assumptions"]


def test_a_hotel_booked_over_several_answers():
    t = Trip().say("I'd like to book a hotel")
    t.say("In Chicago.", {"text": "In which city?"})
    t.say("the 4th", {"text": "When do you check in?"})
    t.say("3 nights", {"text": "How many nights will you stay?"})
    assert t.legs() == [] and t.stays()[0][:3] == ("CHI", "2026-12-04", "2026-12-07")


def test_nothing_said_changes_nothing():
    doc = Trip().say("from Boston to Miami on March 11").doc
    fields, _ = extract_fields(text="hmm", today=TODAY, current=doc)
    assert fields_to_patch(fields, doc, TODAY) == {}


def test_dates_in_the_past_are_never_written():
    fields, _ = extract_fields(text="from Boston to Miami", today=TODAY)
    fields["depart_date"], fields["return_date"] = "2020-01-01", "2027-01-05"
    segments = fields_to_patch(fields, None, TODAY)["itinerary"]["segments"]
    assert [s["depart_date"] for s in segments] == [None, "2027-01-05"]


def test_a_day_of_the_month_for_the_return_counts_from_the_departure():
    t = Trip().say("LA to San Fran on Jan 30th")
    t.say("returning the 2nd")
    assert t.legs()[1] == ("QSF", "QLA", "2027-02-02")


def test_checking_in_later_on_a_trip_with_flights_moves_the_stay_not_the_flights():
    t = Trip().say("2 adults from Boston to Miami, out March 11 back March 16")
    t.say("I'll check in at the hotel on March 12")
    assert t.legs() == [("BOS", "MIA", "2027-03-11"), ("MIA", "BOS", "2027-03-16")]
    assert t.stays()[0][:3] == ("MIA", "2027-03-12", "2027-03-16")
    t.say("2 adults")  # an unrelated answer keeps the stay the traveller dated
    assert t.stays()[0][:3] == ("MIA", "2027-03-12", "2027-03-16")


def test_an_assumed_hotel_is_not_said_once_the_trip_has_no_such_stay():
    trip = Trip()
    trip.say("bos to sfo jan 12 to 15, 1 adult")
    assert "Assumed a hotel in San Francisco for the stay" in trip.doc["status"]["assumptions"]
    trip.say("actually make that Chicago")  # the stay moves to Chicago
    assert not any("San Francisco" in a for a in trip.doc["status"]["assumptions"])
    trip.say("forget the hotel")
    assert not any(a.startswith("Assumed a hotel") for a in trip.doc["status"]["assumptions"])


def test_people_added_join_those_already_going():
    trip = Trip()
    trip.say("2 adults nyc to miami feb 3-7")
    trip.say("i need to add my daughter (5)")  # the writer is not counted again: 2 adults stay
    assert trip.doc["party"]["travelers"] == {"adults": 2, "children": 1, "infants": 0}
    trip.say("add 2 more adults")
    assert trip.doc["party"]["travelers"]["adults"] == 4


def test_nights_named_check_out_the_morning_after_the_last():
    trip = Trip()
    trip.say("need a room in sf tonight and tomorrow night, 1 adult")
    stay = trip.doc["itinerary"]["lodging"]["stays"][0]
    assert (stay["check_in"], stay["check_out"]) == ("2026-12-01", "2026-12-03")
