"""A Celery pool process SIGKILLed in the middle of a tool: the broker redelivers the turn, it
completes, and its result is applied once (one save, one set of bundles, one ``turn.completed``).

Needs ``acks_late`` (the message stays unacknowledged while the turn runs) and
``reject_on_worker_lost`` (a lost process puts it back instead of acknowledging it as failed).
"""

import os
import signal

import pytest

from tests.integration.conftest import wait_until
from trips.models import AuditEvent, ChatMessage, Trip
from trips.services.turns import turn_submit

from .conftest import service_env, worker_start, worker_stop

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

SCENARIO = "2 adults from Boston to Miami, out March 11 back March 16"


@pytest.fixture
def midtool(scale_out, own_queue, tmp_path):
    """A worker whose next flight search blocks; the directory where it says so."""
    from tripdesk.celery import app

    app.control.purge()
    marks = tmp_path / "marks"
    marks.mkdir()
    env = service_env(TRIPDESK_MIDTOOL_DIR=str(marks), TRIPDESK_TURN_LEASE_SECONDS="5")
    worker = worker_start(
        app="tests.reliability.integration.midtool_worker", log=tmp_path / "worker.log", env=env, queue=own_queue
    )
    try:
        yield marks
    finally:
        worker_stop(worker)
        print(f"\nworker log: {tmp_path / 'worker.log'}")


def test_a_turn_killed_mid_tool_completes_once_on_redelivery(midtool, trip, traveller):
    (midtool / "block-once").touch()
    message = turn_submit(trip=trip, user=traveller, text=SCENARIO)
    wait_until(lambda: (midtool / "in-tool").exists(), timeout=60, what="the turn to reach the flight search")
    os.kill(int((midtool / "in-tool").read_text()), signal.SIGKILL)

    wait_until(
        lambda: ChatMessage.objects.get(pk=message.pk).turn_status == ChatMessage.TurnStatus.DONE,
        timeout=60,
        what="the redelivered turn",
    )
    trip.refresh_from_db()
    assert trip.version == 1, "the turn's result was saved once"
    bundles = ChatMessage.objects.filter(trip=trip, widget__type="bundles")
    assert bundles.count() == 1
    completed = AuditEvent.objects.filter(trip=trip, type="turn.completed")
    assert completed.count() == 1 and not AuditEvent.objects.filter(trip=trip, type="turn.failed").exists()
    assert Trip.objects.get(pk=trip.pk).intent["working_memory"]["ranked_bundles"]
