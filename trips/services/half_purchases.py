"""Half-finished purchases: never a silent half trip.

A retryable failure half way through a purchase keeps what it bought, so a resubmission can
finish the trip (``purchases.purchase_submit``). If none comes (the rest of the holds end, or
the grace period passes), ``half_purchases_flag`` (from the beat) flags the trip for staff and
tells the traveller, once per half purchase.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta

from django.db import transaction

from handlers.tools import tool_outcome
from handlers.trip_read import unbooked_purchases
from trips.formats import money_text
from trips.models import ApprovalRequest, AuditEvent, Booking, ChatMessage, Hold, ToolRun, Trip
from trips.services.chat import chat_message_add
from trips.services.purchases import PURCHASE_TOOL
from trips.services.staff import trip_flagged


def half_purchases_flag(*, now: datetime, grace: timedelta) -> int:
    """Flag for staff, and tell the traveller of, every purchase left half finished; returns how many.

    Half finished: holds an approval paid for that no booking covers (a retryable failure stopped
    the purchase, and nobody submitted it again). It is given up on once the approval's other holds
    have all ended (nothing can finish it) or once it is older than ``grace``. Each one is flagged
    once: the flag's audit event carries the half purchase's key, checked under the trip's row lock,
    so overlapping beat runs cannot flag it twice. A trip whose turn is running (a resubmission,
    perhaps) is left for the next run.
    """
    flagged = 0
    for trip_id in _trips_with_unbooked_purchases():
        with transaction.atomic(durable=True):
            trip = Trip.objects.select_for_update().get(pk=trip_id)
            if trip.turn_lease_until is not None and trip.turn_lease_until > now:
                continue
            for approval, paid in _half_purchases(trip=trip):
                if _half_purchase_due(trip=trip, approval=approval, paid=paid, now=now, grace=grace):
                    flagged += _half_purchase_flag(trip=trip, approval=approval, paid=paid)
    return flagged


def _trips_with_unbooked_purchases() -> list[int]:
    """Trips with a paid-for Hold row no booking lists: read without locks, each is checked again under
    its lock. Trips whose purchases all completed are left out, so they are never locked here."""
    paid = list(Hold.objects.filter(status=Hold.Status.PURCHASED).values_list("trip_id", "hold_id"))
    bookings = Booking.objects.filter(trip_id__in={trip_id for trip_id, _ in paid}).values_list("trip_id", "orders")
    booked = {(trip_id, order.get("hold_id")) for trip_id, orders in bookings for order in orders or []}
    return sorted({trip_id for trip_id, hold_id in paid if (trip_id, hold_id) not in booked})


def _half_purchases(*, trip: Trip) -> list[tuple[ApprovalRequest, list[Hold]]]:
    """The trip's half-finished purchases: each approval with the holds it paid for that no booking lists.

    Paid holds come from the Hold rows and from the TripIntent (the same thing, unless a sync is
    behind). An approval whose purchase already failed for good was flagged by ``_outcome``.
    """
    booked = {
        order.get("hold_id")
        for orders in Booking.objects.filter(trip=trip).values_list("orders", flat=True)
        for order in orders or []
    }
    intent = trip.intent or {}
    paid_ids = set(Hold.objects.filter(trip=trip, status=Hold.Status.PURCHASED).values_list("hold_id", flat=True))
    if intent.get("working_memory"):
        paid_ids |= {h["hold_id"] for h in unbooked_purchases(intent) if h.get("hold_id")}
    paid = {hold.hold_id: hold for hold in Hold.objects.filter(trip=trip, hold_id__in=paid_ids - booked)}
    failed_for_good = {
        event.payload.get("approval_id") for event in AuditEvent.objects.filter(trip=trip, type="purchase.failed")
    }
    found, claimed = [], set()
    approvals = ApprovalRequest.objects.filter(trip=trip, kind=ApprovalRequest.Kind.PURCHASE, booking__isnull=True)
    for approval in approvals.order_by("-created_at"):
        mine = sorted(set(approval.hold_ids) & (paid.keys() - claimed))
        claimed |= set(mine)
        if mine and approval.pk not in failed_for_good:
            found.append((approval, [paid[hold_id] for hold_id in mine]))
    return found


def _half_purchase_due(
    *, trip: Trip, approval: ApprovalRequest, paid: list[Hold], now: datetime, grace: timedelta
) -> bool:
    """Whether to give up waiting for a resubmission: the rest has ended, or the grace period is over."""
    if approval.claimed_until is not None and approval.claimed_until > now:
        return False  # a purchase with this approval is under way
    rest = list(Hold.objects.filter(trip=trip, hold_id__in=approval.hold_ids).exclude(status=Hold.Status.PURCHASED))
    if rest and not any(hold.is_live(now) for hold in rest):
        return True
    paid_at = (
        AuditEvent.objects.filter(
            trip=trip, type=f"hold.{Hold.Status.PURCHASED}", payload__hold_id__in=[hold.hold_id for hold in paid]
        )
        .order_by("created_at")
        .values_list("created_at", flat=True)
        .first()
    )
    return (paid_at or trip.last_activity_at) <= now - grace


def _half_purchase_flag(*, trip: Trip, approval: ApprovalRequest, paid: list[Hold]) -> int:
    """Flag the trip, audit why, tell the traveller; once per half purchase (1 if done now, else 0).

    Runs inside the caller's transaction, with the trip's row locked.
    """
    paid_ids = sorted(hold.hold_id for hold in paid)
    key = "half_purchase:" + hashlib.sha256(f"{approval.pk}:{','.join(paid_ids)}".encode()).hexdigest()[:32]
    if AuditEvent.objects.filter(trip=trip, type="trip.flagged", causation_id=key).exists():
        return 0
    unpaid = list(Hold.objects.filter(trip=trip, hold_id__in=approval.hold_ids).exclude(hold_id__in=paid_ids))
    booked = {order.get("order_id") for orders in trip.bookings.values_list("orders", flat=True) for order in orders}
    orders = sorted(
        {
            order_id
            for run in ToolRun.objects.filter(trip=trip, tool=PURCHASE_TOOL, status=ToolRun.Status.FAILED)
            for order_id in tool_outcome(run.result)[1].get("bought_orders") or []
        }
        - booked
    )
    bought, missing = _items_told(paid), _items_told(unpaid)
    trip_flagged(
        trip=trip,
        actor=None,
        reason=f"Purchase left half finished: bought {bought}; not bought {missing or 'nothing else'}; "
        f"supplier orders {', '.join(orders) or 'unknown'}. Nobody submitted it again.",
        causation_id=key,
        details={
            "approval_id": approval.pk,
            "bought": [_hold_told(hold) for hold in paid],
            "not_bought": [_hold_told(hold) for hold in unpaid],
            "supplier_orders": orders,
        },
    )
    chat_message_add(
        trip_id=trip.pk,
        role=ChatMessage.Role.ASSISTANT,
        kind=ChatMessage.Kind.STATUS,
        text=f"Part of your purchase went through ({bought}); the rest did not"
        f"{f' ({missing})' if missing else ''}. Our travel team has been alerted and will sort it out "
        "— you won't be charged twice.",
    )
    return 1


def _hold_told(hold: Hold) -> dict:
    return {"hold_id": hold.hold_id, "item_type": hold.item_type, "amount": str(hold.amount), "currency": hold.currency}


def _items_told(holds: list[Hold]) -> str:
    """``the flight, 420.00 USD and the hotel, 610.00 USD``: what the traveller and staff read."""
    return " and ".join(f"the {hold.item_type}, {money_text(hold.amount, hold.currency)}" for hold in holds)
