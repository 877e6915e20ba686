"""Purchases interrupted between the supplier and the booking: reconciled, never left pending.

A purchase turn claims its approval, buys each held item at the supplier under the key
``<approval_id>:<hold_id>`` and records the booking (``approvals.approval_consume``). If its
process dies on the way, the purchase's message is still queued, so the turn sweeps run it again
(``trips.tasks.turns.turns_sweep`` on the stack; the embedded server's sweeper on the default):
the turn takes over its own dead claim and the core replays what the supplier already sold,
charging nothing twice. What no turn will pick up again is a claim left with no queued turn
behind it (the turn failed for good after its retries, or died after its end and before its
outcome was recorded). ``purchases_reconcile`` finds those once they are ``grace`` old and no
turn is running on the trip, asks the supplier what it sold under each item's key, and:

- **resumes** the purchase when the approval can still buy (granted, unexpired, every hold
  live or already sold to it): a system message queues the purchase again, and the core
  replays what was sold and buys the rest — one booking, each item charged once;
- **undoes** it otherwise: what was sold is voided at the supplier (refunded in full), the
  holds are written down as released, and the approval keeps its status (expired, revoked…):
  the traveller holds again for a new approval. A void the supplier refuses is left to staff.

Each time the traveller is told (a chat message and an email), the trip is flagged for staff,
and ``purchase.reconciled`` records what the supplier said and what was done, in one
transaction with the claim's release. Supplier calls happen before it, outside any lock: a
supplier that cannot answer leaves the approval for the next round.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction

from handlers.specialists.booking_confirm_and_purchase import purchase_key
from handlers.supplier import SupplierError
from trips.models import ApprovalRequest, ChatMessage, Hold, Trip
from trips.notifications import PURCHASE_RECONCILED, notify_on_commit
from trips.services.approvals.verification import CLAIM_SECONDS
from trips.services.audit import audit_record
from trips.services.chat import chat_message_add
from trips.services.dispatch import turn_enqueue_on_commit
from trips.services.holds import holds_voided
from trips.services.staff import trip_flagged

logger = logging.getLogger(__name__)


@dataclass
class SupplierAnswer:
    """What the supplier says about one interrupted purchase, item by item."""

    sold: dict[str, dict[str, Any]] = field(default_factory=dict)  # hold id → its confirmed order under our key
    live: set[str] = field(default_factory=set)  # hold ids still held, nothing sold
    voided: list[dict[str, Any]] = field(default_factory=list)  # orders undone by this reconciliation
    stuck: list[dict[str, Any]] = field(default_factory=list)  # orders the supplier would not void


def purchases_reconcile(*, supplier: Any, now: datetime, grace: timedelta) -> int:
    """Reconcile every purchase claimed at least ``grace`` ago that no turn will finish; returns how many."""
    claimed_before = now + timedelta(seconds=_claim_seconds()) - grace
    candidates = ApprovalRequest.objects.filter(
        kind=ApprovalRequest.Kind.PURCHASE,
        claimed_until__isnull=False,
        claimed_until__lte=claimed_before,
        used_at__isnull=True,
        booking__isnull=True,
    ).values_list("pk", "trip_id")
    done = 0
    for approval_id, trip_id in candidates:
        if _turn_pending(trip_id=trip_id, now=now):
            continue  # the trip's queued purchase will take its claim over and finish it
        try:
            answer = _ask_supplier(supplier=supplier, approval=ApprovalRequest.objects.get(pk=approval_id), now=now)
        except SupplierError as exc:
            logger.warning("purchase reconciliation: supplier did not answer for approval %s: %s", approval_id, exc)
            continue
        done += _reconciled(supplier=supplier, approval_id=approval_id, answer=answer, now=now)
    return done


def _claim_seconds() -> int:
    return settings.TRIPDESK.get("APPROVAL_CLAIM_SECONDS", CLAIM_SECONDS)


def _turn_pending(*, trip_id: int, now: datetime) -> bool:
    """A turn is running on the trip (live lease) or queued: it, not this sweep, deals with the purchase."""
    trip = Trip.objects.only("turn_lease_until").get(pk=trip_id)
    if trip.turn_lease_until is not None and trip.turn_lease_until > now:
        return True
    return ChatMessage.objects.filter(trip_id=trip_id, turn_status=ChatMessage.TurnStatus.QUEUED).exists()


def _ask_supplier(*, supplier: Any, approval: ApprovalRequest, now: datetime) -> SupplierAnswer:
    """Each item's order under this approval's key (a sold hold names its order), or whether it is still held."""
    answer = SupplierAnswer()
    for hold_id in approval.hold_ids:
        try:
            hold = supplier.get_hold(hold_id, now=now)
        except SupplierError as exc:
            if exc.code != "not_found":
                raise
            continue
        if hold.get("status") == "purchased" and hold.get("order_id"):
            order = supplier.get_order(hold["order_id"])
            mine = order.get("idempotency_key") == purchase_key(str(approval.pk), hold_id)
            if mine and order.get("status") == "confirmed":
                answer.sold[hold_id] = order
        elif hold.get("status") == "held":
            answer.live.add(hold_id)
    return answer


def _resumable(approval: ApprovalRequest, answer: SupplierAnswer, now: datetime) -> bool:
    """The approval may still buy, and every one of its holds is either sold to it or still held."""
    return approval.is_usable(now) and set(approval.hold_ids) == set(answer.sold) | answer.live


def _reconciled(*, supplier: Any, approval_id: int, answer: SupplierAnswer, now: datetime) -> int:
    approval = ApprovalRequest.objects.get(pk=approval_id)
    resume = _resumable(approval, answer, now)
    if not resume:
        for order in answer.sold.values():
            try:
                answer.voided.append(supplier.order_void(order["order_id"], now=now))
            except SupplierError:
                answer.stuck.append(order)
    with transaction.atomic(durable=True):
        trip = Trip.objects.select_for_update().get(pk=approval.trip_id)
        approval = ApprovalRequest.objects.select_for_update().get(pk=approval_id)
        if approval.claimed_until is None or approval.used_at is not None:
            return 0  # another round (or a resubmission) dealt with it meanwhile
        approval.claimed_until = None
        approval.save(update_fields=["claimed_until"])
        outcome = "resumed" if resume else ("needs_attention" if answer.stuck else "undone")
        message = _traveller_told(trip=trip, approval=approval, answer=answer, outcome=outcome)
        event = audit_record(
            trip_id=trip.pk,
            type="purchase.reconciled",
            actor="system",
            causation_id=f"reconcile:{approval.pk}",
            payload={
                "approval_id": approval.pk,
                "outcome": outcome,
                "sold": sorted(order["order_id"] for order in answer.sold.values()),
                "still_held": sorted(answer.live),
                "voided": sorted(order["order_id"] for order in answer.voided),
                "not_voided": sorted(order["order_id"] for order in answer.stuck),
                "message_id": message.pk,
            },
        )
        trip_flagged(
            trip=trip,
            actor=None,
            reason=_staff_reason(outcome, answer),
            causation_id=f"reconcile:{approval.pk}",
            details={"approval_id": approval.pk, "outcome": outcome},
        )
        if answer.voided:
            voided = {order["hold_id"] for order in answer.voided}
            holds_voided(holds=list(Hold.objects.filter(trip=trip, hold_id__in=voided)), reason="Purchase undone.")
        notify_on_commit(PURCHASE_RECONCILED, event.pk)
    return 1


def _traveller_told(*, trip: Trip, approval: ApprovalRequest, answer: SupplierAnswer, outcome: str) -> ChatMessage:
    """The chat line for the traveller; when resuming, the queued system turn that finishes the purchase."""
    if outcome == "resumed":
        paid_with = _payment_method_of(trip=trip, approval=approval)
        message = chat_message_add(
            trip_id=trip.pk,
            role=ChatMessage.Role.SYSTEM,
            kind=ChatMessage.Kind.ACTION,
            text="Your purchase was interrupted; TripDesk is finishing it now. Nothing is charged twice.",
            widget={"type": "action", "action": {"type": "purchase", "payment_method_id": paid_with}},
            event={
                "type": "USER_APPROVED_PURCHASE",
                "data": {"approval_id": str(approval.pk), "payment_method_id": paid_with},
            },
            turn_status=ChatMessage.TurnStatus.QUEUED,
        )
        turn_enqueue_on_commit(trip.pk, message.pk)
        return message
    if outcome == "undone":
        text = (
            "Your purchase was interrupted and could not be finished, so it was undone: "
            + (
                "what had been bought was voided and refunded in full. "
                if answer.voided
                else "nothing was bought and nothing was charged. "
            )
            + "Our travel team has been told. Hold the trip again to get a new approval."
        )
    else:
        text = (
            "Your purchase was interrupted and part of it could not be undone. Our travel team has been "
            "alerted and will sort it out — you won't be charged twice."
        )
    return chat_message_add(
        trip_id=trip.pk,
        role=ChatMessage.Role.ASSISTANT,
        kind=ChatMessage.Kind.STATUS,
        text=text,
    )


def _payment_method_of(*, trip: Trip, approval: ApprovalRequest) -> str:
    """The card the interrupted purchase used: its queued message named it."""
    for event in (
        ChatMessage.objects.filter(trip=trip, event__type="USER_APPROVED_PURCHASE")
        .order_by("-seq")
        .values_list("event", flat=True)
    ):
        data = (event or {}).get("data") or {}
        if str(data.get("approval_id")) == str(approval.pk) and data.get("payment_method_id"):
            return str(data["payment_method_id"])
    return ""


def _staff_reason(outcome: str, answer: SupplierAnswer) -> str:
    sold = ", ".join(sorted(order["order_id"] for order in answer.sold.values())) or "none"
    if outcome == "resumed":
        return f"Purchase interrupted; resumed with the supplier's orders ({sold}). Check the booking it makes."
    if outcome == "undone":
        return f"Purchase interrupted and undone: supplier orders {sold} voided and refunded."
    stuck = ", ".join(sorted(order["order_id"] for order in answer.stuck))
    return f"Purchase interrupted; supplier orders {stuck} could not be voided. Refund or cancel them by hand."


def reconcile_grace() -> timedelta:
    """How old a claim with no turn behind it must be before the sweep reconciles it."""
    return timedelta(seconds=settings.TRIPDESK.get("PURCHASE_RECONCILE_AFTER_SECONDS", 30))
