"""Buying what is held: the one path by which money moves, as a queued turn like every other.

``purchase_submit`` is what the traveller's "Buy" action calls (through ``actions.traveller_act``,
the one door of the websocket and the API); ``purchase_submit_as_owner`` is the chat's "Pay"
button, which names the granted approval instead of carrying its token. The approval token lives
only in the submitting call's memory: the saved chat message, its event, the audit trail and the
tool-run rows carry the approval's id and the payment method, never the token.

Order of events, and why:

1. At the door, cheap checks (traveller, token or approval, holds, deadlines, payment method) with
   no turn run, so a wrong or invented token never reaches the core and is refused at once with a
   clear reason, audited as ``purchase.refused`` and counted by the per-trip rate limit.
2. Otherwise the purchase is saved as a queued turn (``USER_APPROVED_PURCHASE`` naming the
   approval) and ``run_turn`` is queued after commit: leased, one turn per trip at a time, never
   in the web server's request thread on the scale-out stack, resumed by the turn sweeps if its
   process dies.
3. The worker's purchase turn (``trips.hosting.turns.purchase_turn``) checks again
   (``purchase_recheck``: the world may have moved while it was queued; a used approval answers
   with its booking, so however often a purchase is submitted, one approval makes one booking),
   then runs the core's purchase tool, which claims the approval under its row lock, re-prices,
   buys with a server-derived idempotency key per item and consumes the approval
   (``approvals.approval_consume`` writes the Booking).
4. The outcome (``purchase_outcome``): a price above the ceiling supersedes the approval with a
   new request; a half-failed purchase flags the trip for staff; any other failure is audited and
   the claim given back so the traveller can retry (another card, say).
5. Later, from the beat: a retryable failure half way keeps what it bought so a resubmission can
   finish the trip. If none comes, ``half_purchases.half_purchases_flag`` flags the trip for
   staff and tells the traveller; a purchase whose process died between the supplier and the
   booking is reconciled with the supplier by ``purchase_reconcile.purchases_reconcile``.

Registering a card is ``payment_methods.payment_method_create``.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Callable, Optional

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from handlers.tools import tool_outcome
from handlers.trip_read import unbooked_purchases
from trips.models import ApprovalRequest, ChatMessage, PaymentMethod, ToolRun, Trip
from trips.services.approvals import (
    Verdict,
    approval_attempt_failed,
    approval_check,
    approval_claim_takeover,
    approval_release,
    approval_request_create,
    approval_verdict,
    booking_as_core,
)
from trips.services.audit import actor_for, audit_record
from trips.services.chat import chat_message_add
from trips.services.dispatch import turn_enqueue_on_commit
from trips.services.staff import trip_flagged

Clock = Callable[[], datetime]
PURCHASE_TOOL = "booking_confirm_and_purchase"
PURCHASE_EVENT = "USER_APPROVED_PURCHASE"


def purchase_submit(
    *,
    trip: Trip,
    user,
    approval_token: str,
    payment_method_id: str,
    client_id: Optional[str] = None,
    clock: Optional[Clock] = None,
) -> ChatMessage:
    """Queue the purchase of the trip's held items with an approver's token; returns the traveller's action message.

    Raises ``PermissionDenied`` for anyone but the trip's owner. A refusal at the door is an
    answer in the chat and a ``purchase.refused`` audit event with a reason code; the purchase
    itself runs as the trip's next turn. A repeated ``client_id`` returns the message already
    saved and queues nothing.
    """
    if user.pk != trip.owner_id:
        raise PermissionDenied("Only the traveller can buy this trip.")
    clock = clock or timezone.now
    client_id = (client_id or "")[:64]
    existing = _existing(trip=trip, client_id=client_id)
    if existing is not None:
        return existing
    verdict = _door_verdict(
        trip=trip,
        verdict=approval_check(trip_id=trip.pk, token=approval_token, hold_ids=_held_ids(trip), now=clock()),
        payment_method_id=payment_method_id,
    )
    return _purchase_queue(
        trip=trip, user=user, verdict=verdict, payment_method_id=payment_method_id, client_id=client_id
    )


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

    The signed-in owner names the approval the button showed; it must be this trip's, granted,
    unused and unexpired (``ValidationError`` otherwise, and nothing is saved). A newer approval
    (another amount) is another id, so an old button cannot pay for it.
    """
    if user.pk != trip.owner_id:
        raise PermissionDenied("Only the traveller can buy this trip.")
    clock = clock or timezone.now
    client_id = (client_id or "")[:64]
    existing = _existing(trip=trip, client_id=client_id)
    if existing is not None:
        return existing
    approval = (
        ApprovalRequest.objects.filter(pk=int(approval_id), trip=trip, kind=ApprovalRequest.Kind.PURCHASE)
        .select_related("booking")
        .first()
        if str(approval_id or "").isdigit()
        else None
    )
    if approval is None or not approval.is_usable(clock()):
        raise ValidationError("That approval is no longer valid, so nothing was bought.")
    verdict = _door_verdict(
        trip=trip,
        verdict=approval_verdict(approval=approval, hold_ids=_held_ids(trip), now=clock()),
        payment_method_id=payment_method_id,
    )
    return _purchase_queue(
        trip=trip, user=user, verdict=verdict, payment_method_id=payment_method_id, client_id=client_id
    )


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
    verdict = approval_verdict(approval=approval, hold_ids=_held_ids(trip), now=now)
    verdict = _door_verdict(trip=trip, verdict=verdict, payment_method_id=str(data.get("payment_method_id") or ""))
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
    _answer_without_turn(trip=trip, user=_author(trip, message), message=message, verdict=verdict, done=True)


def purchase_outcome(*, trip: Trip, message: ChatMessage, approval_id: int, now: datetime) -> None:
    """Act on what the purchase turn did: record success, or undo and explain a failure."""
    _outcome(trip=trip, user=_author(trip, message), message=message, approval_id=approval_id, now=now)


def is_purchase(message: ChatMessage) -> bool:
    """Whether a queued message is a purchase (run by the purchase turn, not straight through the core)."""
    return (message.event or {}).get("type") == PURCHASE_EVENT


# --- the steps ------------------------------------------------------------------------------------


def _existing(*, trip: Trip, client_id: str) -> Optional[ChatMessage]:
    return ChatMessage.objects.filter(trip=trip, client_id=client_id).first() if client_id else None


def _door_verdict(*, trip: Trip, verdict: Verdict, payment_method_id: str) -> Verdict:
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


def _purchase_queue(*, trip: Trip, user, verdict: Verdict, payment_method_id: str, client_id: str) -> ChatMessage:
    """Save the traveller's "Buy"; queue its turn, or answer at once (a replay, a refusal).

    A purchase already under way with the same approval is queued too: it runs after that one
    and answers with its booking.
    """
    if verdict.ok and not verdict.replay or verdict.reason == "in_progress":
        try:
            return _action_message_add(
                trip=trip,
                user=user,
                payment_method_id=payment_method_id,
                client_id=client_id,
                approval_id=verdict.approval.pk,
            )
        except IntegrityError:
            if not client_id:
                raise
            return ChatMessage.objects.get(trip=trip, client_id=client_id)  # the same press, raced in from another tab
    message = _action_message_add(trip=trip, user=user, payment_method_id=payment_method_id, client_id=client_id)
    _answer_without_turn(trip=trip, user=user, message=message, verdict=verdict)
    return message


def _action_message_add(
    *, trip: Trip, user, payment_method_id: str, client_id: str, approval_id: Optional[int] = None
) -> ChatMessage:
    """The traveller's "Buy" as a chat message: which card and which approval, never the token.

    With ``approval_id`` it is a queued turn, run after commit.
    """
    method = (
        PaymentMethod.objects.filter(pk=payment_method_id, owner=user).first()
        if str(payment_method_id).isdigit()
        else None
    )
    data = {"payment_method_id": str(payment_method_id)}
    if approval_id is not None:
        data["approval_id"] = str(approval_id)
    with transaction.atomic(durable=True):
        message = chat_message_add(
            trip_id=trip.pk,
            role=ChatMessage.Role.USER,
            kind=ChatMessage.Kind.ACTION,
            text=f"Buy with {method}" if method else "Buy",
            widget={"type": "action", "action": {"type": "purchase", "payment_method_id": str(payment_method_id)}},
            event={"type": PURCHASE_EVENT, "data": data},
            client_id=client_id,
            turn_status=ChatMessage.TurnStatus.QUEUED if approval_id is not None else ChatMessage.TurnStatus.NONE,
        )
        audit_record(
            trip_id=trip.pk,
            type="purchase.attempted",
            actor=actor_for(user),
            actor_user=user,
            causation_id=f"message:{message.pk}",
            payload={"message_id": message.pk, "payment_method_id": str(payment_method_id), "approval_id": approval_id},
        )
        if approval_id is not None:
            turn_enqueue_on_commit(trip.pk, message.pk)
    return message


def _author(trip: Trip, message: ChatMessage):
    """Who a purchase message is from: the traveller, or nobody (a system message resuming one)."""
    return trip.owner if message.role == ChatMessage.Role.USER else None


def _turn_done(message: ChatMessage) -> None:
    ChatMessage.objects.filter(pk=message.pk, turn_status=ChatMessage.TurnStatus.QUEUED).update(
        turn_status=ChatMessage.TurnStatus.DONE
    )


def _answer_without_turn(*, trip: Trip, user, message: ChatMessage, verdict: Verdict, done: bool = False) -> None:
    """Answer a replay with its booking, or a refusal with its reason; no core run, no supplier call.

    ``done``: the message is a queued purchase whose turn this answer ends (same transaction).
    """
    if verdict.replay:
        booking = verdict.approval.booking
        with transaction.atomic(durable=True):
            if done:
                _turn_done(message)
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
    _refuse(
        trip=trip,
        user=user,
        message=message,
        code=verdict.code,
        reason=verdict.reason,
        text=verdict.message,
        approval=verdict.approval,
        done=done,
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
    done: bool = False,
) -> None:
    """Tell the traveller why nothing was bought, and audit it (``reason`` feeds the rate limit)."""
    with transaction.atomic(durable=True):
        if done:
            _turn_done(message)
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


def _new_total(run: Optional[ToolRun]) -> Optional[Decimal]:
    value = tool_outcome(run.result)[1].get("new_total") if run is not None else None
    return Decimal(str(value)) if value else None
