"""What travellers ask of the hotel: the meals with the room (handlers/extract/board.py,
handlers/common/board.py) read, searched for and said back. Sentences here are not in the
phrasing evaluation."""

import re
from datetime import UTC, date

import pytest

from handlers.common.board import board_met, board_words
from handlers.common.shape import trip_details
from handlers.extract import extract_fields
from handlers.extract.board import read_board
from handlers.supplier.summary import beds_text
from handlers.testing import Harness
from tests.handlers.test_specialists_search import hotels

TODAY = date(2026, 12, 1)


@pytest.mark.parametrize(
    ("text", "board"),
    [
        ("hotel w/ breakfast incl", "breakfast"),
        ("a b & b near the old town", "breakfast"),
        ("bed and breakfast if possible", "breakfast"),
        ("brekky included pls", "breakfast"),
        ("demi-pension would be great", "half_board"),
        ("dinner and breakfast included", "half_board"),
        ("meals included", "half_board"),
        ("full pension", "full_board"),
        ("three meals a day at the hotel", "full_board"),
        ("all-incl resort", "all_inclusive"),
        ("ALL INCLUSIVE!!", "all_inclusive"),
        ("an all in resort in cancun", "all_inclusive"),
        ("all-in resort please", "all_inclusive"),
        ("all in package to punta cana", "all_inclusive"),
    ],
)
def test_meals_wished_are_read_as_the_least_board(text, board):
    assert read_board(text) == board


@pytest.mark.parametrize(
    "text",
    [
        "flying out after breakfast",
        "back before breakfast on sunday",
        "I have a breakfast meeting at 8",
        "meeting a client for breakfast",
        "i'll grab breakfast on the way",
        "forget about breakfast",
        "breakfast doesn't matter",
        "room only is fine",
        "we don't need breakfast",
        "is breakfast included in B3?",
        "does the second one have all inclusive?",
        "a hotel with a pool",
        "we're all in denver, going to vegas feb 19-21",  # where they are, not what the room includes
        "we are all in boston this week",
        "$1500 all in",  # the price, everything counted
    ],
)
def test_meals_as_times_questions_or_let_go_are_no_wish(text):
    assert read_board(text) is None


def test_letting_go_of_meals_clears_the_wish_through_the_relax_step():
    fields, _ = extract_fields(text="actually breakfast doesnt matter", today=TODAY)
    assert fields["hotel_board"] is None and fields["relax"] == ["board"]


def test_a_meal_wish_alone_is_trip_talk_not_an_errand():
    fields, _ = extract_fields(text="breakfast pls", today=TODAY)
    assert fields["hotel_board"] == "breakfast"


@pytest.mark.parametrize(
    ("board", "wished", "met"),
    [
        ("room_only", "breakfast", False),
        ("breakfast", "breakfast", True),
        ("half_board", "breakfast", True),
        ("breakfast", "half_board", False),
        ("full_board", "all_inclusive", False),
        ("all_inclusive", "all_inclusive", True),
        ("room_only", None, True),
    ],
)
def test_a_board_meets_a_wish_when_it_includes_at_least_those_meals(board, wished, met):
    assert board_met(board, wished) is met


def test_the_hotel_search_keeps_only_rates_with_the_meals_wished_and_counts_the_others():
    every = hotels()["output"]
    fed = hotels(board="breakfast")["output"]
    assert 0 < fed["count"] < every["count"]
    assert all(r["summary"]["board_type"] != "room_only" for r in fed["rates"])
    assert fed["ruled_out"]["board"] == sum(r["summary"]["board_type"] == "room_only" for r in every["rates"])


def test_the_trip_summary_says_the_meals_wished():
    doc = {
        "itinerary": {"lodging": {"needed": True}},
        "preferences": {"hotel": {"board": "half_board"}, "flight": {}},
        "constraints": {},
    }
    assert {"label": "Hotel wishes", "value": board_words("half_board")} in trip_details(doc)


@pytest.mark.parametrize(
    ("room", "said"),
    [
        ({"beds": [{"type": "queen", "count": 2}]}, "2 queen beds"),
        ({"beds": [{"type": "king", "count": 1}]}, "1 king bed"),
        ({"beds": [{"type": "twin", "count": 2}, {"type": "sofa", "count": 1}]}, "2 twin beds and 1 sofa bed"),
        ({}, None),
    ],
)
def test_a_rooms_beds_are_said_in_words(room, said):
    assert beds_text(room) == said


def test_the_card_says_each_rooms_beds_and_how_many_rooms():
    h = Harness(today="2026-12-01", tz="America/New_York", trip_id="beds")
    h.say("dallas to vegas feb 12-15 4 guys, 2 rooms")
    cards = [" ".join(b["why"]) for b in h.intent()["working_memory"]["ranked_bundles"]]
    assert cards and all(re.search(r"2 rooms, each \d (?:king|queen|twin) beds?,", c) for c in cards)


def test_some_sandbox_rooms_for_two_have_twin_beds_and_family_rooms_have_queens():
    from datetime import datetime

    from handlers.supplier.hotels import build_hotel_rates

    def beds(guests):
        rates = build_hotel_rates(
            seed=7,
            location_code="DEN",
            check_in=date(2027, 3, 1),
            check_out=date(2027, 3, 4),
            rooms=1,
            guests_per_room=guests,
            now=datetime(2026, 12, 1, 12, tzinfo=UTC),
            ttl_minutes=30,
        )
        return {beds_text(r["room"]) for r in rates}

    assert {"2 twin beds", "1 king bed", "1 queen bed"} <= beds(2)
    assert beds(4) == {"2 queen beds"}
