"""One record: the hold, approval and booking rows are derived from the TripIntent in the transaction that saves it."""

import pytest

from trips.models import ApprovalRequest, AuditEvent, ChatMessage, Hold, Trip
from trips.services import intents
from trips.services.batch import TurnWrites, atomic_with
from trips.services.chat import chat_message_add
from trips.services.intents import trip_intent_save

from .helpers import NOW, held_intent


def test_saving_a_held_trip_intent_writes_its_holds_and_approval_with_it(trip):
    trip_intent_save(trip=trip, doc=held_intent(trip.intent, now=NOW), expected_version=0, now=NOW)

    assert Trip.objects.get(pk=trip.pk).version == 1
    assert set(Hold.objects.filter(trip=trip).values_list("hold_id", "status")) == {
        ("hld_f1", "held"),
        ("hld_h1", "held"),
    }
    assert ApprovalRequest.objects.get(trip=trip).status == ApprovalRequest.Status.PENDING
    assert AuditEvent.objects.filter(trip=trip, type="hold.created").count() == 2
    assert ChatMessage.objects.filter(trip=trip, widget__type="approval").count() == 1


def test_rows_that_cannot_be_derived_leave_the_trip_intent_unsaved(trip, monkeypatch):
    def broken(**kwargs):
        raise RuntimeError("derivation failed")

    monkeypatch.setattr(intents, "holds_follow", broken)
    with pytest.raises(RuntimeError):
        trip_intent_save(trip=trip, doc=held_intent(trip.intent, now=NOW), expected_version=0, now=NOW)

    assert Trip.objects.get(pk=trip.pk).version == 0, "the TripIntent and its rows commit together or not at all"
    assert not Hold.objects.filter(trip=trip).exists()


def test_in_a_turn_the_approval_card_follows_the_answer_printed_after_the_save(trip):
    writes = TurnWrites()
    trip_intent_save(trip=trip, doc=held_intent(trip.intent, now=NOW), expected_version=0, writes=writes, now=NOW)
    assert ApprovalRequest.objects.filter(trip=trip).exists(), "the request is opened with the save"
    assert not ChatMessage.objects.filter(trip=trip, widget__type="approval").exists(), "its card waits"

    writes.add(lambda: chat_message_add(trip_id=trip.pk, role="assistant", text="Held both."))
    with atomic_with(writes):
        pass
    said = list(ChatMessage.objects.filter(trip=trip).order_by("seq").values_list("text", "widget__type"))
    assert said[0] == ("Held both.", None) and said[1][1] == "approval", said
