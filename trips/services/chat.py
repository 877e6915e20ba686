"""Chat messages and the live push to the trip's websocket group.

Every message (the traveller's, the assistant's, progress and errors) gets the trip's next
``seq``; browsers resume from the last ``seq`` they saw, so nothing is lost or shown twice.
"""

import logging
from typing import Any, Optional

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.utils import timezone

from handlers.common.redact import redact, redact_text
from trips.models import ChatMessage, Trip

logger = logging.getLogger(__name__)


def trip_group(trip_id: int) -> str:
    """The channel-layer group every browser of this trip listens on."""
    return f"trip-{trip_id}"


def chat_message_frame(message: ChatMessage) -> dict[str, Any]:
    """The websocket frame for a chat message (also what history and resume send)."""
    return {
        "type": "message",
        "seq": message.seq,
        "role": message.role,
        "kind": message.kind,
        "text": message.text,
        "widget": message.widget,
        "created_at": message.created_at.isoformat(),
        "client_id": message.client_id or None,
    }


def trip_status_frame(trip: Trip) -> dict[str, Any]:
    """The frame that tells browsers the trip's phase, state or version changed (no ``seq``).

    ``purchase`` is what the traveller may pay for now (a granted purchase approval), or None:
    the chat offers to pay only while it is set.
    """
    from trips.services.approvals.requests import approval_purchase_offer  # approvals import chat

    return {
        "type": "status",
        "trip_id": trip.pk,
        "phase": trip.phase,
        "state": trip.state,
        "version": trip.version,
        "purchase": approval_purchase_offer(trip_id=trip.pk, now=timezone.now()),
    }


def broadcast_on_commit(trip_id: int, frame: dict[str, Any]) -> None:
    """Send ``frame`` to the trip's group once the current transaction commits (at once outside one).

    ``robust``: a channel layer that is down costs a live update (the browser catches up on
    resume), never the write that was just committed.
    """
    transaction.on_commit(lambda: _group_send_now(trip_id, frame), robust=True)


def _group_send_now(trip_id: int, frame: dict[str, Any]) -> None:
    async_to_sync(get_channel_layer().group_send)(trip_group(trip_id), {"type": "trip.frame", "frame": frame})


def message_seq_next(*, trip_id: int) -> int:
    """Take the trip's next chat ``seq`` inside the caller's transaction (the row stays locked until commit)."""
    return Trip.objects.counter_next(trip_id=trip_id, field="last_message_seq", touch=timezone.now())


def chat_message_add(
    *,
    trip_id: int,
    role: str,
    text: str = "",
    kind: str = ChatMessage.Kind.MESSAGE,
    widget: Optional[dict[str, Any]] = None,
    event: Optional[dict[str, Any]] = None,
    client_id: str = "",
    turn_status: str = ChatMessage.TurnStatus.NONE,
) -> ChatMessage:
    """Save a chat message inside the caller's transaction and push it after commit."""
    message = ChatMessage.objects.create(
        trip_id=trip_id,
        seq=message_seq_next(trip_id=trip_id),
        role=role,
        kind=kind,
        text=redact_text(text or ""),
        widget=redact(widget) if widget is not None else None,
        event=redact(event) if event is not None else None,
        client_id=client_id,
        turn_status=turn_status,
    )
    broadcast_on_commit(trip_id, chat_message_frame(message))
    return message


def chat_message_create(*, trip_id: int, message: dict[str, Any]) -> ChatMessage:
    """Save one message the mission core printed (``AGU.print_chat``) and push it after commit."""
    with transaction.atomic(durable=True):
        return chat_message_add(
            trip_id=trip_id,
            role=message.get("role") or ChatMessage.Role.ASSISTANT,
            kind=message.get("kind") or ChatMessage.Kind.MESSAGE,
            text=message.get("text") or "",
            widget=message.get("widget"),
        )


def progress_shown_count(*, trip_id: int, turn: int, label: str) -> int:
    """How many progress lines labelled ``label`` the turn for message ``turn`` has shown already."""
    return ChatMessage.objects.filter(
        trip_id=trip_id, kind=ChatMessage.Kind.PROGRESS, widget__turn=turn, widget__label=redact_text(label)
    ).count()
