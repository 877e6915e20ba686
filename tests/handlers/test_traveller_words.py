"""Words travellers use that the chat must understand: asking to see the options again, where in
town the hotel should be, "next Friday" and a hotel-only first message (each read end to end
through the headless Harness, or by the reader that owns it)."""

from datetime import date

import pytest

from handlers.extract.dates import find_dates
from handlers.extract.prefs import read_preferences
from handlers.options_answer import asks_to_see_options
from handlers.testing import Harness


def _options_on_screen(today: str = "2026-12-01") -> Harness:
    h = Harness(today=today, tz="America/New_York")
    h.say("Boston to Denver Jan 12-15, 2 adults")
    assert h.intent()["working_memory"]["ranked_bundles"]
    return h


@pytest.mark.parametrize(
    "text", ["show me the options", "what are my options again", "list them", "remind me what the choices were?"]
)
def test_asking_to_see_the_options_shows_them_again(text):
    h = _options_on_screen()
    turn = h.say(text)
    said = " ".join(m.get("text") or "" for m in turn["ui_messages"])
    assert "Nothing changed" not in said
    assert "B1" in said and "B5" in said
    widgets = [m["widget"] for m in turn["ui_messages"] if (m.get("widget") or {}).get("type") == "bundles"]
    assert [b["bundle_id"] for b in widgets[0]["bundles"]] == ["B1", "B2", "B3", "B4", "B5"]


@pytest.mark.parametrize("text", ["show me cheaper options", "which options are refundable?", "show me the hotels"])
def test_asking_about_the_options_is_not_asking_to_see_them(text):
    assert not asks_to_see_options(text)


@pytest.mark.parametrize(
    ("text", "near"),
    [
        ("need a hotel downtown", "downtown"),
        ("somewhere central please", "the city center"),
        ("hotel in the city centre", "the city center"),
        ("can the hotel be more central?", "the city center"),
        ("hotel close to the airport pls", "the airport"),
        ("the hotel doesn't need to be central", None),
        ("flights after 9am central time", None),
        ("hotel near Central Park", "Central Park"),
    ],
)
def test_where_in_town_the_hotel_should_be(text, near):
    assert read_preferences(text)["hotel_near"] == near


@pytest.mark.parametrize(
    ("today", "said", "day"),
    [
        ("2026-11-26", "next friday", "2026-12-04"),  # a Thursday: not tomorrow
        ("2026-12-02", "next friday", "2026-12-11"),  # a Wednesday: two days away in the same week
        ("2026-12-01", "next friday", "2026-12-04"),  # a Tuesday: the coming Friday
        ("2026-11-28", "next monday", "2026-11-30"),  # a Saturday: the coming Monday is next week's
        ("2026-11-27", "next friday", "2026-12-04"),  # a Friday: a week on
    ],
)
def test_next_weekday_reads_by_the_documented_rule(today, said, day):
    found, _ = find_dates(said, date.fromisoformat(today))
    assert [d.value.isoformat() for d in found] == [day]


def test_next_weekday_is_said_back_as_an_assumption():
    h = Harness(today="2026-11-26", tz="America/New_York")
    h.say("boston to denver next friday for 3 nights, 2 adults")
    doc = h.intent()
    assert doc["itinerary"]["segments"][0]["depart_date"] == "2026-12-04"
    assert "Taking next Friday as Fri Dec 4" in doc["status"]["assumptions"]
    h.say("actually make it dec 5")
    assert not any(a.startswith("Taking next") for a in h.intent()["status"]["assumptions"])


def test_a_first_message_about_a_hotel_alone_is_a_hotel_only_trip():
    h = Harness(today="2026-12-01", tz="America/New_York")
    turn = h.say("hotel in Austin Jan 10-13 for 1")
    doc = h.intent()
    assert doc["itinerary"]["flights_needed"] is False
    asked = [q["slot"] for m in turn["ui_messages"] for q in (m.get("widget") or {}).get("questions") or []]
    assert "origin" not in asked
    assert any("only a hotel" in a for a in doc["status"]["assumptions"])
    h.say("actually I'll need a flight too, from Denver")
    doc = h.intent()
    segments = doc["itinerary"]["segments"]
    assert doc["itinerary"]["flights_needed"] is True
    assert [(s["origin"]["code"], s["destination"]["code"], s["depart_date"]) for s in segments] == [
        ("DEN", "AUS", "2027-01-10"),
        ("AUS", "DEN", "2027-01-13"),
    ]
    assert not any("only a hotel" in a for a in doc["status"]["assumptions"])


def test_a_hotel_with_flying_words_keeps_the_flights():
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say("flying to denver jan 12-15 from boston, need a hotel too, 2 adults")
    assert h.intent()["itinerary"]["flights_needed"] is not False


# -- superlatives and arrival bounds ----------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "wishes"),
    [
        ("earliest flight out pls", {"time_out": "earliest"}),
        ("need the last flight back", {"time_return": "latest"}),
        ("first flight in the morning", {"time_out": "earliest"}),
        ("earliest possible flight there and the latest one back", {"time_out": "earliest", "time_return": "latest"}),
        ("we have to land by 5pm", {"arrive_out": "before 17:00"}),
        ("need to be in chicago before noon", {"arrive_out": "before 12:00"}),
        ("gotta get in by 10am", {"arrive_out": "before 10:00"}),
        ("need to land back home by 8pm", {"arrive_return": "before 20:00"}),
        ("we don't want to land before 7am", {"arrive_out": "after 07:00"}),
        ("leave after 9am and land before 6pm", {"time_out": "after 09:00", "arrive_out": "before 18:00"}),
        ("meeting at 2pm so I have to land by noon", {"arrive_out": "before 12:00"}),
        ("the last flight I took was delayed", {}),
        ("my first flight ever", {}),
        ("we land at 10am", {}),
        ("done by 5pm", {}),
    ],
)
def test_superlatives_and_arrival_bounds_are_read_for_their_leg(text, wishes):
    from handlers.extract.prefs import read_times

    assert {k: v for k, v in read_times(text).items() if v} == wishes


def _legs(h: Harness, leg: int):
    return [(b["flights"][leg]["summary"]) for b in h.intent()["working_memory"]["ranked_bundles"]]


def test_an_arrival_bound_is_searched_and_read_back():
    h = Harness(today="2026-12-01", tz="America/New_York")
    turn = h.say("Boston to Denver Jan 12-15, 2 adults, we have to land by 1pm")
    outbound = _legs(h, 0)
    assert outbound and all(f["arrive_at"][:10] == "2027-01-12" and f["arrive_at"][11:16] < "13:00" for f in outbound)
    details = [d for m in turn["ui_messages"] for d in (m.get("widget") or {}).get("details") or []]
    assert {"label": "Times", "value": "outbound arriving before 1:00 PM"} in details


def test_an_arrival_after_midnight_is_later_than_any_before():
    from handlers.common.shape import lands_in, time_window

    before, after = time_window("before 13:00"), time_window("after 07:00")
    assert lands_in("2027-01-12T23:10:00-05:00", "2027-01-13T01:15:00-07:00", before) is False
    assert lands_in("2027-01-12T23:10:00-05:00", "2027-01-13T01:15:00-07:00", after) is True
    assert lands_in("2027-01-12T08:50:00-05:00", "2027-01-12T10:55:00-07:00", before) is True


def test_the_earliest_flight_out_keeps_the_first_departures_found():
    plain = Harness(today="2026-12-01", tz="America/New_York")
    plain.say("Boston to Denver Jan 12-15, 2 adults")
    first = min(f["depart_at"][11:16] for f in _legs(plain, 0))
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say("Boston to Denver Jan 12-15, 2 adults, earliest flight out pls")
    leaving = [f["depart_at"][11:16] for f in _legs(h, 0)]
    assert leaving and min(leaving) <= first
    earliest = min(leaving)
    assert all(int(t[:2]) * 60 + int(t[3:]) - int(earliest[:2]) * 60 - int(earliest[3:]) <= 60 for t in leaving)


@pytest.mark.parametrize(
    ("text", "leg", "pick"),
    [("the earliest flight out please", 0, min), ("can we do the last flight back", -1, max)],
)
def test_a_superlative_after_options_chooses_that_option_on_screen(text, leg, pick):
    h = _options_on_screen()
    on_screen = {
        b["bundle_id"]: b["flights"][leg]["summary"]["depart_at"]
        for b in h.intent()["working_memory"]["ranked_bundles"]
    }
    turn = h.say(text)
    chosen = h.intent()["working_memory"]["selected"]["bundle_id"]
    assert on_screen[chosen] == pick(on_screen.values())
    said = " ".join(m.get("text") or "" for m in turn["ui_messages"])
    assert f"Chose {chosen}" in said and ("the earliest on screen" in said or "the latest on screen" in said)


def test_which_option_leaves_last_is_answered_not_chosen():
    h = _options_on_screen()
    turn = h.say("which one has the latest flight back?")
    said = " ".join(m.get("text") or "" for m in turn["ui_messages"])
    latest = max(h.intent()["working_memory"]["ranked_bundles"], key=lambda b: b["flights"][-1]["summary"]["depart_at"])
    assert f"{latest['bundle_id']} ({latest['label']}) has the latest flight back: leaves" in said  # named, not listed
    assert h.intent()["working_memory"]["selected"] is None or not h.intent()["working_memory"]["selected"].get(
        "bundle_id"
    )


# -- a day of the month in a change; a lower-case airline said as one --------------------------
@pytest.mark.parametrize(
    ("change", "depart", "back"),
    [
        ("actually make it the 9th", "2027-01-09", "2027-01-11"),
        ("make it the 7th to the 10th", "2027-01-07", "2027-01-10"),
        ("back on the 2nd", "2027-01-08", "2027-02-02"),
    ],
)
def test_a_day_of_the_month_in_a_change_is_in_the_trips_month(change, depart, back):
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say("denver to boston jan 8-11 2 ppl")
    h.say(change)
    segments = h.intent()["itinerary"]["segments"]
    assert (segments[0]["depart_date"], segments[1]["depart_date"]) == (depart, back)


@pytest.mark.parametrize(
    ("text", "preferred"),
    [
        ("business class, prefer delta", ["DL"]),
        ("flying united if possible", ["UA"]),
        ("we'd rather fly american", ["AA"]),
        ("delta preferred", ["DL"]),
        ("we're going to the united states open", None),
        ("pay with american express", None),
        ("i like the spirit of it", None),
    ],
)
def test_a_lower_case_airline_is_one_when_the_words_around_it_say_so(text, preferred):
    from handlers.extract.prefs import read_airlines

    assert read_airlines(text)[0]["airlines"] == preferred


@pytest.mark.parametrize(
    ("change", "back"),
    [("add a night", "2027-01-16"), ("add two more nights", "2027-01-17"), ("one night less", "2027-01-14")],
)
def test_a_night_more_or_less_moves_the_end_of_the_trip(change, back):
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say("Boston to Denver Jan 12-15, 2 adults")
    h.say(change)
    doc = h.intent()
    segments = doc["itinerary"]["segments"]
    assert (segments[0]["depart_date"], segments[1]["depart_date"]) == ("2027-01-12", back)


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        ("need 2 tix phl to orlando", ["PHL", "MCO"]),
        ("flying out of slc", ["SLC"]),
        ("the sea is nice", []),
        ("we go to the den", []),
    ],
)
def test_a_big_airports_code_in_lower_case_where_a_place_is_expected(text, codes):
    from handlers.extract.places import find_places

    assert [m.place["code"] for m in find_places(text)] == codes


def test_arriving_then_leaving_are_the_way_there_and_the_way_back():
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say(
        "I need to book a trip for a conference in Vegas. Flying from Portland OR, arriving the 3rd of Feb, "
        "leaving the 6th. Just me. Hotel near the convention center"
    )
    segments = h.intent()["itinerary"]["segments"]
    assert [(s["origin"]["code"], s["destination"]["code"], s["depart_date"]) for s in segments] == [
        ("PDX", "LAS", "2027-02-03"),
        ("LAS", "PDX", "2027-02-06"),
    ]


@pytest.mark.parametrize(
    ("text", "adults"),
    [
        ("me+wife+2 kids (5 and 9)", 2),
        ("me, wife and 2 kids", 2),
        ("me w/ husband", 2),
        ("flying to austin to visit a friend, just me", 1),
        ("a friend and i", 2),
    ],
)
def test_who_travels_when_written_short(text, adults):
    from handlers.extract.party import read_party

    assert read_party(text)["adults"] == adults


@pytest.mark.parametrize(
    ("text", "codes"), [("bos-mco, 12/20-12/27", ["BOS", "MCO"]), ("pdx - slc jan 3", ["PDX", "SLC"])]
)
def test_a_route_written_with_a_dash_between_lower_case_codes(text, codes):
    from handlers.extract.places import find_places

    assert [m.place["code"] for m in find_places(text)] == codes


def test_both_ends_moved_in_one_message():
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say("NYC to Miami March 2-5 for 2")
    turn = h.say("can we leave a day earlier and come back a day later")
    segments = h.intent()["itinerary"]["segments"]
    assert (segments[0]["depart_date"], segments[1]["depart_date"]) == ("2027-03-01", "2027-03-06")
    said = " ".join(m.get("text") or "" for m in turn["ui_messages"])
    assert "Departure moved to Mon Mar 1; return moved to Sat Mar 6." in said


def test_a_plural_topic_word_is_answered_from_the_options():
    h = _options_on_screen()
    said = " ".join(m.get("text") or "" for m in h.say("any nonstops?")["ui_messages"])
    assert "Nothing changed" not in said and ("Nonstop all the way" in said or "at least one connection" in said)


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("the week of Jan 18, Mon to Thu", ["2027-01-18", "2027-01-21"]),
        ("week of feb 8, leaving tuesday back friday", ["2027-02-09", "2027-02-12"]),
    ],
)
def test_weekdays_of_the_week_named(text, days):
    found, _ = find_dates(text, date(2026, 12, 1))
    assert [d.value.isoformat() for d in found] == days


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("a hotel with a gym please", "I can't search hotels by gym"),
        ("hotel must have parking and wifi", "I can't search hotels by parking or wifi"),
        (
            "2 queen beds please",
            "I can't search hotels by 2 queen beds, but each option below says its beds, and those that have them come first.",
        ),
        ("is breakfast included?", None),
    ],
)
def test_hotel_features_the_searches_cannot_see_are_said_so(text, line):
    h = _options_on_screen()
    said = [m.get("text") or "" for m in h.say(text)["ui_messages"]]
    assert any(s.startswith(line) for s in said) if line else not any("can't search hotels" in s for s in said)


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("febuary 12", "february 12"),
        ("Feburary 3rd", "February 3rd"),
        ("janurary 5", "january 5"),
        ("march 4", "march 4"),
    ],
)
def test_misspelt_month_names_are_read_as_the_month(text, written):
    from handlers.extract.text import clean

    assert clean(text) == written


@pytest.mark.parametrize(
    ("text", "chosen"),
    [("book the second one", "B2"), ("lets do the 3rd one", "B3"), ("we'd like the first option please", "B1")],
)
def test_an_option_chosen_by_its_place_with_the_verbs_travellers_use(text, chosen):
    h = _options_on_screen()
    h.say(text)
    assert h.intent()["working_memory"]["selected"]["bundle_id"] == chosen


def test_seats_wished_are_said_to_be_chosen_with_the_airline():
    h = _options_on_screen()
    said = [m.get("text") or "" for m in h.say("we want aisle seats together")["ui_messages"]]
    assert any(s.startswith("I can't choose seats") for s in said)


@pytest.mark.parametrize(
    ("text", "stars"),
    [
        ("a mid-range hotel near downtown", 3),
        ("upscale hotel please", 4),
        ("luxury hotel in miami", 5),
        ("a nice hotel please", None),  # not a class: said of any hotel
        ("doesn't need to be a fancy hotel", None),
        ("a nice 4 star hotel", 4),
    ],
)
def test_a_hotel_class_in_words_is_stars(text, stars):
    assert read_preferences(text)["hotel_min_stars"] == stars
