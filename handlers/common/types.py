"""Contracts shared by every handler (SPEC §B, §D, §E.1).

A handler is a class with ``name`` and ``run(payload) -> dict``; it returns
``{"success", "input", "output", "stack"}`` and never raises to its caller.
Failures carry ``output = {"error": {"code", "message", "retryable"}}``.
"""

from __future__ import annotations

import traceback
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Dict, List, Literal, Optional, Protocol, TypedDict, Union

EventType = Literal[
    "USER_MESSAGE",
    "USER_SELECTED_BUNDLE",
    "USER_REQUEST_HOLD",
    "USER_APPROVED_PURCHASE",
    "TOOL_RESULT",
    "TOOL_ERROR",
    "INTENT_READY",
    # TripDesk additions, produced only by the host (never by the text router):
    "HOLD_APPROVAL_DECIDED",  # data: {"approved": bool, "reason": str}
    "USER_RETRY",  # "try again" after a retryable tool error
    "USER_CANCEL_BOOKING",  # data: {"booking_id", "quote_id"?}
    "HOLDS_CHANGED",  # data: {"hold_ids", "status": "released"|"expired", "reason"}: staff or the deadline task
    "USER_RELEASE_HOLDS",  # "cancel the hold": the traveller gives held space back (the router, from text)
]
EVENT_TYPES: tuple[str, ...] = EventType.__args__  # type: ignore[attr-defined]


@dataclass
class Event:
    type: str
    data: Dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> Dict[str, Any]:
        return asdict(self)


@dataclass
class ToolCall:
    name: str
    arguments: Dict[str, Any] = field(default_factory=dict)
    call_id: Optional[str] = None

    def to_dict(self) -> Dict[str, Any]:
        return asdict(self)


class ToolError(TypedDict):
    code: str  # e.g. "timeout", "supplier_error", "invalid_arguments", "not_found", "forbidden"
    message: str  # plain words a traveller can read
    retryable: bool


class HandlerResult(TypedDict):
    success: bool
    input: Any
    output: Any
    stack: List[Any]


class Handler(Protocol):
    name: str

    def run(self, payload: Dict[str, Any]) -> Dict[str, Any]: ...


# A specialist is anything that takes (tool_name, arguments) and returns a HandlerResult.
RunSpecialistFn = Callable[[str, Dict[str, Any]], Dict[str, Any]]


class ReduceTripPayload(TypedDict, total=False):
    trip_intent: Dict[str, Any]
    event: Dict[str, Any]
    now: str


class ReduceTripResult(TypedDict):
    tool_calls: List[Dict[str, Any]]
    ui_messages: List[Dict[str, Any]]
    trip_intent: Dict[str, Any]


class ApplyToolResultPayload(TypedDict, total=False):
    trip_intent: Dict[str, Any]
    tool_name: str
    tool_call: Dict[str, Any]
    result: Dict[str, Any]
    now: str


class ApplyToolResultResult(TypedDict):
    trip_intent: Dict[str, Any]
    changed_paths: List[str]
    invalidations: List[str]


class ApplyPatchPayload(TypedDict, total=False):
    trip_intent: Dict[str, Any]
    patch: Dict[str, Any]
    now: str


class ApplyPatchResult(TypedDict):
    trip_intent: Dict[str, Any]
    changed_paths: List[str]
    invalidations: List[str]
    suggested_next_tools: List[str]
    released_holds: List[Dict[str, Any]]


class RunnerPayload(TypedDict, total=False):
    trip_id: str
    portfolio: str
    org: Dict[str, Any]
    event: Dict[str, Any]
    now: str
    actor: str


class RunnerResult(TypedDict):
    trip_intent: Dict[str, Any]
    ui_messages: List[Dict[str, Any]]
    tool_calls: List[Dict[str, Any]]
    routed_event: Dict[str, Any]
    stopped_reason: Optional[str]


class SpecialistToolPayload(TypedDict, total=False):
    tool_name: str
    arguments: Dict[str, Any]


class SpecialistToolResult(TypedDict):
    tool_name: str
    result: Dict[str, Any]


def ok(payload: Any, output: Any, stack: Optional[List[Any]] = None) -> Dict[str, Any]:
    """A successful handler result."""
    return {"success": True, "input": payload, "output": output, "stack": list(stack or [])}


def fail(
    payload: Any,
    code: str,
    message: str,
    *,
    retryable: bool = False,
    stack: Optional[List[Any]] = None,
    **extra: Any,
) -> Dict[str, Any]:
    """A failed handler result; ``output.error`` says what happened in plain words."""
    error: Dict[str, Any] = {"code": code, "message": message, "retryable": retryable}
    output: Dict[str, Any] = {"error": error}
    output.update(extra)
    return {"success": False, "input": payload, "output": output, "stack": list(stack or [])}


def handler_output(result: Union[Dict[str, Any], None]) -> Any:
    """Unwrap the canonical output of a handler result (None when absent)."""
    if not isinstance(result, dict):
        return None
    return result.get("output")


def guarded(handler_name: str, payload: Any, fn: Callable[[], Dict[str, Any]]) -> Dict[str, Any]:
    """Run ``fn`` and turn any exception into a failed result: handlers never raise."""
    try:
        return fn()
    except Exception as exc:  # noqa: BLE001 - the contract is "never raise to the caller"
        return fail(
            payload,
            "internal_error",
            f"{handler_name} failed unexpectedly: {type(exc).__name__}",
            retryable=True,
            trace=traceback.format_exc(limit=6),
        )
