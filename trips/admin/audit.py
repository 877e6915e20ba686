"""The audit trail in the back office: readable by staff, never added, changed or deleted by anyone.

Lists and the trip page show each event as one line (``event_summary``); the event's own page
shows its whole redacted payload.
"""

import re
from typing import Any, Callable

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.utils.text import Truncator

from trips.models import AuditEvent
from trips.sheets import person_name

from .base import TripScopedAdmin, pretty_json

SUMMARY_CHARS = 160
TEXT_CHARS = 60


def _quoted(text: Any) -> str:
    return f"“{Truncator(' '.join(str(text).split())).chars(TEXT_CHARS)}”"


def _core_event(event: Any) -> str:
    """A core event in words: its type, then the message text or its data (``USER_SELECTED_BUNDLE bundle_id=B1``)."""
    if not isinstance(event, dict):
        return ""
    data = event.get("data") or {}
    if "text" in data:
        return f"{event.get('type')} {_quoted(data['text'])}"
    return " ".join([str(event.get("type")), *(f"{key}={value}" for key, value in data.items() if _scalar(value))])


def _scalar(value: Any) -> bool:
    return isinstance(value, (str, int, float, bool)) and value != ""


def _tool_outcome(payload: dict) -> str:
    error = payload.get("error") or {}
    outcome = f"failed: {error.get('code', 'error')}" if error else "ok"
    return f"{payload.get('tool')} · {outcome} · {payload.get('latency_ms', 0)} ms"


def _turn_outcome(payload: dict) -> str:
    if "reason" in payload and "routed_event" not in payload:
        return f"failed: {payload['reason']}"
    tools = payload.get("tool_calls") or []
    parts = [_core_event(payload.get("routed_event")), f"{len(tools)} tool(s)"]
    if payload.get("version") is not None:
        parts.append(f"v{payload['version']}")
    if payload.get("stopped_reason"):
        parts.append(f"stopped: {payload['stopped_reason']}")
    if payload.get("error"):
        parts.append(f"error: {(payload['error'] or {}).get('code', payload['error'])}")
    return " · ".join(part for part in parts if part)


def _llm_usage(payload: dict) -> str:
    parts = [payload.get("purpose") or payload.get("tool"), payload.get("model"), payload.get("status")]
    parts.append(f"{payload.get('latency_ms', 0)} ms")
    if payload.get("cost_usd"):
        parts.append(f"${payload['cost_usd']}")
    return " · ".join(str(part) for part in parts if part)


def _generic(payload: dict) -> str:
    """``key: value`` for the payload's plain values; lists and objects as their size."""
    parts = []
    for key, value in payload.items():
        if isinstance(value, (list, dict)):
            parts.append(f"{key}: {len(value)} item(s)" if isinstance(value, list) else f"{key}: {{…}}")
        elif _scalar(value):
            parts.append(f"{key}: {_quoted(value) if key in ('text', 'reason') else value}")
    return " · ".join(parts)


SUMMARIES: dict[str, Callable[[dict], str]] = {
    "core.event_routed": lambda p: f"{p.get('event')} from {p.get('actor') or 'the system'}",
    "trip.created": lambda p: f"in {p.get('organisation')} · {_quoted(p['title']) if p.get('title') else 'no title'}",
    "message.received": lambda p: _core_event(p.get("event")),
    "turn.started": lambda p: _core_event(p.get("event")),
    "turn.completed": _turn_outcome,
    "turn.failed": _turn_outcome,
    "tool.called": lambda p: f"{p.get('tool')} · attempt {p.get('attempt', 1)}",
    "tool.returned": _tool_outcome,
    "tool.failed": _tool_outcome,
    "llm.usage": _llm_usage,
}


ACTOR_ROLES = {"staff": "staff", "user": "traveller"}


def actor_name(event: AuditEvent) -> str:
    """Who did it, by name ("ann (staff)"); "system" and the like as they are, never "user:1"."""
    kind = str(event.actor or "").split(":", 1)[0]
    if event.actor_user_id is not None and event.actor_user is not None:
        role = ACTOR_ROLES.get(kind)
        return f"{person_name(event.actor_user)} ({role})" if role else person_name(event.actor_user)
    if kind in ACTOR_ROLES:
        return f"a former {ACTOR_ROLES[kind]}"  # the account is gone; the audit keeps its id in the raw actor
    return str(event.actor or "—")


def event_summary(event: AuditEvent) -> str:
    """One line a support person can scan: what happened, in at most ``SUMMARY_CHARS`` characters."""
    payload = event.payload if isinstance(event.payload, dict) else {}
    summarise = SUMMARIES.get(event.type, _generic)
    try:
        text = summarise(payload)
    except (AttributeError, KeyError, TypeError):  # an older or odd payload: fall back to its plain values
        text = _generic(payload)
    return Truncator(_USER_REF.sub(lambda match: _user_named(event, int(match.group(1))), text)).chars(SUMMARY_CHARS)


_USER_REF = re.compile(r"\buser:(\d+)\b")


def _user_named(event: AuditEvent, user_id: int) -> str:
    """A "user:1" in a payload as the person's name: the trip's owner from the row already loaded
    (lists select it), anyone else looked up (rare: the core acts for the owner)."""
    trip = event.trip
    if user_id == trip.owner_id:
        return f"{person_name(trip.owner)} (traveller)"
    user = get_user_model().objects.filter(pk=user_id).first()
    return person_name(user) if user is not None else "a former user"


@admin.register(AuditEvent)
class AuditEventAdmin(TripScopedAdmin):
    list_display = ["trip", "seq", "type", "who", "summary", "created_at"]
    list_filter = ["type", "created_at"]
    search_fields = ["trip__id", "type", "actor", "causation_id"]
    list_select_related = ["trip__owner", "actor_user"]
    ordering = ["-created_at", "-seq"]
    fields = ["trip", "seq", "type", "who", "actor", "causation_id", "created_at", "summary", "payload_pretty"]
    readonly_fields = fields
    actions = None

    @admin.display(description="summary")
    def summary(self, obj: AuditEvent) -> str:
        return event_summary(obj)

    @admin.display(description="who", ordering="actor")
    def who(self, obj: AuditEvent) -> str:
        return actor_name(obj)

    @admin.display(description="payload (redacted)")
    def payload_pretty(self, obj: AuditEvent) -> str:
        return pretty_json(obj.payload, sort_keys=False)  # as written: a trip.created intent reads schema first
