"""The beat's sweep re-sends turns whose task was lost (a whole worker died holding it)."""

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from trips.models import ChatMessage, Trip
from trips.services.chat import chat_message_add
from trips.services.turns import turns_stalled
from trips.tasks.turns import turns_sweep

pytestmark = pytest.mark.django_db

AFTER = timedelta(minutes=2)


def queued(trip, *, age: timedelta, status=ChatMessage.TurnStatus.QUEUED) -> ChatMessage:
    with transaction.atomic():
        message = chat_message_add(
            trip_id=trip.pk,
            role="user",
            text="hi",
            event={"type": "USER_MESSAGE", "data": {"text": "hi"}},
            turn_status=status,
        )
    ChatMessage.objects.filter(pk=message.pk).update(created_at=timezone.now() - age)
    return message


def test_only_turns_queued_too_long_on_a_trip_nobody_leases_are_stalled(trip, traveller):
    now = timezone.now()
    queued(trip, age=timedelta(seconds=30))
    assert turns_stalled(now=now, after=AFTER) == {}, "a fresh turn is waiting its turn, not lost"
    old = queued(trip, age=timedelta(minutes=5))
    queued(trip, age=timedelta(minutes=9), status=ChatMessage.TurnStatus.DONE)
    assert turns_stalled(now=now, after=AFTER) == {trip.pk: old.pk}

    Trip.objects.filter(pk=trip.pk).update(turn_lease_until=now + timedelta(seconds=60))
    assert turns_stalled(now=now, after=AFTER) == {}, "a worker is running the trip's turns"
    Trip.objects.filter(pk=trip.pk).update(turn_lease_until=now - timedelta(seconds=1))
    assert turns_stalled(now=now, after=AFTER) == {trip.pk: old.pk}, "an expired lease is nobody's"


def test_the_sweep_sends_one_task_per_stalled_trip(trip, traveller, settings, monkeypatch):
    settings.TRIPDESK = {**settings.TRIPDESK, "TURN_SWEEP_AFTER_SECONDS": 120}
    sent = []
    monkeypatch.setattr("trips.tasks.turns.run_turn.delay", lambda *args: sent.append(args))
    queued(trip, age=timedelta(minutes=5))
    latest = queued(trip, age=timedelta(minutes=4))
    assert turns_sweep.apply().get() == 1
    assert sent == [(trip.pk, latest.pk)], "one task runs all the trip's queued turns"
