"""Writes of one turn that wait for the turn's next transaction, and store together when they do.

A turn used to commit every progress line, tool start and chat message on its own. The host
now queues the writes that need not be durable at once (``TurnWrites.add``) and the service
that opens the turn's next transaction runs them first, inside it (``atomic_with``): a
tool's start carries the progress lines and finished tool runs queued before it (and, the first
time, ``turn.started``); the TripIntent's save carries whatever is still queued with the core's
audit events; the turn's end carries its answer. While the queue runs, tool runs, audit events
and chat messages are gathered and stored in one statement each, both sequence numbers taken in
one ``UPDATE … RETURNING`` of the trip's row (``Trip.objects.counters_next_with``). That UPDATE is
also the write the trip's row needed anyway: the TripIntent's versioned save and the lease's
hand-back call ``gathered_flush`` with their fields, so a turn's transaction updates the trip once.
Frames still leave after the commit that stored them, together (``chat.broadcast_on_commit``).
"""

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Callable, Optional

from django.db import transaction
from django.utils import timezone

from trips.models import AuditEvent, ToolRun, Trip

from .audit import audit_events_store, audit_gathered, audit_gathered_open, per_trip
from .chat import Gathered, chat_gathered, chat_gathered_messages, chat_gathered_open, chat_store


class TurnWrites:
    """The turn's queued writes, in order; ``add_last``: after every write queued for the same
    transaction, also those queued after it (what the host says of a saved TripIntent comes after
    the core's answer, which the core prints once it saved).

    ``rows_none``: the TripIntent this turn saved last implies no hold, approval or booking rows
    (``intents.trip_intent_save``), so the turn's end needs not look for a purchase to offer."""

    def __init__(self) -> None:
        self.pending: list[Callable[[], object]] = []
        self.last: list[Callable[[], object]] = []
        self.rows_none = False

    def add(self, write: Callable[[], object]) -> None:
        self.pending.append(write)

    def add_last(self, write: Callable[[], object]) -> None:
        self.last.append(write)

    def take(self) -> list[Callable[[], object]]:
        taken, self.pending, self.last = [*self.pending, *self.last], [], []
        return taken


GatheredRuns = list[tuple[ToolRun, AuditEvent]]
_runs: ContextVar[Optional[GatheredRuns]] = ContextVar("toolrun_buffer", default=None)


def toolrun_gathering() -> bool:
    """Whether a turn's transaction gathers tool runs (``toolrun_gather``) to insert them together."""
    return _runs.get() is not None


def toolrun_gather(run: ToolRun, event: AuditEvent) -> None:
    """Leave ``run`` (unsaved) to the open transaction's store: the runs it gathered are inserted in
    one statement, before the audit events, and ``event`` (its ``tool.returned``/``tool.failed``)
    then names it by key (``tool_run_id``)."""
    buffered = _runs.get()
    if buffered is None:
        raise RuntimeError("toolrun_gather() must run inside a turn's transaction (atomic_with)")
    buffered.append((run, event))


@contextmanager
def _toolruns_gathered() -> Iterator[Optional[GatheredRuns]]:
    if _runs.get() is not None:
        yield None
        return
    runs: GatheredRuns = []
    token = _runs.set(runs)
    try:
        yield runs
    finally:
        _runs.reset(token)


@contextmanager
def atomic_with(writes: Optional[TurnWrites], *, durable: bool = True) -> Iterator[None]:
    """A transaction that first stores the turn's queued writes. If it fails they stay queued, in
    order, for the next one (a transient error retried, a stale save re-run). The audit events,
    chat messages and tool runs its body records join the queued ones' statements (so the body must
    not need their ``seq`` or primary key before the block ends, or before ``gathered_flush``)."""
    taken = writes.take() if writes is not None else []
    try:
        with transaction.atomic(durable=durable):
            with audit_gathered() as events, chat_gathered() as added, _toolruns_gathered() as runs:
                for write in taken:
                    write()
                yield
            _gathered_store(events or [], added or [], runs or [])
    except BaseException:
        if writes is not None:
            writes.pending[:0] = taken
        raise


def gathered_flush(
    *, trip_id: int, fields: Optional[dict[str, Any]] = None, where: Optional[dict[str, Any]] = None
) -> bool:
    """Store what the open turn transaction (``atomic_with``) gathered so far, numbered by the same
    ``UPDATE … RETURNING`` of the trip's row that sets ``fields`` — only while its columns still
    hold ``where`` (the TripIntent's version). Returns False, storing nothing, when they do not.

    What is gathered later is stored when the transaction's block ends, numbered after it (the
    row stays locked meanwhile, so the numbers follow on without a gap). Frames of the messages
    stored here still leave after commit, in order with the rest."""
    events, added, runs = audit_gathered_open(), chat_gathered_open(), _runs.get()
    if events is None or added is None or runs is None:
        raise RuntimeError("gathered_flush() must run inside a turn's transaction (atomic_with)")
    taken_events, taken_added, taken_runs = list(events), list(added), list(runs)
    if not _store(taken_events, taken_added, taken_runs, trip_id=trip_id, fields=fields, where=where):
        return False
    del events[: len(taken_events)], runs[: len(taken_runs)]
    del added[: len(taken_added)]  # only what was stored: its frames were queued again behind the rest
    return True


def _gathered_store(events: list[AuditEvent], added: Gathered, runs: GatheredRuns) -> None:
    """Store a transaction's gathered tool runs, audit events and chat messages: one INSERT for the
    runs, per trip one ``UPDATE … RETURNING`` takes both blocks of numbers, then one INSERT each."""
    _store(events, added, runs)


def _store(
    events: list[AuditEvent],
    added: Gathered,
    runs: GatheredRuns,
    *,
    trip_id: Optional[int] = None,
    fields: Optional[dict[str, Any]] = None,
    where: Optional[dict[str, Any]] = None,
) -> bool:
    messages = per_trip(chat_gathered_messages(added))
    audited = per_trip(events)
    last_event: dict[int, int] = {}
    last_message: dict[int, int] = {}
    trips = list({**({trip_id: 0} if trip_id is not None else {}), **audited, **messages})
    for each in trips:  # the trip whose row must still match goes first: nothing is stored when it does not
        by = {"last_event_seq": audited.get(each, 0), "last_message_seq": messages.get(each, 0)}
        mine = each == trip_id
        last = Trip.objects.counters_next_with(
            trip_id=each,
            by=by,
            touch=timezone.now() if each in messages else None,
            fields=fields if mine else None,
            where=where if mine else None,
        )
        if last is None:
            if mine and where:
                return False
            raise Trip.DoesNotExist(f"no trip {each}")
        if "last_event_seq" in last:
            last_event[each] = last["last_event_seq"]
        if "last_message_seq" in last:
            last_message[each] = last["last_message_seq"]
    if runs:
        ToolRun.objects.bulk_create([run for run, _ in runs])
        for run, event in runs:
            event.payload["tool_run_id"] = run.pk
    audit_events_store(events, last_seq=last_event)
    chat_store(added, last_seq=last_message)
    return True
