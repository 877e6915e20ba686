"""The audit trail: one append-only, gap-free sequence of events per trip."""

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
) -> AuditEvent:
    """Append an event to the trip's trail, inside the caller's transaction.

    The next ``seq`` comes from ``Trip.last_event_seq`` (``counter_next``): the trip's row
    stays locked until the caller commits, so concurrent writers queue up and a rolled-back
    write takes its number with it — the sequence has no gaps and no duplicates.
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("audit_record() must run inside the transaction of the write it records")
    seq = Trip.objects.counter_next(trip_id=trip_id, field="last_event_seq")
    return AuditEvent.objects.create(
        trip_id=trip_id,
        seq=seq,
        type=type,
        actor=actor,
        actor_user=actor_user,
        causation_id=causation_id,
        payload=redact(payload or {}),
    )


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
