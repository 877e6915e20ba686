"""The runner factory: the core's Runner bound to Django's stores, AGU and recording SHC.

``turn_run`` is what the ``run_turn`` task calls; ``turn_execute`` runs one turn for one
message with an explicit event. A queued purchase runs as ``purchase_turn``: its event is
handed to the core with a one-turn pass in place of the approval token, which is never stored.
"""

from datetime import datetime
from typing import Any, Callable, Dict, Optional

from django.conf import settings
from django.db import close_old_connections, connections
from django.utils import timezone

from handlers.common.clock import iso
from handlers.common.crash import crash_point
from handlers.common.host import ToolDeps, bind_host
from handlers.llm.factory import followup_agent_from_env, llm_extractor_from_env
from handlers.local_shc import LocalShc
from handlers.runner import Runner
from trips.models import ChatMessage, Trip
from trips.services.batch import TurnWrites
from trips.services.holds import holds_sync
from trips.services.purchases import (
    is_purchase,
    purchase_answer,
    purchase_outcome,
    purchase_recheck,
    purchase_shown,
)
from trips.services.turns import turn_claim, turn_complete, turn_next, turn_release, turn_start

from .agu import DjangoAGU
from .approvals import DjangoApprovalVerifier, DjangoPaymentMethods, purchase_pass
from .passengers import DjangoPassengerDirectory
from .shc import QUICK_TOOLS, DjangoSHC
from .stores import DjangoQuoteStore, DjangoToolStore, DjangoTripStore
from .suppliers import DjangoBookingRecords, supplier_from_settings
from .transient import transient_retried

Clock = Callable[[], datetime]


def build_runner(
    *,
    clock: Clock,
    tool_store: Optional[DjangoToolStore] = None,
    writes: Optional[TurnWrites] = None,
    causation_id: str = "",
) -> Runner:
    return Runner(
        trip_store=DjangoTripStore(writes=writes, causation_id=causation_id),
        tool_store=tool_store or DjangoToolStore(),
        limits=settings.TRIPDESK["RUNNER_LIMITS"],
        followup=followup_agent_from_env(settings.TRIPDESK["LLM"], clock=clock),
        quote_store=DjangoQuoteStore(),
    )


def tool_deps(*, clock: Clock) -> ToolDeps:
    """What tools may reach: the configured supplier (``TRIPDESK_SUPPLIER``), approvals, payments,
    the bookings (host rows) and the trip's passengers (references, details only for the supplier)."""
    passengers = DjangoPassengerDirectory()
    return ToolDeps(
        supplier=supplier_from_settings(clock=clock, passengers=passengers),
        clock=clock,
        approvals=DjangoApprovalVerifier(),
        payments=DjangoPaymentMethods(),
        llm_extractor=llm_extractor_from_env(settings.TRIPDESK["LLM"], clock=clock),
        passengers=passengers,
        bookings=DjangoBookingRecords(),
    )


def turn_payload(*, trip: Trip, event: Dict[str, Any], now: datetime, actor: str) -> Dict[str, Any]:
    return {
        "trip_id": str(trip.pk),
        "portfolio": "default",
        "org": trip.organisation.as_core_org(),
        "event": event,
        "now": iso(now),
        "actor": actor,
    }


def with_thread_connection(run: Callable[[], Dict[str, Any]]) -> Dict[str, Any]:
    """Tools run on pooled threads: drop a stale connection before, close the thread's own after,
    so a database restart never leaves a tool thread holding a dead connection."""
    close_old_connections()
    try:
        return run()
    finally:
        connections.close_all()


def turn_execute(
    *, trip: Trip, message: ChatMessage, event: Dict[str, Any], clock: Clock = timezone.now
) -> Dict[str, Any]:
    """Run one turn through the core, recording its input (for replay) and its outcome.

    Redelivered (its worker died mid-turn), it runs again from the start: the core's save is
    versioned, and progress lines an earlier attempt showed are not shown again (``DjangoAGU``).
    """
    now = clock()
    payload = turn_payload(trip=trip, event=event, now=now, actor=f"user:{trip.owner_id}")
    writes = TurnWrites()  # progress, chat and turn.started ride on the turn's next transaction
    turn_start(trip_id=trip.pk, message_id=message.pk, payload=payload, writes=writes)
    tool_store = DjangoToolStore()
    deps = tool_deps(clock=clock)
    local = LocalShc(
        deps,
        tools=tool_store.get_tools(),
        trip_id=str(trip.pk),
        clock=clock,
        around_call=with_thread_connection,
    )
    agu = DjangoAGU(message_id=message.pk, writes=writes)
    # Without an LLM the extractor is a quick computation: its start need not be committed alone.
    quick = QUICK_TOOLS | ({"trip_requirements_extract"} if deps.llm_extractor is None else set())
    shc = DjangoSHC(inner=local, trip_id=trip.pk, message_id=message.pk, writes=writes, quick=quick)
    with bind_host(agu=agu, shc=shc):
        runner = build_runner(clock=clock, tool_store=tool_store, writes=writes, causation_id=f"message:{message.pk}")
        result = runner.run(payload)
    # The core has saved its result: from here a transient database error retries the step that
    # hit it, never the whole turn (which would run the core, and apply its effects, twice).
    output = result.get("output") or {}
    if isinstance(output.get("trip_intent"), dict):
        transient_retried(lambda: holds_sync(trip=trip, trip_intent=output["trip_intent"], now=now))
    transient_retried(lambda: turn_complete(trip_id=trip.pk, message_id=message.pk, result=result, writes=writes))
    return result


def turn_run(*, trip_id: int, clock: Optional[Clock] = None) -> int:
    """Run the trip's queued turns in order; returns how many ran (0: already done, or busy elsewhere).

    Looking again and giving the lease back are one step (``turn_next``), so a message queued
    while we ran is either seen here or claimed by its own task: never left behind.
    """
    ran = 0
    messages, lease_until = turn_claim(trip_id=trip_id, now=timezone.now())
    while messages and lease_until is not None:
        try:
            for message in messages:
                trip = Trip.objects.select_related("organisation", "owner").get(pk=trip_id)
                if is_purchase(message):
                    purchase_turn(trip=trip, message=message, clock=clock or timezone.now)
                else:
                    turn_execute(trip=trip, message=message, event=message.event or {}, clock=clock or timezone.now)
        except BaseException:
            turn_release(trip_id=trip_id, lease_until=lease_until)
            raise
        ran += len(messages)
        messages, lease_until = turn_next(trip_id=trip_id, lease_until=lease_until, now=timezone.now())
    return ran


def purchase_turn(*, trip: Trip, message: ChatMessage, clock: Clock = timezone.now) -> None:
    """Run a queued purchase (``trips.services.purchases``): check again, buy through the core, act on the outcome.

    The stored event names the approval; the core gets a pass standing for it for this turn only
    (``purchase_pass``), so no token is stored or sent anywhere. Run twice (its process died), it
    takes over its own dead claim and the core replays what the supplier already sold it; one that
    died after the booking was written runs the core to replay that booking into the trip.
    """
    crash_point("purchase.started")
    now = clock()
    verdict = purchase_recheck(trip=trip, message=message, now=now)
    if not verdict.ok or (verdict.replay and purchase_shown(trip=trip, verdict=verdict)):
        purchase_answer(trip=trip, message=message, verdict=verdict)
        return
    data = (message.event or {}).get("data") or {}
    with purchase_pass(trip_id=trip.pk, approval_id=verdict.approval.pk) as token:
        event = {
            "type": message.event["type"],
            "data": {"approval_token": token, "payment_method_id": str(data.get("payment_method_id") or "")},
        }
        turn_execute(trip=trip, message=message, event=event, clock=clock)
    crash_point("purchase.turn_completed")
    purchase_outcome(trip=trip, message=message, approval_id=verdict.approval.pk, now=now)
