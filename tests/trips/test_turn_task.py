"""``run_turn``'s failure handling: transient database errors retry, then fail loudly and politely."""

import pytest
from django.db import OperationalError, transaction

from trips.models import AuditEvent, ChatMessage
from trips.services.chat import chat_message_add
from trips.tasks.turns import MAX_RETRIES, is_transient, run_turn


@pytest.fixture
def queued(trip):
    with transaction.atomic():
        return chat_message_add(
            trip_id=trip.pk,
            role="user",
            text="hi",
            event={"type": "USER_MESSAGE", "data": {"text": "hi"}},
            turn_status=ChatMessage.TurnStatus.QUEUED,
        )


def test_locked_database_is_transient_other_errors_are_not():
    assert is_transient(OperationalError("database is locked"))
    assert not is_transient(OperationalError("no such table: trips_trip"))


def test_a_transient_error_retries_then_fails_and_tells_the_traveller(trip, queued, monkeypatch):
    attempts = []

    def locked(*, trip_id):
        attempts.append(trip_id)
        raise OperationalError("database is locked")

    monkeypatch.setattr("trips.tasks.turns.turn_run", locked)
    run_turn.apply(args=[trip.pk, queued.pk])
    assert len(attempts) == MAX_RETRIES + 1
    assert ChatMessage.objects.get(pk=queued.pk).turn_status == ChatMessage.TurnStatus.FAILED
    error = ChatMessage.objects.filter(trip=trip, kind="error").get()
    assert error.widget["code"] == "turn_failed" and "send it again" in error.text
    assert AuditEvent.objects.get(trip=trip, type="turn.failed").payload["reason"] == "database: OperationalError"


def test_a_programming_error_is_not_swallowed(trip, queued, monkeypatch):
    def broken(*, trip_id):
        raise OperationalError("no such table: trips_trip")

    monkeypatch.setattr("trips.tasks.turns.turn_run", broken)
    with pytest.raises(OperationalError):
        run_turn.apply(args=[trip.pk, queued.pk]).get()
    assert ChatMessage.objects.get(pk=queued.pk).turn_status == ChatMessage.TurnStatus.QUEUED
