"""A turn's queued writes: stored by the next transaction, in order, and kept when it fails."""

import pytest

from trips.models import ChatMessage
from trips.services.batch import TurnWrites, atomic_with
from trips.services.chat import chat_message_add


def queue_line(writes, trip, text):
    writes.add(lambda: chat_message_add(trip_id=trip.pk, role="assistant", kind="progress", text=text))


def lines(trip):
    return list(ChatMessage.objects.filter(trip=trip, kind="progress").order_by("seq").values_list("text", flat=True))


def test_queued_writes_wait_for_the_next_transaction_and_keep_their_order(trip):
    writes = TurnWrites()
    queue_line(writes, trip, "one")
    queue_line(writes, trip, "two")
    assert lines(trip) == []

    with pytest.raises(RuntimeError):
        with atomic_with(writes):
            raise RuntimeError("the transaction fails after storing the queue")
    assert lines(trip) == [] and len(writes.pending) == 2  # rolled back, still queued

    queue_line(writes, trip, "three")
    with atomic_with(writes):
        pass
    assert lines(trip) == ["one", "two", "three"] and writes.pending == []

    with atomic_with(writes):  # nothing queued: stores nothing again
        pass
    assert lines(trip) == ["one", "two", "three"]


def test_no_queue_is_a_plain_transaction(trip):
    with atomic_with(None):
        chat_message_add(trip_id=trip.pk, role="assistant", kind="progress", text="alone")
    assert lines(trip) == ["alone"]
