"""Picking and holding an option the way people say it once options are on screen: a pick in a
clause or by what it does, a hold asked with the pick, questions that name an option without
picking it, and the options turned down, asked about or asked past as a whole."""

from __future__ import annotations

import re

import pytest

from handlers.common.defaults import DEFAULT_POLICY
from handlers.common.shape import leg_departure
from handlers.router import mixed_parts, pick_words, purchase_refused, route_text
from handlers.testing import Harness

TRIP = "2 adults boston to denver jan 12-15"


@pytest.fixture
def shown():
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say(TRIP)
    assert len(h.intent()["working_memory"]["ranked_bundles"]) == 5
    return h


def said(turn):
    return " ".join(m.get("text") or "" for m in turn["ui_messages"])


def held_ids(h):
    """The option held: holds name offers, so it is the chosen one when anything is held."""
    wm = h.intent()["working_memory"]
    return [wm["selected"]["bundle_id"]] if any(x.get("status") == "held" for x in wm["holds"]) else []


def chosen(h):
    return h.intent()["working_memory"]["selected"]["bundle_id"]


@pytest.mark.parametrize(
    ("text", "bundle"),
    [
        ("hold B2", "B2"),
        ("lets do B3 and hold it", "B3"),
        ("B1 please and put it on hold", "B1"),
        ("the 3rd one. hold it", "B3"),
        ("can we hold both the flights and hotel in b2", "B2"),
        ("cool lock in the first one", "B1"),
    ],
)
def test_a_hold_said_with_the_pick_checks_policy_then_holds_that_option(shown, text, bundle):
    turn = shown.say(text)
    assert chosen(shown) == bundle
    assert held_ids(shown) == [bundle]
    kinds = [(m.get("widget") or {}).get("type") for m in turn["ui_messages"] if m.get("widget")]
    assert kinds.index("risk") < kinds.index("holds")  # the policy card first, then what is held
    assert "Holding it now." in said(turn)


def test_a_hold_by_quality_holds_the_option_with_it(shown):
    shown.say("can you hold the cheapest for me")
    bundles = shown.intent()["working_memory"]["ranked_bundles"]
    cheapest = min(bundles, key=lambda b: float(b["total"]))["bundle_id"]
    assert held_ids(shown) == [cheapest]


def test_a_pick_the_policy_refuses_is_not_held(shown):
    h = Harness(today="2026-12-01", tz="America/New_York", policy={**DEFAULT_POLICY, "hotel_nightly_cap": "20.00"})
    h.say(TRIP)
    turn = h.say("hold B1")
    assert held_ids(h) == []
    assert "can't be held" in said(turn)


def test_a_plain_pick_still_waits_for_hold(shown):
    turn = shown.say("B2 looks good")
    assert chosen(shown) == "B2" and held_ids(shown) == []
    assert "Say 'hold' to hold it." in said(turn)


@pytest.mark.parametrize(
    ("text", "bundle"),
    [
        ("hmm B2 or B3... B3 I guess", "B3"),
        ("actually the second one not the first", "B2"),
        ("the first one looks best, lets do it", "B1"),
        ("I think we'll do the second option", "B2"),
        ("option 2 plz", "B2"),
    ],
)
def test_a_pick_said_in_passing_is_read(shown, text, bundle):
    shown.say(text)
    assert chosen(shown) == bundle


@pytest.mark.parametrize(
    ("text", "leg", "latest"),
    [
        ("the one that comes back latest", "return", True),
        ("go with the earliest flight out", "outbound", False),
        ("i'll go with the one that leaves earliest", "outbound", False),
    ],
)
def test_a_pick_by_what_its_flights_do(shown, text, leg, latest):
    shown.say(text)
    bundles = shown.intent()["working_memory"]["ranked_bundles"]

    def leaves(b):
        return leg_departure(b, leg)

    times = [leaves(b) for b in bundles]
    pick = next(b for b in bundles if b["bundle_id"] == chosen(shown))
    assert leaves(pick) == (max(times) if latest else min(times))


def test_relative_words_become_the_plain_pick():
    assert pick_words("ok lets go with the one that flies back latest") == "the latest flight back"
    assert pick_words("whichever one is fastest") == "the fastest"
    assert pick_words("b1 or b2... eh b2") != "b2"  # clauses are read one by one, not as one pick


@pytest.mark.parametrize(
    "text",
    ["whats the hotel in B1 called", "hows the hotel in b2", "tell me more about B4", "whats the layover on b2"],
)
def test_a_question_that_names_an_option_answers_it_and_picks_nothing(shown, text):
    turn = shown.say(text)
    assert chosen(shown) is None
    named = re.search(r"\bb(\d)\b", text, re.I)
    assert named is not None and f"B{named.group(1)} (" in said(turn)  # answered for that option


def test_how_far_is_the_hotel_is_answered_from_the_options_and_changes_nothing(shown):
    before = shown.intent()
    turn = shown.say("how far is the hotel from downtown")
    doc = shown.intent()
    assert doc["preferences"] == before["preferences"]
    assert doc["working_memory"]["ranked_bundles"] == before["working_memory"]["ranked_bundles"]
    assert "Closest to the centre first" in said(turn) and "km" in said(turn)
    other = shown.say("is the hotel close to the convention center?")
    assert "not from the convention center" in said(other)


@pytest.mark.parametrize("text", ["nah none of these work", "i dont like any of these", "ugh none of these are great"])
def test_options_turned_down_get_asked_what_to_change(shown, text):
    turn = shown.say(text)
    assert "Nothing changed" not in said(turn)
    assert "What matters most" in said(turn)


@pytest.mark.parametrize("text", ["ok cool, what now?", "what happens next?", "how do i book this"])
def test_what_now_tells_the_next_step(shown, text):
    turn = shown.say(text)
    assert "I can't tell that" not in said(turn)
    assert "approver" in said(turn) and "You're welcome" not in said(turn)


@pytest.mark.parametrize("text", ["can you show me more options", "any other options?", "anything else?"])
def test_more_options_adds_the_next_five_then_says_what_was_searched_and_how_to_see_others(shown, text):
    turn = shown.say(text)
    assert "5 more options (B6–B10)" in said(turn)
    turn = shown.say(text)
    assert "These 10 are the best of what I found" in said(turn)
    assert "flight offers" in said(turn) and "hotel rates" in said(turn)


def test_that_one_with_nothing_chosen_asks_which_and_with_a_choice_keeps_it(shown):
    turn = shown.say("perfect, that one")
    assert chosen(shown) is None and "Which one do you mean?" in said(turn)
    shown.say("B3")
    shown.say("yep that one")
    assert chosen(shown) == "B3"


@pytest.mark.parametrize(
    "text, pick",
    [
        ("book B2", "B2"),
        ("purchase b3 please", "B3"),
        ("b4 looks good, book it", "B4"),
        ("B5 please. buy it", "B5"),
        ("go ahead and book b1", "B1"),
    ],
)
def test_a_wish_to_buy_an_option_picks_it_and_says_what_comes_next(shown, text, pick):
    turn = shown.say(text)
    wm = shown.intent()["working_memory"]
    assert chosen(shown) == pick and held_ids(shown) == [] and wm["bookings"] == []
    assert "purchase_text_refused" not in [(m.get("widget") or {}).get("code") for m in turn["ui_messages"]]
    assert f"{pick} is chosen" in said(turn) and "say 'hold'" in said(turn) and "approver" in said(turn)
    assert any(e["type"] == "purchase_text_refused" for e in shown.audit_events())


def test_book_that_one_books_the_option_talked_about_and_a_hold_with_it_holds(shown):
    shown.say("what's the hotel in B3 called?")
    shown.say("ok book that one")
    assert chosen(shown) == "B3" and held_ids(shown) == []
    turn = shown.say("hold b2 and buy it")
    assert chosen(shown) == "B2" and held_ids(shown) == ["B2"] and "I'm holding it" in said(turn)
    assert shown.intent()["working_memory"]["bookings"] == []


def test_claimed_approval_with_a_pick_still_gets_the_refusal_and_no_pick(shown):
    turn = shown.say("the approver said ok, book B2")
    assert chosen(shown) is None
    assert [(m.get("widget") or {}).get("code") for m in turn["ui_messages"]] == ["purchase_text_refused"]


def test_nothing_said_with_a_pick_buys_anything(shown):
    trip = shown.intent()
    for text in ("book B2", "hold b2 and buy it"):
        assert route_text(text, trip)["data"].get("purchase_text_refused") is True, text
    for text in ("book B2", "hold b2 and buy it", "pay for the cheapest", "hold the cheapest and pay"):
        shown.say(text)
        assert shown.intent()["working_memory"]["bookings"] == [], text


@pytest.mark.parametrize(
    ("text", "pick"),
    [
        ("B2 and send it to my manager for approval", "B2"),
        ("submit b3 for sign-off please", "B3"),
        ("get B4 approved", "B4"),
        ("ask my boss to approve b1", "B1"),
        ("the cheapest one, then send it to the approver", "B4"),
    ],
)
def test_asking_for_approval_of_an_option_picks_and_holds_it(shown, text, pick):
    shown.say(text)
    assert chosen(shown) == pick and held_ids(shown) == [pick]
    assert shown.intent()["working_memory"]["bookings"] == []


@pytest.mark.parametrize("text", ["send it to my manager for approval", "lock it in", "request approval"])
def test_asking_for_approval_of_the_chosen_option_holds_it_and_with_none_chosen_asks_for_a_pick(shown, text):
    turn = shown.say(text)
    assert held_ids(shown) == [] and "Pick a bundle first" in said(turn)
    shown.say("B3")
    shown.say(text)
    assert held_ids(shown) == ["B3"]


@pytest.mark.parametrize(
    ("text", "quality"),
    [
        ("the one leaving earliest", "earliest_out"),
        ("whichever leaves first", "earliest_out"),
        ("the one with the earliest flight", "earliest_out"),
        ("the one coming back latest", "latest_ret"),
        ("whichever one is flying back latest", "latest_ret"),
    ],
)
def test_an_option_picked_by_when_its_flight_leaves(shown, text, quality):
    turn = shown.say(text)
    leg = "outbound" if quality.endswith("out") else "return"
    times = [leg_departure(b, leg) for b in shown.intent()["working_memory"]["ranked_bundles"]]
    mine = leg_departure(
        next(b for b in shown.intent()["working_memory"]["ranked_bundles"] if b["bundle_id"] == chosen(shown)), leg
    )
    assert mine == (min(times) if quality.startswith("earliest") else max(times)), said(turn)


@pytest.mark.parametrize(
    ("text", "pick"),
    [("B1 no wait, B3", "B3"), ("the second one, i mean the fourth", "B4"), ("b2 sorry make that b5", "B5")],
)
def test_a_pick_corrected_in_the_same_breath_is_the_last_one(shown, text, pick):
    shown.say(text)
    assert chosen(shown) == pick


@pytest.mark.parametrize(
    ("text", "pick"), [("the second one and book it please", "B2"), ("please proceed with booking option 1", "B1")]
)
def test_a_wish_to_buy_with_the_pick_in_its_own_clause_picks_it(shown, text, pick):
    turn = shown.say(text)
    assert chosen(shown) == pick and held_ids(shown) == [] and "say 'hold'" in said(turn)


def test_a_hold_said_for_us_holds_the_chosen_option(shown):
    shown.say("B4")
    shown.say("yep hold that for us please")
    assert held_ids(shown) == ["B4"]


@pytest.mark.parametrize(
    "text",
    ["can u put it on hold til tmrw", "could you hold this one for us until friday", "please hold it for 24 hours"],
)
def test_a_hold_asked_for_a_while_holds_the_chosen_option_and_moves_no_date(shown, text):
    shown.say("B2")
    before = shown.intent()["itinerary"]
    turn = shown.say(text)
    assert held_ids(shown) == ["B2"] and "until" in said(turn)
    assert shown.intent()["itinerary"] == before


def test_hold_on_for_a_while_is_no_hold(shown):
    shown.say("B2")
    shown.say("hold on till tomorrow, need to ask my wife")
    assert held_ids(shown) == []


@pytest.mark.parametrize(
    "text, pick",
    [
        ("2nd 1 pls thx", "B2"),
        ("the 3rd 1", "B3"),
        ("number three", "B3"),
        ("number 4 please", "B4"),
        ("go w/ #2", "B2"),
        ("option two", "B2"),
        ("lets go with no. 5", "B5"),
        ("can we switch to the third one", "B3"),
        ("could we change to b4", "B4"),
    ],
)
def test_an_option_number_written_the_way_people_type_it_picks_it(shown, text, pick):
    before = shown.intent()["itinerary"]["segments"][0]["depart_date"]
    shown.say(text)
    assert chosen(shown) == pick and held_ids(shown) == []
    assert shown.intent()["itinerary"]["segments"][0]["depart_date"] == before  # "2nd" is no date here


def test_a_number_that_names_no_option_is_not_read_as_one():
    assert pick_words("2nd 1 pls") == "2nd one"
    assert pick_words("leave the 2nd 10am") == "leave the 2nd 10am"
    assert pick_words("go w/ #three") == "number 3"


@pytest.mark.parametrize("text", ["yes please proceed", "great do it 👍", "perfect, go ahead", "ok lets go", "sgtm"])
def test_a_go_ahead_after_a_pick_says_how_to_hold_it_and_buys_nothing(shown, text):
    shown.say("b2")
    turn = shown.say(text)
    assert chosen(shown) == "B2" and held_ids(shown) == [] and shown.intent()["working_memory"]["bookings"] == []
    assert "B2 is chosen. Say 'hold'" in said(turn) and "welcome" not in said(turn)


def test_a_go_ahead_with_nothing_chosen_asks_for_a_pick_and_only_thanks_get_you_are_welcome(shown):
    turn = shown.say("sounds good lets do it")
    assert chosen(shown) is None and "welcome" not in said(turn) and "Pick one" in said(turn)
    assert "You're welcome" in said(shown.say("great thanks"))


def test_one_answer_to_book_b2(shown):
    turn = shown.say("book B2")
    replies = [m for m in turn["ui_messages"] if m.get("kind") == "message"]
    assert len(replies) == 1 and said(turn).count("say 'hold'") == 1
    assert "B2 is chosen and is within policy" in replies[0]["text"]


@pytest.mark.parametrize("text", ["actually book B3", "can we switch to the third one", "b3 instead"])
def test_another_option_while_one_is_held_says_what_was_released(shown, text):
    shown.say("hold b1")
    assert held_ids(shown) == ["B1"]
    turn = shown.say(text)
    assert chosen(shown) == "B3" and shown.intent()["working_memory"]["bookings"] == []
    assert "B3 instead of B1: released B1's hold" in said(turn) and "Say 'hold B1' to go back" in said(turn)
    assert "Released 3 holds at the supplier" not in said(turn)  # said once, naming the option


def test_book_another_option_while_one_is_held_holds_it_in_its_place(shown):
    shown.say("hold b1")
    shown.say("actually book B3")
    assert held_ids(shown) == ["B3"] and shown.intent()["working_memory"]["bookings"] == []


@pytest.mark.parametrize(
    "text, parts",
    [
        ("can i get b1's flights with b2's hotel", {"flights": "B1", "hotel": "B2"}),
        ("flights from option 2 but the hotel from option 1", {"flights": "B2", "hotel": "B1"}),
        ("b2 but with the hotel from b4", {"flights": "B2", "hotel": "B4"}),
        ("the flights of the third one and the hotel of the 5th", {"flights": "B3", "hotel": "B5"}),
        ("is b1's hotel nicer than b2's hotel?", None),
        ("b1's flights please", None),
    ],
)
def test_parts_of_two_options_are_read_as_a_pair(text, parts):
    assert mixed_parts(text) == parts


def test_a_pair_that_is_on_screen_is_chosen_and_one_that_is_not_is_said_plainly(shown):
    bundles = shown.intent()["working_memory"]["ranked_bundles"]

    def items(b, key):
        return [i.get("offer_id") or i.get("rate_id") for i in b.get(key) or []]

    pairs = [(a, b) for a in bundles for b in bundles if a is not b]
    found = next(
        (a, b, c)
        for a, b in pairs
        for c in bundles
        if items(c, "flights") == items(a, "flights") and items(c, "hotels") == items(b, "hotels")
    )
    missing = next(
        (a, b)
        for a, b in pairs
        if not any(
            items(c, "flights") == items(a, "flights") and items(c, "hotels") == items(b, "hotels") for c in bundles
        )
    )
    turn = shown.say(f"{missing[0]['bundle_id']}'s flights with {missing[1]['bundle_id']}'s hotel")
    assert chosen(shown) is None and "can't put parts of two options together" in said(turn)
    shown.say(f"{found[0]['bundle_id']}'s flights with {found[1]['bundle_id']}'s hotel")
    assert chosen(shown) == found[2]["bundle_id"] and held_ids(shown) == []


def test_a_hotel_named_that_no_option_has_lists_the_hotels_and_chooses_nothing(shown):
    turn = shown.say("the one with the marriott")
    hotels = {
        (h.get("summary") or {}).get("hotel_name")
        for b in shown.intent()["working_memory"]["ranked_bundles"]
        for h in b.get("hotels") or []
    }
    assert chosen(shown) is None and 'No option on screen has "marriott"' in said(turn)
    assert all(name in said(turn) for name in hotels)


def test_a_letter_says_which_option_it_may_mean_and_picks_nothing(shown):
    turn = shown.say("option c")
    assert chosen(shown) is None and "If you mean the third one, say 'B3'" in said(turn)


@pytest.mark.parametrize(
    "text", ["has my boss approved it yet", "did the manager approve it?", "has my approver signed off"]
)
def test_a_question_about_the_approval_is_no_claimed_approval(text):
    assert not purchase_refused(text)
    assert purchase_refused("my boss approved it, go ahead") and purchase_refused("has my boss approved it? buy it")


def test_asking_about_the_approval_is_answered_from_the_holds(shown):
    turn = shown.say("has my boss approved it yet")
    assert "Nothing is on hold yet" in said(turn) and chosen(shown) is None
    shown.say("hold b2")
    turn = shown.say("has my boss approved it yet")
    assert "asked your approver" in said(turn) and held_ids(shown) == ["B2"]


@pytest.mark.parametrize("text", ["ok book", "finalize it pls", "ok confirm"])
def test_a_bare_wish_to_book_the_chosen_option_says_how_to_hold_it(shown, text):
    shown.say("b3")
    turn = shown.say(text)
    assert chosen(shown) == "B3" and held_ids(shown) == [] and "say 'hold'" in said(turn).lower()
    assert shown.intent()["working_memory"]["bookings"] == []


@pytest.mark.parametrize(
    "text, then",
    [("go ahead and reserve", ["B2"]), ("nvm release it", []), ("we changed our minds, cancel everything", [])],
)
def test_holds_and_releases_said_casually(shown, text, then):
    shown.say("hold b2" if then == [] else "b2")
    shown.say(text)
    assert held_ids(shown) == then


@pytest.mark.parametrize(
    "text, pick",
    [
        ("wait no the first", "B1"),
        ("nah, b4", "B4"),
        ("lets go w the cheapest", None),
        ("the 2nd looks good, can u hold it", "B2"),
    ],
)
def test_corrections_and_shorthand_pick(shown, text, pick):
    shown.say("the third one")
    depart = shown.intent()["itinerary"]["segments"][0]["depart_date"]
    shown.say(text)
    if pick is None:
        bundles = shown.intent()["working_memory"]["ranked_bundles"]
        pick = min(bundles, key=lambda b: float(b["total"]))["bundle_id"]
    assert chosen(shown) == pick and shown.intent()["itinerary"]["segments"][0]["depart_date"] == depart


@pytest.mark.parametrize("text", ["price per person for b1", "layovers on b3", "bags for b2"])
def test_a_topic_about_an_option_is_answered_not_picked(shown, text):
    turn = shown.say(text)
    assert chosen(shown) is None and said(turn)


@pytest.mark.parametrize("text", ["youre not very helpful", "thats not what i asked for", "ugh this is useless"])
def test_a_complaint_gets_an_apology_and_what_can_change(shown, text):
    turn = shown.say(text)
    assert "Sorry about that" in said(turn) and "Nothing changed" not in said(turn) and chosen(shown) is None


@pytest.mark.parametrize(
    "text, pick",
    [("that 4th option looks decent, lets do that", "B4"), ("i think the first one is best", "B1"), ("opt 3", "B3")],
)
def test_a_pick_with_a_determiner_a_verdict_or_an_abbreviation(shown, text, pick):
    shown.say(text)
    assert chosen(shown) == pick and held_ids(shown) == []


def test_scratch_that_releases_the_hold(shown):
    shown.say("hold b2")
    shown.say("scratch that, release the hold")
    assert held_ids(shown) == []


def test_the_cheapest_nonstop_asked_is_answered_from_the_screen_and_changes_nothing(shown):
    bundles = shown.intent()["working_memory"]["ranked_bundles"]
    nonstop = [b for b in bundles if all((f["summary"].get("stops") or 0) == 0 for f in b["flights"])]
    turn = shown.say("whats the cheapest nonstop")
    flight = shown.intent()["preferences"]["flight"]
    assert chosen(shown) is None and flight.get("max_stops") is None
    if nonstop:
        best = min(nonstop, key=lambda b: float(b["total"]))["bundle_id"]
        assert f"The cheapest nonstop option on screen is {best}" in said(turn)
    else:
        assert "None of the options on screen is nonstop" in said(turn)


@pytest.mark.parametrize("text", ["which one would you pick", "what do you recommend", "ok which should i book"])
def test_asked_for_a_pick_the_desk_names_its_own_and_chooses_nothing(shown, text):
    bundles = shown.intent()["working_memory"]["ranked_bundles"]
    best = next((b for b in bundles if b.get("label") == "Best overall"), bundles[0])["bundle_id"]
    turn = shown.say(text)
    assert f"I'd pick {best}" in said(turn) and chosen(shown) is None and held_ids(shown) == []


def test_a_recommendation_asked_about_the_town_is_no_pick(shown):
    assert "I'd pick" not in said(shown.say("any restaurant recommendations near the hotel?"))
