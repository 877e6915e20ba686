"""Checking a token at purchase: constant-time match, every binding and deadline, one claim.

``approval_check`` is read-only and runs before any turn (so a bad token never reaches the
core); ``approval_claim`` repeats it under the approval's row lock inside the purchase tool
and claims the approval for that one purchase; ``approval_consume`` records the booking and
spends the approval. Wrong tokens are rate-limited per trip.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any, Iterable, Optional

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from trips.models import ApprovalRequest, AuditEvent, Booking, Hold
from trips.notifications import BOOKING_CONFIRMED, notify_on_commit
from trips.services import tokens
from trips.services.audit import audit_record

from .requests import approval_dead_holds

# A purchase that claimed an approval owns it for this long; a crashed worker's claim lapses by itself.
CLAIM_SECONDS = 120
# Wrong tokens tolerated per trip in the window before verification refuses outright.
ATTEMPTS_PER_WINDOW = 5
ATTEMPT_WINDOW = timedelta(minutes=10)
TOKEN_REFUSALS = ("token_malformed", "token_unknown", "token_other_trip")


@dataclass(frozen=True)
class Verdict:
    """The answer to "may this token buy these holds now?".

    ``code`` is the core's error code (``handlers/README.md``); ``reason`` the finer audit code.
    """

    ok: bool
    code: str
    reason: str
    message: str
    approval: Optional[ApprovalRequest] = None

    @property
    def replay(self) -> bool:
        return self.ok and self.approval is not None and self.approval.status == ApprovalRequest.Status.USED

    def as_core(self) -> dict:
        """The shape ``handlers.common.host.ApprovalVerifier.verify`` promises.

        A replay is not an ``ok`` to buy: it is ``approval_used`` carrying the booking the
        approval already made, which the purchase tool returns as it is.
        """
        approval = self.approval if self.ok else None
        return {
            "ok": self.ok and not self.replay,
            "code": "approval_used" if self.replay else self.code,
            "message": self.message,
            "approval_id": str(approval.pk) if approval else None,
            "ceiling": str(approval.amount_ceiling) if approval else None,
            "currency": approval.currency if approval else None,
            "existing_booking": booking_as_core(approval.booking) if self.replay else None,
        }


def _refuse(code: str, reason: str, message: str, approval: Optional[ApprovalRequest] = None) -> Verdict:
    return Verdict(False, code, reason, message, approval)


def approval_check(*, trip_id: Any, token: Any, hold_ids: Iterable[str], now: datetime) -> Verdict:
    """Read-only verdict on a token for a trip's holds; every check runs on every purchase.

    The token is compared against this trip's purchase approvals in constant time; a token
    of another trip is refused the same way (the audit reason tells them apart).
    """
    if _recent_token_refusals(trip_id) >= _setting("APPROVAL_ATTEMPTS_PER_WINDOW", ATTEMPTS_PER_WINDOW):
        return _refuse(
            "rate_limited",
            "rate_limited",
            "Too many wrong approval tokens for this trip. Wait ten minutes and try again.",
        )
    invalid = "That approval token is not valid for this trip. Use the token your approver gave you."
    if not tokens.token_well_formed(token):
        return _refuse("approval_invalid", "token_malformed", invalid)
    approval = next(
        (
            candidate
            for candidate in ApprovalRequest.objects.filter(trip_id=trip_id, kind=ApprovalRequest.Kind.PURCHASE)
            .exclude(token_hash="")
            .select_related("booking")
            if tokens.token_matches(token, candidate.token_hash)
        ),
        None,
    )
    if approval is None:
        elsewhere = ApprovalRequest.objects.filter(token_hash=tokens.token_digest(token)).exists()
        return _refuse("approval_invalid", "token_other_trip" if elsewhere else "token_unknown", invalid)
    return approval_verdict(approval=approval, hold_ids=hold_ids, now=now)


def approval_verdict(*, approval: ApprovalRequest, hold_ids: Iterable[str], now: datetime) -> Verdict:
    """May ``approval`` buy ``hold_ids`` now? Every check but the token's (``approval_check`` found it
    by its token; a queued purchase names it, its token checked when the traveller submitted it)."""
    status, hold_ids = ApprovalRequest.Status, sorted(hold_ids)
    if approval.status == status.USED:
        # Asking again for what it bought (or for nothing new) gets that booking back; anything else is refused.
        if hasattr(approval, "booking") and set(hold_ids) <= set(approval.hold_ids):
            return Verdict(True, "ok", "replay", "Already purchased with this approval.", approval)
        return _refuse(
            "approval_used",
            "token_used",
            "This approval token has already been used and cannot buy anything else.",
            approval,
        )
    # Expiry first: once it has lapsed, "expired" is the truthful answer whatever the holds are now.
    if approval.status == status.EXPIRED or (approval.expires_at and now >= approval.expires_at):
        return _refuse(
            "approval_expired", "approval_expired", "This approval has expired. Hold again to get a new one.", approval
        )
    if hold_ids != sorted(approval.hold_ids):
        return _refuse(
            "approval_invalid",
            "holds_mismatch",
            "This approval covers other holds than the ones you are buying. Ask for a new approval.",
            approval,
        )
    if approval.status == status.DENIED:
        return _refuse(
            "approval_invalid", "approval_denied", f"This purchase was declined: {approval.reason}", approval
        )
    if approval.status in (status.REVOKED, status.SUPERSEDED):
        return _refuse(
            "approval_invalid",
            f"approval_{approval.status}",
            "This approval token was withdrawn or replaced.",
            approval,
        )
    if approval.status != status.GRANTED:
        return _refuse("approval_invalid", "approval_pending", "This purchase has not been approved yet.", approval)
    dead = approval_dead_holds(approval, now)
    if dead:
        return _refuse(
            "hold_expired",
            "hold_expired",
            f"The hold {dead[0]} is no longer held (its deadline passed or it was released). Hold again to buy.",
            approval,
        )
    if approval.claimed_until and now < approval.claimed_until:
        return _refuse(
            "approval_in_progress", "in_progress", "A purchase with this approval is already under way.", approval
        )
    return Verdict(True, "ok", "ok", "Approved.", approval)


def approval_claim(*, trip_id: Any, token: Any, hold_ids: Iterable[str], now: datetime) -> Verdict:
    """``approval_check`` under the approval's row lock, then claim it for this purchase.

    Of any number of concurrent purchases with one token exactly one gets an ``ok`` verdict
    that is not a replay; the others see ``in_progress`` (or, once it is used, the booking).
    """
    verdict = approval_check(trip_id=trip_id, token=token, hold_ids=hold_ids, now=now)
    if verdict.approval is None:
        return verdict
    with transaction.atomic():
        ApprovalRequest.objects.select_for_update().filter(pk=verdict.approval.pk).first()
        return _claimed(approval_check(trip_id=trip_id, token=token, hold_ids=hold_ids, now=now), now)


def approval_claim_queued(*, trip_id: Any, approval_id: Any, hold_ids: Iterable[str], now: datetime) -> Verdict:
    """``approval_claim`` for a queued purchase, which names its approval instead of carrying a token."""
    with transaction.atomic():
        approval = (
            ApprovalRequest.objects.select_for_update(of=("self",))  # not the booking's outer join
            .select_related("booking")
            .filter(pk=approval_id, trip_id=trip_id, kind=ApprovalRequest.Kind.PURCHASE)
            .first()
        )
        if approval is None:
            return _refuse("approval_invalid", "approval_unknown", "That approval is not this trip's.")
        return _claimed(approval_verdict(approval=approval, hold_ids=hold_ids, now=now), now)


def _claimed(verdict: Verdict, now: datetime) -> Verdict:
    """Claim the verdict's approval for this purchase when it may buy (inside the row lock)."""
    if verdict.ok and not verdict.replay:
        approval = verdict.approval
        approval.claimed_until = now + timedelta(seconds=_setting("APPROVAL_CLAIM_SECONDS", CLAIM_SECONDS))
        approval.save(update_fields=["claimed_until"])
    return verdict


def approval_claim_takeover(*, approval_id: Any, message_id: int) -> bool:
    """Drop a claim left by a purchase that died (its process was killed); True if there was one.

    Only the purchase turn calls it, holding the trip's turn lease: claims are made only under
    that lease, so one found then belongs to a turn that is no longer running.
    """
    with transaction.atomic():
        approval = ApprovalRequest.objects.select_for_update().filter(pk=approval_id, used_at__isnull=True).first()
        if approval is None or approval.claimed_until is None:
            return False
        approval.claimed_until = None
        approval.save(update_fields=["claimed_until"])
        audit_record(
            trip_id=approval.trip_id,
            type="purchase.resumed",
            actor="system",
            causation_id=f"message:{message_id}",
            payload={"approval_id": approval.pk, "message_id": message_id},
        )
    return True


def approval_release(*, approval_id: Any) -> None:
    """Give back an unused claim after a purchase that did not happen (so a retry can run)."""
    ApprovalRequest.objects.filter(pk=approval_id, used_at__isnull=True).update(claimed_until=None)


def approval_consume(*, approval_id: Any, booking: dict, now: datetime) -> Booking:
    """Mark the approval used by ``booking`` and record it; a second call returns the first booking."""
    with transaction.atomic():
        approval = ApprovalRequest.objects.select_for_update().select_related("trip").get(pk=approval_id)
        existing = Booking.objects.filter(approval=approval).first()
        if existing is not None:
            return existing
        record = Booking.objects.create(
            trip=approval.trip,
            approval=approval,
            booking_id=booking["booking_id"],
            record_locators=booking.get("record_locators") or [],
            orders=booking.get("orders") or [],
            total=Decimal(str(booking["total"])),
            currency=booking["currency"],
            created_at=now,
        )
        approval.status, approval.used_at, approval.claimed_until = ApprovalRequest.Status.USED, now, None
        approval.save(update_fields=["status", "used_at", "claimed_until"])
        Hold.objects.filter(hold_id__in=approval.hold_ids).update(status=Hold.Status.PURCHASED)
        audit_record(
            trip_id=approval.trip_id,
            type="approval.used",
            actor="system",
            payload={"approval_id": approval.pk, "booking_id": record.booking_id},
        )
        notify_on_commit(BOOKING_CONFIRMED, record.pk)
    return record


def approval_attempt_failed(*, approval: ApprovalRequest) -> None:
    """Count a refused purchase against the approval, for the approver's view of it."""
    ApprovalRequest.objects.filter(pk=approval.pk).update(failed_attempts=F("failed_attempts") + 1)


def booking_as_core(booking: Booking) -> dict:
    """A booking row in the core's ``working_memory.bookings`` shape (a replay returns it)."""
    return {
        "booking_id": booking.booking_id,
        "approval_id": str(booking.approval_id),
        "orders": booking.orders,
        "record_locators": booking.record_locators,
        "total": str(booking.total),
        "currency": booking.currency,
        "created_at": booking.created_at.isoformat(),
    }


def _recent_token_refusals(trip_id: Any) -> int:
    """Wrong-token refusals for the trip in the window (wall clock: this limits people, not trips)."""
    since = timezone.now() - _setting("APPROVAL_ATTEMPT_WINDOW", ATTEMPT_WINDOW)
    return AuditEvent.objects.filter(
        trip_id=trip_id, type="purchase.refused", created_at__gte=since, payload__reason__in=TOKEN_REFUSALS
    ).count()


def _setting(name: str, default: Any) -> Any:
    return settings.TRIPDESK.get(name, default)
