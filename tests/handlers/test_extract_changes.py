"""Changes to a trip that has dates and places (handlers/extract/changes.py): relative shifts move
exactly the dates named, "X instead of Y" takes Y's slot, and places named for another purpose
(an event elsewhere, someone else's plans, a bus beside the flight) are not trip places."""

from datetime import date

import pytest

from handlers.extract import extract_fields

TODAY = date(2026, 12, 1)
TRIP = {
    "itinerary": {
        "trip_type": "round_trip",
        "segments": [
            {
                "segment_id": "seg_1",
                "origin": {"type": "city", "code": "SEA", "name": "Seattle"},
                "destination": {"type": "city", "code": "PHX", "name": "Phoenix"},
                "depart_date": "2027-03-09",
            },
            {
                "segment_id": "seg_2",
                "origin": {"type": "city", "code": "PHX", "name": "Phoenix"},
                "destination": {"type": "city", "code": "SEA", "name": "Seattle"},
                "depart_date": "2027-03-12",
            },
        ],
    }
}


def read(text, current=TRIP):
    fields, _ = extract_fields(text=text, today=TODAY, current=current)
    return fields


@pytest.mark.parametrize(
    ("text", "depart", "ret"),
    [
        ("can we fly back three days later", None, "2027-03-15"),
        ("depart a day earlier please", "2027-03-08", None),
        ("move the whole trip two days later", "2027-03-11", "2027-03-14"),
        ("bump it forward a day", "2027-03-08", "2027-03-11"),
        ("leave a day early", "2027-03-08", None),
        ("come back 2 days late", None, "2027-03-14"),
        ("can we shorten it by a day", None, "2027-03-11"),
        ("cut the trip short by 2 days", None, "2027-03-10"),
        ("make it a day longer", None, "2027-03-13"),
    ],
)
def test_relative_shifts_move_the_dates_named(text, depart, ret):
    f = read(text)
    assert (f["depart_date"], f["return_date"]) == (depart, ret)
    assert f["nights"] is None  # "three days" here is a shift, not a stay length


def test_a_shift_needs_a_trip_with_dates():
    assert read("a day later", current={})["depart_date"] is None


def test_x_instead_of_y_takes_ys_slot():
    f = read("Tucson instead of Phoenix")
    assert f["destination"]["code"] == "TUS" and f["origin"] is None
    f = read("from Portland Oregon instead of Seattle")
    assert f["origin"]["code"] == "PDX" and f["destination"] is None
    f = read("come back on the 14th instead of the 12th")
    assert f["return_date"] == "2027-03-14" and f["depart_date"] is None


@pytest.mark.parametrize(
    "text",
    [
        "the wedding used to be in Dallas",
        "my brother lives in Austin, he says it's warm",
    ],
)
def test_a_place_named_for_another_purpose_changes_nothing(text):
    f = read(text)
    assert f["origin"] is None and f["destination"] is None and not f["stays"]


def test_a_bus_beside_the_flight_is_not_the_destination():
    f = read("Seattle to Phoenix Mar 9-12, 1 adult, then a shuttle to Scottsdale", current={})
    assert (f["origin"]["code"], f["destination"]["code"]) == ("SEA", "PHX")


def test_a_bus_asked_on_its_own_is_an_errand_not_the_trip():
    # TripDesk books flights and hotels: a bus on its own changes no trip field (the conversation
    # keeps its places for a later "a flight there", see test_extract_topics.py)
    f = read("a bus from Fresno to Sacramento on March 3", current={})
    assert (f["origin"], f["destination"], f["depart_date"]) == (None, None, None)


@pytest.mark.parametrize(
    ("text", "depart", "ret"),
    [
        ("return on the 15th and add a night", None, "2027-03-15"),
        ("come back on the 14th, one more night", None, "2027-03-14"),
        ("return on the 15th and leave a day earlier", "2027-03-08", "2027-03-15"),
        ("add a night", None, "2027-03-13"),
        ("stay an extra 2 nights", None, "2027-03-14"),
        ("an additional night please", None, "2027-03-13"),
    ],
)
def test_a_return_day_said_beside_a_night_more_is_the_return(text, depart, ret):
    f = read(text)
    assert (f["depart_date"], f["return_date"]) == (depart, ret)
