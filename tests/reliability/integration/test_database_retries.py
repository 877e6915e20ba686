"""PostgreSQL serialization failures and deadlocks during a turn are retried, not surfaced.

PostgreSQL itself raises the error, once, at a chosen statement: a trigger whose first firing
(a sequence, so the count survives the aborted transaction) raises the SQLSTATE a real conflict
would (``40001`` serialization_failure, ``40P01`` deadlock_detected). It goes through psycopg,
Django and the real Celery worker like the real thing. A second test provokes a genuine deadlock
(a lock-order inversion between two transactions) to show what the services see is that SQLSTATE.
"""

import threading

import pytest
from django.db import OperationalError, connection, connections, transaction

from tests.integration.conftest import wait_until
from trips.models import AuditEvent, ChatMessage, Trip
from trips.services.turns import turn_submit

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

SCENARIO = "2 adults from Boston to Miami, out March 11 back March 16"
FIRE_ONCE = """
CREATE OR REPLACE FUNCTION reliability_fail_once() RETURNS trigger AS $$
BEGIN
  IF nextval(TG_ARGV[0]::regclass) = 1 THEN
    RAISE EXCEPTION 'reliability test: % at %', TG_ARGV[1], TG_TABLE_NAME USING ERRCODE = TG_ARGV[1];
  END IF;
  RETURN NEW;
END $$ LANGUAGE plpgsql;
"""
# Where to fail: the lease taken by ``turn_claim`` (before the core runs), and the
# ``turn.completed`` audit row written by ``turn_complete`` (after the core saved its result).
POINTS = {
    "claim": ("trips_trip", "BEFORE UPDATE", "NEW.turn_lease_until IS NOT NULL AND OLD.turn_lease_until IS NULL"),
    "complete": ("trips_auditevent", "BEFORE INSERT", "NEW.type = 'turn.completed'"),
}


@pytest.fixture
def fail_once():
    """``fail_once(point, sqlstate)``: the next statement at ``point`` fails with ``sqlstate``, once."""
    made = []

    def arm(point: str, sqlstate: str) -> None:
        table, when, condition = POINTS[point]
        name = f"reliability_{point}_{sqlstate}"
        with connection.cursor() as cursor:
            cursor.execute(FIRE_ONCE)
            cursor.execute(f"CREATE SEQUENCE {name}")
            cursor.execute(
                f"CREATE TRIGGER {name} {when} ON {table} FOR EACH ROW WHEN ({condition}) "
                f"EXECUTE FUNCTION reliability_fail_once('{name}', '{sqlstate}')"
            )
        made.append((name, table))

    yield arm
    with connection.cursor() as cursor:
        for name, table in made:
            cursor.execute(f"DROP TRIGGER IF EXISTS {name} ON {table}")
            cursor.execute(f"DROP SEQUENCE IF EXISTS {name}")


def fired(point: str, sqlstate: str) -> bool:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT last_value, is_called FROM reliability_{point}_{sqlstate}")
        return cursor.fetchone()[1]


def turn_done(message):
    return lambda: ChatMessage.objects.get(pk=message.pk).turn_status != ChatMessage.TurnStatus.QUEUED


def assert_applied_once(trip, message):
    assert ChatMessage.objects.get(pk=message.pk).turn_status == ChatMessage.TurnStatus.DONE
    trip.refresh_from_db()
    assert trip.version == 1, "the core's result was saved once"
    assert ChatMessage.objects.filter(trip=trip, widget__type="bundles").count() == 1
    assert not ChatMessage.objects.filter(trip=trip, kind=ChatMessage.Kind.ERROR).exists(), "nothing surfaced"
    assert AuditEvent.objects.filter(trip=trip, type="turn.completed").count() == 1
    assert not AuditEvent.objects.filter(trip=trip, type="turn.failed").exists()


@pytest.mark.parametrize("sqlstate", ["40001", "40P01"])
def test_a_conflict_before_the_core_runs_is_retried(celery_worker_process, fail_once, trip, traveller, sqlstate):
    fail_once("claim", sqlstate)
    message = turn_submit(trip=trip, user=traveller, text=SCENARIO)
    wait_until(turn_done(message), timeout=90, what="the retried turn")
    assert fired("claim", sqlstate)
    assert_applied_once(trip, message)


@pytest.mark.parametrize("sqlstate", ["40001", "40P01"])
def test_a_conflict_after_the_core_saved_is_retried_without_running_it_twice(
    celery_worker_process, fail_once, trip, traveller, sqlstate
):
    fail_once("complete", sqlstate)
    message = turn_submit(trip=trip, user=traveller, text=SCENARIO)
    wait_until(turn_done(message), timeout=90, what="the retried turn")
    wait_until(
        lambda: AuditEvent.objects.filter(trip=trip, type="turn.completed").exists(), timeout=30, what="the completion"
    )
    assert fired("complete", sqlstate)
    assert_applied_once(trip, message)


def test_a_real_lock_order_inversion_raises_the_deadlock_sqlstate_the_tasks_retry(trip, traveller):
    """Two transactions lock the trip and its first message in opposite orders: PostgreSQL aborts
    one with 40P01, which ``run_turn`` classifies as transient (so it is retried, as above)."""
    from trips.services.chat import chat_message_create
    from trips.tasks.turns import is_transient

    # A message that queues no turn: a worker running one would lock the same two rows and could
    # sit between the two threads (holding the message, waiting for the trip) past the barrier.
    message = chat_message_create(trip_id=trip.pk, message={"text": "hello"})
    both_hold_one, errors = threading.Barrier(2), []

    def lock(first, second):
        try:
            with transaction.atomic():
                first.objects.select_for_update().get(pk=trip.pk if first is Trip else message.pk)
                both_hold_one.wait(timeout=10)
                second.objects.select_for_update().get(pk=trip.pk if second is Trip else message.pk)
        except OperationalError as exc:
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=lock, args=order) for order in ((Trip, ChatMessage), (ChatMessage, Trip))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert len(errors) == 1, errors
    assert errors[0].__cause__.sqlstate == "40P01" and is_transient(errors[0])
