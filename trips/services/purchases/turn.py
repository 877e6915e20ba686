"""The purchase turn's side in the host: check again under the lease before the core runs
(``purchase_recheck``), answer what the recheck stopped, and act on what the core did
(``purchase_outcome``: success recorded, a price above the ceiling re-approved, a half purchase flagged).
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Optional

from django.db import transaction

from handlers.tools import tool_outcome
from trips.models import ApprovalRequest, ChatMessage, ToolRun, Trip
from trips.services.approvals import (
    Verdict,
    approval_claim_takeover,
    approval_release,
    approval_request_create,
    approval_verdict,
)
from trips.services.audit import actor_for, audit_record
from trips.services.staff import trip_flagged

from .answers import PURCHASE_EVENT, PURCHASE_TOOL, answer_without_turn, author, door_verdict, held_ids


def purchase_recheck(*, trip: Trip, message: ChatMessage, now: datetime) -> Verdict:
    """The worker's check before the purchase turn runs the core (it holds the trip's turn lease).

    The world may have moved while the purchase was queued: another purchase used the approval
    (a replay verdict: answer with its booking), it expired, a hold ended. A claim found on the
    approval was left by a purchase whose process died (claims are made only under the lease):
    when the purchase may still go ahead, this turn takes that claim over (``purchase.resumed``)
    and the core replays what the supplier already sold it under the same idempotency keys,
    charging nothing twice. When it may not, the claim stays, so the reconciliation sweep
    (``purchase_reconcile``) undoes at the supplier whatever the dead purchase bought.
    """
    data = (message.event or {}).get("data") or {}
    approval_id = str(data.get("approval_id") or "")
    approval = (
        ApprovalRequest.objects.filter(pk=int(approval_id), trip=trip, kind=ApprovalRequest.Kind.PURCHASE)
        .select_related("booking")
        .first()
        if approval_id.isdigit()
        else None
    )
    if approval is None:
        return Verdict(False, "approval_invalid", "approval_unknown", "That purchase is no longer on offer.")
    dead_claim, approval.claimed_until = approval.claimed_until, None  # a claim found under the lease is dead
    verdict = approval_verdict(approval=approval, hold_ids=held_ids(trip), now=now)
    verdict = door_verdict(trip=trip, verdict=verdict, payment_method_id=str(data.get("payment_method_id") or ""))
    if dead_claim is not None and verdict.ok and not verdict.replay:
        approval_claim_takeover(approval_id=approval.pk, message_id=message.pk)
    return verdict


def purchase_shown(*, trip: Trip, verdict: Verdict) -> bool:
    """Whether the trip's TripIntent already holds the booking a replay verdict names (else the core
    must replay it: its purchase died after the booking was written and before the trip was saved)."""
    intent = Trip.objects.values_list("intent", flat=True).get(pk=trip.pk) or {}
    shown = {b.get("booking_id") for b in (intent.get("working_memory") or {}).get("bookings") or []}
    return verdict.approval.booking.booking_id in shown


def purchase_answer(*, trip: Trip, message: ChatMessage, verdict: Verdict) -> None:
    """A queued purchase the recheck stopped: answer it (its booking, or why not) and mark its turn done."""
    answer_without_turn(trip=trip, user=author(trip, message), message=message, verdict=verdict, done=True)


def purchase_outcome(*, trip: Trip, message: ChatMessage, approval_id: int, now: datetime) -> None:
    """Act on what the purchase turn did: record success, or undo and explain a failure."""
    _outcome(trip=trip, user=author(trip, message), message=message, approval_id=approval_id, now=now)


def is_purchase(message: ChatMessage) -> bool:
    """Whether a queued message is a purchase (run by the purchase turn, not straight through the core)."""
    return (message.event or {}).get("type") == PURCHASE_EVENT


def _outcome(*, trip: Trip, user, message: ChatMessage, approval_id: int, now: datetime) -> None:
    """Act on what the purchase turn did: record success, or undo and explain a failure."""
    approval = ApprovalRequest.objects.filter(pk=approval_id).select_related("booking").first()
    run = ToolRun.objects.filter(message=message, tool=PURCHASE_TOOL).order_by("-pk").first()
    if approval is not None and hasattr(approval, "booking"):
        with transaction.atomic(durable=True):
            audit_record(
                trip_id=trip.pk,
                type="purchase.succeeded",
                actor=actor_for(user),
                actor_user=user,
                causation_id=f"message:{message.pk}",
                payload={
                    "approval_id": approval.pk,
                    "booking_id": approval.booking.booking_id,
                    "total": str(approval.booking.total),
                    "currency": approval.booking.currency,
                },
            )
        return
    if approval is not None:
        approval_release(approval_id=approval.pk)
    error = (run.error if run is not None else None) or {}
    code = error.get("code") or "not_attempted"
    with transaction.atomic(durable=True):
        audit_record(
            trip_id=trip.pk,
            type="purchase.failed" if code == "partial_failure" else "purchase.refused",
            actor=actor_for(user),
            actor_user=user,
            causation_id=f"message:{message.pk}",
            payload={"code": code, "reason": code, "approval_id": approval.pk if approval else None},
        )
        if code == "price_changed" and approval is not None:
            _reapprove(trip=trip, approval=approval, new_total=_new_total(run), now=now)
        if code == "partial_failure":
            # Something was bought and could not be undone: never a silent half trip.
            trip_flagged(
                trip=trip,
                actor=None,
                reason=f"Purchase failed half way: {error.get('message', '')}",
                causation_id=f"message:{message.pk}",
            )


def _reapprove(*, trip: Trip, approval: ApprovalRequest, new_total: Optional[Decimal], now: datetime) -> None:
    """The price moved above the ceiling: the old approval is spent, a new request goes to the approver."""
    locked = ApprovalRequest.objects.select_for_update().get(pk=approval.pk)
    if locked.status != ApprovalRequest.Status.GRANTED:
        return
    intent = Trip.objects.values_list("intent", flat=True).get(pk=trip.pk)
    approval_request_create(
        trip=trip, kind=ApprovalRequest.Kind.PURCHASE, trip_intent=intent, now=now, total=new_total, supersedes=locked
    )


def _new_total(run: Optional[ToolRun]) -> Optional[Decimal]:
    value = tool_outcome(run.result)[1].get("new_total") if run is not None else None
    return Decimal(str(value)) if value else None
