"""Dates and times said around something else: an event's day, a holiday, a meal, a correction
(handlers/extract/dates.py, prefs.py, roles.py, extractor.py)."""

from datetime import date

import pytest

from handlers.extract.dates import find_dates
from handlers.extract.extractor import extract_fields
from handlers.extract.prefs import read_times
from handlers.testing import Harness

TODAY = date(2026, 12, 1)  # a Tuesday


def trip(text):
    fields, _ = extract_fields(text=text, today=TODAY)
    return fields["depart_date"], fields["return_date"], fields["nights"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the event's day is not a travel day; the bare days said beside it are the ones around it
        ("the wedding is saturday jan 16, we fly in friday and home sunday", ("2027-01-15", "2027-01-17", None)),
        ("funeral is thursday. flying wednesday, back friday", ("2026-12-02", "2026-12-04", None)),
        (
            "conference starts monday the 11th of january, get there the day before, leave the 14th",
            ("2027-01-10", "2027-01-14", None),
        ),
        ("graduation is on may 22, fly in two days before and back the day after", ("2027-05-20", "2027-05-23", None)),
        # days counted from a holiday said before them
        ("thanksgiving 2027, the wednesday before to the sunday after", ("2027-11-24", "2027-11-28", None)),
        ("dc to dallas jan 14, back the next morning", ("2027-01-14", "2027-01-15", None)),
        # a date with the word "return" after it is the way out when the return's date follows
        ("atlanta to boston dec 17 return dec 21", ("2026-12-17", "2026-12-21", None)),
        # a weekend said with its first day is the trip's length
        ("long weekend in montreal starting fri jan 15", ("2027-01-15", None, 3)),
        # holiday weekends: a Sunday holiday is observed on the Monday
        ("july 4th weekend in charleston", ("2027-07-03", None, 2)),
        ("easter weekend in tampa", ("2027-03-27", None, 2)),
        # holidays said as spans, read as the days around them
        ("thanksgiving week in columbus", ("2027-11-20", None, 8)),
        ("over christmas in denver", ("2026-12-23", None, 4)),
        ("over new years in miami", ("2026-12-30", None, 3)),
    ],
)
def test_dates_said_around_something(text, expected):
    assert trip(text) == expected


def test_an_event_date_alone_is_still_the_travel_day():
    assert trip("flying to austin for a hockey game on the 12th, back the 14th")[:2] == ("2026-12-12", "2026-12-14")
    assert [d.value.isoformat() for d in find_dates("the wedding is on feb 20", TODAY)[0]] == ["2027-02-20"]


@pytest.mark.parametrize(
    ("text", "depart", "told"),
    [
        # an event the traveller must be at: flown to the day before, and said so
        ("flying to austin for a wedding on the 12th, back the 14th", "2026-12-11", "the day before the wedding"),
        ("flying to nashville from nyc for my friend's funeral on dec 10, back the 11th", "2026-12-09", "the funeral"),
        ("my son's graduation is may 20 in columbus oh, from tampa, home the 22nd", "2027-05-19", "the graduation"),
        ("need to get to my sister's wedding in savannah on june 12th, back the 14th", "2027-06-11", "the wedding"),
    ],
)
def test_the_way_out_to_an_event_one_must_attend_is_the_day_before(text, depart, told):
    assumptions: list = []
    fields, _ = extract_fields(text=text, today=TODAY, assumptions=assumptions)
    assert fields["depart_date"] == depart
    assert any(told in line and line.startswith("Flying out") for line in assumptions)


def test_the_same_day_after_the_day_before_was_said_flies_on_the_event_day():
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say("my cousin's wedding in austin on sat feb 20, home the 21st, from chicago, me and my wife")
    assert h.intent()["itinerary"]["segments"][0]["depart_date"] == "2027-02-19"
    h.say("same day")
    assert [s["depart_date"] for s in h.intent()["itinerary"]["segments"]] == ["2027-02-20", "2027-02-21"]


@pytest.mark.parametrize(
    ("text", "key", "wish"),
    [
        ("need to leave after lunch", "time_out", "after 13:00"),
        ("i have to get in before dinner", "arrive_out", "before 18:00"),
        ("fly home after breakfast on sunday", "time_return", "after 09:00"),
        ("we can only leave after school gets out", "time_out", "after 15:00"),
        ("leave after my 3pm meeting", "time_out", "after 16:00"),
        ("i have a 2:30pm call so i can only fly out after the call", "time_out", "after 15:30"),
        ("leaving jan 8th in the evening", "time_out", "evening"),
    ],
)
def test_times_said_by_a_meal_or_an_event(text, key, wish):
    assert read_times(text)[key] == wish


@pytest.mark.parametrize(
    "text",
    ["is breakfast included?", "dinner reservation at 8pm", "after the meeting I'll take the bus", "lunch at noon"],
)
def test_a_meal_or_meeting_alone_is_no_flight_time(text):
    assert not any(read_times(text).values())


@pytest.mark.parametrize(
    ("first", "change", "depart", "back"),
    [
        (
            "denver to seattle dec 10 to dec 13, 1 adult",
            "coming back the 14th not the 13th",
            "2026-12-10",
            "2026-12-14",
        ),
        ("denver to seattle dec 10 to dec 13, 1 adult", "leave the 11th, not the 10th", "2026-12-11", "2026-12-13"),
        ("chicago to austin jan 20-23, 2 adults", "oops i meant feb not jan", "2027-02-20", "2027-02-23"),
        ("chicago to austin jan 20-23, 2 adults", "make it march instead", "2027-03-20", "2027-03-23"),
    ],
)
def test_a_date_corrected_moves_only_what_was_corrected(first, change, depart, back):
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say(first)
    h.say(change)
    segments = h.intent()["itinerary"]["segments"]
    assert (segments[0]["depart_date"], segments[-1]["depart_date"]) == (depart, back)


def test_a_holiday_span_is_said_back():
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say("over christmas we want to go to denver from houston, 2 adults")
    assert "Taking over christmas as Wed Dec 23 to Sun Dec 27" in " ".join(h.intent()["status"]["assumptions"])


def test_a_time_read_from_a_meal_is_said_back():
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say("flying bos to chicago thursday, need to leave after lunch, back saturday, just me")
    assumptions = " ".join(h.intent()["status"]["assumptions"])
    assert 'Took "after lunch" as leaving after 1:00 PM' in assumptions


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # an event opening its sentence with its day, no "is"
        (
            "Job interview Thursday 1/14 in Atlanta. Fly Wednesday afternoon, return Thursday night",
            ("2027-01-13", "2027-01-14"),
        ),
        # a bare weekday after a date on that weekday is that date again
        (
            "fri the 18th - sun the 20th, leave after dinner friday, fly back sunday after brunch",
            ("2026-12-18", "2026-12-20"),
        ),
        ("thu the 14th - mon the 18th, leave thursday evening", ("2027-01-14", "2027-01-18")),
        # a weekday, its time of day, then its date: one day
        ("must be there no later than monday morning jan 11, one way", ("2027-01-11", None)),
        # a holiday said as a bound beside a day said is not a travel day ("by" a holiday still is one)
        ("before christmas, say the 21st, back after new year, jan 2", ("2026-12-21", "2027-01-02")),
        ("chicago to sf dec 19, need to be home by christmas eve", ("2026-12-19", "2026-12-24")),
        ("jan 19, land by 9. back same night", ("2027-01-19", "2027-01-19")),
        # month names in other languages, with a day
        ("paris → montreal 2 mars - 9 mars", ("2027-03-02", "2027-03-09")),
        ("Berlin nach New York 15. Januar bis 22. Januar", ("2027-01-15", "2027-01-22")),
        ("el 3 de abril, vuelta el 10 de abril", ("2027-04-03", "2027-04-10")),
    ],
)
def test_more_dates_said_around_something(text, expected):
    assert trip(text)[:2] == expected


def test_a_full_week_is_seven_nights():
    assert trip("denver to cabo feb 20 for a full week") == ("2027-02-20", None, 7)


@pytest.mark.parametrize("text", ["the sun is nice there", "sat down to plan", "mayo clinic visit"])
def test_words_that_look_like_days_are_not_dates(text):
    assert find_dates(text, TODAY)[0] == []


def test_a_month_said_alone_as_a_correction_moves_the_trip():
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say("sea to atl mar 3-6, 1 adult")
    h.say("wrong month, it's april")
    segments = h.intent()["itinerary"]["segments"]
    assert (segments[0]["depart_date"], segments[-1]["depart_date"]) == ("2027-04-03", "2027-04-06")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # anything named, opening its sentence, said to be on days: its days are not the trip's
        (
            "comic con is july 22-25 in san diego, fly from seattle the 21st, back the 26th",
            ("2027-07-21", "2027-07-26"),
        ),
        ("my birthday is jan 9, can we fly to vegas the 8th and back the 10th", ("2027-01-08", "2027-01-10")),
        # a bare day after a dated one is in that one's month
        ("the trip is jan 5-9, flying out the 5th", ("2027-01-05", "2027-01-09")),
        ("jan 8, back the 2nd", ("2027-01-08", "2027-02-02")),
    ],
)
def test_days_said_beside_a_dated_one(text, expected):
    assert trip(text)[:2] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2027.03.05 to 2027.03.12", ("2027-03-05", "2027-03-12")),
        ("2027/03/05 - 2027/03/12", ("2027-03-05", "2027-03-12")),
        ("flying 05-13-2027 back 05-20-2027", ("2027-05-13", "2027-05-20")),  # a day over 12 settles the order
        ("flying 15-03-2027 back 22-03-2027", ("2027-03-15", "2027-03-22")),
        ("call me on 555-12-34", (None, None)),
    ],
)
def test_dates_written_with_dots_dashes_and_the_year_first(text, expected):
    assert trip(text)[:2] == expected


@pytest.mark.parametrize(
    ("text", "key", "wish"),
    [
        ("home by 10 at night", "arrive_return", "before 22:00"),  # "at night" is PM, and being home is arriving
        ("back by 8pm on sunday", "arrive_return", "before 20:00"),
        ("come back before noon", "time_return", "before 12:00"),  # "back before" is still the departure
        ("leave after 9 at night", "time_out", "after 21:00"),
    ],
)
def test_being_home_by_a_time_is_an_arrival(text, key, wish):
    assert read_times(text)[key] == wish


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # an event, its place, its day: the bare travel days said beside it fall around it
        ("cousin's wedding in charlotte on saturday jan 23, flying friday, back sunday", ("2027-01-22", "2027-01-24")),
        ("job interview in atlanta monday dec 14, fly out sunday, back monday night", ("2026-12-13", "2026-12-14")),
        # a meeting with only the way back said: the way out is the day before it (told), not its own day
        ("meeting in nyc on jan 12, back jan 14", ("2027-01-11", "2027-01-14")),
        # a game with a travel date said in full beside it: the game's day stays the way out
        ("hockey game in boston on jan 9, back jan 10, from philly", ("2027-01-09", "2027-01-10")),
    ],
)
def test_days_around_an_event_said_with_its_place(text, expected):
    assert trip(text)[:2] == expected


def test_asap_is_today_only_when_no_day_is_said():
    assert trip("chicago to boston asap, one way")[0] == "2026-12-01"
    assert trip("need flights asap, denver to austin leaving jan 5 back jan 9")[:2] == ("2027-01-05", "2027-01-09")
    booked = {"itinerary": {"segments": [{"depart_date": "2027-01-12"}, {"depart_date": "2027-01-15"}]}}
    fields, _ = extract_fields(text="please hold it asap", today=TODAY, current=booked)
    assert fields["depart_date"] is None  # a trip with days: "asap" is soon, not a new day


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # bare weekdays said for a holiday fall around it
        ("going home for thanksgiving, wed to sun", ("2027-11-24", "2027-11-28")),
        ("flying home for christmas, thursday to monday", ("2026-12-24", "2026-12-28")),
        # two days both said as the way back: the first is the way out ("home" is where they go)
        ("flying home on christmas day from boston to denver, back monday", ("2026-12-25", "2026-12-28")),
        # the days said around a holiday are the trip's
        ("cabo from denver around valentine's day, maybe feb 12 to 16", ("2027-02-12", "2027-02-16")),
        # "our 10th anniversary" counts years; it is no day
        ("our 10th anniversary, nyc to aruba feb 3-10", ("2027-02-03", "2027-02-10")),
    ],
)
def test_days_around_a_holiday(text, expected):
    assert trip(text)[:2] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a day's work with only the way back said: the way out is the day before it
        ("for a sales meeting in chicago jan 12, back on the 14th", ("2027-01-11", "2027-01-14", None)),
        ("need to be in denver for a 10am meeting on feb 4, return feb 5", ("2027-02-03", "2027-02-05", None)),
        ("interview in seattle feb 9, flying home feb 10", ("2027-02-08", "2027-02-10", None)),
        # a game is another matter: that day or the day before is asked
        ("going to a hockey game in boston jan 9, back the 10th, from philly", (None, "2027-01-10", None)),
        # arriving early for an event of several days: the way home is still its last day
        (
            "trade show in vegas jan 19-22, need to be there a day early, from seattle",
            ("2027-01-18", "2027-01-22", None),
        ),
        ("conference march 8-10, want to get in two days early", ("2027-03-06", "2027-03-10", None)),
        # a week counted from a holiday starts on its Monday
        ("the week after thanksgiving, 3 nights", ("2027-11-29", None, 3)),
        ("the week before christmas", ("2026-12-14", None, None)),
        # a day of next month said without "of"
        ("the 16th next month", ("2027-01-16", None, None)),
    ],
)
def test_the_way_out_counted_from_an_event_or_a_holiday(text, expected):
    assert trip(text) == expected


def test_the_day_before_a_meeting_is_said_back():
    assumptions = []
    extract_fields(
        text="sales meeting in chicago jan 12, back the 14th, from boston", today=TODAY, assumptions=assumptions
    )
    assert (
        "Flying out Mon Jan 11, the day before your meeting on Tue Jan 12; say the day if you fly another"
        in assumptions
    )
