"""How a service hands work to the task queue without importing it (the tasks import the services).

The tasks are wired in once, when the app is ready (``trips.apps``): ``turn`` runs a trip's queued
turns (``trips.tasks.turns.run_turn``), ``notification`` sends one email
(``trips.tasks.notify.notification_send``). A service calls ``turn_enqueue_on_commit`` or
``notification_enqueue_on_commit`` inside its transaction: nothing is sent unless it commits.
"""

from __future__ import annotations

from typing import Any, Callable

_senders: dict[str, Callable[..., Any]] = {}


def senders_register(*, turn: Callable[[int, int], Any], notification: Callable[[str, int], Any]) -> None:
    """Wire the task queue in: each sender queues its task after the current transaction commits."""
    _senders.update(turn=turn, notification=notification)


def _sender(name: str) -> Callable[..., Any]:
    try:
        return _senders[name]
    except KeyError:
        raise RuntimeError(f"no {name} sender registered: trips.apps.TripsConfig.ready wires them in") from None


def turn_enqueue_on_commit(trip_id: int, message_id: int) -> None:
    """Run the trip's queued turns (``message_id``'s among them) once the current transaction commits."""
    _sender("turn")(trip_id, message_id)


def notification_enqueue_on_commit(kind: str, object_id: int) -> None:
    """Send the ``kind`` email about row ``object_id`` once the current transaction commits."""
    _sender("notification")(kind, object_id)
