"""The conversation after the first message: questions asked back, answers that answer nothing,
pauses and refusals. Each is read the same way everywhere and answered truthfully."""

import pytest

from handlers.common.question_form import is_question
from handlers.extract.prefs import bags_wished
from handlers.options_answer import answer_about_options
from handlers.router import route_text
from handlers.testing import Harness

TRIP = "2 adults boston to denver jan 12-15 with a hotel"


def _texts(turn):
    return " ".join(m.get("text") or "" for m in turn.get("ui_messages") or [])


def _asked(turn):
    return [
        q["slot"]
        for m in turn.get("ui_messages") or []
        if (m.get("widget") or {}).get("type") == "questions"
        for q in m["widget"]["questions"]
    ]


def _after_options(*lines):
    h = Harness(today="2026-12-01", tz="America/New_York")
    turn = h.say(TRIP)
    for line in lines:
        turn = h.say(line)
    return h, turn


# -- one reading of "is this a question" ----------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "is B1 refundable",
        "whats the layover in B4",
        "Any nonstop flights",
        "did you find anything cheaper",
        "have they got bags included",
        "  Why is B5 so expensive",
        "B2 per person?",
        "(which one is fastest)",
        "hmm which one has the best hotel",  # the words typed before the question
        "ok so is it refundable",
    ],
)
def test_questions_are_questions(text):
    assert is_question(text)


@pytest.mark.parametrize(
    "text", ["B2 please", "nonstop only", "hold it", "whatever is cheapest", "anyway, B3", "ok so B3 then"]
)
def test_wishes_and_picks_are_not_questions(text):
    assert not is_question(text)


def test_a_question_names_no_pick_and_tells_no_bags():
    trip = {"working_memory": {"ranked_bundles": [{"bundle_id": "B1"}, {"bundle_id": "B2"}]}}
    assert route_text("did B2 have checked bags?", trip)["type"] == "USER_MESSAGE"
    assert route_text("B2, checked bags", trip)["type"] == "USER_SELECTED_BUNDLE"
    assert not bags_wished("do the fares include 2 checked bags")
    assert bags_wished("we have 2 checked bags")


# -- why one option costs more ---------------------------------------------------------------------
def _priced(bundle_id, label, flights, hotel, *, stars=1, refundable=False, stops=0, minutes=245):
    fare = {
        "total": flights,
        "currency": "USD",
        "refundable": refundable,
        "stops": stops,
        "duration_minutes": minutes,
        "origin": "BOS",
        "destination": "DEN",
    }
    room = {"total": hotel, "currency": "USD", "stars": stars, "hotel_name": f"Hotel {bundle_id}", "refundable": True}
    total = f"{float(flights) + float(hotel):.2f}"
    return {
        "bundle_id": bundle_id,
        "label": label,
        "total": total,
        "currency": "USD",
        "flights": [{"summary": fare}],
        "hotels": [{"summary": room}],
        "why": [f"{label}."],
    }


PRICED = [
    _priced("B1", "Best overall", "400.00", "200.00"),
    _priced("B2", "Better hotel", "400.00", "450.00", stars=4),
    _priced("B3", "Cheapest", "300.00", "200.00", stops=1, minutes=400),
    _priced("B4", "Refundable", "700.00", "200.00", refundable=True),
]


def test_why_an_option_costs_more_names_the_gap_and_what_it_buys():
    reply = answer_about_options("why is B4 so much more expensive", PRICED)
    assert reply.startswith("B4 (Refundable) is $400.00 more than B3 (Cheapest) ($900.00 against $500.00)")
    assert "B4's flights cost $400.00 more (refundable fares; nonstop; 4h05m travel time, not 6h40m)" in reply
    assert "hotel" not in reply.split("Pick one")[0]  # the hotels cost the same: not mentioned


def test_why_compares_two_named_options_and_corrects_a_wrong_premise():
    reply = answer_about_options("why is B1 more expensive than B2?", PRICED)
    assert reply.startswith("B1 is not more expensive: B1 (Best overall) is $250.00 less than B2 (Better hotel)")
    assert "B2's hotel costs $250.00 more (the 4★ Hotel B2, not the 1★ Hotel B1)" in reply


def test_why_an_option_is_cheap_says_what_the_dearer_one_has():
    reply = answer_about_options("how come B3 is so cheap", PRICED)
    assert reply.startswith("B3 (Cheapest) is $100.00 less than B1 (Best overall)")
    assert "B1's flights cost $100.00 more (nonstop" in reply


def test_a_layover_is_said_with_its_length():
    bundle = _priced("B1", "Cheapest", "300.00", "200.00", stops=1)
    bundle["flights"][0]["summary"]["connections"] = [{"airport": "EWR", "minutes": 95}]
    assert "BOS→DEN 1 stop (EWR, 1h35m layover)" in answer_about_options("whats the layover on B1", [bundle])


# -- questions after options change nothing ---------------------------------------------------------
@pytest.mark.parametrize(
    "words",
    [
        "can i cancel the hotel in B1 if plans change?",
        "what happens if we have to cancel",
        "is it free to cancel later?",
    ],
)
def test_a_question_about_cancelling_is_answered_and_drops_nothing(words):
    h, turn = _after_options(words)
    lodging = h.intent()["itinerary"]["lodging"]
    assert lodging["needed"] is True and h.intent()["working_memory"]["ranked_bundles"]
    assert "refundable" in _texts(turn)


def test_a_question_about_the_world_moves_no_date():
    h, turn = _after_options("do you know if the museums are open on the 14th?")
    assert h.intent()["itinerary"]["segments"][0]["depart_date"] == "2027-01-12"
    assert "I can't tell that from the options" in _texts(turn)


# -- answers that answer nothing ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "answer, said",
    [
        ("yes", "Sorry, I didn't understand that as an answer"),
        ("idk yet, still deciding", "No problem, nothing changed"),
    ],
)
def test_an_answer_that_answers_nothing_is_said_and_the_questions_come_again(answer, said):
    h = Harness(today="2026-12-01", tz="America/New_York")
    first = h.say("flight from philly to chicago")
    turn = h.say(answer)
    assert said in _texts(turn)
    assert _asked(turn) == _asked(first) == ["depart_date", "adults", "return_date"]


def test_a_greeting_is_greeted_and_asked_what_is_needed():
    turn = Harness(today="2026-12-01", tz="America/New_York").say("hello??")
    assert "Hi! Happy to help with your trip. Where are you flying from?" in _texts(turn) and "origin" in _asked(turn)


# -- pauses, refusals, and who answers -----------------------------------------------------------------
@pytest.mark.parametrize("words", ["hold on a sec", "hold on, let me check with my wife", "give me a minute"])
def test_a_pause_holds_nothing_and_says_so(words):
    h, turn = _after_options(words)
    assert "Take your time" in _texts(turn)
    assert not h.intent()["working_memory"]["holds"] and not h.intent()["working_memory"]["selected"]["bundle_id"]


@pytest.mark.parametrize("words", ["ugh these are all too expensive", "the hotels are way too pricey for us"])
def test_too_expensive_asks_what_to_change(words):
    _, turn = _after_options(words)
    assert "Let's change something, then" in _texts(turn)


def test_who_answers_is_said_plainly():
    _, turn = _after_options("who are you? a real person?")
    assert "automated travel assistant, not a person" in _texts(turn)


def test_a_pick_taken_back_for_another_one_instead():
    h, _ = _after_options("B4", "hmm wait no. the first one instead")
    assert h.intent()["working_memory"]["selected"]["bundle_id"] == "B1"


def test_a_pause_with_something_held_says_where_the_hold_stands():
    h, turn = _after_options("hold B2", "hang on a minute")
    assert "Take your time. B2 is on hold until" in _texts(turn)
    assert "nothing is held" not in _texts(turn)


# -- more options ---------------------------------------------------------------------------------------
def _bundles(h):
    return h.intent()["working_memory"]["ranked_bundles"]


def test_more_options_adds_the_next_best_after_those_shown_and_keeps_the_choice():
    h, _ = _after_options("B2")
    before = [(b["bundle_id"], b["total"]) for b in _bundles(h)]
    turn = h.say("can i see a few more choices")
    after = _bundles(h)
    assert [(b["bundle_id"], b["total"]) for b in after[:5]] == before
    assert [b["bundle_id"] for b in after] == [f"B{i}" for i in range(1, 11)]
    items = [tuple(f["offer_id"] for f in b["flights"]) + tuple(r["rate_id"] for r in b["hotels"]) for b in after]
    assert len(set(items)) == 10, "no option twice"
    assert "5 more options (B6–B10)" in _texts(turn) and turn_widget(turn, "bundles")
    assert h.intent()["working_memory"]["selected"]["bundle_id"] == "B2"
    h.say("B8")
    assert h.intent()["working_memory"]["selected"]["bundle_id"] == "B8"


def test_past_ten_options_more_asks_what_to_change_and_a_change_shows_five_again():
    h, _ = _after_options("show me more options")
    turn = h.say("any other options?")
    assert "These 10 are the best of what I found" in _texts(turn) and len(_bundles(h)) == 10
    h.say("nonstop only")
    assert len(_bundles(h)) == 5


def turn_widget(turn, kind):
    return [m["widget"] for m in turn.get("ui_messages") or [] if (m.get("widget") or {}).get("type") == kind]


# -- words that are never a change or a purchase ------------------------------------------------------
def test_a_why_question_about_an_option_changes_no_preference():
    h, turn = _after_options("why is the refundable one so expensive")
    assert h.intent()["constraints"]["refundable_preference"] == "either"
    assert "more than" in _texts(turn)


@pytest.mark.parametrize("words", ["confirm and pay with my visa", "book it using the company card"])
def test_paying_with_a_card_in_words_is_refused(words):
    h, turn = _after_options("B1", words)
    assert "can't buy anything from a chat message" in _texts(turn)
    assert not h.intent()["working_memory"]["holds"] and not h.intent()["working_memory"]["bookings"]


def test_a_food_question_about_the_city_is_not_read_as_hotel_meals():
    _, turn = _after_options("whats the best cajun food in denver")
    assert "I can't tell that from the options" in _texts(turn) and "Room only" not in _texts(turn)
