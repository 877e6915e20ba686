"""A turn's queued writes: stored by the next transaction, in order, and kept when it fails."""

import pytest
from django.db import transaction

from trips.models import AuditEvent, ChatMessage, Trip
from trips.services.audit import audit_record
from trips.services.batch import TurnWrites, atomic_with
from trips.services.chat import broadcast_on_commit, chat_message_add


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


def test_a_flush_numbers_its_messages_and_events_in_one_statement_each_and_sends_one_batch(
    trip, django_assert_num_queries, django_capture_on_commit_callbacks, monkeypatch
):
    sent = []
    monkeypatch.setattr("trips.services.chat._frames_send_now", lambda frames: sent.append(list(frames)))
    writes = TurnWrites()
    for text in ("one", "two", "three"):
        queue_line(writes, trip, text)
        writes.add(
            lambda text=text: audit_record(trip_id=trip.pk, type="test.line", actor="worker", payload={"t": text})
        )
    before = Trip.objects.get(pk=trip.pk).last_event_seq
    with django_capture_on_commit_callbacks(execute=True):
        # savepoint, one UPDATE … RETURNING for both counters, INSERT messages, INSERT events, release
        with django_assert_num_queries(5):
            with atomic_with(writes, durable=False):
                broadcast_on_commit(trip.pk, {"type": "status"})  # leaves after the messages queued before it
    assert lines(trip) == ["one", "two", "three"]
    events = AuditEvent.objects.filter(trip=trip, type="test.line").order_by("seq")
    assert [e.payload["t"] for e in events] == ["one", "two", "three"]
    assert [e.seq for e in events] == [before + 1, before + 2, before + 3]
    assert len(sent) == 1, "one send for the whole transaction"
    assert [f.get("text", f["type"]) for _, f in sent[0]] == ["one", "two", "three", "status"]


def test_a_rolled_back_savepoint_takes_only_its_own_frames(trip, django_capture_on_commit_callbacks, monkeypatch):
    sent = []
    monkeypatch.setattr("trips.services.chat._frames_send_now", lambda frames: sent.extend(f for _, f in frames))
    with django_capture_on_commit_callbacks(execute=True):
        with transaction.atomic():
            broadcast_on_commit(trip.pk, {"type": "status", "n": 1})
            with pytest.raises(RuntimeError), transaction.atomic():
                broadcast_on_commit(trip.pk, {"type": "status", "n": 2})
                raise RuntimeError
            broadcast_on_commit(trip.pk, {"type": "status", "n": 3})
    assert [f["n"] for f in sent] == [1, 3]
