"""Approval requests: opened with the server's own snapshot, closed when overtaken or expired.

A request records what an approver is asked to approve, built from the stored TripIntent
(never from anything the traveller typed): for a purchase, every live hold with its price and
deadline; for a hold (where policy keeps holds behind an approver), the selected bundle. The
snapshot is written once, here, and never changed.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Optional

from django.core.exceptions import ValidationError
from django.db import transaction

from handlers.common.clock import local_time_text
from handlers.common.formats import party_text
from handlers.wording import money as money_text
from trips.models import ApprovalRequest, ChatMessage, Hold, Trip
from trips.notifications import APPROVAL_REQUESTED, notify_on_commit
from trips.services.audit import audit_record
from trips.services.chat import broadcast_on_commit, chat_message_add, trip_status_frame

from .policy import auto_approvable


def approval_request_create(
    *,
    trip: Trip,
    kind: str,
    trip_intent: dict,
    now: datetime,
    total: Optional[Decimal] = None,
    supersedes: Optional[ApprovalRequest] = None,
) -> ApprovalRequest:
    """A pending request whose snapshot the server builds from the stored TripIntent.

    Nothing the traveller typed goes into it: items, totals and deadlines come from the holds
    and bundles the tools returned. ``total`` overrides the held total after a re-price.
    Any other open request of the same kind is superseded: one open request per trip and kind.
    Called inside the caller's transaction (``holds_sync`` or the purchase outcome).
    """
    if kind == ApprovalRequest.Kind.PURCHASE:
        snapshot = purchase_snapshot(trip_intent, total=total)
        expires_at = _parse(snapshot["earliest_deadline"])
        hold_ids = sorted(item["hold_id"] for item in snapshot["items"])
    else:
        snapshot = hold_snapshot(trip_intent)
        expires_at, hold_ids = None, []
    for stale in ApprovalRequest.objects.select_for_update().filter(
        trip=trip, kind=kind, status__in=ApprovalRequest.OPEN_STATUSES
    ):
        approval_close(stale, ApprovalRequest.Status.SUPERSEDED, now=now, reason="A newer request replaced it.")
    approval = ApprovalRequest.objects.create(
        kind=kind,
        trip=trip,
        organisation_id=trip.organisation_id,
        snapshot=snapshot,
        hold_ids=hold_ids,
        amount_ceiling=Decimal(snapshot["total"]),
        currency=snapshot["currency"],
        expires_at=expires_at,
        supersedes=supersedes,
        created_at=now,
    )
    if Trip.organisation.is_cached(trip):  # the turn's claim read it: the policy check below reads it from here
        approval.organisation = trip.organisation
    audit_record(
        trip_id=trip.pk,
        type="approval.requested",
        actor="system",
        payload={"approval_id": approval.pk, "kind": kind, "total": snapshot["total"], "currency": approval.currency},
    )
    notify_on_commit(APPROVAL_REQUESTED, approval.pk)
    if kind == ApprovalRequest.Kind.PURCHASE:
        zone = (trip_intent.get("request") or {}).get("timezone") or "UTC"
        text = (
            f"I've asked your approver to approve {money_text(snapshot['total'], approval.currency)}"
            f"{' for ' + party if (party := party_text(snapshot.get('travelers'))) else ''}. "
            "You'll see their answer here; the holds last until "
            f"{local_time_text(snapshot['earliest_deadline'], zone)}."
        )
    else:
        text = "Your organisation needs an approver's yes before I place holds. I've sent the request."
    chat_message_add(
        trip_id=trip.pk,
        role=ChatMessage.Role.ASSISTANT,
        kind=ChatMessage.Kind.STATUS,
        text=text,
        widget=approval_widget(approval),
    )
    return approval


def purchase_snapshot(trip_intent: dict, *, total: Optional[Decimal] = None) -> dict:
    """What a purchase approver approves: every live hold, its price and deadline, the findings."""
    wm = trip_intent.get("working_memory") or {}
    holds = [h for h in wm.get("holds") or [] if h.get("status") == Hold.Status.HELD]
    if not holds:
        raise ValidationError("There are no live holds to approve.")
    currencies = {h["held_total"]["currency"] for h in holds}
    if len(currencies) != 1:
        raise ValidationError(f"Holds in several currencies cannot share one approval: {sorted(currencies)}.")
    bundle = _selected_bundle(wm)
    items = [
        {
            "hold_id": h["hold_id"],
            "item_type": h.get("item_type", ""),
            "ref": h.get("offer_id") or h.get("rate_id") or "",
            "part": h.get("segment_id") or h.get("stay_id") or "",
            "summary": _item_summary(bundle, h),
            "amount": h["held_total"]["amount"],
            "currency": h["held_total"]["currency"],
            "payment_required_by": h["payment_required_by"],
            "price_guarantee_expires_at": h.get("price_guarantee_expires_at"),
            "instant": bool(h.get("instant")),  # must be paid at once: reserved, bought in one order
        }
        for h in holds
    ]
    held_total = sum((Decimal(item["amount"]) for item in items), Decimal("0"))
    return {
        "bundle_id": (bundle or {}).get("bundle_id"),
        "items": items,
        "total": str((total if total is not None else held_total).quantize(Decimal("0.01"))),
        "held_total": str(held_total.quantize(Decimal("0.01"))),
        "currency": currencies.pop(),
        "earliest_deadline": min(item["payment_required_by"] for item in items),
        "policy_findings": _findings(wm),
        "travelers": ((trip_intent.get("party") or {}).get("travelers") or {}),
    }


def hold_snapshot(trip_intent: dict) -> dict:
    """What a hold approver approves: the selected bundle's items, its total and the findings."""
    wm = trip_intent.get("working_memory") or {}
    bundle = _selected_bundle(wm)
    if bundle is None:
        raise ValidationError("No bundle is selected.")
    items = [
        {"item_type": "flight", "ref": f.get("offer_id"), "part": f.get("segment_id"), "summary": f.get("summary")}
        for f in bundle.get("flights") or []
    ] + [
        {"item_type": "hotel", "ref": h.get("rate_id"), "part": h.get("stay_id"), "summary": h.get("summary")}
        for h in bundle.get("hotels") or []
    ]
    return {
        "bundle_id": bundle.get("bundle_id"),
        "items": items,
        "total": str(Decimal(str(bundle.get("total") or "0")).quantize(Decimal("0.01"))),
        "currency": bundle.get("currency") or "",
        "earliest_deadline": None,
        "policy_findings": _findings(wm),
        "travelers": ((trip_intent.get("party") or {}).get("travelers") or {}),
    }


# Closings the chat says with the request's card (a revocation says its own; a used request, the booking).
_CLOSED_SAID = {
    ApprovalRequest.Status.SUPERSEDED: "That approval request no longer applies: {reason}.",
    ApprovalRequest.Status.EXPIRED: "That approval request is no longer valid; nothing was bought.",
}


def approval_close(approval: ApprovalRequest, status: str, *, now: datetime, reason: str, actor=None) -> None:
    """Close a locked open request (expired, superseded, revoked) inside the caller's transaction.

    Its token stops working at once: verification accepts only ``granted``. A purchase claim stays
    (unless it is used): closing the request does not undo what a purchase under way may already
    have bought at the supplier, so that purchase's outcome, or the reconciliation sweep
    (``trips.services.purchase_reconcile``), releases it.
    """
    approval.status, approval.reason = status, reason
    approval.decided_at = approval.decided_at or now
    if status == ApprovalRequest.Status.USED:
        approval.used_at, approval.claimed_until = now, None
    approval.save(update_fields=["status", "reason", "claimed_until", "decided_at", "used_at"])
    if approval.kind == ApprovalRequest.Kind.PURCHASE:
        if status in _CLOSED_SAID:
            # the request's card above says "Pending" (or "Granted") until a newer card says otherwise
            chat_message_add(
                trip_id=approval.trip_id,
                role=ChatMessage.Role.ASSISTANT,
                kind=ChatMessage.Kind.STATUS,
                text=_CLOSED_SAID[status].format(reason=(reason or "").rstrip(".").lower() or "the trip changed"),
                widget=approval_widget(approval),
            )
        approval_status_push(approval)
    audit_record(
        trip_id=approval.trip_id,
        type=f"approval.{status}",
        actor=f"staff:{actor.pk}" if actor else "system",
        actor_user=actor,
        payload={"approval_id": approval.pk, "kind": approval.kind, "reason": reason},
    )


def approvals_expire_due(*, now: datetime) -> int:
    """Mark granted or pending requests past their deadline expired (reads already refuse them)."""
    expired = 0
    for approval in ApprovalRequest.objects.filter(
        status__in=ApprovalRequest.OPEN_STATUSES, expires_at__lte=now
    ).select_related("trip"):
        with transaction.atomic(durable=True):
            approval = approval_locked(approval)
            if approval.status in ApprovalRequest.OPEN_STATUSES:
                approval_close(approval, ApprovalRequest.Status.EXPIRED, now=now, reason="Passed its deadline.")
                expired += 1
    return expired


def approval_locked(approval: ApprovalRequest) -> ApprovalRequest:
    """The request re-read under its row lock: decisions act on its current status, not a stale copy."""
    return ApprovalRequest.objects.select_for_update().select_related("trip", "organisation").get(pk=approval.pk)


def approval_dead_holds(approval: ApprovalRequest, now: datetime) -> list[str]:
    """The bound holds that are not live now (missing, released, or past their deadline).

    A hold already paid for counts as live: a purchase stopped half way keeps what it bought, and
    submitting it again with the same approval replays that (``handlers/README.md``).
    """
    live = {
        hold.hold_id
        for hold in Hold.objects.filter(trip_id=approval.trip_id, hold_id__in=approval.hold_ids)
        if hold.is_live(now) or hold.status == Hold.Status.PURCHASED
    }
    return [hold_id for hold_id in approval.hold_ids if hold_id not in live]


def approval_widget(approval: ApprovalRequest) -> dict:
    """The chat's ``approval`` widget: status, amount and deadline, never the token.

    ``auto_approvable``: the organisation's policy lets the traveller approve it themselves.
    """
    return {
        "type": "approval",
        "approval_id": approval.pk,
        "kind": approval.kind,
        "status": approval.status,
        "amount": str(approval.amount_ceiling) if approval.amount_ceiling is not None else None,
        "currency": approval.currency,
        "expires_at": approval.expires_at.isoformat() if approval.expires_at else None,
        "reason": approval.reason,
        "auto_approvable": auto_approvable(approval),
    }


def approval_purchase_offer(*, trip_id: int, now: datetime) -> Optional[dict]:
    """What the traveller may pay for right now, or None: the trip's granted, unused, unexpired purchase approval.

    The chat shows a pay action only while this is not None (``trip_status_frame`` carries it),
    naming the amount, what it covers and what cannot be refunded. No token: the owner's
    purchase re-issues one on the server (``approval_token_for_owner``).
    """
    approval = (
        ApprovalRequest.objects.filter(
            trip_id=trip_id,
            kind=ApprovalRequest.Kind.PURCHASE,
            status=ApprovalRequest.Status.GRANTED,
            used_at__isnull=True,
        )
        .order_by("-created_at")
        .first()
    )
    if approval is None or not approval.is_usable(now):
        return None
    snapshot = approval.snapshot or {}
    items = [
        {
            "item_type": item.get("item_type") or "",
            "label": _item_label(item),
            "amount": item.get("amount"),
            "currency": item.get("currency") or approval.currency,
            "refundable": bool((item.get("summary") or {}).get("refundable")),
        }
        for item in snapshot.get("items") or []
    ]
    return {
        "approval_id": approval.pk,
        "amount": str(approval.amount_ceiling),
        "currency": approval.currency,
        "expires_at": approval.expires_at.isoformat() if approval.expires_at else None,
        "items": items,
        "travelers": snapshot.get("travelers") or {},
    }


def _item_label(item: dict) -> str:
    """ "Flight EWR → DEN · UA 123" or "Hotel Chicago Travelers Lodge", as the cards name them."""
    summary = item.get("summary") or {}
    if item.get("item_type") == "hotel":
        return " ".join(part for part in ("Hotel", str(summary.get("hotel_name") or "")) if part)
    route = " → ".join(str(p) for p in (summary.get("origin"), summary.get("destination")) if p)
    numbers = ", ".join(summary.get("flight_numbers") or [])
    return " · ".join(part for part in ("Flight " + route if route else "Flight", numbers) if part)


def approval_status_push(approval: ApprovalRequest) -> None:
    """After commit, tell the trip's browsers its status again: the pay action follows the approval."""
    trip_id = approval.trip_id

    def push() -> None:
        trip = Trip.objects.only("pk", "phase", "state", "version").get(pk=trip_id)
        broadcast_on_commit(trip_id, trip_status_frame(trip))

    transaction.on_commit(push, robust=True)


def _selected_bundle(wm: dict) -> Optional[dict]:
    bundle_id = (wm.get("selected") or {}).get("bundle_id")
    return next((b for b in wm.get("ranked_bundles") or [] if b.get("bundle_id") == bundle_id), None)


def _item_summary(bundle: Optional[dict], hold: dict) -> Optional[dict]:
    ref = hold.get("offer_id") or hold.get("rate_id")
    for part in (bundle or {}).get("flights", []) + (bundle or {}).get("hotels", []):
        if ref and ref in (part.get("offer_id"), part.get("rate_id")):
            return part.get("summary")
    return None


def _findings(wm: dict) -> dict:
    report = wm.get("risk_report") or {}
    return {"ok": report.get("ok"), "blocking": report.get("blocking") or [], "warnings": report.get("warnings") or []}


def _parse(value: Optional[str]) -> Optional[datetime]:
    if not value:
        return None
    return datetime.fromisoformat(str(value).replace("Z", "+00:00"))
