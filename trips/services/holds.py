"""Holds: the Hold rows that mirror ``working_memory.holds``, and the requests they start.

The mission core owns the holds (it places and releases them at the supplier and records
them in the TripIntent); the transaction that saves the TripIntent derives from it the rows the
admin can filter and the purchase path can check (``holds_follow``), and opens the approval
request the new holds need. Deadlines are judged on every read (``Hold.is_live``); ``holds_expire_due`` only
writes down what the clock already decided.

The other direction: a hold that changes outside a turn (staff release it, its deadline
passes) queues a ``HOLDS_CHANGED`` turn, so the core writes it into the TripIntent, voids the
approval bound to it and tells the traveller what to do next.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any, Optional

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from handlers.common.clock import parse_now
from handlers.supplier import SupplierError
from handlers.trip_read import unbooked_purchases
from trips.access import trip_may
from trips.formats import duration_text, trip_zone, when_text
from trips.models import ApprovalRequest, Booking, ChatMessage, Hold, Trip
from trips.notifications import HOLDS_EXPIRING, notify_on_commit
from trips.services.approvals import approval_close, approval_request_create
from trips.services.audit import audit_record
from trips.services.chat import chat_message_add
from trips.services.dispatch import turn_enqueue_on_commit

RELEASE_PERMISSION = "trips.release_hold"


def holds_sync(*, trip: Trip, trip_intent: dict, now: Optional[datetime] = None) -> list[Hold]:
    """``holds_follow`` in a transaction of its own, with the trip's row locked (the TripIntent
    was stored earlier: fixtures, and rows rebuilt by hand)."""
    with transaction.atomic(durable=True):
        Trip.objects.select_for_update().filter(pk=trip.pk).values_list("pk", flat=True).get()
        return holds_follow(trip=trip, trip_intent=trip_intent, now=now)


def holds_follow(*, trip: Trip, trip_intent: dict, now: Optional[datetime] = None) -> list[Hold]:
    """Derive the trip's hold and booking rows, and the approvals they need, from its TripIntent.

    Inside the transaction that saves the TripIntent (``intents.trip_intent_save``), whose UPDATE
    holds the trip's row locked: the rows never disagree with a committed TripIntent, and two
    turns finishing together cannot open two requests. Idempotent: run twice, the second changes
    nothing. Returns the holds that appeared.
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("holds_follow() must run inside the transaction that saves the TripIntent")
    now = now or timezone.now()
    wm = trip_intent.get("working_memory") or {}
    core_holds = {h["hold_id"]: h for h in wm.get("holds") or [] if h.get("hold_id")}
    rows = {hold.hold_id: hold for hold in Hold.objects.filter(trip=trip)}
    created = _holds_create(trip=trip, datas=[data for hold_id, data in core_holds.items() if hold_id not in rows])
    for hold_id, row in rows.items():
        status = (core_holds.get(hold_id) or {}).get("status", Hold.Status.RELEASED)
        if row.status == Hold.Status.HELD and status != Hold.Status.HELD:
            _hold_status_set(row, status=status, actor="worker", reason="The trip changed.")
    _approvals_follow(trip=trip, trip_intent=trip_intent, holds=[*rows.values(), *created], new_holds=created, now=now)
    _bookings_follow(trip=trip, bookings=wm.get("bookings") or [])
    return created


def hold_release(*, hold: Hold, actor, reason: str, supplier: Any, now: datetime) -> Hold:
    """A staff member releases one hold (see ``holds_release``)."""
    holds_release(holds=[hold], actor=actor, reason=reason, supplier=supplier, now=now)
    hold.refresh_from_db()
    return hold


def holds_release(*, holds: list[Hold], actor, reason: str, supplier: Any, now: datetime) -> list[Hold]:
    """A staff member releases holds of one trip at the supplier (audited, with the reason, told in chat).

    ``supplier`` is the core's sandbox supplier (or a real adapter); each release happens there
    first, so a failed supplier call leaves that row as it was. Purchases check the rows, so a
    released hold cannot be bought even while the TripIntent still lists it. The holds released
    together make one ``HOLDS_CHANGED`` turn: the traveller gets one reply, not one per hold.
    Returns the holds released; a supplier failure is raised after the others are recorded.
    """
    if not reason.strip():
        raise ValidationError("Give a reason: it goes into the audit trail and the traveller's chat.")
    if len({hold.trip_id for hold in holds}) > 1:
        raise ValueError("holds_release takes the holds of one trip")
    if holds and not trip_may(actor, RELEASE_PERMISSION, holds[0].trip_id):
        raise PermissionDenied("Only the support staff of this trip's organisation can release its holds.")
    for hold in holds:
        if hold.status != Hold.Status.HELD:
            raise ValidationError(f"This hold is already {hold.get_status_display().lower()}.")
    at_supplier, failure = [], None
    for hold in holds:
        try:
            supplier.hold_release(hold.hold_id, now=now)
        except SupplierError as exc:
            failure = ValidationError(f"The supplier could not release {hold.hold_id}: {exc.message}")
            break
        at_supplier.append(hold)
    released = _holds_released(holds=at_supplier, actor=actor, reason=reason.strip())
    if failure is not None:
        raise failure
    return released


def _holds_released(*, holds: list[Hold], actor, reason: str) -> list[Hold]:
    """Write down holds released at the supplier and queue the one turn that tells the trip."""
    if not holds:
        return []
    with transaction.atomic(durable=True):
        rows = Hold.objects.select_for_update().filter(pk__in=[hold.pk for hold in holds], status=Hold.Status.HELD)
        released = list(rows.order_by("payment_required_by"))
        for hold in released:
            _hold_status_set(hold, status=Hold.Status.RELEASED, actor=f"staff:{actor.pk}", reason=reason, user=actor)
        if released:
            held = "hold on the" if len(released) == 1 else "holds on the"
            items = " and ".join(sorted({hold.item_type for hold in released}))
            message = _holds_changed_message(
                released, text=f"Support released your {held} {items}: {reason}", reason=reason
            )
            turn_enqueue_on_commit(message.trip_id, message.pk)
    return released


def holds_voided(*, holds: list[Hold], reason: str) -> None:
    """Holds whose purchase was voided at the supplier (an interrupted purchase undone): written down
    as released and told to the trip by one queued ``HOLDS_CHANGED`` turn. Inside the caller's transaction."""
    changed = [hold for hold in holds if hold.status != Hold.Status.RELEASED]
    for hold in changed:
        _hold_status_set(hold, status=Hold.Status.RELEASED, actor="system", reason=reason)
    if changed:
        message = _holds_changed_message(changed, text=f"Released: {reason}", reason=reason)
        turn_enqueue_on_commit(message.trip_id, message.pk)


def holds_expire_due(*, now: datetime) -> int:
    """Write down holds whose deadline passed (every read already treats them as gone).

    Each expiry queues a ``HOLDS_CHANGED`` turn; ``holds_changed_dispatch`` runs them.
    """
    expired = 0
    for hold in Hold.objects.filter(status=Hold.Status.HELD, payment_required_by__lte=now):
        with transaction.atomic(durable=True):
            hold = Hold.objects.select_for_update().get(pk=hold.pk)
            if hold.status == Hold.Status.HELD:
                _hold_status_set(hold, status=Hold.Status.EXPIRED, actor="system", reason="Passed its deadline.")
                _holds_changed_message(
                    [hold], text=f"Your hold on the {hold.item_type} has expired.", reason="Passed its deadline."
                )
                expired += 1
    return expired


def holds_changed_dispatch() -> int:
    """Run the queued ``HOLDS_CHANGED`` turns: one task per trip, which runs all its queued turns.

    The deadline task calls this last, so approvals expire by their own deadline first (and are
    recorded as expired, not superseded by the turn's sync). Returns how many trips were sent.
    """
    queued = ChatMessage.objects.filter(turn_status=ChatMessage.TurnStatus.QUEUED, event__type="HOLDS_CHANGED")
    latest = dict(queued.order_by("seq").values_list("trip_id", "pk"))
    for trip_id, message_id in latest.items():
        turn_enqueue_on_commit(trip_id, message_id)
    return len(latest)


def holds_warn_due(*, now: datetime, ahead: timedelta) -> int:
    """Warn the traveller (chat) and staff (audit trail, admin filter) of deadlines within ``ahead``.

    Each hold is warned once (``warned_at``); the conditional update makes that hold even
    when two beat workers overlap.
    """
    warned = 0
    due = Hold.objects.filter(
        status=Hold.Status.HELD,
        warned_at__isnull=True,
        payment_required_by__gt=now,
        payment_required_by__lte=now + ahead,
    )
    for hold in due.select_related("trip__organisation"):
        with transaction.atomic(durable=True):
            if not Hold.objects.filter(pk=hold.pk, warned_at__isnull=True).update(warned_at=now):
                continue
            minutes = int((hold.payment_required_by - now).total_seconds() // 60)
            audit_record(
                trip_id=hold.trip_id,
                type="hold.deadline_warning",
                actor="system",
                payload={"hold_id": hold.hold_id, "payment_required_by": hold.payment_required_by.isoformat()},
            )
            chat_message_add(
                trip_id=hold.trip_id,
                role=ChatMessage.Role.ASSISTANT,
                kind=ChatMessage.Kind.STATUS,
                text=(
                    f"Heads up: your hold on the {hold.item_type} ends in {duration_text(minutes)}, at "
                    f"{when_text(hold.payment_required_by, trip_zone(hold.trip))}. Pay before then."
                ),
                widget={"type": "holds", "holds": [hold_as_widget(hold)], "earliest_deadline": None},
            )
            notify_on_commit(HOLDS_EXPIRING, hold.pk)
            warned += 1
    return warned


def hold_as_widget(hold: Hold) -> dict:
    """A hold in the chat widget's shape (``handlers/README.md``, ``holds``)."""
    return {
        "hold_id": hold.hold_id,
        "item_type": hold.item_type,
        "status": hold.status,
        "payment_required_by": hold.payment_required_by.isoformat(),
        "held_total": {"amount": str(hold.amount), "currency": hold.currency},
    }


# --- helpers ---------------------------------------------------------------------------------


def _holds_create(*, trip: Trip, datas: list[dict]) -> list[Hold]:
    """The rows of holds the TripIntent gained (one INSERT for all of them), each audited."""
    if not datas:
        return []
    holds = Hold.objects.bulk_create(
        [
            Hold(
                trip=trip,
                hold_id=data["hold_id"],
                item_type=data.get("item_type", ""),
                offer_id=data.get("offer_id") or data.get("rate_id") or "",
                segment_id=data.get("segment_id") or data.get("stay_id") or "",
                status=data.get("status") or Hold.Status.HELD,
                amount=Decimal(str((data.get("held_total") or {}).get("amount") or "0")),
                currency=(data.get("held_total") or {}).get("currency") or "",
                payment_required_by=parse_now(data["payment_required_by"]),
                price_guarantee_expires_at=(
                    parse_now(data["price_guarantee_expires_at"]) if data.get("price_guarantee_expires_at") else None
                ),
                idempotency_key=data.get("idempotency_key") or "",
                created_at=parse_now(data["created_at"]) if data.get("created_at") else timezone.now(),
            )
            for data in datas
        ]
    )
    for hold in holds:
        audit_record(
            trip_id=trip.pk,
            type="hold.created",
            actor="worker",
            payload={
                "hold_id": hold.hold_id,
                "item_type": hold.item_type,
                "amount": str(hold.amount),
                "currency": hold.currency,
                "payment_required_by": hold.payment_required_by.isoformat(),
            },
        )
    return holds


def _holds_changed_message(holds: list[Hold], *, text: str, reason: str) -> ChatMessage:
    """The system line that tells the trip (and the core, through its queued turn) holds changed.

    ``holds`` are one trip's, changed the same way. The event is stored on the message like any
    queued turn's, so a replay sees the same change.
    """
    return chat_message_add(
        trip_id=holds[0].trip_id,
        role=ChatMessage.Role.SYSTEM,
        kind=ChatMessage.Kind.ACTION,
        text=text,
        widget={"type": "holds", "holds": [hold_as_widget(hold) for hold in holds], "earliest_deadline": None},
        event={
            "type": "HOLDS_CHANGED",
            "data": {"hold_ids": [hold.hold_id for hold in holds], "status": holds[0].status, "reason": reason},
        },
        turn_status=ChatMessage.TurnStatus.QUEUED,
    )


def _hold_status_set(hold: Hold, *, status: str, actor: str, reason: str, user=None) -> None:
    hold.status = status
    hold.save(update_fields=["status"])
    audit_record(
        trip_id=hold.trip_id,
        type=f"hold.{status}",
        actor=actor,
        actor_user=user,
        payload={"hold_id": hold.hold_id, "reason": reason},
    )


def _approvals_follow(
    *, trip: Trip, trip_intent: dict, holds: list[Hold], new_holds: list[Hold], now: datetime
) -> None:
    """Close the requests the trip's new state has overtaken; open the ones it needs.

    A purchase request stands for one exact set of live holds: when that set changes it is
    superseded, and new holds get a new request. A hold request is used once the holds it
    allowed appear, and superseded if the traveller moved on before anyone decided.
    """
    live = sorted(h.hold_id for h in holds if h.status == Hold.Status.HELD and h.is_live(now))
    # A purchase stopped half way keeps its approval: the resubmission replays what it paid for.
    paid = unbooked_purchases(trip_intent) if trip_intent.get("working_memory") else []
    covered = sorted(set(live) | {h["hold_id"] for h in paid if h.get("hold_id")})
    awaiting = (trip_intent.get("status") or {}).get("phase") == "awaiting_hold_approval"
    Kind, Status = ApprovalRequest.Kind, ApprovalRequest.Status
    for approval in ApprovalRequest.objects.select_for_update().filter(
        trip=trip, status__in=ApprovalRequest.OPEN_STATUSES
    ):
        if approval.kind == Kind.PURCHASE and approval.hold_ids != covered:
            approval_close(approval, Status.SUPERSEDED, now=now, reason="The holds it covered changed.")
        elif approval.kind == Kind.HOLD and new_holds:
            approval_close(approval, Status.USED, now=now, reason="The holds were placed.")
        elif approval.kind == Kind.HOLD and approval.status == Status.PENDING and not awaiting:
            approval_close(approval, Status.SUPERSEDED, now=now, reason="The trip changed before a decision.")
    if live and new_holds:
        approval_request_create(trip=trip, kind=Kind.PURCHASE, trip_intent=trip_intent, now=now)
    if (
        awaiting
        and not ApprovalRequest.objects.filter(
            trip=trip, kind=Kind.HOLD, status__in=ApprovalRequest.OPEN_STATUSES
        ).exists()
    ):
        approval_request_create(trip=trip, kind=Kind.HOLD, trip_intent=trip_intent, now=now)


def _bookings_follow(*, trip: Trip, bookings: list[dict]) -> None:
    """Record cancellations the core confirmed (bookings themselves are written at purchase)."""
    cancelled = [
        b["booking_id"] for b in bookings if b.get("status") == Booking.Status.CANCELLED and b.get("booking_id")
    ]
    for booking in Booking.objects.filter(trip=trip, booking_id__in=cancelled).exclude(status=Booking.Status.CANCELLED):
        booking.status = Booking.Status.CANCELLED
        booking.save(update_fields=["status"])
        audit_record(
            trip_id=trip.pk, type="booking.cancelled", actor="worker", payload={"booking_id": booking.booking_id}
        )
