"""Questions about the options on screen are answered from what the options say."""

from handlers.options_answer import answer_about_options


def _bundle(bundle_id: str, label: str, hotel: str, board: str) -> dict:
    summary = {"hotel_name": hotel, "stars": 3, "board_type": board, "nightly_avg": "120.00", "currency": "USD"}
    return {
        "bundle_id": bundle_id,
        "label": label,
        "total": "900.00",
        "currency": "USD",
        "hotels": [{"summary": summary}],
    }


BUNDLES = [
    _bundle("B1", "Best overall", "Hotel Teatro", "breakfast"),
    _bundle("B2", "Cheapest", "Denver City Hostel", "room_only"),
    _bundle("B3", "Better hotel", "The Oxford", "breakfast"),
]


def test_a_meal_question_is_answered_by_each_options_board():
    reply = answer_about_options("Is breakfast included?", BUNDLES)
    assert "Breakfast included: B1 (Best overall) Hotel Teatro, B3 (Better hotel) The Oxford." in reply
    assert "Room only, no meals: B2 (Cheapest) Denver City Hostel." in reply
    assert "a night" not in reply  # the meals, not the hotels' prices


def test_other_meal_words_reach_the_same_answer():
    for text in ("do any of these come with meals", "which hotel has all-inclusive?", "what about dinner"):
        assert "Room only, no meals: B2" in answer_about_options(text, BUNDLES), text


def test_flights_only_options_say_there_is_no_hotel():
    flights_only = [{"bundle_id": "B1", "total": "300.00", "currency": "USD", "flights": [{"summary": {}}]}]
    assert "no hotel" in answer_about_options("is breakfast included", flights_only)


def test_a_question_answered_by_its_topic_does_not_start_with_nothing_changed():
    for text in ("Is breakfast included?", "which ones have meals", "any with breakfast?"):
        reply = answer_about_options(text, BUNDLES)
        assert reply.startswith("Breakfast included: "), text


def test_nothing_changed_is_said_where_it_tells_the_traveller_something():
    # words that asked for a change that was not made, and words that matched no topic
    assert answer_about_options("I want breakfast included", BUNDLES).startswith("Nothing changed. Breakfast included")
    assert answer_about_options("hmm", BUNDLES).startswith("Nothing changed. Your options: B1")


def _flying(bundle_id: str, total: str, offer_id: str) -> dict:
    summary = {"origin": "BOS", "destination": "SFO", "stops": 0, "refundable": False, "cabin": "economy"}
    return {
        "bundle_id": bundle_id,
        "total": total,
        "currency": "USD",
        "flights": [{"offer_id": offer_id, "summary": summary}],
    }


FLYING = [_flying("B1", "900.00", "off_1"), _flying("B2", "700.00", "off_2")]
OFFERS = {
    "off_1": {"offer_id": "off_1", "baggage": {"adult": {"carry_on": 1, "checked": 0}}},
    "off_2": {"offer_id": "off_2", "baggage": {"adult": {"carry_on": 1, "checked": 1}}},
}


def test_a_question_that_names_an_option_is_answered_for_it_alone():
    reply = answer_about_options("what's the total for B2 per person", FLYING, people=2)
    assert reply.startswith("For the 2 of you: B2 $350.00 per person ($700.00 in all).")
    assert "B1" not in reply.split(" Pick one")[0]
    assert answer_about_options("how many stops does option 1 have?", FLYING).startswith("B1: BOS→SFO nonstop.")
    assert answer_about_options("whats the price for the cheapest", FLYING).startswith("B2 $700.00 in all.")


def test_bags_are_read_from_the_offers_the_options_name():
    reply = answer_about_options("do these include a checked bag?", FLYING, offers=OFFERS)
    assert reply.startswith(
        "Bags per adult: B1: a carry-on, no checked bag on each flight; B2: a carry-on and 1 checked bag"
    )
    assert "bags not stated" in answer_about_options("any luggage included?", FLYING)  # no offers kept: not guessed


def test_a_question_the_options_cannot_answer_is_said_so():
    reply = answer_about_options("can I bring my dog?", FLYING)
    assert reply.startswith("I can't tell that from the options: they show prices") and "Nothing changed" not in reply


def test_acknowledgements_are_told_apart_from_questions():
    from handlers.options_answer import acknowledged

    assert all(acknowledged(t) for t in ("thanks!", "great, thank you", "go ahead", "sounds good 👍", "ok"))
    assert not any(acknowledged(t) for t in ("thanks, is breakfast included?", "ok make it 3 adults", "great hotel"))


def test_an_option_named_without_a_topic_is_described_by_its_card_and_two_set_side_by_side_compared():
    named = [{**b, "why": [f"{b['bundle_id']} is special."]} for b in FLYING]
    assert answer_about_options("is B1 worth it?", named).startswith("B1, $900.00 in all: B1 is special.")
    reply = answer_about_options("what's the difference between B1 and B2?", named)
    assert reply.startswith("B1 is $200.00 more than B2 ($900.00 vs $700.00 in all). Out: B1 a flight BOS→SFO, nonstop")
    assert answer_about_options("does B1 include taxes?", FLYING).startswith(
        "Every total here includes taxes and fees."
    )


def test_an_option_whose_flights_allow_different_bags_is_said_flight_by_flight():
    back = {"origin": "SFO", "destination": "BOS", "stops": 0, "refundable": False, "cabin": "economy"}
    mixed = _flying("B3", "800.00", "off_1")
    mixed["flights"].append({"offer_id": "off_2", "summary": back})
    reply = answer_about_options("are bags included?", [*FLYING, mixed], offers=OFFERS)
    assert "B3: BOS→SFO a carry-on, no checked bag; then SFO→BOS a carry-on and 1 checked bag." in reply
    assert "differ" not in reply
