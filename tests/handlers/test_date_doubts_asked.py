"""A date that could be two days is asked by naming both, never by a generic "When do you leave?"."""

from handlers.testing import Harness


def texts(turn):
    return [m.get("text") or "" for m in turn.get("ui_messages") or []]


def test_a_numeric_date_with_no_locale_to_tell_is_asked_by_its_two_readings():
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.org["locale"] = "en"  # no region: 03/04 could be March 4 or April 3
    turn = h.say("Boston to Miami 03/04 - 03/09 for 1")
    asked = h.intent()["status"]["pending_question"]
    assert asked["slots"][:2] == ["depart_date", "return_date"]
    assert 'Do you mean Thu Mar 4 or Sat Apr 3 by "03/04"?' in asked["text"]
    assert 'Do you mean Tue Mar 9 or Fri Sep 3 by "03/09"?' in asked["text"]
    assert asked["text"] in texts(turn)
    h.say("April 3rd")
    assert h.intent()["itinerary"]["segments"][0]["depart_date"] == "2027-04-03"


def asked_after(text):
    """The harness after a first message, and the question it asked."""
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say(text)
    return h, h.intent()["status"]["pending_question"]


def test_a_weekday_that_does_not_match_its_date_is_asked_by_both_days():
    _, asked = asked_after("Boston to Denver Tuesday Feb 3 back Feb 7, 1 adult")
    assert asked["slots"][0] == "depart_date"
    assert asked["text"].startswith('Do you mean Tue Feb 2 or Wed Feb 3 by "Tuesday Feb 3"?')


def test_an_unambiguous_date_is_not_asked():
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say("Boston to Miami 03/14 - 03/19 for 1")
    assert h.intent()["itinerary"]["segments"][0]["depart_date"] == "2027-03-14"


def _harness(locale=None):
    h = Harness(today="2026-12-01", tz="America/New_York")
    if locale:
        h.org["locale"] = locale
    return h


def _asked(h):
    return h.intent()["status"]["pending_question"]


def _dates(h):
    segments = h.intent()["itinerary"]["segments"]
    return [s.get("depart_date") for s in segments]


def test_a_second_date_in_doubt_is_still_asked_by_its_readings_after_the_first_is_answered():
    h = _harness("en")
    h.say("Seattle to Austin 03/04 - 05/06, 2 adults")
    h.say("March 4")
    asked = _asked(h)
    assert asked["slots"] == ["return_date"]
    assert asked["text"] == 'Do you mean Thu May 6 or Sat Jun 5 by "05/06"?'
    h.say("the latter")
    assert _dates(h) == ["2027-03-04", "2027-06-05"]


def test_a_reading_the_start_rules_out_is_not_offered_again():
    h = _harness("en")
    h.say("Boston to Miami 03/04 - 03/09 for 1")
    h.say("April 3rd")  # so "03/09" can no longer be March 9
    assert _asked(h)["text"].startswith('Do you mean Fri Sep 3 by "03/09"? That is 153 nights after Sat Apr 3.')


def test_the_first_or_second_reading_answers_every_date_asked_that_way():
    h = _harness("en")
    h.say("Boston to Miami 03/04 - 03/09 for 1")
    h.say("the first one")  # month first, both
    assert _dates(h) == ["2027-03-04", "2027-03-09"]


def test_a_month_or_weekday_that_only_one_reading_has_answers_it():
    for answer in ("February", "the wednesday"):
        h = _harness("en")
        h.say("Denver to Phoenix 02/03 - 02/15, just me")
        asked = _asked(h)
        assert asked["slots"] == ["depart_date"], asked  # the 15th is the return, the doubt the departure
        h.say(answer)
        assert _dates(h) == ["2027-02-03", "2027-02-15"], answer


def test_numeric_dates_that_make_a_trip_of_months_are_asked_in_the_us_and_elsewhere():
    h = _harness("en-US")
    turn = h.say("Boston to Miami 03/04 returning 05/06 for 1")
    asked = _asked(h)
    assert asked["slots"] == ["return_date"]
    assert asked["text"] == (
        'Do you mean Thu May 6 by "05/06"? That is 63 nights after Thu Mar 4. Say "yes" or the day you come back.'
    )
    assert asked["text"] in texts(turn)
    assert h.intent()["working_memory"]["hotel_quotes"] == []  # nothing searched for a 63-night stay
    h.say("yes")
    assert _dates(h) == ["2027-03-04", "2027-05-06"]

    h = _harness("en-GB")
    h.say("London to Rome 01/02 back 03/04 for two")
    assert _asked(h)["text"].startswith('Do you mean Sat Apr 3 by "03/04"? That is 61 nights after Mon Feb 1.')
    h.say("I meant 03/02")
    assert _dates(h) == ["2027-02-01", "2027-02-03"]


def test_a_long_trip_written_out_or_short_numeric_dates_are_taken_as_written():
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say("Boston to Lisbon March 4 returning May 6 for 1")
    assert _dates(h) == ["2027-03-04", "2027-05-06"]
    h = _harness("en-US")
    h.say("from dallas to atlanta 3/4 to 3/8, 2 people")
    assert _dates(h) == ["2027-03-04", "2027-03-08"]


def test_a_hotel_stay_of_months_from_numeric_dates_is_asked_by_its_check_out():
    h = _harness("en-US")
    h.say("just a room in Austin 02/03 - 04/05 for 2, I'm driving")
    asked = _asked(h)
    assert asked["slots"] == ["check_out"]
    assert "61 nights after Wed Feb 3" in asked["text"] and "the day you check out" in asked["text"]
    h.say("Feb 6")
    stay = h.intent()["itinerary"]["lodging"]["stays"][0]
    assert (stay["check_in"], stay["check_out"]) == ("2027-02-03", "2027-02-06")


def test_the_way_out_to_a_game_with_only_the_way_back_said_is_asked_by_the_day_before_and_its_day():
    h, asked = asked_after("going to a hockey game in boston jan 9, back the 10th, from philly, 2 of us")
    assert asked["slots"][0] == "depart_date"
    assert asked["text"].startswith("Do you fly out Fri Jan 8, the day before your game, or Sat Jan 9, its day?")
    h.say("the day before")
    assert h.intent()["itinerary"]["segments"][0]["depart_date"] == "2027-01-08"


def test_the_game_day_answers_the_question_about_the_game():
    h, _ = asked_after("concert in denver jan 9, back the 10th, from dallas, 2 adults")
    h.say("same day")
    assert h.intent()["itinerary"]["segments"][0]["depart_date"] == "2027-01-09"
