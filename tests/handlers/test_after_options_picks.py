"""Picks said once options are on screen: "go with that" after the desk put one forward, a flight's
time ("the 10:55 one"), "the cheapest nonstop" said as a pick, and another day asked about."""

from __future__ import annotations

import pytest

from handlers.extract.context import confirmed_proposal
from handlers.options_answer import answered_pick
from handlers.router import asks_what_if_day, bundle_items, dropped_as_wish, route_text


def _card(bundle_id, total, out, back, stops=0, label=""):
    flights = [
        {
            "offer_id": f"{bundle_id}-{leg}",
            "segment_id": f"seg_{n}",
            "summary": {"depart_at": f"2027-01-{12 + 3 * n}T{at}:00-05:00", "stops": stops, "duration_minutes": 180},
        }
        for n, (leg, at) in enumerate((("out", out), ("back", back)))
    ]
    return {"bundle_id": bundle_id, "label": label, "total": total, "flights": flights}


BUNDLES = [
    _card("B1", "460.00", "17:35", "06:55", label="Best overall"),
    _card("B2", "420.00", "16:40", "11:50", stops=1, label="Cheapest"),
    _card("B3", "480.00", "06:55", "12:20"),
    _card("B4", "530.00", "09:45", "19:05"),
]


def _screen(**wm):
    return {"working_memory": {"ranked_bundles": BUNDLES, **wm}}


def _picked(text, trip=None):
    """The option a text chooses ("book it" is refused as a purchase and read as the pick it names)."""
    return route_text(text, trip or _screen())["data"].get("bundle_id")


@pytest.mark.parametrize(
    ("text", "bundle_id"),
    [
        ("the 9:45 one", "B4"),
        ("the one with the 4:40pm flight", "B2"),
        ("gimme the one that leaves at 6:55am", "B3"),  # B1 comes back at 6:55: the outbound first
        ("the 7pm flight back", "B4"),  # 19:05: an hour said alone is within half an hour
        ("ill take the 12:20 one", "B3"),
        ("the one with the 6:55 flight back", "B1"),  # the leg said: the return at 6:55, not B3's outbound
    ],
)
def test_an_option_is_picked_by_a_flights_departure_time(text, bundle_id):
    assert _picked(text) == bundle_id


def test_a_time_no_flight_leaves_at_is_said_and_a_bare_time_is_no_pick():
    assert route_text("the 10:55 one", _screen())["data"]["no_flight_at"] == "10:55"
    assert route_text("the 3pm one", _screen())["data"]["no_flight_at"] == "3:00 PM"
    assert "no_flight_at" not in route_text("the 3pm flight", _screen())["data"]  # a wish, read as one
    assert _picked("5pm") is None and _picked("the 2nd one") == "B2"


@pytest.mark.parametrize(
    ("text", "bundle_id"),
    [("the cheapest nonstop", "B1"), ("ok cheapest direct one then", "B1"), ("the fastest non stop pls", "B1")],
)
def test_the_cheapest_nonstop_said_as_a_pick_chooses_among_those_on_screen(text, bundle_id):
    assert _picked(text) == bundle_id


def test_the_cheapest_nonstop_asked_is_answered_and_none_on_screen_is_searched():
    assert route_text("whats the cheapest nonstop?", _screen())["data"]["about_options"] is True
    connecting = {"working_memory": {"ranked_bundles": [_card("B1", "1.00", "08:00", "09:00", stops=1)]}}
    assert route_text("the cheapest nonstop", connecting)["type"] == "USER_MESSAGE"


@pytest.mark.parametrize(
    ("asked", "bundle_id"),
    [
        ("which one would you pick", "B1"),
        ("what would u choose", "B1"),
        ("which is best for us?", "B1"),
        ("which one is cheapest", "B2"),
        ("whats the cheapest nonstop", "B1"),
        ("what time does b3 leave", None),  # a question about an option names it, not the answer
    ],
)
def test_an_answer_that_puts_one_option_forward_names_it(asked, bundle_id):
    found = answered_pick(asked, BUNDLES)
    assert (found or {}).get("bundle_id") == bundle_id


@pytest.mark.parametrize(
    "text", ["ok go with that", "sounds good, book it", "ok do that", "yes please, that one 👍", "perfect lets take it"]
)
def test_accepting_the_option_put_forward_chooses_it(text):
    put_forward = {"bundle_id": "B3", "items": bundle_items(BUNDLES[2])}
    assert _picked(text, _screen(discussed=put_forward)) == "B3"
    assert _picked(text) is None  # nothing put forward: no option is guessed


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("anything cheaper if we leave the 13th", True),
        ("would it be cheaper to fly out on the 15th?", True),
        ("how much if we come back on the 6th instead", True),
        ("is it cheaper leaving on friday?", True),
        ("what if i leave a day later", True),
        ("actually leave the 13th instead", False),  # a change
        ("can we move it to the 13th please", False),
        ("anything cheaper?", False),  # no other day
    ],
)
def test_another_day_asked_about_is_a_question(text, asks):
    assert asks_what_if_day(text) is asks


def test_the_desks_offer_is_taken_by_a_yes_only():
    offer = {"text": "Shall I search leaving Wed Jan 13?", "proposal": "leaving Wed Jan 13", "yes_only": True}
    assert confirmed_proposal("yes please", offer) == "leaving Wed Jan 13"
    assert confirmed_proposal("B2", offer) is None and confirmed_proposal("no thanks", offer) is None


def test_an_option_named_then_asked_about_is_answered_not_wished():
    routed = route_text("the 2nd one, and is it refundable?", _screen())
    assert routed["type"] == "USER_MESSAGE" and routed["data"]["about_options"] is True
    assert _picked("the 2nd one, and hold it") == "B2" and route_text("b3 but hold it", _screen())["data"]["hold"]


def test_the_one_that_lands_first_is_the_earliest_arrival_not_the_fastest():
    early = _card("B9", "900.00", "06:00", "12:00")
    early["flights"][0]["summary"].update(arrive_at="2027-01-12T09:00:00-05:00", duration_minutes=400)
    late = _card("B8", "800.00", "10:00", "12:00")
    late["flights"][0]["summary"].update(arrive_at="2027-01-12T11:00:00-05:00", duration_minutes=60)
    trip = {"working_memory": {"ranked_bundles": [late, early]}}
    assert _picked("the one that lands first", trip) == "B9" and _picked("the fastest", trip) == "B8"


@pytest.mark.parametrize(
    ("text", "wish"),
    [
        ("get rid of the red eyes", "no red-eyes"),
        ("lose the overnight flight", "no red-eyes"),
        ("drop the ones with stops", "nonstop only"),
        ("can you remove the connecting flights", "nonstop only"),
        ("drop the 2 star hotels pls", "3 star hotel or better"),
        ("get rid of the jetblue ones", "avoid JetBlue Airways"),
        ("remove the non refundable options", "refundable only"),
        ("drop the hotel", None),  # the hotel itself, read as said
        ("drop the holds", None),
    ],
)
def test_options_taken_away_are_said_as_the_wish_that_does_it(text, wish):
    assert dropped_as_wish(text) == wish
