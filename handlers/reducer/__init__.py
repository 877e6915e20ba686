"""Reducer: the deterministic decision of what happens next (SPEC §E.7, DESIGN "Conversation rules").

Given the TripIntent and one event it returns the tool calls to run and the chat messages
to show; it never runs a tool itself. Intake: missing requirements become at most three
questions and no tools. Quoting: one search per segment and per stay that lacks current
quotes, then the ranker, then the understood trip and the bundles in the same turn. Direct
events (select, hold, purchase, retry, cancel) each have one guarded path. A call whose
arguments match the last failed call is not repeated until the traveller says "try again".

The decision is one class built in layers: ``base`` (collecting calls and messages),
``intake`` (intake and quoting), ``commerce`` (select, hold, buy, cancel), ``decision``
(results, failures, retry). It reads trips through ``handlers.trip_read``, builds calls with
``handlers.tool_calls`` and words its messages with ``handlers.wording``.
"""

from __future__ import annotations

from typing import Any, Dict

from ..common.clock import parse_now
from ..common.types import fail, guarded, ok
from ..patcher import working_copy
from ..trip_read import SLOTS
from ..wording import QUESTIONS
from .decision import Decision
from .intake import MAX_QUESTIONS

__all__ = ["Reducer"]


class Reducer:
    """``run({"trip_intent", "event", "now"})`` → ``{"tool_calls", "ui_messages", "trip_intent"}``.

    Extra output keys: ``audit`` (events the host should record, e.g. a refused purchase text)
    and ``followup`` (``{"question"}``: a question about the bundles the extractor did not read as
    requirements; the Runner hands it to its optional follow-up collaborator).
    """

    name = "reducer"

    def run(self, payload: Dict[str, Any]) -> Dict[str, Any]:
        return guarded(self.name, payload, lambda: self._run(payload))

    def _run(self, payload: Dict[str, Any]) -> Dict[str, Any]:
        doc, event = payload.get("trip_intent"), payload.get("event") or {}
        if not isinstance(doc, dict) or not event.get("type") or not payload.get("now"):
            return fail(payload, "invalid_payload", "The reducer needs a trip_intent, an event and now.")
        doc = working_copy(doc)
        decision = Decision(doc)
        handle = getattr(decision, f"on_{str(event['type']).lower()}", None)
        if handle is None:
            decision.say(f"I can't handle {event['type']} here.")
        else:
            handle(doc, dict(event.get("data") or {}), parse_now(payload["now"]))
        return ok(payload, decision.out)

    @classmethod
    def run_tests(cls) -> None:
        from ..common.intent import new_trip_intent

        now = "2026-12-01T14:00:00+00:00"
        doc = new_trip_intent("t", parse_now(now))
        out = cls().run({"trip_intent": doc, "event": {"type": "INTENT_READY"}, "now": now})["output"]
        assert set(QUESTIONS) == set(SLOTS)
        assert out["tool_calls"] == [] and len(out["ui_messages"][0]["widget"]["questions"]) == MAX_QUESTIONS
        doc["party"]["travelers"]["adults"] = 2
        doc["itinerary"].update(
            trip_type="one_way",
            segments=[{"origin": {"code": "JFK"}, "destination": {"code": "LAX"}, "depart_date": "2027-03-03"}],
        )
        doc["itinerary"]["lodging"]["needed"] = False
        out = cls().run({"trip_intent": doc, "event": {"type": "INTENT_READY"}, "now": now})["output"]
        assert [c["name"] for c in out["tool_calls"]] == ["flight_quote_search"], out["tool_calls"]
        refused = cls().run(
            {"trip_intent": doc, "event": {"type": "USER_SELECTED_BUNDLE", "data": {"bundle_id": "B9"}}, "now": now}
        )["output"]
        assert refused["tool_calls"] == [] and refused["trip_intent"]["working_memory"] == doc["working_memory"]
