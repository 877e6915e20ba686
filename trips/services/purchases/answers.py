"""What every purchase path shares: the answer given without running the core (a replay with
its booking, a refusal with its reason), the payment-method check, the holds a purchase covers.
"""

from __future__ import annotations

from typing import Optional

from django.db import transaction

from handlers.trip_read import unbooked_purchases
from trips.models import ApprovalRequest, ChatMessage, PaymentMethod, Trip
from trips.services.approvals import (
    Verdict,
    approval_attempt_failed,
    booking_as_core,
)
from trips.services.audit import actor_for, audit_record
from trips.services.chat import chat_message_add

PURCHASE_TOOL = "booking_confirm_and_purchase"
PURCHASE_EVENT = "USER_APPROVED_PURCHASE"


def author(trip: Trip, message: ChatMessage):
    """Who a purchase message is from: the traveller, or nobody (a system message resuming one)."""
    return trip.owner if message.role == ChatMessage.Role.USER else None


def turn_done(message: ChatMessage) -> None:
    ChatMessage.objects.filter(pk=message.pk, turn_status=ChatMessage.TurnStatus.QUEUED).update(
        turn_status=ChatMessage.TurnStatus.DONE
    )


def answer_without_turn(*, trip: Trip, user, message: ChatMessage, verdict: Verdict, done: bool = False) -> None:
    """Answer a replay with its booking, or a refusal with its reason; no core run, no supplier call.

    ``done``: the message is a queued purchase whose turn this answer ends (same transaction).
    """
    if verdict.replay:
        booking = verdict.approval.booking
        with transaction.atomic(durable=True):
            if done:
                turn_done(message)
            audit_record(
                trip_id=trip.pk,
                type="purchase.replayed",
                actor=actor_for(user),
                actor_user=user,
                causation_id=f"message:{message.pk}",
                payload={"approval_id": verdict.approval.pk, "booking_id": booking.booking_id},
            )
            chat_message_add(
                trip_id=trip.pk,
                role=ChatMessage.Role.ASSISTANT,
                kind=ChatMessage.Kind.MESSAGE,
                text=(
                    "This was already bought (booking references "
                    f"{', '.join(booking.record_locators or []) or 'on the booking card'}). Nothing was charged again."
                ),
                widget={"type": "booking", "booking": booking_as_core(booking)},
            )
        return
    refuse(
        trip=trip,
        user=user,
        message=message,
        code=verdict.code,
        reason=verdict.reason,
        text=verdict.message,
        approval=verdict.approval,
        done=done,
    )


def refuse(
    *,
    trip: Trip,
    user,
    message: ChatMessage,
    code: str,
    reason: str,
    text: str,
    approval: Optional[ApprovalRequest] = None,
    done: bool = False,
) -> None:
    """Tell the traveller why nothing was bought, and audit it (``reason`` feeds the rate limit)."""
    with transaction.atomic(durable=True):
        if done:
            turn_done(message)
        if approval is not None:
            approval_attempt_failed(approval=approval)
        audit_record(
            trip_id=trip.pk,
            type="purchase.refused",
            actor=actor_for(user),
            actor_user=user,
            causation_id=f"message:{message.pk}",
            payload={"code": code, "reason": reason, "approval_id": approval.pk if approval else None},
        )
        chat_message_add(
            trip_id=trip.pk,
            role=ChatMessage.Role.ASSISTANT,
            kind=ChatMessage.Kind.ERROR,
            text=text,
            widget={"type": "error", "code": code, "message": text, "retryable": False},
        )


def door_verdict(*, trip: Trip, verdict: Verdict, payment_method_id: str) -> Verdict:
    """The approval's verdict, unless it may buy and the payment method is not the traveller's own."""
    if not verdict.ok or verdict.replay:
        return verdict
    if not PaymentMethod.objects.filter(
        pk=int(payment_method_id) if str(payment_method_id).isdigit() else None, owner_id=trip.owner_id
    ).exists():
        return Verdict(
            False,
            "payment_invalid",
            "payment_invalid",
            "Choose one of your own payment methods to buy.",
            verdict.approval,
        )
    return verdict


def held_ids(trip: Trip) -> list[str]:
    """The holds a purchase now covers: live ones, plus any a half-finished purchase already paid for
    (submitting again replays those without a second charge), exactly as the core will submit them."""
    intent = Trip.objects.values_list("intent", flat=True).get(pk=trip.pk) or {}
    holds = (intent.get("working_memory") or {}).get("holds") or []
    live = {h["hold_id"] for h in holds if h.get("status") == "held" and h.get("hold_id")}
    if intent.get("working_memory"):
        live |= {h["hold_id"] for h in unbooked_purchases(intent) if h.get("hold_id")}
    return sorted(live)
