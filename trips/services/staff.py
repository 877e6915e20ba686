"""Audited staff actions from the back office: each needs a reason and the matching permission.

``actor`` is the staff member (checked: permission and organisation); only ``trip_flag``
also accepts ``None``, for the system flagging a trip itself (a purchase that failed half
way). The reason goes into the audit trail; flagging marks the trip for attention, a retry re-runs
the trip's turn with ``USER_RETRY`` (as if the traveller pressed "try again"), and releasing
hands the live holds to the hold service, which releases them at the supplier.
"""

from typing import Any, Optional

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from trips.access import require
from trips.models import ChatMessage, Hold, ToolRun, Trip

from .audit import audit_record
from .chat import chat_message_add
from .dispatch import turn_enqueue_on_commit
from .holds import holds_release


def _check(*, actor: AbstractBaseUser, trip_id: int, permission: str, reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError("Give a reason: it goes into the audit trail.")
    organisation_id = Trip.objects.filter(pk=trip_id).values_list("organisation_id", flat=True).first()
    if organisation_id is None:
        raise PermissionDenied("no such trip")
    require(
        actor,
        permission,
        organisation_id=organisation_id,
        refusal=f"missing permission {permission} in this trip's organisation",
    )
    return reason


def trip_flag(*, trip: Trip, actor: Optional[AbstractBaseUser], reason: str) -> Trip:
    """Flag the trip for attention (a filter and a column in the back office's list)."""
    if actor is not None:
        reason = _check(actor=actor, trip_id=trip.pk, permission="trips.flag_trip", reason=reason)
    with transaction.atomic(durable=True):
        trip = Trip.objects.select_for_update().get(pk=trip.pk)
        trip_flagged(trip=trip, actor=actor, reason=reason)
    return trip


def trip_unflag(*, trip: Trip, actor: AbstractBaseUser, reason: str) -> Trip:
    """Clear the attention flag (the matter is dealt with); audited with the reason like the flag."""
    reason = _check(actor=actor, trip_id=trip.pk, permission="trips.flag_trip", reason=reason)
    with transaction.atomic(durable=True):
        trip = Trip.objects.select_for_update().get(pk=trip.pk)
        if not trip.flagged:
            raise ValidationError("This trip is not flagged.")
        trip.flagged = False
        trip.save(update_fields=["flagged"])
        audit_record(
            trip_id=trip.pk,
            type="staff.unflagged",
            actor=f"staff:{actor.pk}",
            actor_user=actor,
            payload={"reason": reason},
        )
    return trip


def trip_flagged(
    *,
    trip: Trip,
    actor: Optional[AbstractBaseUser],
    reason: str,
    causation_id: str = "",
    details: Optional[dict] = None,
) -> None:
    """Flag the trip and audit why, inside the caller's transaction.

    For a service whose flag is one step of a larger write that must commit with it (the
    system flagging a half-finished purchase also tells the traveller). ``details`` go into
    the audit event beside the reason.
    """
    trip.flagged = True
    trip.save(update_fields=["flagged"])
    audit_record(
        trip_id=trip.pk,
        type="staff.flagged" if actor is not None else "trip.flagged",
        actor=f"staff:{actor.pk}" if actor is not None else "system",
        actor_user=actor,
        causation_id=causation_id,
        payload={"reason": reason, **(details or {})},
    )


def toolrun_retry(*, tool_run: ToolRun, actor: AbstractBaseUser, reason: str) -> ChatMessage:
    """Run the trip's turn again with ``USER_RETRY`` so the core repeats what failed."""
    reason = _check(actor=actor, trip_id=tool_run.trip_id, permission="trips.retry_tool", reason=reason)
    if tool_run.status != ToolRun.Status.FAILED:
        raise ValidationError("Only a failed tool run can be retried.")
    with transaction.atomic(durable=True):
        message = chat_message_add(
            trip_id=tool_run.trip_id,
            role=ChatMessage.Role.SYSTEM,
            kind=ChatMessage.Kind.ACTION,
            text=f"Support is retrying {tool_run.tool}.",
            widget={"type": "action", "action": {"type": "retry", "tool_run_id": tool_run.pk}},
            event={"type": "USER_RETRY", "data": {}},
            turn_status=ChatMessage.TurnStatus.QUEUED,
        )
        audit_record(
            trip_id=tool_run.trip_id,
            type="staff.tool_retried",
            actor=f"staff:{actor.pk}",
            actor_user=actor,
            causation_id=tool_run.call_id,
            payload={"reason": reason, "tool": tool_run.tool, "tool_run_id": tool_run.pk, "message_id": message.pk},
        )
        turn_enqueue_on_commit(tool_run.trip_id, message.pk)
    return message


def trip_holds_release(*, trip: Trip, actor: AbstractBaseUser, reason: str, supplier: Any) -> list[Hold]:
    """Release every live hold of the trip at the supplier (one audited release per hold, one
    ``HOLDS_CHANGED`` turn for them all, so the traveller gets one reply)."""
    reason = _check(actor=actor, trip_id=trip.pk, permission="trips.release_hold", reason=reason)
    now = timezone.now()
    live = [hold for hold in Hold.objects.filter(trip=trip, status=Hold.Status.HELD) if hold.is_live(now)]
    return holds_release(holds=live, actor=actor, reason=reason, supplier=supplier, now=now)
