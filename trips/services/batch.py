"""Writes of one turn that wait for the turn's next transaction, and store together when they do.

A turn used to commit every progress line, tool start and chat message on its own. The host
now queues the writes that need not be durable at once (``TurnWrites.add``) and the service
that opens the turn's next transaction runs them first, inside it (``atomic_with``): a
tool's start carries the progress lines and finished tool runs queued before it (and, the first
time, ``turn.started``); the TripIntent's save carries whatever is still queued with the core's
audit events; the turn's end carries its answer. While the queue runs, audit events and chat
messages are gathered and stored in one statement each, both their sequence numbers taken in one
``UPDATE … RETURNING`` of the trip's row (``Trip.objects.counters_next``). Frames
still leave after the commit that stored them, together (``chat.broadcast_on_commit``).
"""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Callable, Optional

from django.db import transaction
from django.utils import timezone

from trips.models import AuditEvent, Trip

from .audit import audit_events_store, audit_gathered, per_trip
from .chat import Gathered, chat_gathered, chat_gathered_messages, chat_store


class TurnWrites:
    """The turn's queued writes, in order; ``add_last``: after every write queued for the same
    transaction, also those queued after it (what the host says of a saved TripIntent comes after
    the core's answer, which the core prints once it saved)."""

    def __init__(self) -> None:
        self.pending: list[Callable[[], object]] = []
        self.last: list[Callable[[], object]] = []

    def add(self, write: Callable[[], object]) -> None:
        self.pending.append(write)

    def add_last(self, write: Callable[[], object]) -> None:
        self.last.append(write)

    def take(self) -> list[Callable[[], object]]:
        taken, self.pending, self.last = [*self.pending, *self.last], [], []
        return taken


@contextmanager
def atomic_with(writes: Optional[TurnWrites], *, durable: bool = True) -> Iterator[None]:
    """A transaction that first stores the turn's queued writes. If it fails they stay queued, in
    order, for the next one (a transient error retried, a stale save re-run). The audit events and
    chat messages its body records join the queued ones' statements (so the body must not need
    their ``seq`` or primary key before the block ends)."""
    taken = writes.take() if writes is not None else []
    try:
        with transaction.atomic(durable=durable):
            with audit_gathered() as events, chat_gathered() as added:
                for write in taken:
                    write()
                yield
            _gathered_store(events or [], added or [])
    except BaseException:
        if writes is not None:
            writes.pending[:0] = taken
        raise


def _gathered_store(events: list[AuditEvent], added: Gathered) -> None:
    """Store a transaction's gathered audit events and chat messages: per trip one ``UPDATE …
    RETURNING`` takes both blocks of numbers, then one INSERT each."""
    messages = per_trip(chat_gathered_messages(added))
    audited = per_trip(events)
    last_event: dict[int, int] = {}
    last_message: dict[int, int] = {}
    for trip_id in {**audited, **messages}:
        by = {"last_event_seq": audited.get(trip_id, 0), "last_message_seq": messages.get(trip_id, 0)}
        by = {field: n for field, n in by.items() if n}
        last = Trip.objects.counters_next(trip_id=trip_id, by=by, touch=timezone.now() if trip_id in messages else None)
        if "last_event_seq" in last:
            last_event[trip_id] = last["last_event_seq"]
        if "last_message_seq" in last:
            last_message[trip_id] = last["last_message_seq"]
    audit_events_store(events, last_seq=last_event)
    chat_store(added, last_seq=last_message)
