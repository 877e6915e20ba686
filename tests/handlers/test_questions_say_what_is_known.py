"""The questions the desk asks come with what it has understood so far (route, dates, who travels,
the stay), so a misreading is seen before anything is searched; nothing asked is said as known."""

from handlers.testing import Harness


def _asked(text: str) -> dict:
    turn = Harness(today="2026-12-01", tz="America/New_York").say(text)
    [widget] = [m["widget"] for m in turn["ui_messages"] if (m.get("widget") or {}).get("type") == "questions"]
    return widget


def test_the_questions_carry_what_was_understood():
    widget = _asked("me and my husband from boston to lisbon on march 8")
    assert [q["slot"] for q in widget["questions"]] == ["return_date"]
    assert widget["known"] == ["Boston (BOS) → Lisbon (LIS)", "leaving Mon Mar 8", "2 adults"]


def test_nothing_being_asked_is_said_as_known():
    widget = _asked("I want to go to Paris")
    slots = {q["slot"] for q in widget["questions"]}
    assert {"origin", "depart_date", "adults"} <= slots
    assert widget["known"] == ["To Paris"]


def test_a_round_trip_says_when_it_comes_back_and_that_a_hotel_fills_the_nights():
    widget = _asked("2 of us flying to denver dec 4 back dec 7, need a hotel too")
    assert [q["slot"] for q in widget["questions"]] == ["origin"]
    assert widget["known"] == ["To Denver (DEN)", "leaving Fri Dec 4", "back Mon Dec 7", "2 adults", "a hotel"]


def test_an_answer_that_answers_nothing_opens_the_card_that_asks_again():
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say("I want to go to Paris")
    turn = h.say("hello??")
    [widget] = [m["widget"] for m in turn["ui_messages"] if (m.get("widget") or {}).get("type") == "questions"]
    assert widget["lead"] == "Hi! Happy to help with your trip."
    assert widget["known"] == ["To Paris"]
    assert {q["slot"] for q in widget["questions"]} >= {"origin", "depart_date"}
