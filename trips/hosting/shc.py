"""The SHC host hook: the core's local SHC runs the tool; this records it for people to see.

Every call leaves a ``tool.called`` audit event before it runs, then a ToolRun row and a
``tool.returned`` or ``tool.failed`` event (arguments and results redacted), plus an
``llm.usage`` event per LLM request the tool reported.

In a running turn (``writes``) a tool that may take a while or acts on the world commits its
start at once (the traveller sees its progress line; a crash mid-call leaves the trace); a quick
computation (``quick_tools``: the ranker, the policy check, the offline extractor, the sandbox's
searches) queues it. A read
tool's run is queued for the turn's next transaction; a tool that changed something at the
supplier (holds, purchases, cancellations) records its run at once.
"""

import time
import uuid
from collections import Counter
from typing import Any, Dict, Optional

from handlers.common.host import SHC
from handlers.common.types import fail
from handlers.tools import args_hash, tool_outcome
from trips.services.batch import TurnWrites
from trips.services.toolruns import tool_call_start, toolrun_kept, toolrun_record

READ_TOOLS = frozenset(
    {
        "trip_requirements_extract",
        "flight_quote_search",
        "hotel_quote_search",
        "trip_option_ranker",
        "policy_and_risk_check",
    }
)
QUICK_TOOLS = frozenset({"trip_option_ranker", "policy_and_risk_check"})
SEARCH_TOOLS = frozenset({"flight_quote_search", "hotel_quote_search"})


def quick_tools(*, llm_extractor: bool, remote_supplier: bool) -> frozenset[str]:
    """The tools whose start need not be committed alone: computations that answer at once. The
    extractor without an LLM reads the message offline; the sandbox supplier searches in-process."""
    quick = set(QUICK_TOOLS)
    if not llm_extractor:
        quick.add("trip_requirements_extract")
    if not remote_supplier:
        quick |= SEARCH_TOOLS
    return frozenset(quick)


class DjangoSHC:
    def __init__(
        self,
        *,
        inner: SHC,
        trip_id: int,
        message_id: Optional[int] = None,
        writes: Optional[TurnWrites] = None,
        quick: frozenset[str] = QUICK_TOOLS,
    ):
        self.inner, self.writes = inner, writes
        self.trip_id = trip_id
        self.message_id = message_id
        self.quick = quick
        self.attempts: Counter[str] = Counter()

    def handler_call(
        self, portfolio: str, org: Dict[str, Any], tool: str, handler: str, args: Dict[str, Any]
    ) -> Dict[str, Any]:
        call_id = f"call_{uuid.uuid4().hex[:16]}"
        # An attempt is the same call again (same tool, same arguments): the second leg's search is attempt 1.
        same_call = f"{tool}:{args_hash(args)}"
        self.attempts[same_call] += 1
        attempt = self.attempts[same_call]
        tool_call_start(
            trip_id=self.trip_id,
            call_id=call_id,
            tool=tool,
            arguments=args,
            attempt=attempt,
            writes=self.writes,
            durable=tool not in self.quick,
        )
        started = time.monotonic()
        try:
            result = self.inner.handler_call(portfolio, org, tool, handler, args)
        except Exception as exc:  # noqa: BLE001 - a host hook never raises into the Runner
            result = fail(args, "internal_error", f"{tool} failed unexpectedly: {type(exc).__name__}", retryable=True)
        latency_ms = int((time.monotonic() - started) * 1000)
        success, output = tool_outcome(result)
        run = {
            "trip_id": self.trip_id,
            "message_id": self.message_id,
            "call_id": call_id,
            "tool": tool,
            "arguments": args,
            "result": result,
            "success": success,
            "error": None if success else output.get("error"),
            "latency_ms": latency_ms,
            "attempt": attempt,
            "accounting": [entry for entry in output.get("accounting") or [] if isinstance(entry, dict)],
        }
        if self.writes is not None and tool in READ_TOOLS:
            kept = toolrun_kept(arguments=args, result=result)
            self.writes.add(lambda: toolrun_record(**run, kept=kept, durable=False))
        else:
            toolrun_record(**run)
        return result
