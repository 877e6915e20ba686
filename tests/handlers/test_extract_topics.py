"""Conversations that cover other errands before the trip (handlers/extract/topics.py): a rental
car, a bus, an event or the weather changes nothing in the trip, and "a flight there" / "a hotel
there" afterwards means the place those errands were about, from where the traveller starts."""

from datetime import date

from handlers.extract import extract_fields
from handlers.extract.topics import conversation_places, message_topic, points_there

TODAY = date(2027, 3, 1)


def talk(*lines):
    """Alternating traveller / other-assistant lines, the traveller first."""
    return [{"role": "user" if i % 2 == 0 else "assistant", "content": t} for i, t in enumerate(lines)]


def read(text, conversation=(), current=None, pending=None):
    told = []
    fields, _ = extract_fields(
        text=text,
        today=TODAY,
        current=current or {},
        conversation=list(conversation),
        pending_question=pending,
        assumptions=told,
    )
    return fields, told


def code(place):
    return place["code"] if place else None


CAR_THEN_BUS = talk(
    "I need a rental car in Denver from the 8th",
    "What time will you pick it up?",
    "around noon",
    "A compact Corolla is ready at Denver Union Station on March 8th.",
    "Great. Can you find me a bus to get there? I'm coming from Omaha.",
    "There is a bus leaving at 7:10 am for $45.",
)


def test_errand_messages_change_no_trip_field_but_keep_the_party():
    fields, _ = read("Two bus tickets from Omaha to Denver on the 8th please", CAR_THEN_BUS[:4])
    assert (fields["origin"], fields["destination"], fields["depart_date"]) == (None, None, None)
    assert fields["adults"] == 2


def test_an_answer_to_the_errand_question_stays_with_the_errand():
    conversation = talk("I want to rent a car", "Where will you pick it up, and when?")
    fields, _ = read("Boise, on the 4th", conversation, pending={"text": "Where will you pick it up, and when?"})
    assert (fields["origin"], fields["destination"], fields["depart_date"]) == (None, None, None)


def test_a_flight_there_goes_where_the_errands_were_from_where_the_bus_leaves():
    fields, told = read("No thanks. What about a one way flight there on the 7th?", CAR_THEN_BUS)
    assert (code(fields["destination"]), code(fields["origin"])) == ("DEN", "OMA")
    assert fields["depart_date"] == "2027-03-07"
    assert any("Omaha" in line for line in told)  # the borrowed origin is told, not silent


def test_a_hotel_after_an_event_is_in_the_city_the_traveller_named_not_the_venue():
    conversation = talk(
        "Any concerts in Phoenix next week?",
        "Anberlin plays on March 10th at 7:30 pm at The Van Buren.",
        "Nice, maybe later.",
        "Anything else?",
    )
    fields, _ = read("Could you find me a 3 star hotel in the area?", conversation)
    assert code(fields["stays"][0]["location"]) == "PHX"


def test_a_trip_clause_beside_an_errand_is_still_the_trip():
    assert message_topic("LA to Seattle Feb 1-3 for 2. Is there a train from there to Vancouver?", None, []) == "trip"
    assert message_topic("I'll take the bus to Providence, but book me NYC to Boston Feb 3", None, []) == "trip"
    assert message_topic("I'd like a bus ticket. I'm going to San Diego next Friday.", None, []) == "ground"
    assert message_topic("Los Angeles to Denver", {"slots": ["origin"], "text": "Where from?"}, CAR_THEN_BUS) == "trip"


def test_is_there_is_not_a_place():
    assert not points_there("Is there a hotel with a pool?")
    assert not points_there("there are 4 of us")
    assert points_there("a hotel there please")
    fields, _ = read("Is there free wifi?", talk("hotels in Miami please", "The Hyatt has 4 stars."))
    assert fields["stays"] is None


def test_conversation_places_prefers_the_travellers_words():
    ctx = conversation_places(talk("music events in New York?", "Amber Run plays at Warsaw on March 11th."))
    assert code(ctx.area) == "NYC" and ctx.from_errand


def test_an_event_beside_a_route_is_the_trip():
    assert message_topic("trade show in vegas, leaving from orlando jan 19, back the 22nd", None, []) == "trip"
    assert message_topic("going to a hockey game in boston from philly jan 9", None, []) == "trip"
    assert message_topic("rental car from LAX to San Diego jan 5", None, []) == "other"  # the car's route
    assert message_topic("any concerts in denver on jan 12? i'm in boulder", None, []) == "other"  # where they are
