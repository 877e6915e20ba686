"""Words once something is held: asked about the approval, the deadline or paying, the desk answers
from the holds; "cancel the hold" gives the space back; no words approve or buy."""

from __future__ import annotations

import pytest

from handlers.router import route_text
from handlers.testing import Harness

SCENARIO_1 = "4 people going from Newark to Denver for 3 nights on January 30"


@pytest.fixture
def held():
    h = Harness()
    h.say(SCENARIO_1)
    h.select("B2")
    h.hold()
    return h


def said(turn):
    return " ".join(m.get("text") or "" for m in turn["ui_messages"])


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("has my manager approved yet?", "I've asked your approver to approve $2,322.29"),
        ("any word from the approver", "their answer shows on the approval card"),
        ("approve it", "Only your approver can approve a purchase"),
        ("can you just approve it for me?", "Only your approver can approve a purchase"),
        ("how long do we have?", "Held for 4 adults: the 2 flights until Wed Dec 2"),
        ("when does the hold expire", "say 'cancel the hold' to let it go"),
        ("how do i pay?", "'Review and pay' before Wed Dec 2, 9:00 AM EST"),
    ],
)
def test_questions_about_the_hold_are_answered_from_it_and_change_nothing(held, text, words):
    before = held.intent()
    turn = held.say(text)
    assert words in said(turn) and "Nothing changed" not in said(turn)
    assert [c["name"] for c in turn["tool_calls"]] == ["trip_requirements_extract"]  # reading it, nothing more
    assert held.intent()["working_memory"] == before["working_memory"]


@pytest.mark.parametrize("text", ["cancel the hold", "never mind, release them", "we'd like to drop the reservations"])
def test_cancel_the_hold_releases_it_and_withdraws_the_approval(held, text):
    ids = [h["hold_id"] for h in held.intent()["working_memory"]["holds"]]
    turn = held.say(text)
    assert turn["routed_event"]["type"] == "USER_RELEASE_HOLDS"
    assert [c["name"] for c in turn["tool_calls"]] == ["reservation_hold_release"]
    assert turn["tool_calls"][0]["arguments"] == {"hold_ids": ids, "reason": "traveller_released"}
    wm = held.intent()["working_memory"]
    assert {h["status"] for h in wm["holds"]} == {"released"} and wm["approval"]["status"] == "void"
    assert said(turn).startswith("Released the 2 flights and the hotel. Nothing was bought")
    again = held.say("cancel the hold")
    assert again["tool_calls"] == [] and "Nothing is on hold right now" in said(again)
    assert [c["name"] for c in held.hold()["tool_calls"]] == ["reservation_hold_create"], "it can be held again"


@pytest.mark.parametrize(
    "text",
    ["cancel my flight", "drop the hotel", "forget it", "cancel the hold on tuesday's flight to boston and rebook"],
)
def test_other_cancellations_are_not_a_release(held, text):
    assert route_text(text, held.intent())["type"] == "USER_MESSAGE"


def test_after_a_purchase_cancel_it_is_not_a_release(held):
    doc = held.intent()
    doc["working_memory"]["bookings"] = [{"booking_id": "bk_1"}]
    assert route_text("cancel it", doc)["type"] == "USER_MESSAGE"


@pytest.mark.parametrize("text", ["ok hold that one", "can you hold it til friday", "put it on hold please"])
def test_hold_that_one_after_a_question_about_one_option_holds_that_option(text):
    h = Harness()
    h.say(SCENARIO_1)
    h.say("whats the layover on the second one")
    h.say(text)
    wm = h.intent()["working_memory"]
    assert wm["selected"]["bundle_id"] == "B2"
    assert wm.get("holds"), "the option asked about is held"


def test_a_bare_hold_after_a_question_still_asks_which_option():
    h = Harness()
    h.say(SCENARIO_1)
    h.say("whats the layover on the second one")
    turn = h.say("hold")
    assert not h.intent()["working_memory"].get("holds")
    assert "Pick a bundle first" in said(turn)
