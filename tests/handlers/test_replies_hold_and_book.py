"""Once an option is chosen in words, "it" is that option: any way of asking to hold it holds it, and
any way of saying "book" with nothing after it goes to the desk's booking step (chosen, then held for
the approver); no words approve or buy."""

from __future__ import annotations

import pytest

from handlers.router import route_text
from handlers.testing import Harness

TRIP = "2 adults boston to denver jan 12-15 with a hotel"


def said(turn):
    return " ".join(m.get("text") or "" for m in turn["ui_messages"])


@pytest.fixture(scope="module")
def chosen_in_words():
    h = Harness()
    h.say(TRIP)
    h.say("the alaska one")
    assert h.intent()["working_memory"]["selected"]["bundle_id"] == "B3"
    return h.intent()


@pytest.mark.parametrize(
    "text",
    [
        "can u put a hold on it",
        "could you hold onto it for us",
        "can you hold it for a day or two",
        "hold it while i check with my wife",
        "can I hold it?",
        "hold on to it pls",
        "please put a hold on that",
    ],
)
def test_a_hold_asked_for_it_holds_what_is_chosen(chosen_in_words, text):
    assert route_text(text, chosen_in_words)["type"] == "USER_REQUEST_HOLD"


def test_a_hold_for_a_while_moves_no_date():
    h = Harness()
    h.say(TRIP)
    h.say("the alaska one")
    turn = h.say("can you hold it for a day or two")
    assert [x["status"] for x in h.intent()["working_memory"]["holds"]] == ["held"] * 3
    assert h.intent()["working_memory"]["selected"]["bundle_id"] == "B3"
    assert "moved" not in said(turn)


@pytest.mark.parametrize(
    "text", ["lets book", "ready to book", "ok lets do it, book", "I'll take it, book please", "we're ready to book"]
)
def test_book_said_alone_is_the_booking_step_for_the_chosen_option(chosen_in_words, text):
    event = route_text(text, chosen_in_words)
    assert event["data"]["purchase_text_refused"] and event["data"]["buy_wish"]
    assert event["data"]["bundle_id"] == "B3" and "hold" not in event["data"]


def test_book_said_alone_is_answered_with_the_next_step_and_nothing_held():
    h = Harness()
    h.say(TRIP)
    h.say("B2")
    turn = h.say("lets book")
    assert "B2 is chosen" in said(turn) and "hold" in said(turn)
    assert not h.intent()["working_memory"].get("holds")


@pytest.mark.parametrize("text", ["ok which should i book", "what should we book?"])
def test_asking_which_to_book_is_no_wish_to_book(chosen_in_words, text):
    assert not route_text(text, chosen_in_words)["data"].get("buy_wish")


def test_book_alone_before_any_options_starts_a_trip():
    assert not route_text("i'd like to book", {})["data"].get("buy_wish")
