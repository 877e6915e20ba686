"""What the traveller sees for the wishes of a trip: airlines by name and by group, refundable
fares, bags that no search filters on, "a nicer hotel" after the options are shown."""

from handlers.router import route_text
from handlers.testing import Harness

TRIP = "boston to denver jan 12-15, 2 adults"


def _harness():
    return Harness(today="2026-12-01", tz="America/New_York")


def _texts(turn):
    return " ".join(m.get("text") or "" for m in turn.get("ui_messages") or [])


def _details(turn):
    (summary,) = [m["widget"] for m in turn["ui_messages"] if (m.get("widget") or {}).get("type") == "trip_summary"]
    return {d["label"]: d["value"] for d in summary["details"]}


def _selected(h):
    wm = h.intent()["working_memory"]
    return next(b for b in wm["ranked_bundles"] if b["bundle_id"] == wm["selected"]["bundle_id"])


def _stars(bundle):
    return min(h["summary"]["stars"] for h in bundle["hotels"])


def test_airlines_are_said_by_name_and_an_alliance_by_its_own():
    turn = _harness().say("sfo to boston feb 8-12 1 adult, star alliance if possible, no spirit, flexible tickets")
    details = _details(turn)
    assert details["Airlines"] == "prefer Star Alliance; avoid Spirit Airlines"
    assert details["Fares"] == "refundable only"


def test_bags_are_said_not_to_filter_the_fares():
    turn = _harness().say(TRIP + ", we'll have 2 checked bags each")
    assert "I can't filter fares by bags" in _texts(turn)
    assert "filter fares by bags" not in _texts(_harness().say(TRIP))


def test_a_nicer_hotel_moves_to_an_option_with_more_stars_and_says_so():
    h = _harness()
    h.say(TRIP)
    first = h.intent()["working_memory"]["ranked_bundles"][0]
    turn = h.say("swap the hotel for something nicer")
    chosen = _selected(h)
    assert _stars(chosen) > _stars(first)
    assert f"Chose {chosen['bundle_id']} instead of {first['bundle_id']}: its hotel is the {_stars(chosen)}★" in _texts(
        turn
    )


def test_a_nicer_hotel_than_any_on_screen_is_searched_a_star_up():
    hotel = {"rate_id": "r1", "summary": {"stars": 3, "total": "300", "nightly_avg": "100"}}
    trip = {
        "working_memory": {"ranked_bundles": [{"bundle_id": "B1", "total": "900", "hotels": [hotel], "flights": []}]}
    }
    event = route_text("upgrade the hotel", trip)
    assert event["type"] == "USER_MESSAGE"
    assert event["data"]["read_as"] == "hotels of 4 stars or better"
    assert route_text("change the hotel", trip)["data"].get("read_as") is None  # another hotel, not a nicer one
