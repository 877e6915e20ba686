"""``turn_execute``: once the core has saved, a transient error retries the completion, not the turn."""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from django.db import OperationalError

from handlers.common.clock import FrozenClock
from trips.hosting import runner
from trips.models import AuditEvent, ChatMessage, Trip
from trips.services.turns import turn_submit

pytestmark = pytest.mark.django_db(transaction=True)  # tools run in the core's worker threads

SCENARIO = "4 people going from Newark to Denver for 3 nights on January 30"


@pytest.fixture
def frozen(monkeypatch):
    clock = FrozenClock(datetime(2026, 12, 1, 9, 0, tzinfo=ZoneInfo("America/New_York")))
    monkeypatch.setattr("trips.hosting.runner.timezone.now", clock)
    return clock


@pytest.fixture
def locked_once(monkeypatch):
    """``name`` (a step ``turn_execute`` calls after the core) fails once with "database is locked"."""

    def arm(name):
        real, calls = getattr(runner, name), []

        def flaky(**kwargs):
            calls.append(kwargs)
            if len(calls) == 1:
                raise OperationalError("database is locked")
            return real(**kwargs)

        monkeypatch.setattr(runner, name, flaky)
        return calls

    return arm


@pytest.mark.parametrize("step", ["turn_complete", "holds_sync"])
def test_a_transient_error_after_the_core_saved_applies_the_turn_once(trip, traveller, frozen, locked_once, step):
    calls = locked_once(step)
    message = turn_submit(trip=trip, user=traveller, text=SCENARIO)

    assert len(calls) == 2, "the failed step ran again"
    assert ChatMessage.objects.get(pk=message.pk).turn_status == ChatMessage.TurnStatus.DONE
    assert Trip.objects.get(pk=trip.pk).version == 1, "the core ran once"
    assert ChatMessage.objects.filter(trip=trip, widget__type="bundles").count() == 1
    assert AuditEvent.objects.filter(trip=trip, type="turn.started").count() == 1
    assert AuditEvent.objects.filter(trip=trip, type="turn.completed").count() == 1
