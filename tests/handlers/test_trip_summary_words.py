"""The understood-trip card says what applies to the trip as it stands, each thing once."""

from __future__ import annotations

from handlers.chat_cli import render
from handlers.testing import Harness


def summary(turn):
    [message] = [m for m in turn["ui_messages"] if (m.get("widget") or {}).get("type") == "trip_summary"]
    return message["widget"], render(message)


def test_rooms_assumed_are_not_said_for_a_trip_without_a_hotel_and_come_back_with_one():
    h = Harness()
    widget, text = summary(h.say("Boston to Denver Jan 12-15, 3 adults, no hotel"))
    assert "Assumed 2 guests per room" not in widget["assumptions"]
    assert "hotel: none: flights only" in text and "no hotel" not in text.replace("hotel: none", "")
    widget, _ = summary(h.say("actually we need a hotel"))
    assert (
        "Assumed 2 guests per room" in widget["assumptions"]
        and {"label": "Rooms", "value": "2 rooms"} in widget["details"]
    )


def test_a_one_way_trip_without_a_hotel_names_no_rooms():
    widget, _ = summary(Harness().say("One way from Houston to Portland on Jan 9 for 3 people"))
    assert not [a for a in widget["assumptions"] if "room" in a]


def test_a_missing_destination_is_the_only_question_and_its_answer_places_the_hotel():
    h = Harness()
    [questions] = h.widgets("questions", turn=h.say("flying from boston jan 5-10, 2 adults"))
    assert [q["slot"] for q in questions["questions"]] == ["destination"]
    turn = h.say("miami")
    widget, _ = summary(turn)
    assert "Assumed a hotel in Miami for the stay" in widget["assumptions"]
    assert not [a for a in widget["assumptions"] if "None" in a]
    assert not [m for m in turn["ui_messages"] if m.get("kind") == "status"], "an answer is not echoed as a change"


def test_a_family_too_big_for_one_room_gets_two_and_is_told():
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say("2 adults and 3 kids (4, 7, 10) boston to orlando feb 13-20 with a hotel")
    lodging = h.intent()["itinerary"]["lodging"]
    assert (lodging["rooms"], lodging["guests_per_room"]) == (2, 3)
    assert any("2 rooms for 5 guests" in a for a in h.intent()["status"]["assumptions"])
    h.say("one room is fine")
    assert h.intent()["itinerary"]["lodging"]["rooms"] == 1  # the traveller's say goes


def test_a_day_trip_searches_no_hotel_and_a_longer_one_brings_it_back():
    h = Harness(today="2026-12-01", tz="America/New_York")
    turn = h.say("dc to nyc dec 9 back same day, 1 adult")
    assert "no hotels" not in " ".join(m.get("text") or "" for m in turn["ui_messages"])
    assert "no hotel" in summary(turn)[1] and "Assumed a hotel" not in summary(turn)[1]
    h.say("actually come back dec 11")
    stays = h.intent()["itinerary"]["lodging"]["stays"]
    assert [(s["check_in"], s["check_out"]) for s in stays] == [("2026-12-09", "2026-12-11")]
