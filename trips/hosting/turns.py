"""A turn, as the ``run_turn`` task runs it: claim the trip, run its queued messages through the
core in order, record each outcome, give the lease back (``turn_run``).

``turn_execute`` runs one turn for one message with an explicit event. A queued purchase runs as
``purchase_turn``: its event is handed to the core with a one-turn pass in place of the approval
token, which is never stored. The core's bindings to Django are ``trips.hosting.factory``.
"""

from datetime import datetime
from typing import Any, Dict, Optional

from django.utils import timezone

from handlers.common.clock import iso
from handlers.common.crash import crash_point
from handlers.common.host import bind_host
from handlers.local_shc import LocalShc
from trips.models import ChatMessage, Trip
from trips.services.batch import TurnWrites
from trips.services.purchases import (
    is_purchase,
    purchase_answer,
    purchase_outcome,
    purchase_recheck,
    purchase_shown,
)
from trips.services.turns import Claim, turn_claim, turn_complete, turn_next, turn_release, turn_start

from .agu import DjangoAGU
from .approvals import purchase_pass
from .factory import Clock, build_runner, tool_deps, with_thread_connection
from .shc import DjangoSHC, quick_tools
from .stores import DjangoToolStore
from .suppliers import supplier_is_remote
from .transient import transient_retried


def turn_payload(*, trip: Trip, event: Dict[str, Any], now: datetime, actor: str) -> Dict[str, Any]:
    return {
        "trip_id": str(trip.pk),
        "portfolio": "default",
        "org": trip.organisation.as_core_org(),
        "event": event,
        "now": iso(now),
        "actor": actor,
    }


def turn_execute(
    *,
    trip: Trip,
    message: ChatMessage,
    event: Dict[str, Any],
    clock: Clock = timezone.now,
    first_attempt: bool = False,
    lease_until: Optional[datetime] = None,
) -> Claim:
    """Run one turn through the core, recording its input (for replay) and its outcome.

    Redelivered (its worker died mid-turn), it runs again from the start: the core's save is
    versioned, and progress lines an earlier attempt showed are not shown again (``DjangoAGU``;
    ``first_attempt``: none can have been). ``trip`` is read just before (its TripIntent is the
    core's first load). ``lease_until``: the last turn of its lease, whose end also looks for the
    messages queued meanwhile (``turn_complete``); returns them.
    """
    now = clock()
    payload = turn_payload(trip=trip, event=event, now=now, actor=f"user:{trip.owner_id}")
    writes = TurnWrites()  # progress, chat and turn.started ride on the turn's next transaction
    turn_start(trip_id=trip.pk, message_id=message.pk, payload=payload, writes=writes)
    tool_store = DjangoToolStore()
    deps = tool_deps(clock=clock, writes=writes)
    quick = quick_tools(llm_extractor=deps.llm_extractor is not None, remote_supplier=supplier_is_remote())
    local = LocalShc(
        deps,
        tools=tool_store.get_tools(),
        trip_id=str(trip.pk),
        clock=clock,
        around_call=with_thread_connection,
        inline=quick,
    )
    agu = DjangoAGU(message_id=message.pk, writes=writes, first_attempt=first_attempt)
    shc = DjangoSHC(inner=local, trip_id=trip.pk, message_id=message.pk, writes=writes, quick=quick)
    with bind_host(agu=agu, shc=shc):
        runner = build_runner(
            clock=clock, tool_store=tool_store, writes=writes, causation_id=f"message:{message.pk}", trip=trip
        )
        result = runner.run(payload)
    # The core has saved its result, and with it the hold, approval and booking rows it implies
    # (``trip_intent_save``): from here a transient database error retries the step that hit it,
    # never the whole turn (which would run the core, and apply its effects, twice).
    return transient_retried(
        lambda: turn_complete(
            trip_id=trip.pk, message_id=message.pk, result=result, writes=writes, lease_until=lease_until, now=now
        )
    )


def turn_run(*, trip_id: int, clock: Optional[Clock] = None) -> int:
    """Run the trip's queued turns in order; returns how many ran (0: already done, or busy elsewhere).

    Looking again and giving the lease back are one step (``turn_next``, or the last turn's end),
    so a message queued while we ran is either seen here or claimed by its own task: never left behind.
    """
    clock = clock or timezone.now
    ran = 0
    claim = turn_claim(trip_id=trip_id, now=timezone.now())
    while claim.messages and claim.lease_until is not None:
        lease_until, looked = claim.lease_until, None  # looked: the last turn's end looked for more
        try:
            for i, message in enumerate(claim.messages):
                first = i == 0 and claim.trip is not None
                trip = claim.trip if first else Trip.objects.select_related("organisation").get(pk=trip_id)
                if is_purchase(message):
                    purchase_turn(trip=trip, message=message, clock=clock)
                    looked = None
                else:
                    last = i == len(claim.messages) - 1
                    ended = turn_execute(
                        trip=trip,
                        message=message,
                        event=message.event or {},
                        clock=clock,
                        first_attempt=first and claim.nothing_after(message),
                        lease_until=lease_until if last else None,
                    )
                    looked = ended if last else None
        except BaseException:
            turn_release(trip_id=trip_id, lease_until=lease_until)
            raise
        ran += len(claim.messages)
        claim = (
            looked if looked is not None else turn_next(trip_id=trip_id, lease_until=lease_until, now=timezone.now())
        )
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
