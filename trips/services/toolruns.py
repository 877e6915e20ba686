"""Tool runs: the row the back office reads and the ``tool.*`` / ``llm.usage`` audit events."""

from decimal import Decimal, InvalidOperation
from typing import Any, Optional

from django.db import transaction
from django.db.models import F

from handlers.common.redact import redact
from handlers.tools import stored_arguments, stored_result
from trips.models import ToolRun, Trip

from .audit import audit_record
from .batch import TurnWrites, atomic_with


def tool_call_start(
    *,
    trip_id: int,
    call_id: str,
    tool: str,
    arguments: dict[str, Any],
    attempt: int,
    writes: Optional[TurnWrites] = None,
) -> None:
    """Audit that a tool is about to run (committed at once: a crash mid-call still leaves the trace),
    together with the turn's queued writes (the progress line shown for this tool)."""
    with atomic_with(writes):
        audit_record(
            trip_id=trip_id,
            type="tool.called",
            actor="worker",
            causation_id=call_id,
            payload={"tool": tool, "arguments": stored_arguments(arguments), "attempt": attempt},
        )


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
) -> ToolRun:
    """Record a finished tool call, its audit event, and the LLM usage it reported.

    The row keeps the arguments and the result's ``success`` and ``output`` (redacted;
    ``handlers.tools.stored_arguments``/``stored_result``: the ranker's quotes by reference, no
    repeated input or trace): ``replay_trip`` feeds the result back to the handlers instead of
    calling the tool again.
    """
    with transaction.atomic(durable=True):
        run = ToolRun.objects.create(
            trip_id=trip_id,
            message_id=message_id,
            call_id=call_id,
            tool=tool,
            arguments=redact(stored_arguments(arguments)),
            result=redact(stored_result(result)),
            status=ToolRun.Status.SUCCEEDED if success else ToolRun.Status.FAILED,
            error=redact(error) if error else None,
            latency_ms=latency_ms,
            attempt=attempt,
        )
        audit_record(
            trip_id=trip_id,
            type="tool.returned" if success else "tool.failed",
            actor="worker",
            causation_id=call_id,
            payload={"tool": tool, "tool_run_id": run.pk, "latency_ms": latency_ms, "error": error},
        )
        llm_cost = Decimal("0")
        for entry in accounting:
            if entry.get("type") != "llm":
                continue
            audit_record(trip_id=trip_id, type="llm.usage", actor="worker", causation_id=call_id, payload=entry)
            llm_cost += _decimal(entry.get("cost_usd"))
        if llm_cost:
            Trip.objects.filter(pk=trip_id).update(llm_cost=F("llm_cost") + llm_cost)
    return run


def _decimal(value: Any) -> Decimal:
    try:
        return Decimal(str(value)) if value is not None else Decimal("0")
    except InvalidOperation:
        return Decimal("0")
