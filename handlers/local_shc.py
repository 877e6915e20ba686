"""An in-process SHC: runs a registry entry's handler with schema checks and a time limit.

Hosts wrap it (the Django host adds ToolRun rows and audit events around ``handler_call``);
the harness uses it as is. ``handler_call`` returns the tool handler's result unchanged on
success — for the wrappers in :mod:`handlers.tools` that is ``{"success", "input", "output":
{"tool_name", "result"}, "stack"}`` — or a failed result whose ``output.error.code`` is one of
``not_found`` (no such enabled tool), ``forbidden`` (handler outside ``handlers.``),
``invalid_arguments`` (schema), ``timeout`` (retryable) or ``internal_error``.
:func:`handlers.tools.tool_outcome` reads both shapes.
"""

from __future__ import annotations

import concurrent.futures
import contextvars
import importlib
import time
from typing import Any, Callable, Collection, Dict, List, Optional

import jsonschema

from .common.clock import iso
from .common.defaults import DEFAULT_TOOLS
from .common.host import ToolDeps
from .common.types import fail, guarded

# Tools run on worker threads so a time limit can be enforced; a call that overruns is reported
# as a timeout and its thread is left to finish on its own (Python threads cannot be killed).
# ``inline`` tools (in-process computations) run on the caller's thread instead.
_EXECUTOR = concurrent.futures.ThreadPoolExecutor(max_workers=8, thread_name_prefix="tripdesk-tool")


def schema_errors(schema: Dict[str, Any], arguments: Any) -> List[str]:
    """Plain-words list of what is wrong with ``arguments`` (empty when valid)."""
    validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
    return [
        f"{'.'.join(str(p) for p in err.absolute_path) or 'arguments'}: {err.message}"
        for err in sorted(validator.iter_errors(arguments), key=lambda e: list(map(str, e.absolute_path)))
    ][:5]


def resolve_handler(path: str) -> type:
    """``"handlers.tools:FlightQuoteSearch"`` → the class. Only the mission core's own modules."""
    module_name, _, class_name = path.partition(":")
    if not module_name.startswith("handlers.") or not class_name:
        raise PermissionError(path)
    return getattr(importlib.import_module(module_name), class_name)


def _timed_out(call: Dict[str, Any], timeout: float) -> Dict[str, Any]:
    return fail(call, "timeout", f"The {call['tool']} tool did not answer within {timeout:g} seconds.", retryable=True)


class LocalShc:
    """``handler_call`` as the SPEC's SHC protocol, for one trip at a time (``trip_id``)."""

    name = "local_shc"

    def __init__(
        self,
        deps: Optional[ToolDeps] = None,
        *,
        tools: Optional[List[Dict[str, Any]]] = None,
        trip_id: Optional[str] = None,
        clock: Optional[Callable[[], Any]] = None,
        around_call: Optional[Callable[[Callable[[], Dict[str, Any]]], Dict[str, Any]]] = None,
        inline: Collection[str] = (),
    ):
        """``around_call`` wraps each tool run on its worker thread: a host uses it to give the
        thread a fresh database connection and close it afterwards (worker threads outlive calls).

        ``inline``: tools run on the caller's thread, for computations that answer at once (the
        ranker, the policy check, an offline extractor, an in-process supplier). A worker thread
        buys them nothing (an overrun thread cannot be stopped; it would only let the turn move
        on while it burns the same CPU) and costs each call two thread hand-offs and the worker
        thread's own database connection. Their time limit is checked when they return: a call
        that overran is reported as a timeout all the same, its result dropped.
        """
        self.deps = deps or ToolDeps()
        self.around_call = around_call
        self.inline = frozenset(inline)
        self.tools = {t["name"]: t for t in (tools if tools is not None else DEFAULT_TOOLS)}
        self.trip_id = trip_id
        self.clock = clock or self.deps.clock

    def handler_call(
        self, portfolio: str, org: Dict[str, Any], tool: str, handler: str, args: Dict[str, Any]
    ) -> Dict[str, Any]:
        call = {"portfolio": portfolio, "tool": tool, "handler": handler, "args": args}
        return guarded(self.name, call, lambda: self._call(call, org or {}))

    def _call(self, call: Dict[str, Any], org: Dict[str, Any]) -> Dict[str, Any]:
        tool, args = call["tool"], call["args"]
        spec = self.tools.get(tool)
        if not spec or not spec.get("enabled", True):
            return fail(call, "not_found", f"There is no tool called {tool}.")
        problems = schema_errors(spec.get("schema") or {}, args)
        if problems:
            return fail(call, "invalid_arguments", f"The {tool} request was malformed: {'; '.join(problems)}")
        try:
            handler_cls = resolve_handler(call["handler"] or spec["handler"])
        except PermissionError:
            return fail(call, "forbidden", f"The {tool} handler is not part of the mission core.")
        except (ImportError, AttributeError):
            return fail(call, "not_available", f"The {tool} tool is not installed.")
        payload = {
            "tool_name": tool,
            "arguments": args,
            "now": iso(self.clock()) if self.clock else None,
            "org": org,
            "trip_id": self.trip_id or args.get("trip_id"),
        }
        handler = handler_cls(self.deps)
        timeout = float(spec.get("timeout_s") or 30)
        if tool in self.inline:
            started = time.monotonic()
            result = handler.run(payload)
            return _timed_out(call, timeout) if time.monotonic() - started > timeout else result
        context = contextvars.copy_context()
        run = (
            (lambda: self.around_call(lambda: handler.run(payload)))
            if self.around_call
            else (lambda: handler.run(payload))
        )
        future = _EXECUTOR.submit(context.run, run)
        try:
            return future.result(timeout=timeout)
        except concurrent.futures.TimeoutError:
            return _timed_out(call, timeout)

    @classmethod
    def run_tests(cls) -> None:
        shc = cls()
        bad = shc.handler_call(
            "default", {}, "flight_quote_search", "handlers.tools:FlightQuoteSearch", {"segment_id": 1}
        )
        assert bad["output"]["error"]["code"] == "invalid_arguments", bad
        assert shc.handler_call("default", {}, "nope", "x:Y", {})["output"]["error"]["code"] == "not_found"
        evil = shc.handler_call("default", {}, "booking_cancel", "os:system", {"booking_id": "b", "action": "quote"})
        assert evil["output"]["error"]["code"] == "forbidden"
        assert schema_errors(
            {"type": "object", "properties": {"d": {"type": "string", "format": "date"}}}, {"d": "2027-13-40"}
        )
