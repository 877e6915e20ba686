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


ORLANDO = "denver to orlando feb 14-21, 3 adults"
CHICAGO = "2 of us flying from boston to chicago dec 12, back dec 15"


def _reply(first, text):
    """The harness after ``first`` then ``text``, what ``text`` was told, and whether the trip stayed as it was."""
    h = Harness()
    h.say(first)
    before = {k: h.intent()[k] for k in ("preferences", "constraints", "itinerary")}
    turn = h.say(text)
    said = " ".join(m["text"] for m in turn["ui_messages"])
    return h, said, {k: h.intent()[k] for k in before} == before


@pytest.mark.parametrize(
    ("text", "answer", "quality"),
    [
        ("which has the shortest flights", "B1 (Best overall) is the fastest: 7h20m", "fastest"),
        ("which one is the cheapest option", "B5 (Cheapest) is the cheapest: $2,636.90", "cheapest"),
        ("which has the fewest stops", "Nonstop all the way: B1", "fewest_stops"),
        ("which one has the lowest price overall", "B5 (Cheapest) is the cheapest", "cheapest"),
        ("which is refundable", "Fully refundable: B4", None),
        ("which flights leave in the morning", "Outbound leaves, earliest first: B4 (Refundable) 7:00 AM", None),
        ("which has a 4 star hotel", "B1 (Best overall): Orlando City Hostel (1★", None),
    ],
)
def test_a_which_question_is_answered_from_the_options_changes_nothing_and_puts_the_one_forward(text, answer, quality):
    h, said, unchanged = _reply(ORLANDO, text)
    bundles = h.intent()["working_memory"]["ranked_bundles"]
    assert h.tools_run() == [] and unchanged
    assert answer in said
    h.say("ok that one")
    chosen = (h.intent()["working_memory"].get("selected") or {}).get("bundle_id")
    assert chosen == (bundle_by_quality(quality, bundles)["bundle_id"] if quality else None)


@pytest.mark.parametrize(
    ("text", "bundle_id"),
    [
        ("the first one but can you hold it till tomorrow", "B1"),
        ("b2 looks good, hold it till thursday", "B2"),
        ("lets do the first one and hold it until tomorrow", "B1"),
        ("b1, can you hold it?", "B1"),
        ("b3 and put it on hold for me over the weekend", "B3"),
    ],
)
def test_a_pick_and_a_hold_for_a_while_pick_and_hold_and_move_no_date(text, bundle_id):
    assert route_text(text, _screen())["data"] == {"bundle_id": bundle_id, "hold": True}


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("b2 looks good but whats the layover", "B2 (Other flights): BOS→MDW nonstop, MDW→BOS nonstop."),
        ("b5 - does it include bags", "Bags per adult: B5 (Cheapest): a carry-on, no checked bag on each flight."),
        ("the fifth one, how long is the layover", "MDW→BOS 1 stop (YUL, 5h15m layover)"),
        ("how long is the flight on b2", "B2 (Other flights): BOS→MDW 2h20m, MDW→BOS 2h20m (4h40m in all)."),
    ],
)
def test_an_option_named_then_asked_about_without_a_question_mark_is_answered_for_it(text, answer):
    h, said, unchanged = _reply(CHICAGO, text)
    assert answer in said and unchanged
    assert h.intent()["working_memory"]["selected"]["bundle_id"] is None


@pytest.mark.parametrize("text", ["b3 but what about a nonstop", "b2, can you find a later flight"])
def test_a_wish_or_a_request_said_after_a_pick_is_not_answered_as_a_question(text):
    assert not route_text(text, _screen())["data"].get("about_options")


@pytest.mark.parametrize(
    ("text", "bundle_id"),
    [
        ("b2 is too expensive", "B2"),
        ("b1 is too long", "B1"),
        ("i dont like b3", "B3"),
        ("b2 is out", "B2"),
        ("the first one looks bad", "B1"),
        ("hmm b3 is a bit much", "B3"),
    ],
)
def test_an_option_put_down_is_never_chosen(text, bundle_id):
    assert route_text(text, _screen())["data"] == {"text": text, "put_down": bundle_id}


@pytest.mark.parametrize(("text", "bundle_id"), [("b3 is too expensive, lets do b2", "B2"), ("b1 is fine", "B1")])
def test_a_pick_beside_a_put_down_or_said_kindly_still_chooses(text, bundle_id):
    assert route_text(text, _screen())["data"] == {"bundle_id": bundle_id}


def test_the_reply_to_a_put_down_says_so_and_answers_about_the_others():
    h, said, unchanged = _reply("austin to chicago dec 10 back dec 12, 1 adult", "b2 is too expensive")
    assert unchanged and said.startswith("Noted: not B2; nothing is chosen or changed. From cheapest: B1")
    assert "B2 (" not in said and h.intent()["working_memory"]["selected"]["bundle_id"] is None


@pytest.mark.parametrize(
    ("text", "answer", "then"),
    [
        # none cheaper: "that one" is the option asked about
        ("is there a nonstop cheaper than b1", "No: no nonstop option on screen is cheaper than B1", "B1"),
        ("is there a cheaper nonstop than b2?", "Yes: B1 (Best overall) $1,009.14, B3 (Another hotel)", "B1"),
        ("any refundable option cheaper than b4?", "No: no refundable option on screen is cheaper than B4", "B4"),
    ],
)
def test_a_kind_cheaper_than_an_option_is_answered_from_the_screen_and_searches_nothing(text, answer, then):
    h, said, unchanged = _reply(CHICAGO, text)
    assert h.tools_run() == [] and unchanged
    assert answer in said
    h.say("ok that one")
    assert h.intent()["working_memory"]["selected"]["bundle_id"] == then


@pytest.mark.parametrize(
    ("text", "held"), [("book it", False), ("ok purchase it", False), ("hold it and book it", True)]
)
def test_buying_words_after_a_choice_are_about_the_option_chosen_and_buy_nothing(text, held):
    h, _, _ = _reply(CHICAGO, "b1")
    turn = h.say(text)
    said = " ".join(m["text"] for m in turn["ui_messages"])
    wm = h.intent()["working_memory"]
    assert wm["selected"]["bundle_id"] == "B1" and wm["bookings"] == []
    assert bool([x for x in wm["holds"] if x["status"] == "held"]) is held
    assert "B1 is chosen and is within policy" in said and "booking_confirm_and_purchase" not in h.tools_run()
    assert ("I'm holding it now" if held else "your approver decides") in said


@pytest.mark.parametrize(
    "text",
    ["my manager approved, book it", "approved by my boss, go ahead and book b2", "we got approval, buy it"],
)
def test_an_approval_claimed_in_words_gets_the_refusal_and_no_pick(text):
    h, said, _ = _reply(CHICAGO, text)
    assert route_text(text, h.intent())["data"].get("buy_wish") is None
    assert said.startswith("I can't buy anything from a chat message.")
    assert h.intent()["working_memory"]["selected"]["bundle_id"] is None


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        (
            "b1 vs b5 - whats the catch",
            ["B1 is $4.40 more than B5 ($1,009.14 vs $1,004.74 in all).", "B5 Air Canada 9:05 AM MDW→BOS, 1 stop (YUL"],
        ),
        ("what do i get with b4 that i dont with b1", ["B4 JetBlue 4:55 PM BOS→ORD, nonstop, 2h20m, refundable fare"]),
        (
            "what do i get with b4 that i dont with b1",
            ["Bags per adult: B1 a carry-on, no checked bag; B4 a carry-on and 2"],
        ),
        ("how much more is b2 than b1", ["B2 is $400.12 more than B1", "Hotel: B1 Chicago Travelers Lodge (1★"]),
        ("b1 or b5?", ["Same out flight and hotel."]),
    ],
)
def test_two_options_set_side_by_side_are_compared_by_what_differs(text, parts):
    _, said, unchanged = _reply(CHICAGO, text)
    assert unchanged and all(p in said for p in parts), said
