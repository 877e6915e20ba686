"""The core's Runner and tools bound to Django: the stores, the supplier, approvals, payments,
passengers and bookings the host gives them (``build_runner``, ``tool_deps``), and the database
connection a tool thread keeps (``with_thread_connection``). The turn itself is ``trips.hosting.turns``.
"""

from datetime import datetime
from typing import Any, Callable, Dict, Optional

from django.conf import settings
from django.db import close_old_connections, connections

from handlers.common.host import ToolDeps
from handlers.llm.factory import followup_agent_from_env, llm_extractor_from_env
from handlers.runner import Runner
from trips.models import Trip
from trips.services.batch import TurnWrites

from .approvals import DjangoApprovalVerifier, DjangoPaymentMethods
from .passengers import DjangoPassengerDirectory
from .stores import DjangoQuoteStore, DjangoToolStore, DjangoTripStore
from .suppliers import DjangoBookingRecords, supplier_from_settings

Clock = Callable[[], datetime]


def build_runner(
    *,
    clock: Clock,
    tool_store: Optional[DjangoToolStore] = None,
    writes: Optional[TurnWrites] = None,
    causation_id: str = "",
    trip: Optional[Trip] = None,
) -> Runner:
    return Runner(
        trip_store=DjangoTripStore(writes=writes, causation_id=causation_id, trip=trip),
        tool_store=tool_store or DjangoToolStore(),
        limits=settings.TRIPDESK["RUNNER_LIMITS"],
        followup=followup_agent_from_env(settings.TRIPDESK["LLM"], clock=clock),
        quote_store=DjangoQuoteStore(),
    )


def tool_deps(*, clock: Clock, writes: Optional[TurnWrites] = None) -> ToolDeps:
    """What tools may reach: the configured supplier (``TRIPDESK_SUPPLIER``), approvals, payments,
    the bookings (host rows) and the trip's passengers (references, details only for the supplier)."""
    passengers = DjangoPassengerDirectory()
    return ToolDeps(
        supplier=supplier_from_settings(clock=clock, passengers=passengers, writes=writes),
        clock=clock,
        approvals=DjangoApprovalVerifier(),
        payments=DjangoPaymentMethods(),
        llm_extractor=llm_extractor_from_env(settings.TRIPDESK["LLM"], clock=clock),
        passengers=passengers,
        bookings=DjangoBookingRecords(),
    )


def with_thread_connection(run: Callable[[], Dict[str, Any]]) -> Dict[str, Any]:
    """Tools run on pooled threads that keep their database connection between calls, as long as
    ``CONN_MAX_AGE`` allows (closing it after every call made PostgreSQL start a backend for each
    tool: several per turn). A connection the server dropped (a restart, a terminated backend) is
    noticed without a round trip and replaced before the call; one a call broke is closed after it."""
    connections_before_work()
    try:
        return run()
    finally:
        close_old_connections()


def connections_before_work() -> None:
    """Before a tool call or a Celery task: drop this thread's connections the server closed (a
    restart, a terminated backend), noticed without a round trip, and those past ``CONN_MAX_AGE``
    or broken by an error; the others are used again."""
    for connection in connections.all(initialized_only=True):
        if not _alive(connection):
            connection.close()
    close_old_connections()


def _alive(connection: Any) -> bool:
    """Whether a PostgreSQL connection still has its server, read from what the socket already holds."""
    from psycopg import pq

    raw = getattr(connection, "connection", None)
    pgconn = getattr(raw, "pgconn", None)
    if pgconn is None:
        return True  # not open yet, or not PostgreSQL: Django's own checks apply
    try:  # the first reads take the server's goodbye, a later one meets the closed socket
        for _ in range(3):
            pgconn.consume_input()
    except Exception:  # noqa: BLE001 - any failure to read means the connection is gone
        return False
    return pgconn.status == pq.ConnStatus.OK
