"""The door: the traveller's "Buy" (with a token) and "Pay" (with the granted approval's id).

Cheap checks first, with no turn run, so a wrong or invented token never reaches the core; then
the purchase is saved as a queued turn and ``run_turn`` is queued after commit.
"""

from __future__ import annotations

from datetime import datetime
from typing import Callable, Optional

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from trips.formats import money_text
from trips.models import ApprovalRequest, ChatMessage, PaymentMethod, Trip
from trips.services.approvals import (
    Verdict,
    approval_check,
    approval_verdict,
)
from trips.services.audit import actor_for, audit_record
from trips.services.chat import chat_message_add
from trips.services.dispatch import turn_enqueue_on_commit

from .answers import PURCHASE_EVENT, answer_without_turn, door_verdict, held_ids

Clock = Callable[[], datetime]


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
    now = clock or timezone.now
    return _submit(
        trip=trip,
        user=user,
        payment_method_id=payment_method_id,
        client_id=client_id,
        verdict=lambda: approval_check(trip_id=trip.pk, token=approval_token, hold_ids=held_ids(trip), now=now()),
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
    now = clock or timezone.now

    def verdict() -> Verdict:
        approval = (
            ApprovalRequest.objects.filter(pk=int(approval_id), trip=trip, kind=ApprovalRequest.Kind.PURCHASE)
            .select_related("booking")
            .first()
            if str(approval_id or "").isdigit()
            else None
        )
        if approval is None or not approval.is_usable(now()):
            raise ValidationError("That approval is no longer valid, so nothing was bought.")
        return approval_verdict(approval=approval, hold_ids=held_ids(trip), now=now())

    return _submit(trip=trip, user=user, payment_method_id=payment_method_id, client_id=client_id, verdict=verdict)


def _submit(
    *, trip: Trip, user, payment_method_id: str, client_id: Optional[str], verdict: Callable[[], Verdict]
) -> ChatMessage:
    """Both doors: the owner only; a repeated ``client_id`` returns its message; otherwise the
    approval's ``verdict`` (with the payment method checked) queues the purchase or answers it."""
    if user.pk != trip.owner_id:
        raise PermissionDenied("Only the traveller can buy this trip.")
    client_id = (client_id or "")[:64]
    existing = ChatMessage.objects.filter(trip=trip, client_id=client_id).first() if client_id else None
    if existing is not None:
        return existing
    checked = door_verdict(trip=trip, verdict=verdict(), payment_method_id=payment_method_id)
    return _purchase_queue(
        trip=trip, user=user, verdict=checked, payment_method_id=payment_method_id, client_id=client_id
    )


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
                approval=verdict.approval,
                queued=True,
            )
        except IntegrityError:
            if not client_id:
                raise
            return ChatMessage.objects.get(trip=trip, client_id=client_id)  # the same press, raced in from another tab
    message = _action_message_add(
        trip=trip, user=user, payment_method_id=payment_method_id, client_id=client_id, approval=verdict.approval
    )
    answer_without_turn(trip=trip, user=user, message=message, verdict=verdict)
    return message


def _action_message_add(
    *,
    trip: Trip,
    user,
    payment_method_id: str,
    client_id: str,
    approval: Optional[ApprovalRequest] = None,
    queued: bool = False,
) -> ChatMessage:
    """The traveller's "Buy" as a chat message: which card and which approval, never the token.

    ``queued``: a turn (for ``approval``), run after commit. Its words are the pay button's
    ("Pay $1,023.11 with Visa •• 4242"), so the chat after a reload says what was pressed.
    """
    method = (
        PaymentMethod.objects.filter(pk=payment_method_id, owner=user).first()
        if str(payment_method_id).isdigit()
        else None
    )
    approval_id = approval.pk if queued and approval is not None else None
    data = {"payment_method_id": str(payment_method_id)}
    if approval_id is not None:
        data["approval_id"] = str(approval_id)
    with transaction.atomic(durable=True):
        message = chat_message_add(
            trip_id=trip.pk,
            role=ChatMessage.Role.USER,
            kind=ChatMessage.Kind.ACTION,
            text=_pressed(method, approval),
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


def _pressed(method: Optional[PaymentMethod], approval: Optional[ApprovalRequest]) -> str:
    """What the traveller pressed, as the page's pay button read (``purchase.js``: amount, then card)."""
    if method is None:
        return "Buy"
    card = f"{method.brand.replace('_', ' ').capitalize()} •• {method.last4}"
    if approval is None or approval.amount_ceiling is None:
        return f"Buy with {card}"
    return f"Pay {money_text(approval.amount_ceiling, approval.currency)} with {card}"
