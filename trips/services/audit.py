"""The audit trail: one append-only, gap-free sequence of events per trip."""

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Optional

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from handlers.common.redact import redact
from trips.models import AccountEvent, AuditEvent, Trip


def actor_for(user: Optional[AbstractBaseUser]) -> str:
    """How the audit names a person: ``user:<id>`` (``system`` when nobody is signed in)."""
    return f"user:{user.pk}" if user is not None and user.pk is not None else "system"


def audit_record(
    *,
    trip_id: int,
    type: str,
    actor: str,
    payload: Optional[dict[str, Any]] = None,
    causation_id: str = "",
    actor_user: Optional[AbstractBaseUser] = None,
    seq: Optional[int] = None,
    redacted: bool = False,
) -> AuditEvent:
    """Append an event to the trip's trail, inside the caller's transaction.

    The next ``seq`` comes from ``Trip.last_event_seq`` (``counter_next``): the trip's row
    stays locked until the caller commits, so concurrent writers queue up and a rolled-back
    write takes its number with it — the sequence has no gaps and no duplicates. ``seq``: the
    number the caller took (``Trip.objects.counters_next``, with the chat's in the same statement).
    ``redacted``: the payload was redacted where it was made (the core's events, ``Runner.audit``),
    so it is stored as it is instead of being walked a second time.
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("audit_record() must run inside the transaction of the write it records")
    event = AuditEvent(
        trip_id=trip_id,
        type=type,
        actor=actor,
        actor_user=actor_user,
        causation_id=causation_id,
        payload=(payload or {}) if redacted else redact(payload or {}),
    )
    buffered = _buffer.get()
    if buffered is not None and seq is None:
        buffered.append(event)  # numbered and stored when the buffer closes
        return event
    event.seq = seq if seq is not None else Trip.objects.counter_next(trip_id=trip_id, field="last_event_seq")
    event.save(force_insert=True)
    return event


_buffer: ContextVar[Optional[list[AuditEvent]]] = ContextVar("audit_buffer", default=None)


@contextmanager
def audit_gathered() -> Iterator[Optional[list[AuditEvent]]]:
    """Gather the events ``audit_record`` records inside into the list yielded (None: a buffer
    already open gathers them); ``audit_events_store`` stores them."""
    if _buffer.get() is not None:
        yield None
        return
    events: list[AuditEvent] = []
    token = _buffer.set(events)
    try:
        yield events
    finally:
        _buffer.reset(token)


def audit_gathered_open() -> Optional[list[AuditEvent]]:
    """The list the open ``audit_gathered`` collects into (None outside one)."""
    return _buffer.get()


def audit_events_store(events: list[AuditEvent], *, last_seq: dict[int, int]) -> None:
    """Number gathered events (``last_seq``: per trip the last number of the block taken for them) and
    insert them in one statement."""
    taken = {
        trip_id: last - sum(1 for event in events if event.trip_id == trip_id) for trip_id, last in last_seq.items()
    }
    for event in events:
        taken[event.trip_id] += 1
        event.seq = taken[event.trip_id]
    if events:
        AuditEvent.objects.bulk_create(events)


def per_trip(rows: list[Any]) -> dict[int, int]:
    """How many of ``rows`` (audit events, chat messages) each trip has."""
    counts: dict[int, int] = {}
    for row in rows:
        counts[row.trip_id] = counts.get(row.trip_id, 0) + 1
    return counts


@contextmanager
def audit_buffer() -> Iterator[None]:
    """Gather the events ``audit_record`` records inside, then store them in order: per trip one
    ``UPDATE … RETURNING`` for the block of numbers and one INSERT. Inside the caller's transaction;
    a buffer already open gathers for both."""
    with audit_gathered() as events:
        yield
    if events:
        last_seq = {
            trip_id: Trip.objects.counter_next(trip_id=trip_id, field="last_event_seq", by=n)
            for trip_id, n in per_trip(events).items()
        }
        audit_events_store(events, last_seq=last_seq)


def audit_event_create(
    *,
    trip_id: int,
    type: str,
    actor: str,
    payload: Optional[dict[str, Any]] = None,
    causation_id: str = "",
    actor_user: Optional[AbstractBaseUser] = None,
) -> AuditEvent:
    """Record an event that is itself the write (a refusal, an LLM retry …) in its own transaction."""
    with transaction.atomic(durable=True):
        return audit_record(
            trip_id=trip_id, type=type, actor=actor, payload=payload, causation_id=causation_id, actor_user=actor_user
        )


def account_audit_record(
    *, user: AbstractBaseUser, type: str, actor: str, payload: Optional[dict[str, Any]] = None
) -> AccountEvent:
    """Record a change to ``user``'s own data (profile, companions, erasure) inside the caller's
    transaction. The payload names fields and counts: personal values never belong in it."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("account_audit_record() must run inside the transaction of the write it records")
    return AccountEvent.objects.create(user=user, type=type, actor=actor, payload=redact(payload or {}))
