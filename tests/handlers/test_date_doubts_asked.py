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


def test_a_weekday_that_does_not_match_its_date_is_asked_by_both_days():
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say("Boston to Denver Tuesday Feb 3 back Feb 7, 1 adult")
    asked = h.intent()["status"]["pending_question"]
    assert asked["slots"][0] == "depart_date"
    assert asked["text"].startswith('Do you mean Tue Feb 2 or Wed Feb 3 by "Tuesday Feb 3"?')


def test_an_unambiguous_date_is_not_asked():
    h = Harness(today="2026-12-01", tz="America/New_York")
    h.say("Boston to Miami 03/14 - 03/19 for 1")
    assert h.intent()["itinerary"]["segments"][0]["depart_date"] == "2027-03-14"
