"""The TripIntent's save: the document, the turn's audit events and the rows derived from it, together.

The mission core keeps a trip's holds, approvals and bookings in its TripIntent; the rows the
admin filters and the purchase path checks are derived from it (``holds.holds_follow``) in the
transaction that stores it, so no committed TripIntent ever disagrees with them and nothing is
reconciled after the fact.
"""

from datetime import datetime
from typing import Any, Optional

from django.utils import timezone

from handlers.common.intent import PHASES, STATES
from handlers.common.stores import StaleVersion
from trips.models import Trip

from .audit import audit_record
from .batch import TurnWrites, atomic_with, gathered_flush
from .chat import Gathered, chat_gathered_join, chat_set_aside
from .holds import holds_follow


def trip_intent_save(
    *,
    trip: Trip,
    doc: dict[str, Any],
    expected_version: Optional[int] = None,
    events: Optional[list[dict[str, Any]]] = None,
    causation_id: str = "",
    writes: Optional[TurnWrites] = None,
    now: Optional[datetime] = None,
    replaces_rows_none: bool = False,
) -> int:
    """Store ``doc`` as the trip's TripIntent if its version is still ``expected_version``; returns the new one.

    One ``UPDATE … WHERE version = expected``: when another turn saved first, no row matches and
    ``StaleVersion`` sends the core back to a fresh load (no lost update). ``phase`` and ``state``
    are copied to indexed columns for the back office. In the same transaction: the turn's queued
    writes (``writes``), the core's ``events`` as ``core.<type>`` audit events, and the hold,
    approval and booking rows the document implies. ``doc`` itself is not changed.

    In a running turn (``writes``) what those rows say in the chat (an approval request's card)
    is queued for the turn's end: the core prints its answer ("Held…") after the save, and the
    traveller reads the answer before the request it led to.

    ``replaces_rows_none``: the caller read the document this save replaces (version
    ``expected_version``) and it implied no rows (``implies_rows``); when ``doc`` implies none either,
    the rows are not read at all (a search turn's save).
    """
    if expected_version is None:
        expected_version = Trip.objects.values_list("version", flat=True).get(pk=trip.pk)
    new_version = expected_version + 1
    stored = {**doc, "version": new_version}  # serialised by the UPDATE
    status = stored.get("status") or {}
    fields: dict[str, Any] = {"intent": stored, "version": new_version, "last_activity_at": timezone.now()}
    if status.get("phase") in PHASES:
        fields["phase"] = status["phase"]
    if status.get("state") in STATES:
        fields["state"] = status["state"]
    rows_none = not implies_rows(stored)
    with atomic_with(writes, durable=False):
        for event in events or []:
            audit_record(
                trip_id=trip.pk,
                type=f"core.{event.get('type') or 'event'}"[:64],
                actor="worker",
                causation_id=causation_id,
                payload={k: v for k, v in event.items() if k != "type"},
                redacted=True,  # the core redacts each event it records (``Runner.audit``)
            )
        # One UPDATE stores the document and numbers everything gathered so far (the queued writes,
        # the core's events); it locks the trip's row before any hold or approval row is touched.
        if not gathered_flush(trip_id=trip.pk, fields=fields, where={"version": expected_version}):
            raise StaleVersion(f"trip {trip.pk}: version {expected_version} is no longer current")
        said: Gathered = []
        if not (replaces_rows_none and rows_none):
            with chat_set_aside() as said:
                holds_follow(trip=trip, trip_intent=stored, now=now)
        if writes is None:
            chat_gathered_join(said)  # no turn to wait for: said with this transaction
    if writes is not None:
        writes.rows_none = rows_none
        if said:
            writes.add_last(lambda: chat_gathered_join(said))
    return new_version


def implies_rows(doc: Optional[dict[str, Any]]) -> bool:
    """Whether a TripIntent implies hold, approval or booking rows (``holds.holds_follow``): it lists
    holds or bookings, or waits for a hold approval. A document that does not, replaced by another
    that does not, leaves the rows as they were: none open (they followed the document replaced)."""
    wm = (doc or {}).get("working_memory") or {}
    awaiting = ((doc or {}).get("status") or {}).get("phase") == "awaiting_hold_approval"
    return bool(wm.get("holds") or wm.get("bookings") or awaiting)
