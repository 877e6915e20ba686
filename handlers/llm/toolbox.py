"""The tools a model may call, and how one call the model made is carried out.

What is offered is decided in code from the registry, not by the prompt: an entry with
``side_effects: true`` or ``internal: true`` (holds, purchases, releases, cancellations) is
never offered, and a call naming one is refused without running anything, even if an
executor for it was handed in. Each executed call runs under a timeout, its output is capped
at ``tool_response_max_bytes`` with the contract's notice, and it leaves an accounting entry.
"""

from __future__ import annotations

import json
import logging
import math
import threading
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Tuple

from handlers.common.clock import Clock
from handlers.common.openai_adapter import FunctionCall, parse_tool_arguments
from handlers.common.redact import redact

from .accounting import tool_entry
from .config import LLMLimits

log = logging.getLogger(__name__)

ToolFn = Callable[[Dict[str, Any]], Any]
Timer = Callable[[], float]


def is_offerable(entry: Mapping[str, Any]) -> bool:
    """A registry entry the model may see: enabled, read-only, not internal."""
    return bool(entry.get("enabled", True)) and not entry.get("side_effects") and not entry.get("internal")


def cap_tool_output(text: str, max_bytes: int) -> str:
    """``text`` cut to ``max_bytes`` (UTF-8) with the truncation notice prepended, if it is longer."""
    data = text.encode("utf-8")
    if len(data) <= max_bytes:
        return text
    kept = data[:max_bytes].decode("utf-8", "ignore")
    kept_bytes = len(kept.encode("utf-8"))
    return f"[TRUNCATED] Original size {len(data)} bytes; truncated to {kept_bytes} bytes.\n{kept}"


class ToolTimeout(Exception):
    pass


def _call_with_timeout(fn: ToolFn, arguments: Dict[str, Any], timeout_s: float) -> Any:
    """Run ``fn`` in a daemon thread; a tool that hangs is abandoned, never waited for."""
    box: Dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = fn(arguments)
        except Exception as exc:  # noqa: BLE001 - reported to the model as a failed tool
            box["error"] = exc

    thread = threading.Thread(target=target, name="llm-tool", daemon=True)
    thread.start()
    thread.join(timeout_s)
    if thread.is_alive():
        raise ToolTimeout()
    if "error" in box:
        raise box["error"]
    return box.get("value")


@dataclass(frozen=True)
class ToolCallOutcome:
    """What goes back to the model (``output``), what the caller may show (``record``), and accounting."""

    output: str
    record: Dict[str, Any]
    entry: Dict[str, Any]


def failed(reason: str) -> str:
    return f"(tool failed: {reason})"


class ToolBox:
    """Registry entries plus executors; only offerable entries with an executor are offered."""

    def __init__(self, registry: Iterable[Mapping[str, Any]], executors: Mapping[str, ToolFn]):
        self._registry = {str(e["name"]): dict(e) for e in registry}
        self._executors = dict(executors)

    @property
    def offered(self) -> List[Dict[str, Any]]:
        return [e for name, e in self._registry.items() if is_offerable(e) and name in self._executors]

    def specs(self) -> List[Dict[str, Any]]:
        """The ``tools`` of a Responses request (function tools)."""
        return [
            {
                "type": "function",
                "name": e["name"],
                "description": e.get("description") or "",
                "parameters": e.get("schema") or {"type": "object", "properties": {}},
                "strict": False,
            }
            for e in self.offered
        ]

    def refusal(self, name: str) -> Optional[Tuple[str, str]]:
        """``(error code, reason)`` when a call to ``name`` must not run, else None."""
        entry = self._registry.get(name)
        if entry is not None and (entry.get("side_effects") or entry.get("internal")):
            return "forbidden", (
                f"refused: '{name}' changes reservations or bookings and is never available to the assistant; "
                "the traveller does that with the buttons"
            )
        offered = [e["name"] for e in self.offered]
        if name not in offered:
            return "unknown_tool", f"unknown tool '{name}'; available tools: {', '.join(offered) or 'none'}"
        return None

    def call(
        self,
        fc: FunctionCall,
        *,
        limits: LLMLimits,
        purpose: str,
        timer: Timer,
        clock: Optional[Clock] = None,
    ) -> ToolCallOutcome:
        started = timer()
        parsed = parse_tool_arguments(fc.arguments)
        arguments = parsed.value if parsed.value is not None else {}
        output, error = self._run(fc, parsed.value, parsed.error, limits)
        if parsed.repaired and error is None:
            log.warning(
                "repaired malformed tool arguments",
                extra={"tool": fc.name, "original": redact(fc.arguments), "repaired": redact(arguments)},
            )
        entry = tool_entry(
            purpose=purpose,
            tool=fc.name,
            call_id=fc.call_id,
            latency_ms=int((timer() - started) * 1000),
            chars_in=len(fc.arguments),
            chars_out=len(output),
            error=error,
            clock=clock,
        )
        record = {
            "name": fc.name,
            "arguments": redact(arguments),
            "call_id": fc.call_id,
            "status": "failed" if error else "ok",
            "error": error,
            "repaired": parsed.repaired,
        }
        return ToolCallOutcome(output=output, record=record, entry=entry)

    def _run(
        self, fc: FunctionCall, arguments: Optional[Dict[str, Any]], parse_error: Optional[str], limits: LLMLimits
    ):
        """(output for the model, error code or None)."""
        refusal = self.refusal(fc.name)
        if refusal is not None:
            code, reason = refusal
            log.warning("refused a tool call", extra={"tool": fc.name, "code": code})
            return failed(reason), code
        if arguments is None:
            log.error(
                "dropped a tool call with unparseable arguments", extra={"tool": fc.name, "raw": redact(fc.arguments)}
            )
            return failed(
                f"invalid arguments: {parse_error}; send the call again with a valid JSON object"
            ), "invalid_arguments"
        timeout_s = min(float(self._registry[fc.name].get("timeout_s") or math.inf), limits.tool_timeout_s)
        try:
            value = _call_with_timeout(self._executors[fc.name], arguments, timeout_s)
        except ToolTimeout:
            log.warning("tool timed out", extra={"tool": fc.name, "timeout_s": timeout_s})
            return failed("timeout"), "timeout"
        except Exception as exc:  # noqa: BLE001 - the model hears about it; the turn goes on
            return failed(f"error: {type(exc).__name__}"), "error"
        text = json.dumps(redact(value), default=str, ensure_ascii=False)
        capped = cap_tool_output(text, limits.tool_response_max_bytes)
        if capped is not text:
            log.warning(
                "truncated a tool response",
                extra={
                    "tool": fc.name,
                    "bytes": len(text.encode("utf-8")),
                    "limit_bytes": limits.tool_response_max_bytes,
                },
            )
        return capped, None
