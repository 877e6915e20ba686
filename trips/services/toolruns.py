"""Tool runs: the row the back office reads and the ``tool.*`` / ``llm.usage`` audit events."""

from contextlib import nullcontext
from decimal import Decimal, InvalidOperation
from typing import Any, Optional

from django.db import transaction
from django.db.models import F

from handlers.common.redact import redact, redact_json_text
from handlers.tools import stored_arguments, stored_result
from trips.models import ToolRun, Trip
from trips.models.json_text import JSONText

from .audit import audit_record
from .batch import TurnWrites, atomic_with, toolrun_gather, toolrun_gathering


def tool_call_start(
    *,
    trip_id: int,
    call_id: str,
    tool: str,
    arguments: dict[str, Any],
    attempt: int,
    writes: Optional[TurnWrites] = None,
    durable: bool = True,
) -> None:
    """Audit that a tool is about to run, together with the turn's queued writes (the progress line
    shown for this tool, the tool runs before it). ``durable``: committed at once, with the call's
    arguments, so the traveller sees the progress line while a slow tool runs and a crash mid-call
    still leaves the trace; otherwise (a quick computation) queued for the turn's next transaction,
    where its tool run (``toolrun_record(durable=False)``, queued after it) keeps the arguments:
    the event names the call (``causation_id``, as the run's ``tool.returned`` does) without
    storing them twice."""
    queued = writes is not None and not durable

    def record() -> None:
        payload = {"tool": tool, "attempt": attempt}
        if not queued:
            payload["arguments"] = stored_arguments(arguments)
        audit_record(trip_id=trip_id, type="tool.called", actor="worker", causation_id=call_id, payload=payload)

    if writes is not None and queued:
        writes.add(record)
        return
    with atomic_with(writes):
        record()


def toolrun_record(
    *,
    trip_id: int,
    message_id: Optional[int],
    call_id: str,
    tool: str,
    arguments: dict[str, Any],
    result: dict[str, Any],
    success: bool,
    error: Optional[dict[str, Any]],
    latency_ms: int,
    attempt: int,
    accounting: list[dict[str, Any]],
    kept: Optional[tuple[Any, Any]] = None,
    durable: bool = True,
) -> ToolRun:
    """Record a finished tool call, its audit event, and the LLM usage it reported.

    The row keeps the arguments and the result's ``success`` and ``output`` (redacted;
    ``handlers.tools.stored_arguments``/``stored_result``: the ranker's quotes by reference, no
    repeated input or trace): ``replay_trip`` feeds the result back to the handlers instead of
    calling the tool again. ``kept``: those two as ``toolrun_kept`` took them when the call ended.
    ``durable``: in its own transaction; otherwise inside the caller's (a turn's queued writes).
    """
    if not durable and not transaction.get_connection().in_atomic_block:
        raise RuntimeError("toolrun_record(durable=False) must run inside a transaction")
    stored_args, stored = kept or toolrun_kept(arguments=arguments, result=result)
    with transaction.atomic(durable=True) if durable else nullcontext():
        return _toolrun_rows(
            trip_id=trip_id,
            message_id=message_id,
            call_id=call_id,
            tool=tool,
            arguments=stored_args,
            result=stored,
            success=success,
            error=error,
            latency_ms=latency_ms,
            attempt=attempt,
            accounting=accounting,
        )


def _toolrun_rows(**fields: Any) -> ToolRun:
    """The row and its events (``toolrun_record``'s fields, arguments and result as stored). In a
    turn's transaction (``atomic_with``) the row joins the other runs it gathered, inserted in one
    statement before the events (which then name it); otherwise it is inserted at once."""
    trip_id, call_id, tool = fields["trip_id"], fields["call_id"], fields["tool"]
    success, error, latency_ms = fields["success"], fields["error"], fields["latency_ms"]
    run = ToolRun(
        trip_id=trip_id,
        message_id=fields["message_id"],
        call_id=call_id,
        tool=tool,
        arguments=fields["arguments"],
        result=fields["result"],
        status=ToolRun.Status.SUCCEEDED if success else ToolRun.Status.FAILED,
        error=redact(error) if error else None,
        latency_ms=latency_ms,
        attempt=fields["attempt"],
    )
    gathered = toolrun_gathering()
    if not gathered:
        run.save(force_insert=True)
    event = audit_record(
        trip_id=trip_id,
        type="tool.returned" if success else "tool.failed",
        actor="worker",
        causation_id=call_id,
        payload={"tool": tool, "tool_run_id": run.pk, "latency_ms": latency_ms, "error": error},
    )
    if gathered:
        toolrun_gather(run, event)
    llm_cost = Decimal("0")
    for entry in fields["accounting"]:
        if entry.get("type") != "llm":
            continue
        audit_record(trip_id=trip_id, type="llm.usage", actor="worker", causation_id=call_id, payload=entry)
        llm_cost += _decimal(entry.get("cost_usd"))
    if llm_cost:
        Trip.objects.filter(pk=trip_id).update(llm_cost=F("llm_cost") + llm_cost)
    return run


def toolrun_kept(*, arguments: dict[str, Any], result: dict[str, Any]) -> tuple[Any, Any]:
    """What a tool run row keeps of a call's arguments and result: compact and redacted, taken when
    the call ends (the core may go on using the result). Each is redacted once, as the JSON text it
    is stored as, and goes to its column as that text (``JSONText``): encoded once, never decoded."""
    return _json_text(stored_arguments(arguments)), _json_text(stored_result(result))


def _json_text(value: Any) -> Optional[JSONText]:
    return None if value is None else JSONText(redact_json_text(value))


def _decimal(value: Any) -> Decimal:
    try:
        return Decimal(str(value)) if value is not None else Decimal("0")
    except InvalidOperation:
        return Decimal("0")
