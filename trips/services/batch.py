"""Writes of one turn that wait for the turn's next transaction.

A turn used to commit every progress line, tool start and chat message on its own. The host
now queues the writes that need not be durable at once (``TurnWrites.add``) and the service
that opens the turn's next transaction runs them first, inside it (``atomic_with``): a
tool's start carries the progress line shown before it (and, the first time, ``turn.started``);
the TripIntent's save carries whatever is still queued; the turn's end carries its answer.
Frames still leave after the commit that stored them (``chat.broadcast_on_commit``), in order.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Callable, Optional

from django.db import transaction


class TurnWrites:
    def __init__(self) -> None:
        self.pending: list[Callable[[], object]] = []

    def add(self, write: Callable[[], object]) -> None:
        self.pending.append(write)


@contextmanager
def atomic_with(writes: Optional[TurnWrites], *, durable: bool = True) -> Iterator[None]:
    """A transaction that first stores the turn's queued writes. If it fails they stay queued, in
    order, for the next one (a transient error retried, a stale save re-run)."""
    taken, writes_ = (writes.pending, writes) if writes is not None else ([], None)
    if writes_ is not None:
        writes_.pending = []
    try:
        with transaction.atomic(durable=durable):
            for write in taken:
                write()
            yield
    except BaseException:
        if writes_ is not None:
            writes_.pending[:0] = taken
        raise
