"""Relative and absolute dates against the traveller's today (handlers/extract/dates.py)."""

from datetime import date

import pytest

from handlers.extract.dates import find_dates, find_durations

TODAY = date(2026, 12, 1)  # a Tuesday


def dates_in(text, today=TODAY):
    return [d.value.isoformat() for d in find_dates(text, today)[0]]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("on January 30", ["2027-01-30"]),  # no year: the next January 30
        ("Jan 30th", ["2027-01-30"]),
        ("December 5", ["2026-12-05"]),
        ("the 11th", ["2026-12-11"]),
        ("the 1st", ["2026-12-01"]),  # today counts
        ("the 3rd of next month", ["2027-01-03"]),
        ("tomorrow", ["2026-12-02"]),
        ("the day after tomorrow", ["2026-12-03"]),
        ("next Friday", ["2026-12-04"]),
        ("Thursday next week", ["2026-12-10"]),
        ("this weekend", ["2026-12-05"]),
        ("in two weeks", ["2026-12-15"]),
        ("3/11", ["2027-03-11"]),
        ("2027-02-03", ["2027-02-03"]),
        ("the 3rd of March", ["2027-03-03"]),
        ("March 11th, 2028", ["2028-03-11"]),
        ("out March 11 back March 16", ["2027-03-11", "2027-03-16"]),
        ("the twenty-first", ["2026-12-21"]),
    ],
)
def test_dates(text, expected):
    assert dates_in(text) == expected


def test_a_year_rolls_over_on_the_last_day():
    assert dates_in("January 1", date(2026, 12, 31)) == ["2027-01-01"]
    assert dates_in("February 29", date(2027, 3, 1)) == ["2028-02-29"]  # the next one that exists


@pytest.mark.parametrize("text", ["I want the second one", "may I ask", "sun and sea", "February 30", "13/45"])
def test_not_dates(text):
    assert dates_in(text) == []


@pytest.mark.parametrize(
    ("text", "nights"),
    [
        ("for 3 nights", 3),
        ("a week", 7),
        ("twelve days", 12),
        ("a 5-night stay", 5),
        ("a couple of nights", 2),
        ("for 2 wks", 14),
        ("5 nts", 5),
    ],
)
def test_lengths_of_stay(text, nights):
    assert [d.nights for d in find_durations(text)] == [nights]


def test_answers_to_a_question_that_named_the_readings():
    from handlers.extract.context import doubt_answer

    two = {"slots": ["depart_date"], "date_doubts": {"depart_date": {"readings": ["2027-03-04", "2027-04-03"]}}}
    one = {"slots": ["return_date"], "date_doubts": {"return_date": {"readings": ["2027-05-06"], "kind": "long"}}}
    assert doubt_answer("the second one", two) == {"depart_date": "2027-04-03"}
    assert doubt_answer("April", two) == {"depart_date": "2027-04-03"}
    assert doubt_answer("thursday", two) == {"depart_date": "2027-03-04"}  # Mar 4 2027 is a Thursday
    assert doubt_answer("yes", one) == {"return_date": "2027-05-06"}
    # a date typed out, a "no", or a plain question is read as usual
    assert doubt_answer("April 3rd", two) == {}
    assert doubt_answer("no, the 9th", one) == {}
    assert doubt_answer("yes", {"slots": ["return_date"], "text": "When do you come back?"}) == {}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("mid march", ["2027-03-15"]),
        ("mid-January", ["2027-01-15"]),
        ("early april", ["2027-04-05"]),
        ("late feb", ["2027-02-25"]),
        ("end of january", ["2027-01-28"]),
        ("the beginning of March", ["2027-03-01"]),
        ("the first week of february", ["2027-02-01"]),
        ("the last week of february", ["2027-02-22"]),
        ("early december", ["2026-12-05"]),  # still ahead this year
        ("the weekend of the 14th", ["2026-12-12"]),  # Monday the 14th: the weekend before it
        ("the weekend of jan 14", ["2027-01-16"]),  # a Thursday: the weekend after it
        ("mid morning on jan 5", ["2027-01-05"]),  # a time of day, not a part of a month
    ],
)
def test_parts_of_a_month_are_one_day_said_back(text, expected):
    found = find_dates(text, TODAY)[0]
    assert [d.value.isoformat() for d in found] == expected
    assert [d.period for d in found] == [not text.startswith("mid morning")]


@pytest.mark.parametrize(("text", "nights"), [("back 3 days later", 3), ("returning a week later", 7)])
def test_a_return_counted_from_the_way_out(text, nights):
    assert [d.nights for d in find_durations(text)] == [nights]


def test_a_weekday_in_a_change_is_in_the_trips_week():
    thursday = find_dates("fly out thursday instead", TODAY)[0][0]
    assert thursday.value == date(2026, 12, 3)  # from today, alone
    assert thursday.near(date(2027, 2, 15), TODAY).value == date(2027, 2, 18)  # a trip leaving Mon Feb 15
    assert find_dates("the 9th", TODAY)[0][0].near(date(2027, 2, 15), TODAY).value == date(2026, 12, 9)  # not a weekday


def test_a_weekday_after_next_is_a_week_after_the_coming_one():
    assert dates_in("friday after next") == ["2026-12-11"]
    assert dates_in("tuesday after next") == ["2026-12-15"]  # said on a Tuesday: not today, not the 8th


@pytest.mark.parametrize(
    ("text", "days", "doubts"),
    [
        ("back sunday the 10th", ["2027-01-10"], 0),  # Dec 10 is a Thursday; Jan 10 a Sunday
        ("out friday the 15th", ["2027-01-15"], 0),
        ("thursday the 10th", ["2026-12-10"], 0),  # this month's agrees
        ("back tuesday the 10th", [], 1),  # no 10th is a Tuesday for months: asked
    ],
)
def test_a_weekday_with_a_bare_day_is_the_next_such_day(text, days, doubts):
    found = []
    assert [d.value.isoformat() for d in find_dates(text, TODAY, doubts=found)[0]] == days
    assert len(found) == doubts


def spans_in(text, today=TODAY):
    return [(d.value.isoformat(), d.until and d.until.isoformat()) for d in find_dates(text, today)[0]]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("this weekend", [("2026-12-05", "2026-12-06")]),  # Saturday to Sunday: a weekend has a way back
        ("the weekend after next", [("2026-12-12", "2026-12-13")]),
        ("a long weekend", [("2026-12-04", "2026-12-07")]),  # Friday to Monday
        ("the 3rd weekend of january", [("2027-01-16", "2027-01-17")]),  # its 3rd Saturday
        ("first weekend in feb", [("2027-02-06", "2027-02-07")]),
        ("last weekend of march", [("2027-03-27", "2027-03-28")]),
        ("MLK weekend", [("2027-01-16", "2027-01-18")]),  # Saturday to the Monday off
        ("memorial day weekend", [("2027-05-29", "2027-05-31")]),
        ("thanksgiving weekend", [("2027-11-25", "2027-11-28")]),  # Thursday to Sunday
        ("a long weekend in new orleans over presidents day", [("2027-02-13", "2027-02-15")]),
        ("the weekend of the 14th", [("2026-12-12", "2026-12-13")]),
        ("jan 8", [("2027-01-08", None)]),  # a day is not a span
    ],
)
def test_a_weekend_said_in_words_is_a_span(text, expected):
    assert spans_in(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a week from friday", ["2026-12-11"]),
        ("a week from today", ["2026-12-08"]),
        ("3 days from now", ["2026-12-04"]),
        ("the day after christmas", ["2026-12-26"]),
        ("the day before new years eve", ["2026-12-30"]),
        ("wed before thanksgiving", ["2027-11-24"]),  # one day, not a Wednesday and Thanksgiving
        ("the friday after thanksgiving", ["2027-11-26"]),
        ("2 days before the 14th", ["2026-12-12"]),
        ("a week from jan 8", ["2027-01-08"]),  # a week's stay from a calendar date, not a day counted from it
    ],
)
def test_a_day_counted_from_another(text, expected):
    assert dates_in(text) == expected


def test_a_week_from_a_weekday_is_not_also_a_stay_length():
    _, masked = find_dates("a week from friday", TODAY)
    assert find_durations(masked) == []
    _, masked = find_dates("a week from jan 8", TODAY)
    assert [d.nights for d in find_durations(masked)] == [7]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("back sun", ["2026-12-06"]),
        ("leaving fri", ["2026-12-04"]),
        ("thu-sun", ["2026-12-03", "2026-12-06"]),
        ("sun and sea", []),
        ("out in the sun", []),
    ],
)
def test_a_lower_case_short_weekday_is_a_day_after_a_travel_word(text, expected):
    assert dates_in(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "conference starts feb 9, so i need to get in the night before",
            ["2027-02-08"],
        ),  # the event's day is not a trip day
        ("the wedding is jan 16, fly the day before and home the day after", ["2027-01-15", "2027-01-17"]),
        ("out jan 5, back the day after", ["2027-01-05", "2027-01-06"]),  # a trip day said first stays one
        ("meeting dec 10, leaving the night before, back the same day", ["2026-12-09", "2026-12-10"]),
        ("the day after tomorrow", ["2026-12-03"]),
    ],
)
def test_a_day_counted_from_the_date_said_before_it(text, expected):
    assert dates_in(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("end of the month", ["2026-12-28"]),
        ("mid next month", ["2027-01-15"]),
        ("early this month", ["2026-12-05"]),
        ("in a fortnight", ["2026-12-15"]),
        ("the week after next, mon to fri", ["2026-12-14", "2026-12-18"]),
        ("next week, tue to thu", ["2026-12-08", "2026-12-10"]),
        ("week of the 14th, leaving tuesday back thursday", ["2026-12-15", "2026-12-17"]),
        ("leaving thursday, back next week monday", ["2026-12-03", "2026-12-07"]),  # that week is monday's alone
    ],
)
def test_a_month_or_week_said_from_today(text, expected):
    assert dates_in(text) == expected


def test_a_bare_weekday_said_on_that_weekday_is_next_weeks():
    assert [d.value for d in find_dates("tuesday", TODAY)[0]] == [date(2026, 12, 8)]
    assert [d.value for d in find_dates("this tuesday", TODAY)[0]] == [TODAY]


def test_asap_is_today_unless_a_day_out_is_said():
    assert [d.value for d in find_dates("asap, back in 3 days", TODAY)[0]] == [TODAY, date(2026, 12, 4)]
    assert [d.value for d in find_dates("asap, leaving jan 5", TODAY)[0]] == [date(2027, 1, 5)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("dec 12, back in 5 days", ["2026-12-12", "2026-12-17"]),
        ("dec 12 returning in a week", ["2026-12-12", "2026-12-19"]),
        ("on friday, back in a week", ["2026-12-04", "2026-12-11"]),
        ("in 3 days", ["2026-12-04"]),  # with no day out said, still counted from today
        ("leaving in 2 weeks, back dec 20", ["2026-12-15", "2026-12-20"]),
    ],
)
def test_back_in_a_while_after_the_day_out_counts_from_that_day(text, expected):
    assert dates_in(text) == expected


def test_a_weekend_with_a_bare_weekday_and_a_weekend_of_another_month():
    days = [d.value for d in find_dates("MLK weekend, leaving friday", TODAY)[0]]
    assert days == [date(2027, 1, 18), date(2027, 1, 15)]  # the weekend ends the trip, its Friday starts it
    assert find_dates("a long weekend in january", TODAY)[0] == []  # which one is asked


def test_a_date_that_reads_one_way_says_how_the_others_read():
    assert [d.value for d in find_dates("12/01 to 18/01", TODAY)[0]] == [date(2027, 1, 12), date(2027, 1, 18)]
    assert [d.value for d in find_dates("1/5 - 1/19", TODAY, order="dmy")[0]] == [date(2027, 1, 5), date(2027, 1, 19)]
