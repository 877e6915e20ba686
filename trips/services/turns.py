"""A turn: the traveller says something (or presses a button) and the mission core answers.

``turn_submit`` saves the message and enqueues ``run_turn`` after commit. The task claims the
trip with a short lease (one worker per trip at a time; the trip's row is locked while
claiming), runs the trip's queued messages in ``seq`` order and marks each done, so a task
delivered twice, or late, finds nothing left to do.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Optional

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.db.models.fields.json import KT
from django.utils import timezone

from handlers.common.redact import redact
from trips.access import may_write_in
from trips.models import ChatMessage, Trip

from .audit import actor_for, audit_record
from .batch import TurnWrites, atomic_with, gathered_flush
from .chat import broadcast_on_commit, chat_message_add, trip_status_frame
from .dispatch import turn_enqueue_on_commit


class TripBusy(Exception):
    """Another worker holds the trip's turn lease; try again shortly."""


class UnknownAction(ValueError):
    """The browser sent an action TripDesk does not know."""


def action_event(action: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The core event for a button press, and the words shown for it in the chat."""
    kind = action.get("type")
    if kind == "select":
        bundle_id = str(action.get("bundle_id") or "")
        return {"type": "USER_SELECTED_BUNDLE", "data": {"bundle_id": bundle_id}}, f"Select {bundle_id}"
    if kind == "hold":
        return {"type": "USER_REQUEST_HOLD", "data": {}}, "Hold this trip"
    if kind == "retry":
        return {"type": "USER_RETRY", "data": {}}, "Try again"
    if kind == "release_holds":  # the hold card's button: what "cancel the hold" says in words
        return {"type": "USER_RELEASE_HOLDS", "data": {}}, "Release the holds"
    if kind == "cancel_booking":
        data = {"booking_id": str(action.get("booking_id") or "")}
        if action.get("quote_id"):
            data["quote_id"] = str(action["quote_id"])
        label = "Confirm cancellation" if data.get("quote_id") else "Cancel booking"  # never the internal id
        return {"type": "USER_CANCEL_BOOKING", "data": data}, label
    raise UnknownAction(f"unknown action {kind!r}")


def hold_matches_selection(*, trip: Trip, bundle_id: Any) -> None:
    """Refuse a "Hold" pressed on a card for an option that is no longer the selected one.

    A card's button acts on that card's option or not at all: after another option is selected
    (or new options replaced the old ones), an old "Hold these" must not hold the new choice.
    """
    if not bundle_id:
        return
    # The selected option's id alone, read in the database: the whole TripIntent (its bundles and
    # offers) is not decoded for one string.
    selected = (
        Trip.objects.filter(pk=trip.pk)
        .annotate(selected=KT("intent__working_memory__selected__bundle_id"))
        .values_list("selected", flat=True)
        .first()
    )
    if selected != str(bundle_id):
        raise ValidationError(
            f"Option {bundle_id} is no longer the one selected, so nothing was held. "
            "Use the buttons on the latest option you chose."
        )


def release_matches_holds(*, trip: Trip, hold_id: Any) -> None:
    """Refuse a "Release" pressed on a hold card whose holds are no longer held.

    The card releases the holds it shows or nothing: pressed twice, or on an old card after the
    holds lapsed, were bought or were held again, it must not give away holds the traveller kept.
    """
    wm = (Trip.objects.only("intent").get(pk=trip.pk).intent or {}).get("working_memory") or {}
    if not any(h.get("hold_id") == str(hold_id) and h.get("status") == "held" for h in wm.get("holds") or []):
        raise ValidationError("Those holds are no longer held, so nothing was released.")


def turn_submit(
    *,
    trip: Trip,
    user: AbstractBaseUser,
    text: Optional[str] = None,
    action: Optional[dict[str, Any]] = None,
    client_id: Optional[str] = None,
) -> ChatMessage:
    """Save what the traveller said or pressed and run the turn after commit.

    A repeated ``client_id`` returns the message already saved and enqueues nothing (unless its
    turn was lost: ``_turn_resend_if_lost``). A purchase is not taken here (``action_event``
    refuses it): it carries an approval token, checked at the purchase service's door and never
    stored (``actions.traveller_act`` sends it there). Only the trip's traveller writes
    (``may_write_in``).
    """
    if not may_write_in(user, trip):
        raise PermissionDenied("Only the traveller can write in this trip.")
    if action is not None:
        event, shown = action_event(action)
        kind, widget = ChatMessage.Kind.ACTION, {"type": "action", "action": redact(action)}
    else:
        event = {"type": "USER_MESSAGE", "data": {"text": text or ""}}
        shown, kind, widget = text or "", ChatMessage.Kind.MESSAGE, None
    client_id = (client_id or "")[:64]
    # A card's button acts on what that card shows; a frame sent again after a reconnect returns
    # what the first one saved, not a refusal.
    try:
        if action is not None and action.get("type") == "hold":
            hold_matches_selection(trip=trip, bundle_id=action.get("bundle_id"))
        if action is not None and action.get("type") == "release_holds":
            release_matches_holds(trip=trip, hold_id=action.get("hold_id"))
    except ValidationError:
        existing = _sent_before(trip=trip, client_id=client_id)
        if existing is None:
            raise
        return existing
    # A repeated ``client_id`` is found by the unique constraint it breaks, not by a read before
    # every send: the transaction rolls back (its sequence numbers with it) and the first send's
    # message is returned.
    try:
        with transaction.atomic(durable=True):
            seqs = Trip.objects.counters_next(
                trip_id=trip.pk, by={"last_message_seq": 1, "last_event_seq": 1}, touch=timezone.now()
            )
            message = chat_message_add(
                trip_id=trip.pk,
                seq=seqs["last_message_seq"],
                role=ChatMessage.Role.USER,
                kind=kind,
                text=shown,
                widget=widget,
                event=event,
                client_id=client_id,
                turn_status=ChatMessage.TurnStatus.QUEUED,
            )
            audit_record(
                trip_id=trip.pk,
                seq=seqs["last_event_seq"],
                type="message.received",
                actor=actor_for(user),
                actor_user=user,
                causation_id=f"message:{message.pk}",
                payload={"message_id": message.pk, "seq": message.seq, "event": event, "client_id": client_id},
            )
            turn_enqueue_on_commit(trip.pk, message.pk)
    except IntegrityError:
        existing = _sent_before(trip=trip, client_id=client_id)
        if existing is None:
            raise
        return existing  # the same send again (a reconnect), or raced in from another tab
    return message


def _sent_before(*, trip: Trip, client_id: str) -> Optional[ChatMessage]:
    """The message already saved for this ``client_id`` (its turn sent again if it was lost), or None."""
    if not client_id:
        return None
    existing = ChatMessage.objects.filter(trip=trip, client_id=client_id).first()
    if existing is not None:
        _turn_resend_if_lost(existing)
    return existing


def _turn_resend_if_lost(message: ChatMessage) -> None:
    """A message sent again (same ``client_id``) that is still queued on a trip no worker holds:
    send its turn again. Its first task may have been lost (the broker was down when the send
    committed); a turn delivered twice runs once, so sending again is always safe."""
    if message.turn_status != ChatMessage.TurnStatus.QUEUED:
        return
    if Trip.objects.filter(pk=message.trip_id, turn_lease_until__gt=timezone.now()).exists():
        return  # a worker runs the trip's turns now and takes this message with them
    with transaction.atomic():
        turn_enqueue_on_commit(message.trip_id, message.pk)


@dataclass
class Claim:
    """A turn lease and the messages it covers, in ``seq`` order (none: nothing to do, or the lease is gone).

    ``trip``: the trip's row as the claim read it under its lock (organisation, TripIntent,
    counters), so the first turn needs not read it again; None when the claim did not read it.
    Its owner is not joined: only a purchase's answer names the owner, and reads it then.
    """

    messages: list[ChatMessage]
    lease_until: Optional[datetime]
    trip: Optional[Trip] = None

    def nothing_after(self, message: ChatMessage) -> bool:
        """Nothing was added to the chat after ``message`` when the trip was claimed (no earlier
        attempt of its turn showed a progress line)."""
        return self.trip is not None and self.trip.last_message_seq == message.seq


def turn_claim(*, trip_id: int, now: datetime) -> Claim:
    """Take the trip's turn lease and return its queued messages in ``seq`` order.

    Returns an empty claim when nothing is queued (a duplicate or late delivery finds its
    message done) or the trip is gone. Raises ``TripBusy`` while another worker's lease is live.
    """
    with transaction.atomic(durable=True):
        # The queued messages with their trip (and its organisation) in one statement, which locks
        # the trip's row: nothing queued (or no trip) is nothing to do, as before. A message whose
        # send commits while this waits for the lock is not among them: its own task, or the lease
        # holder's look at the turn's end (``turn_complete``), takes it.
        pending = list(
            _queued_messages(trip_id)
            .select_related("trip__organisation")
            .select_for_update(of=("trip",))
            .order_by("seq")
        )
        if not pending:
            return Claim([], None)
        trip = pending[0].trip
        if trip.turn_lease_until is not None and trip.turn_lease_until > now:
            raise TripBusy(f"trip {trip_id} is running another turn")
        trip.turn_lease_until = now + timedelta(seconds=settings.TRIPDESK["TURN_LEASE_SECONDS"])
        _lease_store(trip)
        return Claim(pending, trip.turn_lease_until, trip)


def _queued_messages(trip_id: Any) -> QuerySet[ChatMessage]:
    return ChatMessage.objects.filter(trip_id=trip_id, turn_status=ChatMessage.TurnStatus.QUEUED)


def _queued(trip_id: int) -> list[ChatMessage]:
    return list(_queued_messages(trip_id).order_by("seq"))


def turns_stalled(*, now: datetime, after: timedelta) -> dict[int, int]:
    """Trips with a turn queued for longer than ``after`` and no live lease: trip id → a queued message id.

    Their task was lost (a whole worker died holding it, and the broker keeps it until its
    visibility timeout); sending it again is safe, since a turn delivered twice runs once.
    """
    stalled = ChatMessage.objects.filter(turn_status=ChatMessage.TurnStatus.QUEUED, created_at__lte=now - after)
    stalled = stalled.exclude(trip__turn_lease_until__gt=now)
    return dict(stalled.order_by("seq").values_list("trip_id", "pk"))


def turn_leases_reclaim() -> int:
    """Drop every turn lease; returns how many trips had one.

    Only for the embedded server at startup (``trips.hosting.embedded``): it is the only
    process, so any lease it finds belongs to a process that died (killed mid-turn).
    """
    trip_ids = list(Trip.objects.filter(turn_lease_until__isnull=False).values_list("pk", flat=True))
    with transaction.atomic(durable=True):
        for trip_id in trip_ids:
            Trip.objects.filter(pk=trip_id).update(turn_lease_until=None)
            audit_record(
                trip_id=trip_id, type="turn.lease_reclaimed", actor="system", payload={"by": "embedded startup"}
            )
    return len(trip_ids)


def turn_next(*, trip_id: int, lease_until: datetime, now: datetime) -> Claim:
    """After a lease holder ran its messages: the messages queued meanwhile, under a renewed lease,
    or an empty claim with the lease given back. One transaction with the trip's row locked, so a
    message queued concurrently is either returned here or finds the lease free for its own task."""
    with transaction.atomic(durable=True):
        trip = Trip.objects.select_for_update().only("pk", "turn_lease_until").filter(pk=trip_id).first()
        return _lease_follow(trip, lease_until=lease_until, now=now)


def _lease_follow(
    trip: Optional[Trip], *, lease_until: datetime, now: datetime, save: bool = True, queued: Optional[bool] = None
) -> Claim:
    """``turn_next`` on the trip's row, locked by the caller's transaction. ``save=False``: the
    caller stores ``trip.turn_lease_until`` itself (with the turn's sequence numbers). ``queued``:
    whether the caller's read of the locked row found messages queued (None: not asked).

    A message whose send commits after that read has its own task, which finds the lease given
    back (or waits for it): it is never left behind."""
    if trip is None or trip.turn_lease_until != lease_until:
        return Claim([], None)  # the lease lapsed and another worker holds it now: its turns are its own
    pending = _queued(trip.pk) if queued is not False else []
    trip.turn_lease_until = now + timedelta(seconds=settings.TRIPDESK["TURN_LEASE_SECONDS"]) if pending else None
    if save:
        _lease_store(trip)
    return Claim(pending, trip.turn_lease_until)


def _lease_store(trip: Trip) -> None:
    """Write ``trip.turn_lease_until`` to the row the caller's transaction locked: one UPDATE of
    that column (``Model.save`` composes the same statement with about half again the CPU)."""
    Trip.objects.filter(pk=trip.pk).update(turn_lease_until=trip.turn_lease_until)


def turn_release(*, trip_id: int, lease_until: datetime) -> None:
    """Give the lease back (only our own: a lease that expired and was re-taken is not ours)."""
    Trip.objects.filter(pk=trip_id, turn_lease_until=lease_until).update(turn_lease_until=None)


def turn_start(*, trip_id: int, message_id: int, payload: dict[str, Any], writes: Optional[TurnWrites] = None) -> None:
    """Audit what the turn feeds the core (event, ``now``, organisation): ``replay_trip`` reads it back.

    With ``writes`` it is stored by the turn's next transaction (its first tool's start, or the
    TripIntent's save): never after the trip it explains.
    """

    def record() -> None:
        audit_record(
            trip_id=trip_id,
            type="turn.started",
            actor="worker",
            causation_id=f"message:{message_id}",
            payload={"message_id": message_id, **payload},
        )

    if writes is not None:
        writes.add(record)
        return
    with transaction.atomic(durable=True):
        record()


def turn_complete(
    *,
    trip_id: int,
    message_id: int,
    result: dict[str, Any],
    writes: Optional[TurnWrites] = None,
    lease_until: Optional[datetime] = None,
    now: Optional[datetime] = None,
) -> Claim:
    """Store the turn's queued writes (its answer), mark the message done, audit the outcome and
    tell browsers the trip's new status: one transaction, its frames sent after it commits.

    ``lease_until``: the turn was the last its lease covered, and the same transaction does
    ``turn_next``'s look for messages queued meanwhile (returned under a renewed lease, or the
    lease given back; ``now``: the time the renewed lease counts from). Without it the claim
    returned is empty.
    """
    output = result.get("output") if isinstance(result.get("output"), dict) else {}
    with atomic_with(writes):
        ChatMessage.objects.filter(pk=message_id).update(turn_status=ChatMessage.TurnStatus.DONE)
        trips = Trip.objects.only("pk", "phase", "state", "version", "turn_lease_until")
        if lease_until is not None:
            # Whether anything was queued meanwhile, read with the row's lock: the messages
            # themselves are read only when something was (``_lease_follow``).
            trips = trips.select_for_update().annotate(queued_after=Exists(_queued_messages(OuterRef("pk"))))
        trip = trips.get(pk=trip_id)
        audit_record(
            trip_id=trip_id,
            type="turn.completed" if result.get("success") else "turn.failed",
            actor="worker",
            causation_id=f"message:{message_id}",
            payload={
                "message_id": message_id,
                "routed_event": output.get("routed_event"),
                "stopped_reason": output.get("stopped_reason"),
                "tool_calls": [call.get("name") for call in output.get("tool_calls") or []],
                "version": trip.version,
                "error": output.get("error"),
            },
        )
        no_approvals = writes is not None and writes.rows_none  # the TripIntent saved this turn implies none
        broadcast_on_commit(trip_id, trip_status_frame(trip, no_approvals=no_approvals))
        following, lease = Claim([], None), None
        if lease_until is not None:
            ours = trip.turn_lease_until == lease_until
            following = _lease_follow(
                trip, lease_until=lease_until, now=now or timezone.now(), save=False, queued=trip.queued_after
            )
            if ours:
                lease = {"turn_lease_until": trip.turn_lease_until}
        # The lease's hand-back (or renewal) takes the turn's sequence numbers in the same UPDATE.
        gathered_flush(trip_id=trip_id, fields=lease)
    return following


def turn_fail(*, trip_id: int, message_id: int, reason: str) -> None:
    """A turn that could not run at all (retries exhausted): record it and tell the traveller."""
    with transaction.atomic(durable=True):
        ChatMessage.objects.filter(pk=message_id, turn_status=ChatMessage.TurnStatus.QUEUED).update(
            turn_status=ChatMessage.TurnStatus.FAILED
        )
        audit_record(
            trip_id=trip_id,
            type="turn.failed",
            actor="worker",
            causation_id=f"message:{message_id}",
            payload={"message_id": message_id, "reason": reason},
        )
        chat_message_add(
            trip_id=trip_id,
            role=ChatMessage.Role.ASSISTANT,
            kind=ChatMessage.Kind.ERROR,
            text="Sorry, I could not process that message. Please send it again in a moment.",
            widget={"type": "error", "code": "turn_failed", "message": "The turn could not run.", "retryable": True},
        )
