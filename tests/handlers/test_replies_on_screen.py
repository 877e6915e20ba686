"""What travellers reply once options are on screen: a red-eye not wanted in other words, questions
about one option, "that one" after an answer, comparisons, picks said with a hold."""

from __future__ import annotations

from datetime import date

import pytest

from handlers.extract import extract_fields
from handlers.extract.prefs import read_times
from handlers.router import bundle_by_quality, route_text
from handlers.testing import Harness


@pytest.mark.parametrize(
    "text",
    [
        "id rather not do a red eye",
        "i'd rather not take a red-eye back",
        "we'd prefer not to fly overnight",
        "can't do the red eye, sorry",
        "not keen on an overnight flight",
        "no red eye please",
    ],
)
def test_a_red_eye_not_wanted_is_avoided_and_never_a_late_night_wish(text):
    fields, _ = extract_fields(text=text, today=date(2026, 12, 1))
    times = read_times(text)
    assert fields["avoid_red_eye"] is True
    assert (times["time_out"], times["time_return"]) == (None, None)


@pytest.mark.parametrize("text", ["i'd take the red eye back", "red eye is fine", "are any of them red eyes?"])
def test_a_red_eye_wanted_or_asked_about_is_not_avoided(text):
    fields, _ = extract_fields(text=text, today=date(2026, 12, 1))
    assert not fields["avoid_red_eye"]


def _screen(**wm):
    totals = {"B1": "900.00", "B2": "700.00", "B3": "500.00"}
    minutes = {"B1": 120, "B2": 300, "B3": 400}
    bundles = [
        {
            "bundle_id": b,
            "total": t,
            "flights": [{"offer_id": f"o{b}", "summary": {"duration_minutes": minutes[b], "stops": 0}}],
        }
        for b, t in totals.items()
    ]
    return {"working_memory": {"ranked_bundles": bundles, **wm}}


def _compared(*ids):
    return {"bundle_id": None, "items": None, "among": [{"bundle_id": b, "items": [f"o{b}"]} for b in ids]}


@pytest.mark.parametrize(
    ("text", "bundle_id"),
    [
        ("ok the cheaper one", "B2"),
        ("the cheaper of the two", "B2"),
        ("lets go with the faster one", "B1"),
        ("the quicker one pls", "B1"),
    ],
)
def test_a_comparative_after_a_comparison_chooses_among_the_options_compared(text, bundle_id):
    assert route_text(text, _screen(discussed=_compared("B1", "B2")))["data"] == {"bundle_id": bundle_id}


def test_a_comparative_with_nothing_compared_or_the_screen_changed_is_among_all():
    assert route_text("ok the cheaper one", _screen())["data"] == {"bundle_id": "B3"}
    moved = {"bundle_id": None, "items": None, "among": [{"bundle_id": "B1", "items": ["old"]}, {"bundle_id": "B2"}]}
    assert route_text("ok the cheaper one", _screen(discussed=moved))["data"] == {"bundle_id": "B3"}


def test_a_question_about_two_options_keeps_them_as_the_ones_compared():
    h = Harness()
    h.say("nashville to new york dec 14 back dec 17, 1 adult")
    h.say("compare b1 and b5")
    shown = {b["bundle_id"]: float(b["total"]) for b in h.intent()["working_memory"]["ranked_bundles"]}
    h.say("ok the cheaper one")
    chosen = h.intent()["working_memory"]["selected"]["bundle_id"]
    assert chosen == min(("B1", "B5"), key=shown.__getitem__)


def _orlando():
    h = Harness()
    h.say("denver to orlando feb 14-21, 3 adults")
    return h


@pytest.mark.parametrize(
    ("text", "answer", "quality"),
    [
        ("which has the shortest flights", "Flying time, shortest first: B1", "fastest"),
        ("which one is the cheapest option", "From cheapest: B5", "cheapest"),
        ("which has the fewest stops", "Nonstop all the way: B1", "fewest_stops"),
        ("which one has the lowest price overall", "From cheapest: B5", "cheapest"),
        ("which is refundable", "Fully refundable: B4", None),
        ("which flights leave in the morning", "Outbound leaves, earliest first: B4 (Refundable) 7:00 AM", None),
        ("which has a 4 star hotel", "B1 (Best overall): Orlando City Hostel (1★", None),
    ],
)
def test_a_which_question_is_answered_from_the_options_changes_nothing_and_puts_the_one_forward(text, answer, quality):
    h = _orlando()
    bundles = h.intent()["working_memory"]["ranked_bundles"]
    before = {k: h.intent()[k] for k in ("preferences", "constraints", "itinerary")}
    turn = h.say(text)
    assert h.tools_run() == []
    assert {k: h.intent()[k] for k in before} == before
    assert answer in " ".join(m["text"] for m in turn["ui_messages"])
    h.say("ok that one")
    chosen = (h.intent()["working_memory"].get("selected") or {}).get("bundle_id")
    assert chosen == (bundle_by_quality(quality, bundles)["bundle_id"] if quality else None)
