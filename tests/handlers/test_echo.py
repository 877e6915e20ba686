"""Change echoes: what a message changed, said back in one line; first answers are not echoed."""

from __future__ import annotations

import pytest

from handlers.common.clock import parse_now
from handlers.common.intent import new_trip_intent
from handlers.echo import echo_line
from handlers.patcher import apply_patch
from handlers.testing import Harness

NOW = "2026-12-01T14:00:00+00:00"


NEWARK, DENVER = {"code": "EWR", "name": "Newark"}, {"code": "DEN", "name": "Denver"}


def legs(back="2027-02-02"):
    return [
        {"segment_id": "seg_1", "origin": NEWARK, "destination": DENVER, "depart_date": "2027-01-30"},
        {"segment_id": "seg_2", "origin": DENVER, "destination": NEWARK, "depart_date": back},
    ]


def stays(check_out="2027-02-02"):
    return [
        {
            "stay_id": "st_1",
            "location_code": "DEN",
            "location_hint": "Denver",
            "check_in": "2027-01-30",
            "check_out": check_out,
        }
    ]


def quoted_trip():
    doc = new_trip_intent("t", parse_now(NOW))
    doc["party"]["travelers"]["adults"] = 2
    doc["itinerary"].update(trip_type="round_trip", segments=legs())
    doc["itinerary"]["lodging"]["stays"] = stays()
    doc["working_memory"]["ranked_bundles"] = [{"bundle_id": "B1"}]
    return doc


def echo(patch, doc=None):
    out = apply_patch(doc or quoted_trip(), patch)
    on_screen = "ranked_bundles" in out["invalidations"] or bool(out["trip_intent"]["working_memory"]["ranked_bundles"])
    return echo_line(out["changes"], out["trip_intent"], options_on_screen=on_screen)


@pytest.mark.parametrize(
    ("patch", "line"),
    [
        (
            {"itinerary": {"segments": legs("2027-02-09"), "lodging": {"stays": stays("2027-02-09")}}},
            "Return moved to Tue Feb 9.",
        ),
        ({"constraints": {"hotel_max_per_night": "250.00"}}, "Hotel capped at $250.00 a night."),
        ({"constraints": {"budget_per_person": "900.00"}}, "Budget $900.00 per person."),
        ({"party": {"travelers": {"adults": 6}}}, "Now 6 adults."),
        ({"itinerary": {"lodging": {"needed": False}}}, "Hotel dropped: flights only."),
        ({"itinerary": {"flights_needed": False}}, "No flights: hotel only."),
        (
            {"itinerary": {"lodging": {"city": {"code": "COS", "name": "Colorado Springs"}}}},
            "Hotel now in Colorado Springs.",
        ),
        ({"itinerary": {"lodging": {"city": "MSY"}}}, "Hotel now in New Orleans."),  # a code is said as its city
        ({"preferences": {"flight": {"airlines_avoid": ["UA"]}}}, "Airlines: avoid United Airlines."),
        (
            {"preferences": {"flight": {"max_stops": 0, "time_of_day": {"outbound": "morning"}}}},
            "Nonstop only; outbound in the morning.",
        ),
        (
            {"preferences": {"flight": {"cabin": "premium_economy"}}},
            "Cabin now premium economy (say 'switch back to economy' to undo).",
        ),
        (
            {"constraints": {"refundable_preference": "all"}},
            "Refundable: everything (say 'non-refundable is fine' to undo).",
        ),
    ],
)
def test_each_change_is_said_in_one_line(patch, line):
    assert echo(patch) == line


def test_first_answers_at_intake_are_not_echoed():
    doc = new_trip_intent("t", parse_now(NOW))
    assert echo({"party": {"travelers": {"adults": 2}}, "itinerary": {"lodging": {"needed": False}}}, doc) is None


def test_a_change_in_conversation_is_echoed_before_the_new_options():
    h = Harness()
    h.say("4 people going from Newark to Denver for 3 nights on January 30")
    turn = h.say("actually we are 6 adults")
    status = [m for m in turn["ui_messages"] if m["kind"] == "status"]
    assert status and "6 adults" in status[0]["text"]
    kinds = [m["kind"] for m in turn["ui_messages"] if m["kind"] != "progress"]
    assert kinds[0] == "status" and h.widgets("bundles", turn=turn)


def test_text_that_changes_nothing_while_options_are_on_screen_is_answered_about_them():
    h = Harness()
    h.say("4 people going from Newark to Denver for 3 nights on January 30")
    turn = h.say("which one can I cancel for free?")
    reply = turn["ui_messages"][-1]["text"]
    # a question answered by its topic is answered straight away, with no "Nothing changed." before it
    assert reply.startswith("Fully refundable: ") and "flying from" not in reply
    refundable = [b for b in h.intent()["working_memory"]["ranked_bundles"] if b["refundable"]]
    assert all(b["bundle_id"] in reply for b in refundable) and refundable
    turn = h.say("hmm not sure")  # no topic: saying that nothing changed tells the traveller something
    assert turn["ui_messages"][-1]["text"].startswith("Nothing changed. Your options: B1")
