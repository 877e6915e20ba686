"""Approvers' decisions: grant (a token, shown once), deny (with a reason), revoke.

Only a user with the approver permission who belongs to the request's organisation may
decide, never on their own trip. Each decision is one durable transaction with its audit
event; the traveller hears of it in chat, and the purchase token reaches their open page
once, as an ephemeral frame after commit.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Optional

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from handlers.common.clock import local_time_text
from handlers.wording import money as money_text
from trips.access import require
from trips.models import ApprovalRequest, ChatMessage, Trip
from trips.notifications import APPROVAL_DENIED, APPROVAL_GRANTED, notify_on_commit
from trips.services import tokens
from trips.services.audit import actor_for, audit_record
from trips.services.chat import chat_message_add
from trips.services.dispatch import turn_enqueue_on_commit

from .policy import auto_approvable, auto_approve_threshold
from .requests import approval_close, approval_dead_holds, approval_locked, approval_status_push, approval_widget

DECIDE_PERMISSION = "trips.decide_approvalrequest"


def approval_grant(
    *, approval: ApprovalRequest, approver, reason: str = "", now: datetime, seen_status: Optional[str] = None
) -> Optional[str]:
    """Grant a pending (or re-issue a granted) request; returns the purchase token, once.

    Only a user with the approver permission in the request's organisation may grant, and
    never for their own trip. Re-issuing revokes the previous token (a new hash replaces it).
    A hold request has no token: the grant runs the turn that places the holds.
    ``seen_status``: the status the approver's page showed; decided meanwhile, nothing changes.
    """
    approver_check(user=approver, approval=approval)
    _holds_alive_or_expire(approval, now=now)
    token = None
    with transaction.atomic(durable=True):
        approval = approval_locked(approval)
        _not_overtaken(approval, seen_status)
        if approval.status not in ApprovalRequest.OPEN_STATUSES:
            raise ValidationError(f"This request is {approval.get_status_display().lower()} and cannot be granted.")
        reissue = approval.status == ApprovalRequest.Status.GRANTED
        if approval.kind == ApprovalRequest.Kind.PURCHASE:
            token, approval.token_hash = tokens.token_issue()
        approval.status = ApprovalRequest.Status.GRANTED
        approval.decided_by, approval.decided_at, approval.reason = approver, now, reason
        approval.save(update_fields=["status", "token_hash", "decided_by", "decided_at", "reason"])
        audit_record(
            trip_id=approval.trip_id,
            type="approval.reissued" if reissue else "approval.granted",
            actor=f"staff:{approver.pk}",
            actor_user=approver,
            payload=_decision_payload(approval),
        )
        if not reissue:
            notify_on_commit(APPROVAL_GRANTED, approval.pk)
        if approval.kind == ApprovalRequest.Kind.HOLD:
            _hold_decision_turn(approval, approved=True)
        else:
            _announce_grant(approval)
    return token


def approval_auto_grant(*, trip: Trip, user, now: datetime) -> Optional[str]:
    """Grant the open purchase request by policy, on the traveller's explicit request.

    Only where the organisation's policy sets ``rules.auto_approve_below`` and the snapshot
    total is under it; off by default. Audited as an automatic grant requested by the
    traveller; a refusal changes nothing but is audited too (``approval.auto_refused``), so
    attempts to buy past the policy leave a trail.

    The same press arriving twice (a double click, a second tab still showing the button) finds
    the request already approved this way: it grants nothing more and refuses nothing, and
    returns ``None`` (no second token).
    """
    try:
        return _auto_grant(trip=trip, user=user, now=now)
    except (PermissionDenied, ValidationError) as refusal:
        with transaction.atomic(durable=True):
            audit_record(
                trip_id=trip.pk,
                type="approval.auto_refused",
                actor=actor_for(user),
                actor_user=user,
                payload={"reason": " ".join(getattr(refusal, "messages", None) or [str(refusal)])},
            )
        raise


def _auto_grant(*, trip: Trip, user, now: datetime) -> Optional[str]:
    if user.pk != trip.owner_id:
        raise PermissionDenied("Only the traveller can ask for an automatic approval.")
    with transaction.atomic(durable=True):
        approval = (
            ApprovalRequest.objects.select_for_update()
            .filter(trip=trip, kind=ApprovalRequest.Kind.PURCHASE, status=ApprovalRequest.Status.PENDING)
            .first()
        )
        if approval is None:
            if _auto_granted_open(trip):
                return None
            raise ValidationError("There is no purchase waiting for approval.")
        if not auto_approvable(approval):
            raise PermissionDenied("Your organisation's policy needs an approver for this purchase.")
        if approval_dead_holds(approval, now):
            raise ValidationError("A hold is no longer held; hold again first.")
        threshold = auto_approve_threshold(approval.organisation)
        token, approval.token_hash = tokens.token_issue()
        approval.status, approval.auto_approved = ApprovalRequest.Status.GRANTED, True
        approval.decided_at = now
        approval.reason = (
            f"Approved automatically: under {money_text(threshold, approval.currency)}, at the traveller's request."
        )
        approval.save(update_fields=["status", "token_hash", "auto_approved", "decided_at", "reason"])
        audit_record(
            trip_id=trip.pk,
            type="approval.granted",
            actor=f"user:{user.pk}",
            actor_user=user,
            payload={**_decision_payload(approval), "auto": True, "threshold": str(threshold)},
        )
        _announce_grant(approval)
        # The same email as an approver's grant: a record of the approval and the way back to pay
        # if the tab is closed. (A token re-issued to the owner at payment is no news: no email.)
        notify_on_commit(APPROVAL_GRANTED, approval.pk)
    return token


def _auto_granted_open(trip: Trip) -> bool:
    """The trip's newest purchase request is already approved by policy and not yet used."""
    newest = ApprovalRequest.objects.filter(trip=trip, kind=ApprovalRequest.Kind.PURCHASE).order_by("-pk").first()
    return newest is not None and newest.status == ApprovalRequest.Status.GRANTED and newest.auto_approved


def approval_deny(
    *, approval: ApprovalRequest, approver, reason: str, now: datetime, seen_status: Optional[str] = None
) -> ApprovalRequest:
    """Deny with a reason the traveller will read; a denied hold request is explained in chat.

    ``seen_status``: the status the approver's page showed; decided meanwhile, nothing changes.
    """
    if not (reason or "").strip():
        raise ValidationError("Say why: the traveller will read the reason.")
    approver_check(user=approver, approval=approval)
    with transaction.atomic(durable=True):
        approval = approval_locked(approval)
        _not_overtaken(approval, seen_status)
        if approval.status not in ApprovalRequest.OPEN_STATUSES:
            raise ValidationError(f"This request is {approval.get_status_display().lower()} and cannot be denied.")
        approval.status = ApprovalRequest.Status.DENIED
        approval.decided_by, approval.decided_at, approval.reason = approver, now, reason.strip()
        approval.save(update_fields=["status", "decided_by", "decided_at", "reason"])
        audit_record(
            trip_id=approval.trip_id,
            type="approval.denied",
            actor=f"staff:{approver.pk}",
            actor_user=approver,
            payload=_decision_payload(approval),
        )
        notify_on_commit(APPROVAL_DENIED, approval.pk)
        if approval.kind == ApprovalRequest.Kind.HOLD:
            _hold_decision_turn(approval, approved=False)
        else:
            chat_message_add(
                trip_id=approval.trip_id,
                role=ChatMessage.Role.ASSISTANT,
                kind=ChatMessage.Kind.STATUS,
                text=f"Your approver declined the purchase: {approval.reason}",
                widget=approval_widget(approval),
            )
            approval_status_push(approval)
    return approval


def approval_revoke(*, approval: ApprovalRequest, actor, reason: str, now: datetime) -> ApprovalRequest:
    """Withdraw a request or its token before it is used (an approver changed their mind)."""
    approver_check(user=actor, approval=approval)
    with transaction.atomic(durable=True):
        approval = approval_locked(approval)
        if approval.status not in ApprovalRequest.OPEN_STATUSES:
            raise ValidationError(f"This request is {approval.get_status_display().lower()}; nothing to revoke.")
        approval_close(approval, ApprovalRequest.Status.REVOKED, now=now, reason=reason, actor=actor)
        chat_message_add(
            trip_id=approval.trip_id,
            role=ChatMessage.Role.ASSISTANT,
            kind=ChatMessage.Kind.STATUS,
            text=f"The approval was withdrawn: {reason}",
            widget=approval_widget(approval),
        )
    return approval


def approver_check(*, user, approval: ApprovalRequest) -> None:
    """Raise ``PermissionDenied`` unless ``user`` may decide ``approval``.

    Only the role in the request's organisation counts (``trips.access``): an approver
    elsewhere who travels for this organisation decides nothing here. Nobody approves their
    own trip.
    """
    require(
        user,
        DECIDE_PERMISSION,
        organisation_id=approval.organisation_id,
        refusal="Only approvers of the request's organisation decide it (it may belong to another organisation).",
    )
    if approval.trip.owner_id == user.pk:
        raise PermissionDenied("Approvers cannot approve their own trips.")


def _not_overtaken(approval: ApprovalRequest, seen_status: Optional[str]) -> None:
    """Refuse a decision taken on a page that showed another status than the request has now.

    Two approvers open the same request (or one approver in two tabs, or a double click): the
    first decision stands, and the later one — made on a page that still said "Pending" — changes
    nothing, instead of silently re-issuing the token or turning a grant into a denial.
    """
    if seen_status is None or approval.status == seen_status:
        return
    by = (
        f" by {approval.decided_by.get_full_name() or approval.decided_by.get_username()}"
        if approval.decided_by
        else ""
    )
    raise ValidationError(
        f"While this page was open, this request was {approval.get_status_display().lower()}{by}. "
        "Nothing was changed: read it again below before deciding."
    )


def _holds_alive_or_expire(approval: ApprovalRequest, *, now: datetime) -> None:
    """Refuse a decision on a purchase whose holds are gone, expiring the request for good.

    The expiry commits on its own: the refusal that follows must not roll it back.
    """
    if approval.kind != ApprovalRequest.Kind.PURCHASE:
        return
    with transaction.atomic(durable=True):
        approval = approval_locked(approval)
        dead = approval_dead_holds(approval, now)
        if dead and approval.status in ApprovalRequest.OPEN_STATUSES:
            approval_close(approval, ApprovalRequest.Status.EXPIRED, now=now, reason="A hold is no longer held.")
    if dead:
        raise ValidationError(
            f"Hold {dead[0]} is no longer held (deadline passed or released); the traveller must hold again."
        )


def _local(when, trip) -> str:
    """A deadline as the traveller reads it: in the trip's timezone."""
    return local_time_text(when.isoformat(), (trip.intent or {}).get("request", {}).get("timezone") or "UTC")


def _announce_grant(approval: ApprovalRequest) -> None:
    """Tell the traveller in chat and refresh their page's pay action; the token goes nowhere.

    The traveller never needs the approver's token: paying re-issues one to the signed-in
    owner on the server (``approval_token_for_owner``), so a reload or a closed tab loses
    nothing and no token travels over the channel layer.
    """
    trip = approval.trip
    text = (
        f"Approved — up to {money_text(approval.amount_ceiling, approval.currency)}, until "
        f"{_local(approval.expires_at, trip) if approval.expires_at else 'the hold deadline'}. "
        "Nothing is bought yet: review the purchase and pay when you're ready."
    )
    chat_message_add(
        trip_id=trip.pk,
        role=ChatMessage.Role.ASSISTANT,
        kind=ChatMessage.Kind.STATUS,
        text=text,
        widget=approval_widget(approval),
    )
    approval_status_push(approval)


def approval_token_for_owner(*, trip: Trip, user, approval_id: Any, now: datetime) -> str:
    """A fresh purchase token for the trip's owner, replacing (so revoking) every earlier one.

    Only the signed-in owner, only for this trip's granted, unused, unexpired purchase approval,
    and not while a purchase with it is under way. Only the new token's hash is stored; the
    token lives in the caller's memory for the one purchase it is issued for. No email: the
    owner asked for it by paying, and the approval it carries was already announced.
    """
    if user.pk != trip.owner_id:
        raise PermissionDenied("Only the traveller can buy this trip.")
    if not str(approval_id or "").isdigit():
        raise ValidationError("That purchase is no longer on offer.")
    with transaction.atomic(durable=True):
        approval = (
            ApprovalRequest.objects.select_for_update()
            .filter(pk=int(approval_id), trip=trip, kind=ApprovalRequest.Kind.PURCHASE)
            .first()
        )
        if approval is None or not approval.is_usable(now):
            raise ValidationError("That approval is no longer valid, so nothing was bought.")
        if approval.claimed_until is not None and approval.claimed_until > now:
            raise ValidationError("This purchase is already under way.")
        token, approval.token_hash = tokens.token_issue()
        approval.save(update_fields=["token_hash"])
        audit_record(
            trip_id=trip.pk,
            type="approval.token_reissued",
            actor=actor_for(user),
            actor_user=user,
            payload={"approval_id": approval.pk, "to": "owner"},
        )
    return token


def _hold_decision_turn(approval: ApprovalRequest, *, approved: bool) -> None:
    """Queue the turn that acts on a hold decision, inside the decision's transaction.

    The core places the holds (or explains the no) on ``HOLD_APPROVAL_DECIDED``; the event is
    stored on a system message like any queued turn, so a replay sees the same decision.
    """
    decided = "approved" if approved else "declined"
    message = chat_message_add(
        trip_id=approval.trip_id,
        role=ChatMessage.Role.SYSTEM,
        kind=ChatMessage.Kind.ACTION,
        text=f"Hold request {decided} by {approval.decided_by}.",
        widget=approval_widget(approval),
        event={"type": "HOLD_APPROVAL_DECIDED", "data": {"approved": approved, "reason": approval.reason}},
        turn_status=ChatMessage.TurnStatus.QUEUED,
    )
    turn_enqueue_on_commit(approval.trip_id, message.pk)


def _decision_payload(approval: ApprovalRequest) -> dict:
    return {
        "approval_id": approval.pk,
        "kind": approval.kind,
        "amount_ceiling": str(approval.amount_ceiling),
        "currency": approval.currency,
        "hold_ids": approval.hold_ids,
        "expires_at": approval.expires_at.isoformat() if approval.expires_at else None,
        "reason": approval.reason,
    }
