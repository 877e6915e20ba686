"""Departure times as travellers say them: clock bounds ("nothing before 9am", "leave after 5pm",
"a 7:30am flight"), not only times of day, reach the searches; and "a later flight on the way out"
or "an earlier flight home" after options moves to an option that leaves later (earlier) on that
leg, or searches that leg again from that time when none on screen does."""

import pytest

from handlers.common.shape import in_window, time_window, time_wish_text
from handlers.extract.prefs import read_times
from handlers.router import route_text
from handlers.testing import Harness

TRIP = "2 adults Boston to Denver Jan 12-15 with a hotel"


def _harness():
    return Harness(today="2026-12-01", tz="America/New_York")


def _texts(turn):
    return " ".join(m.get("text") or "" for m in turn.get("ui_messages") or [])


def _wm(h):
    return h.intent()["working_memory"]


def _leaves(bundle, leg):
    flights = bundle["flights"]
    return (flights[0] if leg == "outbound" else flights[-1])["summary"]["depart_at"][:16]


@pytest.mark.parametrize(
    ("text", "out", "back"),
    [
        ("leave after 5pm", "after 17:00", None),
        ("nothing before 9am", "after 09:00", "after 09:00"),
        ("I can't leave before 3pm", "after 15:00", None),
        ("come back before noon", None, "before 12:00"),
        ("fly out after 6:30 p.m. and back in the morning", "after 18:30", "morning"),
        ("fly out after work (after 6 pm)", "after 18:00", None),
        ("no departures after 11pm", "before 23:00", "before 23:00"),
        ("a 7am flight out", "around 07:00", None),
        ("leave at around 9 in the morning", "around 09:00", None),
        ("SFO to LA one way, nothing before 8am", "after 08:00", None),
        ("we have a meeting at 2pm so leave after 4", "after 16:00", None),
    ],
)
def test_clock_bounds_are_read_for_their_leg(text, out, back):
    assert read_times(text) == {"time_out": out, "time_return": back, "arrive_out": None, "arrive_return": None}


@pytest.mark.parametrize(
    ("text", "out", "back"),
    [
        ("no early morning flights", "after 09:00", "after 09:00"),  # no leg named: neither way
        ("not a fan of evening flights", "before 17:00", "before 17:00"),
        ("avoid night flights", "before 21:00", "before 21:00"),
        ("i dont want a late flight back", None, "before 20:00"),
        ("morning flight out please, but no evening flight back", "morning", "before 17:00"),
        ("no afternoon flights", None, None),  # morning or evening: no one window to search
        ("no late afternoon flights", None, None),  # "late" here is the afternoon's, not the evening
    ],
)
def test_a_time_of_day_not_wanted_leaves_the_rest_of_the_day(text, out, back):
    assert read_times(text) == {"time_out": out, "time_return": back, "arrive_out": None, "arrive_return": None}


@pytest.mark.parametrize(
    "text",
    [
        "we land at 10am",
        "I need to land by 6pm",
        "hotel check-in after 3pm",
        "dinner at 8pm",
        "after 5 nights",
        "call me at 5pm",
    ],
)
def test_arrivals_and_other_times_are_not_departure_wishes(text):
    found = read_times(text)
    assert (found["time_out"], found["time_return"]) == (None, None)


def test_bounds_are_strict_windows_and_read_back_in_words():
    after, before, around = time_window("after 17:00"), time_window("before 09:00"), time_window("around 07:30")
    assert (after["from"], after["to"]) == ("17:01", "23:59")
    assert (before["from"], before["to"]) == ("00:00", "08:59")
    assert (around["from"], around["to"]) == ("06:00", "09:00")
    assert not in_window("17:00", after) and in_window("17:01", after)
    assert time_wish_text("after 17:00") == "after 5:00 PM" and time_wish_text("before 12:00") == "before noon"
    assert time_window("after 25:00") is None


def test_a_first_message_with_a_clock_bound_searches_only_flights_that_leave_after_it():
    h = _harness()
    turn = h.say(TRIP + ", nothing before 11am")
    assert h.intent()["preferences"]["flight"]["time_of_day"] == {"outbound": "after 11:00", "return": "after 11:00"}
    summary = next(m["widget"] for m in turn["ui_messages"] if (m.get("widget") or {}).get("type") == "trip_summary")
    assert {"label": "Times", "value": "outbound after 11:00 AM; return after 11:00 AM"} in summary["details"]
    bundles = _wm(h)["ranked_bundles"]
    assert bundles
    for bundle in bundles:
        for leg in ("outbound", "return"):
            assert _leaves(bundle, leg)[11:16] > "11:00"


@pytest.mark.parametrize(
    ("words", "leg", "later"),
    [
        ("is there a later flight going out?", "outbound", True),
        ("could we fly home earlier", "return", False),
        ("something a bit later on the way back?", "return", True),
        ("an earlier flight out please", "outbound", False),
    ],
)
def test_later_or_earlier_moves_that_leg_and_says_so(words, leg, later):
    h = _harness()
    h.say(TRIP)
    bundles = _wm(h)["ranked_bundles"]
    ref = bundles[0]
    at = _leaves(ref, leg)
    turn = h.say(words)
    chosen = _wm(h)["selected"].get("bundle_id")
    moved = [b for b in bundles if (_leaves(b, leg) > at if later else _leaves(b, leg) < at)]
    if moved:  # one on screen: chosen, and the line says which leg moved and from when to when
        pick = next(b for b in bundles if b["bundle_id"] == chosen)
        assert (_leaves(pick, leg) > at) if later else (_leaves(pick, leg) < at)
        assert f"Chose {chosen} instead of {ref['bundle_id']}: its {leg} flight leaves at" in _texts(turn)
    else:  # none on screen: that leg is searched again from (until) that time
        wish = h.intent()["preferences"]["flight"]["time_of_day"]["outbound" if leg == "outbound" else "return"]
        assert wish == f"{'after' if later else 'before'} {at[11:16]}"
        assert "flight_quote_search" in h.tools_run(turn=turn)


def test_with_no_later_flight_on_screen_the_leg_is_searched_from_its_time():
    trip = {
        "working_memory": {
            "ranked_bundles": [
                {
                    "bundle_id": "B1",
                    "flights": [
                        {"offer_id": "o1", "summary": {"depart_at": "2027-01-12T20:00:00-05:00"}},
                        {"offer_id": "o2", "summary": {"depart_at": "2027-01-15T09:20:00-07:00"}},
                    ],
                }
            ]
        }
    }
    routed = route_text("can we do a later flight on the way out?", trip)
    assert routed["type"] == "USER_MESSAGE" and routed["data"]["read_as"] == "fly out after 20:00"
    assert read_times(routed["data"]["read_as"])["time_out"] == "after 20:00"


@pytest.mark.parametrize("words", ["later", "we'll decide later", "talk later", "i'll book it later"])
def test_later_without_a_flight_named_chooses_nothing(words):
    h = _harness()
    h.say(TRIP)
    h.say(words)
    assert not _wm(h)["selected"].get("bundle_id")
    assert h.intent()["preferences"]["flight"]["time_of_day"] == {"outbound": None, "return": None}


@pytest.mark.parametrize(
    ("text", "out", "back"),
    [
        ("flying out after work, back late afternoon", "evening", "afternoon"),
        ("an early afternoon flight out, a late night flight back", "afternoon", "night"),
        ("leave late in the day", "evening", None),
    ],
)
def test_late_and_early_afternoon_are_the_afternoon(text, out, back):
    assert read_times(text) == {"time_out": out, "time_return": back, "arrive_out": None, "arrive_return": None}


@pytest.mark.parametrize(
    ("text", "out", "back"),
    [
        # a window of hours: around its middle; one wider than four hours from its start
        ("leave between 9 and 11am", "around 10:00", None),
        ("coming back between 1:30 and 3 pm", None, "around 14:15"),
        ("depart between 11 and 1pm", "around 12:00", None),
        ("leave between noon and 6pm", "after 12:00", None),
        ("dinner between 6 and 8pm", None, None),  # the dinner's hours, not a flight's
        # "6ish": a bare hour said loosely, an afternoon hour up to 6
        ("flight home around 6ish", None, "around 18:00"),
        ("leaving 9ish", "around 09:00", None),
        # "monday night" flights are the evening's; "late night" ones the night's
        ("back monday night", None, "evening"),
        ("a late night flight back", None, "night"),
    ],
)
def test_windows_and_loose_hours(text, out, back):
    times = read_times(text)
    assert (times["time_out"], times["time_return"]) == (out, back)


@pytest.mark.parametrize(
    ("text", "out", "back"),
    [
        ("I want the red-eye from SFO to Boston on jan 5, back jan 9", "after 21:00", None),
        ("Seattle to Boston Jan 20, return Jan 23 on the red-eye", None, "after 21:00"),
        ("take the red-eye both ways", "after 21:00", "after 21:00"),
        ("a red-eye is fine", None, None),  # allowed, not wished
        ("no red eyes please, I'd rather not take the red-eye", None, None),
        ("are any of them red-eyes?", None, None),
    ],
)
def test_a_red_eye_wished_leaves_late_at_night_on_its_leg(text, out, back):
    times = read_times(text)
    assert (times["time_out"], times["time_return"]) == (out, back)


@pytest.mark.parametrize(
    ("text", "key", "bound"),
    [
        ("need to be in seattle tues morning for a client mtg, from sfo", "arrive_out", "before 12:00"),
        ("have to be in chicago monday afternoon", "arrive_out", "before 17:00"),
        ("get there by friday evening, back sunday", "arrive_out", "before 21:00"),
        ("need to be home sunday evening, flying friday", "arrive_return", "before 21:00"),
    ],
)
def test_being_somewhere_by_a_time_of_day_is_a_landing_bound(text, key, bound):
    times = read_times(text)
    assert times[key] == bound
    assert times["time_out" if key == "arrive_out" else "time_return"] is None  # not a departure window


def test_a_first_message_that_must_be_there_by_morning_shows_only_flights_landing_by_noon():
    h = _harness()
    turn = h.say("need to be in denver tues morning for a client meeting, from boston, back thursday, just me")
    summary = next(m["widget"] for m in turn["ui_messages"] if (m.get("widget") or {}).get("type") == "trip_summary")
    assert {"label": "Times", "value": "outbound arriving before noon"} in summary["details"]
    bundles = _wm(h)["ranked_bundles"]
    assert bundles
    for bundle in bundles:
        outbound = bundle["flights"][0]["summary"]
        assert outbound["arrive_at"][:10] == outbound["depart_at"][:10] and outbound["arrive_at"][11:16] < "12:00"
