"""What people say once options are on screen: ordinals past five, "that one", a change said beside a
pick, someone who no longer comes, an airline list that goes on, "show me" as a verb."""

from __future__ import annotations

import pytest

from handlers.extract.party import adding, adults_leaving
from handlers.extract.patch import revert_patch
from handlers.extract.prefs import carriers_against, read_airlines
from handlers.extract.topics import message_topic
from handlers.router import route_text
from handlers.testing import Harness


def _screen(n: int, **wm):
    bundles = [
        {"bundle_id": f"B{i}", "total": f"{900 + i}.00", "flights": [{"offer_id": f"o{i}", "summary": {}}]}
        for i in range(1, n + 1)
    ]
    return {"working_memory": {"ranked_bundles": bundles, **wm}}


@pytest.mark.parametrize(
    ("text", "bundle_id"),
    [("the seventh one", "B7"), ("ill go with the 6th", "B6"), ("tenth option", "B10"), ("lets do the ninth", "B9")],
)
def test_ordinals_reach_the_options_more_put_on_screen(text, bundle_id):
    assert route_text(text, _screen(10))["data"] == {"bundle_id": bundle_id}


def test_a_bare_ordinal_past_the_screen_is_a_day_but_one_said_as_an_option_is_named():
    assert route_text("the 7th", _screen(5))["data"] == {"text": "the 7th"}
    assert route_text("the seventh one", _screen(5))["data"]["unknown_bundle_id"] == "B7"


def test_that_one_is_the_option_last_asked_about_while_it_is_still_on_screen():
    asked = {"bundle_id": "B4", "items": ["o4"]}
    assert route_text("ok lets go with that one", _screen(5, discussed=asked))["data"] == {"bundle_id": "B4"}
    moved = {"bundle_id": "B4", "items": ["an offer of an earlier search"]}
    assert route_text("ok lets go with that one", _screen(5, discussed=moved))["data"].get("which_one")


@pytest.mark.parametrize(
    "text", ["actually stars don't matter, cheapest is fine", "no red eyes though, the cheapest then"]
)
def test_a_change_said_beside_a_pick_is_read_as_the_change(text):
    assert route_text(text, _screen(5))["type"] == "USER_MESSAGE"


def test_a_pick_said_in_clauses_without_a_change_still_picks():
    assert route_text("hmm B2 or B3... B3 I guess", _screen(5))["data"] == {"bundle_id": "B3"}


@pytest.mark.parametrize(
    ("text", "going", "left"),
    [
        ("one less person, mike cant make it", 3, 2),
        ("two fewer people", 4, 2),
        ("my colleague dropped out", 3, 2),
        ("she's not coming anymore", 2, 1),
        ("we can't make it on the 5th", 3, None),
        ("the hotel isn't going to work", 3, None),
        ("my boss isn't going to pay for that", 3, None),
        ("my son can't make it", 3, None),  # a child: not an adult less
        ("one less person", 1, None),  # never nobody
    ],
)
def test_adults_who_no_longer_come(text, going, left):
    assert adults_leaving(text, going) == left


@pytest.mark.parametrize(
    ("flight", "text", "key", "codes"),
    [
        ({"airlines_required": ["DL"]}, "or american", "airlines_required", ["DL", "AA"]),
        ({"airlines": ["UA"]}, "and alaska", "airlines", ["UA", "AS"]),
        ({"airlines_avoid": ["NK"]}, "or frontier", "airlines_avoid", ["NK", "F9"]),
    ],
)
def test_an_airline_named_after_or_joins_the_list_the_trip_has(flight, text, key, codes):
    said, _ = read_airlines(text)
    assert carriers_against(text, said, flight)[key] == codes


def test_an_airline_named_alone_without_a_list_is_a_preference():
    said, _ = read_airlines("or american")
    assert carriers_against("or american", said, {})["airlines"] == ["AA"]


@pytest.mark.parametrize("text", ["only show me nonstops", "show us everything", "can you show me the hotels"])
def test_show_as_a_verb_is_about_the_trip(text):
    assert message_topic(text, None, None) == "trip"


def test_a_show_is_still_an_errand():
    assert message_topic("any good shows on broadway that night?", None, None) == "other"


@pytest.mark.parametrize(
    ("text", "back"),
    [
        ("never mind, undo that", "last"),
        ("put it back", "last"),
        ("actually change it back to how it was", "last"),
        ("undo", "last"),
        ("show me the first list again", "first"),
        ("go back to the original options please", "first"),
        ("can we see the previous options", "first"),
    ],
)
def test_going_back_is_said_in_many_ways(text, back):
    assert route_text(text, _screen(5))["data"]["back"] == back


@pytest.mark.parametrize(
    "text", ["show me the first flight out", "go back to boston on the 5th", "undo the hotel filter"]
)
def test_going_back_needs_words_about_the_change_or_the_list(text):
    assert "back" not in route_text(text, _screen(5))["data"]


def test_a_change_is_put_back_leaf_by_leaf_and_a_list_whole():
    current = {
        "itinerary": {"segments": [{"depart_date": "2027-01-13"}, {"depart_date": "2027-01-16"}]},
        "preferences": {"flight": {"cabin": "business"}},
    }
    changes = [
        {"path": "itinerary.segments.0.depart_date", "before": "2027-01-12"},
        {"path": "itinerary.segments.1.depart_date", "before": "2027-01-15"},
        {"path": "preferences.flight.cabin", "before": "economy"},
        {"path": "status.assumptions", "before": []},  # not the traveller's requirement
    ]
    assert revert_patch(current, changes) == {
        "itinerary": {"segments": [{"depart_date": "2027-01-12"}, {"depart_date": "2027-01-15"}]},
        "preferences": {"flight": {"cabin": "economy"}},
    }
    assert current["itinerary"]["segments"][0]["depart_date"] == "2027-01-13"  # the trip itself is not touched


def test_a_change_whose_old_value_was_not_kept_cannot_be_put_back():
    assert revert_patch({}, [{"path": "itinerary.segments", "before": "…"}]) is None


def _card(bundle_id, carriers, stars, board="room_only", total="900.00", hotel="Inn"):
    return {
        "bundle_id": bundle_id,
        "total": total,
        "flights": [
            {"offer_id": f"{bundle_id}{c}", "summary": {"carrier": c, "duration_minutes": 100}} for c in carriers
        ],
        "hotels": [{"rate_id": f"{bundle_id}h", "summary": {"stars": stars, "board_type": board, "hotel_name": hotel}}],
    }


CARDS = {
    "working_memory": {
        "ranked_bundles": [
            _card("B1", ["AA", "B6"], 1, total="1000.00"),
            _card("B2", ["AS", "AS"], 1, total="1100.00"),
            _card("B3", ["AA", "B6"], 3, board="breakfast", total="1300.00", hotel="Miami Central Hotel"),
            _card("B4", ["DL", "DL"], 1, total="950.00"),
        ]
    }
}


@pytest.mark.parametrize(
    ("text", "bundle_id"),
    [
        ("ok the one with breakfast", "B3"),
        ("the one with the 3 star hotel", "B3"),
        ("the alaska one", "B2"),
        ("lets do the one on jetblue", "B1"),  # no option flies it both ways: the first that flies it
        ("the one with the miami central hotel", "B3"),
        ("id like the second cheapest", "B1"),
    ],
)
def test_an_option_named_by_what_its_card_shows(text, bundle_id):
    assert route_text(text, CARDS)["data"] == {"bundle_id": bundle_id}


def test_a_feature_no_option_has_is_left_to_the_extractor_as_a_wish():
    assert route_text("the one with a 5 star hotel", CARDS)["type"] == "USER_MESSAGE"


def _party_after(text, first="nyc to miami feb 10-15, 2 adults"):
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say(first)
    h.say(text)
    return h.intent()["party"]["travelers"]


@pytest.mark.parametrize(
    ("text", "adults"),
    [
        ("my mate's joining us", 3),
        ("my sister is coming too so 3 of us", 3),
        ("my colleague wants to join, that makes 4", 4),
        ("two more people are joining", 4),
        ("plus one more", 3),
        ("one of us dropped out, just 2 now", 2),
        ("show me 2 more", 2),
        ("one more night", 2),
        ("my friend's wedding is that weekend", 2),
    ],
)
def test_people_joining_or_leaving_after_options_change_the_party_by_what_was_said(text, adults):
    first = "nyc to miami feb 10-15, 3 adults" if "dropped" in text else "nyc to miami feb 10-15, 2 adults"
    assert _party_after(text, first)["adults"] == adults


def test_a_child_brought_along_joins_the_grown_ups_already_going():
    assert _party_after("we're bringing our son, he's 7") == {"adults": 2, "children": 1, "infants": 0}


@pytest.mark.parametrize(
    "text",
    ["hold on till monday, checking with my boss", "let me run it by my wife", "need to clear it with my manager"],
)
def test_someone_asked_about_the_trip_does_not_join_it(text):
    assert _party_after(text)["adults"] == 2


@pytest.mark.parametrize(
    ("text", "age"), [("oh and our son is coming, hes 8", 8), ("our daughter is joining, shes 11", 11)]
)
def test_a_child_joining_with_an_age_typed_without_an_apostrophe_keeps_the_age(text, age):
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say("nyc to miami feb 10-15, 2 adults")
    h.say(text)
    party = h.intent()["party"]
    assert party["travelers"]["adults"] == 2 and party["travelers"]["children"] == 1 and party["child_ages"] == [age]


@pytest.mark.parametrize(
    ("text", "back"), [("stay 2 more days", "2027-02-17"), ("can we extend it 1 more day", "2027-02-16")]
)
def test_more_days_at_the_end_move_the_return(text, back):
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say("nyc to miami feb 10-15, 2 adults")
    h.say(text)
    segments = h.intent()["itinerary"]["segments"]
    assert segments[0]["depart_date"] == "2027-02-10" and segments[1]["depart_date"] == back


def test_a_hotel_name_no_option_has_is_said_but_a_wish_still_goes_to_the_extractor():
    said = route_text("the one with the marriott", CARDS)["data"]
    assert said["not_on_screen"] == "marriott" and "bundle_id" not in said
    assert "not_on_screen" not in route_text("the one with a pool", CARDS)["data"]
    assert "not_on_screen" not in route_text("the delta one", CARDS)["data"]


@pytest.mark.parametrize(
    ("text", "adults"), [("+1, my sister", 3), ("+1", 3), ("plus one - my coworker", 3), ("+2 ppl", 4)]
)
def test_a_count_said_with_a_plus_joins_those_going(text, adults):
    assert _party_after(text)["adults"] == adults


def test_a_plus_that_is_no_count_of_people_adds_nobody():
    assert not adding("+1 (555) 010-0199 is my number") and not adding("+1-2 days is fine")
