"""Buying what is held: the one path by which money moves.

``purchase_submit`` is what the traveller's "Buy" action calls (``turn_submit`` hands purchase
actions here). The approval token lives only in this call's memory and in the turn it runs
in-process: the saved chat message, its event, the audit trail and the tool-run rows carry
the payment method and never the token.

Order of events, and why:

1. Cheap checks first (traveller, payment method, token, holds, deadlines) with no turn run,
   so a wrong or invented token never reaches the core and is refused with a clear reason,
   audited as ``purchase.refused``, and counted by the per-trip rate limit.
2. A replay of a used approval answers with its booking at once, and a purchase already under
   way with the same token is waited for, then answered the same way: however often a
   purchase is submitted, one approval makes one booking.
3. The trip's turn lease (one turn per trip at a time), then the purchase turn: the core's
   purchase tool verifies again and claims the approval under its row lock
   (``approvals.approval_claim``), re-prices, buys with a server-derived idempotency key and
   consumes the approval (``approvals.approval_consume`` writes the Booking).
4. The outcome: a price above the ceiling supersedes the approval with a new request; a
   half-failed purchase flags the trip for staff; any other failure is audited and the claim
   given back so the traveller can retry (another card, say).
5. Later, from the beat: a retryable failure half way keeps what it bought so a resubmission can
   finish the trip. If none comes, ``half_purchases.half_purchases_flag`` flags the trip for
   staff and tells the traveller: never a silent half trip.

Registering a card is ``payment_methods.payment_method_create``.
"""

from __future__ import annotations

import time
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Callable, Optional

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from handlers.tools import tool_outcome
from handlers.trip_read import unbooked_purchases
from trips.hosting.approvals import DjangoPaymentMethods
from trips.hosting.runner import turn_execute, turn_run
from trips.models import ApprovalRequest, ChatMessage, PaymentMethod, ToolRun, Trip
from trips.services import tokens
from trips.services.approvals import (
    Verdict,
    approval_attempt_failed,
    approval_check,
    approval_release,
    approval_request_create,
    approval_token_for_owner,
    booking_as_core,
)
from trips.services.audit import actor_for, audit_record
from trips.services.chat import chat_message_add
from trips.services.staff import trip_flagged
from trips.services.turns import TripBusy, turn_release

Clock = Callable[[], datetime]
PURCHASE_TOOL = "booking_confirm_and_purchase"
# How long a purchase waits for the trip's current turn to finish before giving up.
LEASE_WAIT_SECONDS = 20.0


def purchase_submit(
    *,
    trip: Trip,
    user,
    approval_token: str,
    payment_method_id: str,
    client_id: Optional[str] = None,
    clock: Optional[Clock] = None,
) -> ChatMessage:
    """Buy the trip's held items with an approver's token; returns the traveller's action message.

    Raises ``PermissionDenied`` for anyone but the trip's owner. Every other refusal is an
    answer in the chat and a ``purchase.refused`` audit event with a reason code.
    A repeated ``client_id`` returns the message already saved and runs nothing.
    """
    if user.pk != trip.owner_id:
        raise PermissionDenied("Only the traveller can buy this trip.")
    clock = clock or timezone.now
    client_id = (client_id or "")[:64]
    if client_id:
        existing = ChatMessage.objects.filter(trip=trip, client_id=client_id).first()
        if existing is not None:
            return existing
    message = _action_message_add(trip=trip, user=user, payment_method_id=payment_method_id, client_id=client_id)
    verdict = _precheck(trip=trip, token=approval_token, payment_method_id=payment_method_id, now=clock())
    if verdict is not None and verdict.reason != "in_progress":  # in progress: wait for that turn below
        _answer_without_turn(trip=trip, user=user, message=message, verdict=verdict)
        return message
    try:
        lease_until = _trip_lease_take(trip_id=trip.pk)
    except TripBusy:
        _refuse(
            trip=trip,
            user=user,
            message=message,
            code="busy",
            reason="busy",
            text="TripDesk is still working on this trip. Try the purchase again in a moment.",
        )
        return message
    try:
        # The world may have moved while we waited for the lease (another submission bought it).
        verdict = _precheck(trip=trip, token=approval_token, payment_method_id=payment_method_id, now=clock())
        if verdict is not None:
            _answer_without_turn(trip=trip, user=user, message=message, verdict=verdict)
            return message
        event = {
            "type": "USER_APPROVED_PURCHASE",
            "data": {"approval_token": approval_token, "payment_method_id": str(payment_method_id)},
        }
        turn_execute(
            trip=Trip.objects.select_related("organisation").get(pk=trip.pk), message=message, event=event, clock=clock
        )
    finally:
        turn_release(trip_id=trip.pk, lease_until=lease_until)
    _outcome(trip=trip, user=user, message=message, token=approval_token, now=clock())
    turn_run(trip_id=trip.pk, clock=clock)  # whatever the traveller sent while the purchase held the lease
    return message


def purchase_submit_as_owner(
    *,
    trip: Trip,
    user,
    approval_id: str,
    payment_method_id: str,
    client_id: Optional[str] = None,
    clock: Optional[Clock] = None,
) -> ChatMessage:
    """The traveller's "Pay" button: buy with the trip's granted approval, no token in hand.

    The signed-in owner gets a fresh token on the server (``approval_token_for_owner``, which
    revokes every earlier one and stores only its hash) and it is spent at once on this
    purchase, so the approver passes nothing by hand and a reload or closed tab loses nothing.
    ``approval_id`` is the approval the button named: a newer one (another amount) is refused.
    """
    clock = clock or timezone.now
    if client_id and ChatMessage.objects.filter(trip=trip, client_id=client_id[:64]).exists():
        return ChatMessage.objects.get(trip=trip, client_id=client_id[:64])
    token = approval_token_for_owner(trip=trip, user=user, approval_id=approval_id, now=clock())
    return purchase_submit(
        trip=trip,
        user=user,
        approval_token=token,
        payment_method_id=payment_method_id,
        client_id=client_id,
        clock=clock,
    )


# --- the steps ------------------------------------------------------------------------------------


def _action_message_add(*, trip: Trip, user, payment_method_id: str, client_id: str) -> ChatMessage:
    """The traveller's "Buy" as a chat message: which card, never the token."""
    method = (
        PaymentMethod.objects.filter(pk=payment_method_id, owner=user).first()
        if str(payment_method_id).isdigit()
        else None
    )
    with transaction.atomic(durable=True):
        message = chat_message_add(
            trip_id=trip.pk,
            role=ChatMessage.Role.USER,
            kind=ChatMessage.Kind.ACTION,
            text=f"Buy with {method}" if method else "Buy",
            widget={"type": "action", "action": {"type": "purchase", "payment_method_id": str(payment_method_id)}},
            event={"type": "USER_APPROVED_PURCHASE", "data": {"payment_method_id": str(payment_method_id)}},
            client_id=client_id,
        )
        audit_record(
            trip_id=trip.pk,
            type="purchase.attempted",
            actor=actor_for(user),
            actor_user=user,
            causation_id=f"message:{message.pk}",
            payload={"message_id": message.pk, "payment_method_id": str(payment_method_id)},
        )
    return message


def _precheck(*, trip: Trip, token: str, payment_method_id: str, now: datetime) -> Optional[Verdict]:
    """None when the purchase may go ahead; otherwise the refusal or the replay to answer with.

    The holds are the ones the purchase tool would buy now: the TripIntent's held items.
    """
    verdict = approval_check(trip_id=trip.pk, token=token, hold_ids=_held_ids(trip), now=now)
    if not verdict.ok or verdict.replay:
        return verdict
    if DjangoPaymentMethods().get(trip_id=str(trip.pk), payment_method_id=str(payment_method_id)) is None:
        return Verdict(
            False,
            "payment_invalid",
            "payment_invalid",
            "Choose one of your own payment methods to buy.",
            verdict.approval,
        )
    return None


def _answer_without_turn(*, trip: Trip, user, message: ChatMessage, verdict: Verdict) -> None:
    """Answer a replay with its booking, or a refusal with its reason; no turn, no supplier call."""
    if verdict.replay:
        booking = verdict.approval.booking
        with transaction.atomic(durable=True):
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
                text=f"This was already bought: booking {booking.booking_id}. Nothing was charged again.",
                widget={"type": "booking", "booking": booking_as_core(booking)},
            )
        return
    _refuse(
        trip=trip,
        user=user,
        message=message,
        code=verdict.code,
        reason=verdict.reason,
        text=verdict.message,
        approval=verdict.approval,
    )


def _refuse(
    *,
    trip: Trip,
    user,
    message: ChatMessage,
    code: str,
    reason: str,
    text: str,
    approval: Optional[ApprovalRequest] = None,
) -> None:
    """Tell the traveller why nothing was bought, and audit it (``reason`` feeds the rate limit)."""
    with transaction.atomic(durable=True):
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
            widget={"type": "error", "code": code, "message": text, "retryable": code == "busy"},
        )


def _outcome(*, trip: Trip, user, message: ChatMessage, token: str, now: datetime) -> None:
    """Act on what the purchase turn did: record success, or undo and explain a failure."""
    approval = _approval_for(trip=trip, token=token)
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


# --- helpers -------------------------------------------------------------------------------------


def _held_ids(trip: Trip) -> list[str]:
    """The holds a purchase now covers: live ones, plus any a half-finished purchase already paid for
    (submitting again replays those without a second charge), exactly as the core will submit them."""
    intent = Trip.objects.values_list("intent", flat=True).get(pk=trip.pk) or {}
    holds = (intent.get("working_memory") or {}).get("holds") or []
    live = {h["hold_id"] for h in holds if h.get("status") == "held" and h.get("hold_id")}
    if intent.get("working_memory"):
        live |= {h["hold_id"] for h in unbooked_purchases(intent) if h.get("hold_id")}
    return sorted(live)


def _approval_for(*, trip: Trip, token: str) -> Optional[ApprovalRequest]:
    if not tokens.token_well_formed(token):
        return None
    return (
        ApprovalRequest.objects.filter(trip=trip, token_hash=tokens.token_digest(token))
        .select_related("booking")
        .first()
    )


def _new_total(run: Optional[ToolRun]) -> Optional[Decimal]:
    value = tool_outcome(run.result)[1].get("new_total") if run is not None else None
    return Decimal(str(value)) if value else None


def _trip_lease_take(*, trip_id: int) -> datetime:
    """Take the trip's turn lease (see ``turns.turn_claim``), waiting a little for a running turn.

    A purchase's turn is not a queued message (its event holds the token), so it takes the
    lease directly with one conditional UPDATE instead of going through ``turn_claim``.
    """
    give_up = time.monotonic() + settings.TRIPDESK.get("PURCHASE_LEASE_WAIT_SECONDS", LEASE_WAIT_SECONDS)
    while True:
        now = timezone.now()
        until = now + timedelta(seconds=settings.TRIPDESK["TURN_LEASE_SECONDS"])
        free = Q(turn_lease_until__isnull=True) | Q(turn_lease_until__lte=now)
        if Trip.objects.filter(free, pk=trip_id).update(turn_lease_until=until):
            return until
        if time.monotonic() > give_up:
            raise TripBusy(f"trip {trip_id} is running another turn")
        time.sleep(0.05)
