"""A hotel asked for that every option already includes is said to be there (with where and when),
never met with "Nothing changed"; on a flights-only trip it is added and searched."""

from handlers.testing import Harness

TRIP = "boston to chicago dec 10, back dec 11, just me"


def _said(turn):
    return " ".join(m.get("text") or "" for m in turn["ui_messages"])


def test_add_a_hotel_when_the_options_have_one_names_it_and_changes_nothing():
    h = Harness(today="2026-12-01")
    h.say(TRIP)
    before = h.intent()["working_memory"]["ranked_bundles"]
    turn = h.say("add a hotel")
    assert "The options already include a hotel (Chicago, Thu Dec 10 – Fri Dec 11)" in _said(turn)
    assert "Nothing changed" not in _said(turn)
    assert h.intent()["working_memory"]["ranked_bundles"] == before


def test_a_hotel_asked_for_on_a_flights_only_trip_is_added():
    h = Harness(today="2026-12-01")
    h.say(TRIP + ", flights only")
    assert not any(b.get("hotels") for b in h.intent()["working_memory"]["ranked_bundles"])
    turn = h.say("i'll need a hotel too")
    assert "already include" not in _said(turn)
    assert all(b.get("hotels") for b in h.intent()["working_memory"]["ranked_bundles"])
