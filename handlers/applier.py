"""Applier: write one tool result into the TripIntent's ``working_memory`` and status.

Each tool owns one slot (README "Tool outputs"); requirement patches from the extractor go
through the Patcher so its invalidation table applies to every change. A failed tool leaves
its slot alone and records ``working_memory.last_error`` (redacted: the purchase token never
lands in the document).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional

from .common.clock import iso, parse_now
from .common.redact import redact
from .common.types import fail, guarded, ok
from .patcher import EMPTY_SELECTION, Patcher, working_copy
from .supplier.table import held
from .tool_calls import ranking_key
from .tools import args_hash, tool_outcome
from .trip_read import flight_key

MAX_BUNDLES_ON_SCREEN = 5
# "Show me more options": a ranking asked for more than fit on screen keeps the options shown (their
# names, the choice and its check) and adds the next best ones, up to this many in all.
MAX_BUNDLES_WITH_MORE = 10
QUOTE_TOOLS = ("flight_quote_search", "hotel_quote_search")
SUBJECT_KEYS = ("segment_id", "stay_id")  # what a search call is about


def _status(doc: Dict[str, Any], *, phase: Optional[str] = None, state: Optional[str] = None) -> None:
    if phase:
        doc["status"]["phase"] = phase
    if state:
        doc["status"]["state"] = state


def _searched(doc: Dict[str, Any]) -> None:
    """Quoting goes on, unless a search failed and is not settled: then the trip stays in error."""
    failed = (doc["working_memory"].get("last_error") or {}).get("tool") in QUOTE_TOOLS
    _status(doc, phase="quoting", state="error" if failed else "running")


def _resolves(error: Optional[Dict[str, Any]], tool: str, call: Dict[str, Any]) -> bool:
    """Whether a success of ``call`` settles the recorded error: the same tool on the same subject.

    A search is per segment or stay: another segment's results leave the failed one failed.
    """
    if not error or error.get("tool") != tool:
        return False
    failed = (error.get("call") or {}).get("arguments") or {}
    arguments = call.get("arguments") or {}
    return all(failed.get(key) == arguments.get(key) for key in SUBJECT_KEYS)


def _upsert(items: List[Dict[str, Any]], key: str, entry: Dict[str, Any]) -> List[Dict[str, Any]]:
    return [i for i in items if i.get(key) != entry[key]] + [entry]


def _ruled_out(output: Dict[str, Any]) -> Dict[str, Any]:
    """What a search found before the traveller's hard filters and how many each ruled out."""
    ruled = output.get("ruled_out")
    if not isinstance(ruled, dict) or not isinstance(output.get("found"), int):
        return {}
    return {"found": output["found"], "ruled_out": {str(k): int(v) for k, v in ruled.items() if isinstance(v, int)}}


def _first_night(output: Dict[str, Any], arguments: Dict[str, Any]) -> Dict[str, Any]:
    """The first night the search's flights need a bed, and the flight it searched
    (``handlers.trip_read.stays_of`` starts a stay then, when that is later than the day it leaves)."""
    night = output.get("first_night")
    if not isinstance(night, str):
        return {}
    return {"searched": flight_key(arguments), "first_night": night}


def _on_screen(bundle: Dict[str, Any], index: int) -> Dict[str, Any]:
    """A ranked bundle as the screen names it (``B<n>``), without the score's breakdown."""
    kept = {k: v for k, v in bundle.items() if k != "score_breakdown"}
    return {**kept, "bundle_id": f"B{index + 1}", "rank": index + 1}


def _bundle_items(bundle: Dict[str, Any]) -> tuple:
    """What a bundle is made of: its flight offers and hotel rates."""
    return tuple(str(f.get("offer_id")) for f in bundle.get("flights") or []) + tuple(
        str(h.get("rate_id")) for h in bundle.get("hotels") or []
    )


class Applier:
    """``run({"trip_intent", "tool_name", "tool_call", "result", "now"})``.

    ``result`` is what ``SHC.handler_call`` returned. Output: ``{"trip_intent",
    "changed_paths", "invalidations", "released_holds", "change_after_purchase",
    "understood"}`` (the last two only mean something for the extractor).
    """

    name = "applier"

    def __init__(self, patcher: Optional[Patcher] = None):
        self.patcher = patcher or Patcher()

    def run(self, payload: Dict[str, Any]) -> Dict[str, Any]:
        return guarded(self.name, payload, lambda: self._run(payload))

    def _run(self, payload: Dict[str, Any]) -> Dict[str, Any]:
        if not isinstance(payload.get("trip_intent"), dict) or not payload.get("tool_name"):
            return fail(payload, "invalid_payload", "The applier needs a trip_intent and a tool_name.")
        doc = working_copy(payload["trip_intent"])
        now = parse_now(payload.get("now")) if payload.get("now") else None
        tool = payload["tool_name"]
        call = payload.get("tool_call") or {"name": tool, "arguments": {}}
        success, output = tool_outcome(payload.get("result"))
        out: Dict[str, Any] = {
            "changed_paths": [],
            "invalidations": [],
            "released_holds": [],
            "change_after_purchase": [],
            "understood": True,
        }
        stack: List[Any] = []
        if not success:
            self._record_error(doc, tool, call, output, now)
            out["changed_paths"] = ["working_memory.last_error"]
        else:
            if _resolves(doc["working_memory"].get("last_error"), tool, call):
                doc["working_memory"]["last_error"] = None
            apply: Callable[..., Any] = getattr(self, f"_apply_{tool}", self._apply_unknown)
            changed = apply(doc, output, call, now, out, stack)
            out["changed_paths"] = out["changed_paths"] or list(changed or [])
        if now is not None:
            doc["updated_at"] = int(now.timestamp())
        out["trip_intent"] = doc
        return ok(payload, out, stack=stack)

    # -- failures --------------------------------------------------------------------------
    def _record_error(
        self, doc: Dict[str, Any], tool: str, call: Dict[str, Any], output: Dict[str, Any], now: Any
    ) -> None:
        error = output.get("error") or {}
        wm = doc["working_memory"]
        wm["last_error"] = {
            "tool": tool,
            "code": error.get("code", "tool_failed"),
            "message": error.get("message", ""),
            "retryable": bool(error.get("retryable")),
            "call": redact(call),
            "at": iso(now) if now else None,
        }
        _status(doc, state="error")
        if tool == "booking_confirm_and_purchase":
            self._purchase_failed(doc, error.get("code"), output)

    def _purchase_failed(self, doc: Dict[str, Any], code: Optional[str], output: Dict[str, Any]) -> None:
        """Write down what the supplier now holds, whatever the failure, and what that does to the approval.

        The tool reads every hold back after it stops (``holds``): bought items of an interrupted
        try show as purchased (the resubmission replays them), voided or ended ones as released,
        failed or expired. A hold that ended, or a void, ends the approval: its keys are spent.
        """
        wm = doc["working_memory"]
        truth = {h.get("hold_id"): h.get("status") for h in output.get("holds") or [] if isinstance(h, dict)}
        for hold in wm["holds"]:
            hold["status"] = truth.get(hold.get("hold_id")) or hold.get("status")
        ended = any(status not in ("held", "purchased") for status in truth.values())
        if code == "partial_failure":
            _status(doc, phase="needs_attention", state="blocked")
        elif code == "price_changed" and not ended:
            wm["approval"] = {
                **(wm.get("approval") or {}),
                "status": "needs_new_approval",
                "new_total": output.get("new_total") or (output.get("error") or {}).get("new_total"),
            }
        elif ended or output.get("voided_orders"):
            wm["approval"] = {**(wm.get("approval") or {}), "status": "void"}
            _status(doc, phase="selected")

    # -- one method per tool ---------------------------------------------------------------
    def _apply_trip_requirements_extract(self, doc, output, call, now, out, stack):
        patch = output.get("patch") or {}
        result = self.patcher.run({"trip_intent": doc, "patch": patch, **({"now": iso(now)} if now else {})})
        stack.append(result)
        patched = result["output"] if result["success"] else {}
        if patched:
            doc.clear()
            doc.update(patched["trip_intent"])
            for key in ("changed_paths", "changes", "invalidations", "released_holds", "change_after_purchase"):
                out[key] = patched.get(key) or []
        assumptions = [a for a in output.get("assumptions") or [] if isinstance(a, str)]
        known = doc["status"].setdefault("assumptions", [])
        known.extend(a for a in assumptions if a not in known)
        out["understood"] = bool(output.get("understood", bool(out["changed_paths"])))
        return out["changed_paths"]

    def _apply_flight_quote_search(self, doc, output, call, now, out, stack):
        table = output.get("offers_table")  # kept as the search made it until the turn's end (handlers.quotes)
        entry = {
            "segment_id": output.get("segment_id") or call["arguments"].get("segment_id"),
            **({"offers_table": table} if type(table) is dict else {"offers": list(output.get("offers") or [])}),
            "count": int(output.get("count", held(output, "offers"))),
            **_ruled_out(output),
            **_first_night(output, call.get("arguments") or {}),
            "args_hash": args_hash(call.get("arguments") or {}),
            "searched_at": iso(now) if now else None,
        }
        wm = doc["working_memory"]
        wm["flight_quotes"] = _upsert(wm["flight_quotes"], "segment_id", entry)
        _searched(doc)
        return ["working_memory.flight_quotes"]

    def _apply_hotel_quote_search(self, doc, output, call, now, out, stack):
        entry = {
            "stay_id": output.get("stay_id") or call["arguments"].get("stay_id"),
            "rates": list(output.get("rates") or []),
            **_ruled_out(output),
            **{k: str(output[k]) for k in ("near", "near_unknown") if output.get(k)},  # "near the convention center"
            "count": int(output.get("count", len(output.get("rates") or []))),
            "args_hash": args_hash(call.get("arguments") or {}),
            "searched_at": iso(now) if now else None,
        }
        wm = doc["working_memory"]
        wm["hotel_quotes"] = _upsert(wm["hotel_quotes"], "stay_id", entry)
        _searched(doc)
        return ["working_memory.hotel_quotes"]

    def _apply_trip_option_ranker(self, doc, output, call, now, out, stack):
        ordered = sorted(output.get("bundles") or [], key=lambda b: b.get("rank") or 0)
        wm = doc["working_memory"]
        asked = int(((call or {}).get("arguments") or {}).get("top_k") or 0)
        shown = wm.get("ranked_bundles") or []
        if asked > MAX_BUNDLES_ON_SCREEN and shown and (wm.get("ranking") or {}).get("key") == ranking_key(doc):
            return self._more_bundles(wm, shown, ordered, min(asked, MAX_BUNDLES_WITH_MORE), output)
        # The score's breakdown stays in the ranker's tool run (how it ranked); nothing reads it on screen.
        bundles = [_on_screen(b, i) for i, b in enumerate(ordered[:MAX_BUNDLES_ON_SCREEN])]
        wm["ranked_bundles"] = bundles
        # what the options shown before cost, so a change can say how the price moved ("was $1,042.15")
        was = (wm.get("ranking") or {}).get("cheapest")
        wm["ranking"] = {
            "key": ranking_key(doc),
            "considered": output.get("considered", len(bundles)),
            "ranked_at": iso(now) if now else None,
            "cheapest": _cheapest(bundles),
            "shown": len(bundles),
            **({"was": was} if was else {}),
        }
        wm["risk_report"] = None
        wm["selected"] = dict(EMPTY_SELECTION)
        _status(doc, phase="presenting" if bundles else "intake", state="ready" if bundles else "needs_input")
        return ["working_memory.ranked_bundles"]

    def _more_bundles(self, wm, shown, ordered, most, output):
        """The options on screen stay as they are (names, choice, check); the next best ones not
        already shown follow them, named on from there (B6, B7…)."""
        seen = {_bundle_items(b) for b in shown}
        extra = [b for b in ordered if _bundle_items(b) not in seen][: max(0, most - len(shown))]
        wm["ranked_bundles"] = shown + [_on_screen(b, len(shown) + i) for i, b in enumerate(extra)]
        wm["ranking"] = {
            **(wm.get("ranking") or {}),
            "considered": output.get("considered", len(wm["ranked_bundles"])),
            "added": len(extra),
        }
        return ["working_memory.ranked_bundles"]

    def _apply_policy_and_risk_check(self, doc, output, call, now, out, stack):
        report = {k: output.get(k) for k in ("bundle_id", "ok", "blocking", "warnings", "checked_at")}
        report["bundle_id"] = report["bundle_id"] or (call["arguments"].get("bundle") or {}).get("bundle_id")
        report["blocking"] = list(report["blocking"] or [])
        report["warnings"] = list(report["warnings"] or [])
        report["ok"] = bool(report["ok"]) and not report["blocking"]
        report["checked_at"] = report["checked_at"] or (iso(now) if now else None)
        doc["working_memory"]["risk_report"] = report
        _status(doc, phase="selected", state="ready" if report["ok"] else "blocked")
        return ["working_memory.risk_report"]

    def _apply_reservation_hold_create(self, doc, output, call, now, out, stack):
        wm = doc["working_memory"]
        new = list(output.get("holds") or [])
        new_ids = {h.get("hold_id") for h in new}
        # Holds still live from an earlier call (a re-hold of what lapsed keeps them) stay, with
        # the new ones: together they are the set the next approval covers.
        kept = [
            h
            for h in wm["holds"]
            if h.get("hold_id") not in new_ids
            and h.get("status") == "held"
            and (now is None or not h.get("payment_required_by") or parse_now(h["payment_required_by"]) > now)
        ]
        live = kept + new
        wm["holds"] = [h for h in wm["holds"] if h.get("status") == "purchased"] + live
        total = sum(float((h.get("held_total") or {}).get("amount") or 0) for h in live)
        currency = next(((h.get("held_total") or {}).get("currency") for h in live), None)
        deadlines = [h["payment_required_by"] for h in live if h.get("payment_required_by")]
        wm["approval"] = {
            "approval_id": None,
            "status": "requested",
            "amount": f"{total:.2f}",
            "currency": currency,
            "expires_at": min(deadlines, key=parse_now) if deadlines else output.get("earliest_deadline"),
        }
        wm.pop("hold_request", None)
        _status(doc, phase="held", state="needs_input")
        return ["working_memory.holds", "working_memory.approval"]

    def _apply_reservation_hold_release(self, doc, output, call, now, out, stack):
        listed = [h.get("hold_id") for h in output.get("released") or [] if isinstance(h, dict)]
        released = set(listed or call["arguments"].get("hold_ids") or [])
        for hold in doc["working_memory"]["holds"]:
            if hold.get("hold_id") in released and hold.get("status") == "held":
                hold["status"] = "released"
        return ["working_memory.holds"]

    def _apply_booking_confirm_and_purchase(self, doc, output, call, now, out, stack):
        wm = doc["working_memory"]
        booking = dict(output.get("booking") or {})
        if booking.get("booking_id") not in {b.get("booking_id") for b in wm["bookings"]}:
            wm["bookings"].append(booking)
        bought = set(call["arguments"].get("hold_ids") or [])
        for hold in wm["holds"]:
            if hold.get("hold_id") in bought:
                hold["status"] = "purchased"
        wm["approval"] = {**(wm.get("approval") or {}), "status": "used", "approval_id": booking.get("approval_id")}
        _status(doc, phase="purchased", state="done")
        return ["working_memory.bookings"]

    def _apply_booking_cancel(self, doc, output, call, now, out, stack):
        wm = doc["working_memory"]
        wm["cancellation"] = redact(output)
        if call["arguments"].get("action") == "confirm":
            booking_id = call["arguments"].get("booking_id")
            for booking in wm["bookings"]:
                if booking.get("booking_id") == booking_id:
                    booking["status"] = "cancelled"
            if all(b.get("status") == "cancelled" for b in wm["bookings"]):
                _status(doc, phase="intake", state="needs_input")
        return ["working_memory.cancellation"]

    def _apply_unknown(self, doc, output, call, now, out, stack):
        doc["status"].setdefault("notes", []).append(f"Result of unknown tool {call.get('name')} ignored.")
        return []

    @classmethod
    def run_tests(cls) -> None:
        from .common.intent import new_trip_intent

        now = "2026-12-01T14:00:00+00:00"
        doc = new_trip_intent("t", parse_now(now))
        call = {"name": "flight_quote_search", "arguments": {"segment_id": "S1"}}
        res = {"success": True, "output": {"segment_id": "S1", "offers": [{"offer_id": "o"}], "count": 1}}
        out = cls().run(
            {"trip_intent": doc, "tool_name": "flight_quote_search", "tool_call": call, "result": res, "now": now}
        )
        quotes = out["output"]["trip_intent"]["working_memory"]["flight_quotes"]
        assert quotes[0]["segment_id"] == "S1" and quotes[0]["args_hash"] == args_hash({"segment_id": "S1"})
        buy = {
            "name": "booking_confirm_and_purchase",
            "arguments": {"approval_token": "tdk_apv_secret123456", "hold_ids": []},
        }
        err = {"success": False, "output": {"error": {"code": "approval_invalid", "message": "no", "retryable": False}}}
        out = cls().run({"trip_intent": doc, "tool_name": buy["name"], "tool_call": buy, "result": err, "now": now})
        assert "tdk_apv_secret" not in str(out["output"]["trip_intent"]), "the token must never be stored"
        assert out["output"]["trip_intent"]["working_memory"]["last_error"]["code"] == "approval_invalid"


def _cheapest(bundles: List[Dict[str, Any]]) -> Optional[Dict[str, Any]]:
    """The lowest total of ``bundles`` with its currency, or None without any."""
    if not bundles:
        return None
    low = min(bundles, key=lambda b: float(b.get("total") or "inf"))
    return {"total": low.get("total"), "currency": low.get("currency")}
