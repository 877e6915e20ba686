"""Turns on PostgreSQL + Redis + a real Celery worker: no lost update, no double turn, no seq gap."""

import threading

import pytest
from django.db import connection

from tests.factories import trip_make
from tests.integration.conftest import wait_until
from trips.models import AuditEvent, ChatMessage, ToolRun, Trip
from trips.services.audit import audit_event_create
from trips.services.turns import turn_submit

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def _in_threads(*jobs):
    """Run the jobs at the same moment, each on its own database connection."""
    barrier = threading.Barrier(len(jobs))
    errors = []

    def run(job):
        try:
            barrier.wait()
            job()
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors


def _turns_done(trip):
    return lambda: not ChatMessage.objects.filter(trip=trip, turn_status=ChatMessage.TurnStatus.QUEUED).exists()


def test_two_turns_at_once_lose_no_update(celery_worker_process, trip, traveller):
    _in_threads(
        lambda: turn_submit(trip=trip, user=traveller, text="I'm going to San Francisco"),
        lambda: turn_submit(trip=trip, user=traveller, text="from JFK"),
    )
    wait_until(_turns_done(trip), what="both turns")
    trip.refresh_from_db()
    assert trip.version == 2  # two saves, neither overwritten
    failures = list(ToolRun.objects.filter(trip=trip, status=ToolRun.Status.FAILED).values_list("tool", "error"))
    assert not failures
    (segment,) = trip.intent["itinerary"]["segments"]
    assert (segment["origin"]["code"], segment["destination"]["name"]) == ("JFK", "San Francisco")
    statuses = ChatMessage.objects.filter(trip=trip, role="user").values_list("turn_status", flat=True)
    assert list(statuses) == [ChatMessage.TurnStatus.DONE, ChatMessage.TurnStatus.DONE]
    assert AuditEvent.objects.filter(trip=trip, type="turn.completed").count() == 2


def test_a_turn_delivered_twice_applies_once(celery_worker_process, trip, traveller):
    from trips.tasks.turns import run_turn

    message = turn_submit(trip=trip, user=traveller, text="I'm going to San Francisco")
    run_turn.delay(trip.pk, message.pk)  # the broker redelivers…
    run_turn.delay(trip.pk, message.pk)  # …twice
    wait_until(_turns_done(trip), what="the turn")
    wait_until(lambda: celery_worker_process.poll() is None and _queue_idle(), what="the duplicates", timeout=30)
    trip.refresh_from_db()
    assert trip.version == 1
    assert AuditEvent.objects.filter(trip=trip, type="turn.started").count() == 1
    assert ChatMessage.objects.get(pk=message.pk).turn_status == ChatMessage.TurnStatus.DONE


def _queue_idle() -> bool:
    from tripdesk.celery import app

    inspect = app.control.inspect(timeout=1)
    active, reserved, scheduled = inspect.active() or {}, inspect.reserved() or {}, inspect.scheduled() or {}
    return not any(active.values()) and not any(reserved.values()) and not any(scheduled.values())


def test_audit_seq_is_gap_free_under_concurrency(celery_worker_process, traveller, acme):
    trips = [trip_make(owner=traveller, organisation=acme) for _ in range(3)]
    jobs = [
        lambda t=t, text=text: turn_submit(trip=t, user=traveller, text=text)
        for t in trips
        for text in ("I'm going to San Francisco", "from JFK")
    ]
    jobs += [
        lambda t=t: [audit_event_create(trip_id=t.pk, type="staff.note", actor="system") for _ in range(10)]
        for t in trips
        for _ in range(2)
    ]
    _in_threads(*jobs)
    for t in trips:
        wait_until(_turns_done(t), what=f"trip {t.pk}'s turns")
    for t in trips:
        seqs = list(AuditEvent.objects.filter(trip=t).order_by("seq").values_list("seq", flat=True))
        assert seqs == list(range(1, len(seqs) + 1))
        assert Trip.objects.get(pk=t.pk).last_event_seq == len(seqs)
        assert AuditEvent.objects.filter(trip=t, type="staff.note").count() == 20


def test_the_same_send_from_two_tabs_is_one_message(celery_worker_process, trip, traveller):
    sent = []
    _in_threads(
        *[lambda: sent.append(turn_submit(trip=trip, user=traveller, text="from JFK", client_id="tab-1").pk)] * 4
    )
    assert len(set(sent)) == 1
    wait_until(_turns_done(trip), what="the turn")
    assert ChatMessage.objects.filter(trip=trip, role="user").count() == 1
    assert AuditEvent.objects.filter(trip=trip, type="turn.started").count() == 1
