"""Runner: one turn of the mission — the only handler that talks to the traveller.

Load (or create) the TripIntent, route the event, ask the Reducer, run its tool calls in a
deterministic queue through ``self.SHC`` (a trimmed quote's offers back from ``quote_store``),
apply each result and ask the Reducer again in the same turn (one message runs search → rank →
present), then save with the loaded version, together with the turn's audit events
(``trip_store.save(..., events=...)``: the host writes both in one transaction; the document
carries no trail, so a long conversation costs a pass no more than a fresh one) and with its
quotes trimmed to the offers on screen (``handlers.quotes``). On ``StaleVersion`` the turn is
re-run once from a fresh load. Progress lines are printed before
each tool; the turn's other messages are printed after the save, so a retried turn does not
show its answer twice. Per-turn limits end the turn with a message, never silence.

The optional ``followup`` collaborator answers questions about the bundles on screen that the
extractor did not read as requirements: ``followup.answer(question, trip_intent, now_iso) ->
{"text", "accounting", ...}``. It is called at most once per turn and cannot run tools.
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any, Callable, Dict, List, Optional

from .applier import Applier
from .common.clock import day_text, iso, parse_now
from .common.host import current_agu, current_shc
from .common.intent import ensure_working_memory, new_trip_intent
from .common.redact import redact
from .common.stores import InMemoryQuoteStore, StaleVersion
from .common.types import fail, guarded, ok
from .quotes import keep_named_offers, with_stored_offers
from .reducer import Reducer
from .router import Router
from .tools import tool_outcome
from .wording import error_message, message, place_label

DEFAULT_LIMITS = {"max_tool_calls": 16, "max_calls_per_tool": 4, "max_wall_seconds": 30}
USER_MESSAGE_CHARS = 2000  # what request.user_message keeps of a (redacted) message
STOP_TEXT = {
    "max_tool_calls": "I stopped this turn after {n} tool calls, the most one turn may use.",
    "max_calls_per_tool": "I stopped this turn: {tool} ran {n} times, the most one turn allows.",
    "wall_time": "I stopped this turn because it ran longer than {n} seconds.",
}


def progress_label(call: Dict[str, Any]) -> str:
    """What the traveller reads while a tool runs ("Searching flights EWR → DEN…")."""
    name, args = call["name"], call.get("arguments") or {}
    labels: Dict[str, Callable[[], str]] = {
        "trip_requirements_extract": lambda: "Reading your message…",
        "flight_quote_search": lambda: (
            f"Searching flights {place_label(args.get('origin'))} → {place_label(args.get('destination'))} on {day_text(args.get('depart_date'))}…"
        ),
        "hotel_quote_search": lambda: (
            f"Searching hotels in {args.get('location_hint') or args.get('location_code')}, {day_text(args.get('check_in'))} to {day_text(args.get('check_out'))}…"
        ),
        "trip_option_ranker": lambda: (
            "Comparing hotels…"
            if not args.get("flight_quotes")
            else "Comparing flights…"
            if not args.get("hotel_quotes")
            else "Comparing flight and hotel combinations…"
        ),
        "policy_and_risk_check": lambda: (
            f"Checking {(args.get('bundle') or {}).get('bundle_id', 'the bundle')} against your policy…"
        ),
        "reservation_hold_create": lambda: f"Placing holds on {args.get('bundle_id')}…",
        "reservation_hold_release": lambda: "Releasing holds at the supplier…",
        "booking_confirm_and_purchase": lambda: "Purchasing…",
        "booking_cancel": lambda: (
            "Cancelling…" if args.get("action") == "confirm" else "Asking what a cancellation would refund…"
        ),
    }
    return labels.get(name, lambda: f"Running {name}…")()


class Runner:
    """``run(RunnerPayload) -> {"trip_intent", "ui_messages", "tool_calls", "routed_event", "stopped_reason",
    "audit_events"}``."""

    name = "runner"

    def __init__(
        self,
        *,
        trip_store: Any,
        tool_store: Any,
        limits: Optional[Dict[str, float]] = None,
        followup: Any = None,
        monotonic: Callable[[], float] = time.monotonic,
        quote_store: Any = None,
    ):
        self.trip_store, self.tool_store = trip_store, tool_store
        self.quote_store = quote_store if quote_store is not None else InMemoryQuoteStore()
        self.limits = {**DEFAULT_LIMITS, **(limits or {})}
        self.followup = followup
        self.monotonic = monotonic
        self.router, self.reducer, self.applier = Router(), Reducer(), Applier()

    @property
    def AGU(self) -> Any:  # noqa: N802 - the SPEC's name for the host hook
        return current_agu()

    @property
    def SHC(self) -> Any:  # noqa: N802
        return current_shc()

    def run(self, payload: Dict[str, Any]) -> Dict[str, Any]:
        return guarded(self.name, redact(payload), lambda: self._run(payload))

    def _run(self, payload: Dict[str, Any]) -> Dict[str, Any]:
        if not payload.get("trip_id") or not isinstance(payload.get("event"), dict) or not payload.get("now"):
            return fail(redact(payload), "invalid_payload", "A turn needs trip_id, event and now.")
        try:
            return self._turn(payload)
        except StaleVersion:
            try:
                return self._turn(payload)  # one reload-and-retry
            except StaleVersion:
                return fail(
                    redact(payload),
                    "conflict",
                    "The trip changed while I was working; please send that again.",
                    retryable=True,
                )

    # -- one turn ------------------------------------------------------------------------------
    def load_trip(self, payload: Dict[str, Any], now: Any) -> Dict[str, Any]:
        doc = self.trip_store.get(payload["trip_id"])
        if doc is None:
            org = payload.get("org") or {}
            doc = new_trip_intent(
                payload["trip_id"], now, timezone=org.get("timezone") or "America/New_York", policy=org.get("policy")
            )
        doc["audit"] = {"events": []}  # the trail lives in the store's audit log (older documents carried it)
        return ensure_working_memory(doc)

    def _turn(self, payload: Dict[str, Any]) -> Dict[str, Any]:
        turn = _Turn(self, payload)
        doc = turn.doc
        routed = self.router.run({"event": payload["event"], "trip_intent": doc})
        turn.stack.append(turn.scrub(routed))
        if not routed["success"]:
            turn.show(error_message("unknown_event", routed["output"]["error"]["message"]))
            return turn.finish(payload["event"])
        event = routed["output"]["event"]
        if event["type"] == "USER_MESSAGE":
            doc["request"]["user_message"] = (event["data"].get("text") or "")[:USER_MESSAGE_CHARS]
        turn.audit({"type": "event_routed", "event": event["type"], "actor": payload.get("actor")})
        turn.reduce(event)
        turn.drain()
        return turn.finish(event)

    @classmethod
    def run_tests(cls) -> None:
        from .common.host import bind_host
        from .common.stores import InMemoryToolStore, InMemoryTripStore

        class Chat:
            def __init__(self) -> None:
                self.lines: List[Dict[str, Any]] = []

            def print_chat(self, trip_id: str, msg: Dict[str, Any]) -> None:
                self.lines.append(msg)

        class Shc:  # the extractor understands nothing
            def handler_call(self, portfolio, org, tool, handler, args):
                return ok(
                    args, {"tool_name": tool, "result": ok(args, {"fields": {}, "patch": {}, "understood": False})}
                )

        class RacingStore(InMemoryTripStore):  # another writer saves once while our first attempt runs
            raced = False

            def save(self, trip_id, doc, expected_version=None, events=None):
                if not self.raced:
                    self.raced = True
                    InMemoryTripStore.save(self, trip_id, dict(doc))
                return InMemoryTripStore.save(self, trip_id, doc, expected_version, events)

        store, chat = RacingStore(), Chat()
        payload = {
            "trip_id": "t1",
            "event": {"type": "USER_MESSAGE", "data": {"text": "hmm, card 4111 1111 1111 1111"}},
            "now": "2026-12-01T14:00:00+00:00",
            "org": {"id": "acme"},
        }
        with bind_host(agu=chat, shc=Shc()):
            result = cls(trip_store=store, tool_store=InMemoryToolStore()).run(payload)
        assert result["success"], result
        out = result["output"]
        assert [c["name"] for c in out["tool_calls"]] == ["trip_requirements_extract"]
        assert chat.lines and chat.lines[-1]["kind"] == "message", chat.lines
        saved = store.get("t1") or {}
        assert "4111 1111" not in str(saved) and saved["version"] == 2
        assert saved["audit"] == {"events": []}, "the document carries no audit trail"
        trail = store.events("t1")
        assert [e["type"] for e in trail][:1] == ["event_routed"] and "4111 1111" not in str(trail), trail
        assert out["audit_events"] == trail[-len(out["audit_events"]) :]


class _Turn:
    """The mutable state of one turn: the document, the queue, what ran and what was said."""

    def __init__(self, runner: Runner, payload: Dict[str, Any]):
        self.runner, self.payload = runner, payload
        self.now = parse_now(payload["now"])
        self.doc = runner.load_trip(payload, self.now)
        self.expected_version = int(self.doc.get("version") or 0)
        self.started = runner.monotonic()
        self.queue: List[Dict[str, Any]] = []
        self.seen: set = set()
        self.executed: List[Dict[str, Any]] = []
        self.per_tool: Counter = Counter()
        self.messages: List[Dict[str, Any]] = []
        self.events: List[Dict[str, Any]] = []  # this turn's audit events, saved with the document
        self.stack: List[Any] = []
        self.stopped_reason: Optional[str] = None
        self.followup_used = False
        self.repeated: List[str] = []
        self.tools = {t["name"]: t for t in runner.tool_store.get_tools(payload.get("portfolio") or "default")}
        # Only a purchase event brings a secret into the turn (chat text is redacted by the router),
        # so only then are the calls and results kept in the stack and output deep-redacted.
        self.carries_secret = payload["event"].get("type") == "USER_APPROVED_PURCHASE"

    def scrub(self, value: Any) -> Any:
        return redact(value) if self.carries_secret else value

    # -- output ----------------------------------------------------------------------------
    def show(self, msg: Dict[str, Any]) -> None:
        self.messages.append(msg)

    def audit(self, entry: Dict[str, Any]) -> None:
        self.events.append(redact({"at": iso(self.now), **entry}))

    def _print(self, msg: Dict[str, Any]) -> None:
        agu = self.runner.AGU
        if agu is not None:
            agu.print_chat(self.payload["trip_id"], msg)

    # -- deciding --------------------------------------------------------------------------
    def reduce(self, event: Dict[str, Any]) -> None:
        result = self.runner.reducer.run({"trip_intent": self.doc, "event": event, "now": self.payload["now"]})
        self.stack.append(self.scrub(result))
        if not result["success"]:
            self.show(
                error_message(
                    "internal_error", "Something went wrong on my side; nothing was changed. Please try again.", True
                )
            )
            return
        out = result["output"]
        self.doc = out["trip_intent"]
        for entry in out.get("audit") or []:
            self.audit(entry)
        messages = list(out["ui_messages"])
        if out.get("followup") and self.runner.followup is not None and not self.followup_used:
            messages = self._followup(out["followup"]["question"]) or messages
        for msg in messages:
            self.show(msg)
        for call in out["tool_calls"]:
            key = call.get("call_id") or call["name"]
            if key in self.seen:
                self.audit({"type": "repeat_call_dropped", "tool": call["name"]})
                self.repeated.append(call["name"])
                continue
            self.seen.add(key)
            self.queue.append(call)

    def _followup(self, question: str) -> List[Dict[str, Any]]:
        self.followup_used = True
        try:
            answer = self.runner.followup.answer(question, self.doc, iso(self.now)) or {}
        except Exception as exc:  # noqa: BLE001 - a follow-up failure falls back to the reducer's reply
            self.audit({"type": "followup_failed", "error": type(exc).__name__})
            return []
        self.audit({"type": "llm_followup", "accounting": answer.get("accounting")})
        return [message(answer["text"])] if answer.get("text") else []

    # -- acting ----------------------------------------------------------------------------
    def _limit_hit(self, call: Dict[str, Any]) -> Optional[Dict[str, Any]]:
        limits = self.runner.limits
        if len(self.executed) >= limits["max_tool_calls"]:
            return {"reason": "max_tool_calls", "n": int(limits["max_tool_calls"])}
        if self.per_tool[call["name"]] >= limits["max_calls_per_tool"]:
            return {"reason": "max_calls_per_tool", "n": int(limits["max_calls_per_tool"]), "tool": call["name"]}
        if self.runner.monotonic() - self.started > limits["max_wall_seconds"]:
            return {"reason": "wall_time", "n": limits["max_wall_seconds"]}
        return None

    def drain(self) -> None:
        while self.queue:
            call = self.queue.pop(0)
            hit = self._limit_hit(call)
            if hit:
                self.stopped_reason = hit["reason"]
                text = STOP_TEXT[hit["reason"]].format(**hit) + " Say 'continue' to pick up where I left off."
                self.show(message(text, None, kind="status"))
                self.audit({"type": "turn_limit", **hit})
                self.queue.clear()
                return
            self._execute(call)
        if self.repeated and all(m["kind"] == "progress" for m in self.messages):
            tool = self.repeated[0].replace("_", " ")
            self.show(
                message(
                    f"I stopped because the {tool} kept being asked for again with nothing new. Tell me what to change.",
                    None,
                    kind="status",
                )
            )

    def _execute(self, call: Dict[str, Any]) -> None:
        name = call["name"]
        progress = message(
            progress_label(call), {"type": "progress", "tool": name, "label": progress_label(call)}, kind="progress"
        )
        self.show(progress)
        self._print(progress)
        self.executed.append(self.scrub(call))
        self.per_tool[name] += 1
        result = self._call_tool(call)
        self.stack.append(self.scrub(result))
        applied = self.runner.applier.run(
            {
                "trip_intent": self.doc,
                "tool_name": name,
                "tool_call": call,
                "result": result,
                "now": self.payload["now"],
            }
        )
        self.stack.append({"handler": "applier", "success": applied["success"]})
        if not applied["success"]:
            self.show(error_message("internal_error", f"I couldn't record the {name.replace('_', ' ')} result.", True))
            return
        out = applied["output"]
        self.doc = out["trip_intent"]
        success, output = tool_outcome(result)
        self.audit(
            {
                "type": "tool_returned" if success else "tool_failed",
                "tool": name,
                **({} if success else {"error": output.get("error")}),
            }
        )
        if out.get("changed_paths") and name == "trip_requirements_extract":
            self.audit(
                {"type": "patch_applied", "changed_paths": out["changed_paths"], "invalidations": out["invalidations"]}
            )
        self._release(out.get("released_holds") or [])
        if success:
            applied_summary = {k: v for k, v in out.items() if k != "trip_intent"}
            event = {
                "type": "TOOL_RESULT",
                "data": {"tool_name": name, "call": self.scrub(call), "output": output, "applied": applied_summary},
            }
        else:
            details = {k: v for k, v in output.items() if k != "error"}  # e.g. new_total of price_changed
            event = {
                "type": "TOOL_ERROR",
                "data": {
                    "tool_name": name,
                    "call": self.scrub(call),
                    "error": {**details, **(output.get("error") or {})},
                },
            }
        self.reduce(event)

    def _call_tool(self, call: Dict[str, Any]) -> Dict[str, Any]:
        spec, shc = self.tools.get(call["name"]), self.runner.SHC
        if spec is None:
            return fail(call, "not_found", f"The {call['name']} tool is not enabled.")
        if shc is None:
            return fail(call, "no_host", "No tool host is bound for this turn.", retryable=True)
        org = self.payload.get("org") or {}
        # Quotes the document keeps trimmed (an earlier turn's search) get their offers back for the tool.
        arguments = with_stored_offers(call["arguments"], self.runner.quote_store, self.payload["trip_id"])
        try:
            return shc.handler_call(
                self.payload.get("portfolio") or "default", org, call["name"], spec["handler"], arguments
            )
        except Exception as exc:  # noqa: BLE001 - a host failure is a tool error, not a crash
            return fail(
                call, "internal_error", f"The {call['name']} tool failed: {type(exc).__name__}.", retryable=True
            )

    def _release(self, holds: List[Dict[str, Any]]) -> None:
        """Holds the Patcher cleared that are still live at the supplier get released first."""
        live = [h["hold_id"] for h in holds if h.get("status") == "held" and h.get("hold_id")]
        if live:
            call = {
                "name": "reservation_hold_release",
                "arguments": {"hold_ids": live, "reason": "requirements_changed"},
                "call_id": "reservation_hold_release:" + ",".join(live),
            }
            if call["call_id"] not in self.seen:
                self.seen.add(call["call_id"])
                self.queue.insert(0, call)

    # -- finishing ---------------------------------------------------------------------------
    def settle(self) -> None:
        """A finished turn never leaves the trip running: its state says what the chat said last.

        A retryable error offered "try again", so the trip is in error; anything else still
        "running" waits for the traveller (a question, a limit's "continue"). So does a failure the
        chat answered with something other than a retry: a hold refused for want of travellers'
        names asks for them (retrying cannot help until they are given), a final error says what to
        change. The page offers "Try again" only in the error state.
        """
        said = [m for m in self.messages if m["kind"] != "progress"]
        widget = (said[-1].get("widget") or {}) if said else {}
        status = self.doc["status"]
        if widget.get("type") == "error" and widget.get("retryable"):
            status["state"] = "error"
        elif status.get("state") in ("running", "error") and said:
            status["state"] = "needs_input"

    def finish(self, event: Dict[str, Any]) -> Dict[str, Any]:
        self.settle()
        for key, offers in keep_named_offers(self.doc):
            self.runner.quote_store.put(self.payload["trip_id"], key, offers)
        self.doc["updated_at"] = int(self.now.timestamp())
        self.runner.trip_store.save(
            self.payload["trip_id"], self.doc, expected_version=self.expected_version, events=self.events
        )
        for msg in self.messages:
            if msg["kind"] != "progress":
                self._print(msg)
        output = {
            "trip_intent": self.doc,
            "ui_messages": self.messages,
            "tool_calls": self.executed,
            "routed_event": redact(event),
            "stopped_reason": self.stopped_reason,
            "audit_events": self.events,
        }
        return ok(redact(self.payload), output, stack=self.stack)
