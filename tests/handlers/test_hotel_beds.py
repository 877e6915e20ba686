"""The beds wished in a room ("2 queens", "a king bed"): read, kept with the hotel wishes, said back,
and (as no search filters beds) the rooms that have them ranked first. Sentences here are not in the
phrasing evaluation."""

import pytest

from handlers.common.beds import beds_fit, beds_words
from handlers.extract.prefs import read_beds
from handlers.testing import Harness


@pytest.mark.parametrize(
    ("text", "wish"),
    [
        ("need 2 queens", "2 queen"),
        ("a king bed please", "king"),
        ("room with two double beds", "2 double"),
        ("2 adults 1 kid, one king", "king"),
        ("a king size bed", "king"),
        ("twin beds", "2 twin"),
        ("2 beds please", "2 beds"),
        ("separate beds", "2 beds"),
        ("full size bed", "double"),
        ("queen bed", "queen"),
    ],
)
def test_beds_wished_are_read(text, wish):
    assert read_beds(text) == wish


@pytest.mark.parametrize(
    "text", ["martin luther king blvd", "the queen mary", "staying near king street", "a double room", "queens, ny"]
)
def test_kings_and_queens_that_are_no_beds_are_no_wish(text):
    assert read_beds(text) is None


@pytest.mark.parametrize(
    ("wish", "beds", "fits"),
    [
        ("king", "1 king bed", True),
        ("king", "1 queen bed", False),
        ("2 queen", "2 queen beds", True),
        ("2 queen", "2 twin beds", False),
        ("2 double", "2 queen beds", True),
        ("2 beds", "2 twin beds", True),
        ("2 beds", "1 king bed", False),
        ("king", None, False),
        (None, "1 king bed", True),
    ],
)
def test_a_room_fits_the_beds_wished(wish, beds, fits):
    assert beds_fit(wish, beds) is fits


def test_the_wish_in_words():
    assert [beds_words(w) for w in ("king", "2 queen", "2 beds")] == ["a king bed", "2 queen beds", "2 beds"]


@pytest.mark.parametrize(
    ("text", "wish", "fits"),
    [
        ("dallas to phoenix feb 2-5, king bed if possible, 2 adults", "king", "1 king bed"),
        ("hotel in boston jan 3 to 5 for 2 adults and 2 kids (5, 8), 2 queen beds please", "2 queen", "2 queen beds"),
        ("nyc to chicago jan 4-6 for 2, two twin beds", "2 twin", "2 twin beds"),
    ],
)
def test_the_rooms_with_the_beds_wished_are_ranked_or_shown_and_the_wish_is_said_back(text, wish, fits):
    """The best overall has the beds wished, or (when they cost much more) an option of its own does."""
    h = Harness()
    h.say(text)
    doc = h.intent()
    assert doc["preferences"]["hotel"]["beds"] == wish
    bundles = doc["working_memory"]["ranked_bundles"]
    beds = [b["hotels"][0]["summary"]["beds"] for b in bundles]
    labels = [b["label"] for b, bed in zip(bundles, beds, strict=True) if bed == fits]
    assert beds[0] == fits or "Your beds" in labels, (beds, labels)
    [summary] = h.widgets("trip_summary")
    assert beds_words(wish) in str(summary)


@pytest.mark.parametrize(
    ("text", "rooms"),
    [
        ("hotel in orlando dec 19-23 for 4 of us, need 2 queens", 1),  # two big beds sleep four
        ("phx to vegas march 5-8, me + 3 buddies, two double beds", 1),
        ("hotel in orlando dec 19-23 for 4 adults", 2),  # two to a room unless told
        ("hotel in orlando dec 19-23 for 4 adults, 2 twin beds", 2),  # twin beds sleep one each
    ],
)
def test_two_big_beds_wished_put_up_to_four_in_one_room(text, rooms):
    h = Harness()
    h.say(text)
    assert h.intent()["itinerary"]["lodging"]["stays"][0]["rooms"] == rooms
