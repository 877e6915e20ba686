"""Writes of one turn that wait for the turn's next transaction, and store together when they do.

A turn used to commit every progress line, tool start and chat message on its own. The host
now queues the writes that need not be durable at once (``TurnWrites.add``) and the service
that opens the turn's next transaction runs them first, inside it (``atomic_with``): a
tool's start carries the progress lines and finished tool runs queued before it (and, the first
time, ``turn.started``); the TripIntent's save carries whatever is still queued with the core's
audit events; the turn's end carries its answer. While the queue runs, audit events and chat
messages are gathered and stored in one statement each, their sequence numbers taken in one
``UPDATE … RETURNING`` per counter (``audit.audit_buffer``, ``chat.chat_buffer``). Frames
still leave after the commit that stored them, together (``chat.broadcast_on_commit``).
"""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Callable, Optional

from django.db import transaction

from .audit import audit_buffer
from .chat import chat_buffer


class TurnWrites:
    def __init__(self) -> None:
        self.pending: list[Callable[[], object]] = []

    def add(self, write: Callable[[], object]) -> None:
        self.pending.append(write)


@contextmanager
def atomic_with(writes: Optional[TurnWrites], *, durable: bool = True) -> Iterator[None]:
    """A transaction that first stores the turn's queued writes. If it fails they stay queued, in
    order, for the next one (a transient error retried, a stale save re-run). The audit events and
    chat messages its body records join the queued ones' statements (so the body must not need
    their ``seq`` or primary key before the block ends)."""
    taken, writes_ = (writes.pending, writes) if writes is not None else ([], None)
    if writes_ is not None:
        writes_.pending = []
    try:
        with transaction.atomic(durable=durable), audit_buffer(), chat_buffer():
            for write in taken:
                write()
            yield
    except BaseException:
        if writes_ is not None:
            writes_.pending[:0] = taken
        raise
