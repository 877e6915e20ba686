"""``turn_execute``: a transient error in the TripIntent's save retries that transaction (with the
rows derived from it), and once the core has saved, one in the turn's end retries the end: never the turn."""

import pytest
from django.db import OperationalError

from trips.hosting import turns
from trips.models import AuditEvent, ChatMessage, Trip
from trips.services import intents
from trips.services.turns import turn_submit

pytestmark = pytest.mark.django_db(transaction=True)  # tools run in the core's worker threads

SCENARIO = "4 people going from Newark to Denver for 3 nights on January 30"


@pytest.fixture
def locked_once(monkeypatch):
    """``name`` (a step of the turn, in ``module``) fails once with "database is locked"."""

    def arm(module, name):
        real, calls = getattr(module, name), []

        def flaky(**kwargs):
            calls.append(kwargs)
            if len(calls) == 1:
                raise OperationalError("database is locked")
            return real(**kwargs)

        monkeypatch.setattr(module, name, flaky)
        return calls

    return arm


@pytest.mark.parametrize("module, step", [(turns, "turn_complete"), (intents, "gathered_flush")])
def test_a_transient_error_in_the_turns_last_writes_applies_the_turn_once(
    trip, traveller, frozen, locked_once, module, step
):
    calls = locked_once(module, step)
    message = turn_submit(trip=trip, user=traveller, text=SCENARIO)

    assert len(calls) == 2, "the failed step ran again"
    assert ChatMessage.objects.get(pk=message.pk).turn_status == ChatMessage.TurnStatus.DONE
    assert Trip.objects.get(pk=trip.pk).version == 1, "the core ran once"
    assert ChatMessage.objects.filter(trip=trip, widget__type="bundles").count() == 1
    assert AuditEvent.objects.filter(trip=trip, type="turn.started").count() == 1
    assert AuditEvent.objects.filter(trip=trip, type="turn.completed").count() == 1
