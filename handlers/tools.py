"""Tool handlers named in the registry (SPEC §E.8): thin wrappers around the specialists.

Each wrapper is constructed with :class:`~handlers.common.host.ToolDeps` and receives the
payload an SHC builds::

    {"tool_name": str, "arguments": {...}, "now": iso, "org": {"id", "policy", "timezone"},
     "trip_id": str}

It runs ``handlers/specialists/<tool_name>.py:<PascalCase>`` with ``{"args", "now", "org",
"trip_id"}`` and returns a handler result whose ``output`` is ``{"tool_name", "result"}``,
``result`` being the specialist's own handler result. ``success`` mirrors the specialist's.
:func:`tool_outcome` unwraps that (or a bare SHC failure such as a timeout) into
``(success, output)`` so callers never care which layer failed.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from typing import Any, Callable, Dict, Tuple

from .common.host import ToolDeps
from .common.types import fail, guarded, ok
from .stored import with_bundles_table, without_bundles_table
from .supplier.table import held, with_tables, without_tables

QUOTE_LISTS = {"flight_quotes": "offers", "hotel_quotes": "rates"}


def stored_arguments(arguments: Dict[str, Any]) -> Dict[str, Any]:
    """What a tool run keeps of its arguments. Quotes handed to the ranker were stored by the search
    that made them (its run keeps every offer), so they are kept by reference: which search
    (``args_hash``), when, and how many offers; everything else is kept as given."""
    if not isinstance(arguments, dict) or not any(isinstance(arguments.get(k), list) for k in QUOTE_LISTS):
        return arguments
    kept = dict(arguments)
    for key, items in QUOTE_LISTS.items():
        if isinstance(kept.get(key), list):
            kept[key] = [
                {
                    **{k: q[k] for k in ("segment_id", "stay_id", "args_hash", "searched_at") if k in q},
                    items: held(q, items),
                }
                if isinstance(q, dict)
                else q
                for q in kept[key]
            ]
    return kept


def args_hash(arguments: Dict[str, Any]) -> str:
    """A stable fingerprint of a tool call's arguments (same call ⇒ same hash). Quotes handed to
    the ranker count as :func:`stored_arguments` keeps them, by reference (their search, its time
    and how many offers, as ``ranking_key`` compares them): encoding every offer to fingerprint a
    ranker call cost more than ranking them. Arguments without quotes hash as they are."""
    blob = json.dumps(stored_arguments(arguments), sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def stored_result(result: Any) -> Any:
    """What a tool run keeps of a handler result: ``success`` and ``output`` at each layer. The
    ``input`` repeats the arguments (stored beside it) and ``stack`` is the handler's trace. The
    ranker's bundles name their offers and rates without their summaries (the searches' runs keep
    those): :func:`with_bundle_summaries` puts them back from the ranker's arguments. A search's
    offers (rates) are kept as one table (``offers_table``, ``handlers.supplier.table``), the
    ranker's bundles as tables (``bundles_table``, ``handlers.stored``): what reads a stored
    result back reads it through :func:`returned_result`, which gives them back as lists."""
    if not isinstance(result, dict):
        return result
    kept = {k: result[k] for k in ("success", "output") if k in result}
    output = kept.get("output")
    if isinstance(output, dict) and "tool_name" in output and isinstance(output.get("result"), dict):
        inner = stored_result(output["result"])
        if output["tool_name"] == RANKER and isinstance(inner.get("output"), dict):
            bundles = _bundles(inner["output"], lambda item, _: _without_summary(item))
            inner["output"] = with_bundles_table(bundles, "bundles")
        elif output["tool_name"] in SEARCHES and isinstance(inner.get("output"), dict):
            inner["output"] = with_tables(inner["output"])
        kept["output"] = {**output, "result": inner}
    return kept


SEARCHES = ("flight_quote_search", "hotel_quote_search")


def returned_result(result: Any) -> Any:
    """A stored result (:func:`stored_result`) as the tool returned it, but for what a tool run
    never keeps (``input``, ``stack``, the ranker's bundle summaries: :func:`with_bundle_summaries`):
    a search's offers and the ranker's bundles kept as tables are lists again. A result stored
    before they were kept as tables, or any other tool's, comes back as it is (shared, not copied)."""
    if not isinstance(result, dict):
        return result
    output = result.get("output")
    if not isinstance(output, dict) or "tool_name" not in output or not isinstance(output.get("result"), dict):
        return result
    inner = output["result"]
    found = inner.get("output")
    if not isinstance(found, dict):
        return result
    returned = without_bundles_table(without_tables(found), "bundles")
    if returned is found:
        return result
    return {**result, "output": {**output, "result": {**inner, "output": returned}}}


RANKER = "trip_option_ranker"
# A bundle's items: the quote list that holds them, and how an item names its quote and its offer.
BUNDLE_ITEMS = {
    "flights": ("flight_quotes", "segment_id", "offer_id"),
    "hotels": ("hotel_quotes", "stay_id", "rate_id"),
}


def _without_summary(item: Dict[str, Any]) -> Dict[str, Any]:
    return {k: v for k, v in item.items() if k != "summary"}


def _bundles(output: Dict[str, Any], change: Callable[[Dict[str, Any], str], Dict[str, Any]]) -> Dict[str, Any]:
    """``output`` with each bundle item replaced by ``change(item, its list's kind)``."""
    bundles = output.get("bundles")
    if not isinstance(bundles, list):
        return output
    changed = []
    for bundle in bundles:
        if isinstance(bundle, dict):
            bundle = dict(bundle)
            for items_key, (kind, _, _) in BUNDLE_ITEMS.items():
                if isinstance(bundle.get(items_key), list):
                    bundle[items_key] = [change(i, kind) if isinstance(i, dict) else i for i in bundle[items_key]]
        changed.append(bundle)
    return {**output, "bundles": changed}


def with_bundle_summaries(tool: str, result: Any, arguments: Dict[str, Any]) -> Any:
    """A ranker's stored result (``stored_result``) with each bundle item's summary back from the
    offers and rates in its ``arguments`` (what the ranker ranked); other results, and items that
    kept their summary, as they are."""
    if tool != RANKER or not isinstance(result, dict) or not isinstance(result.get("output"), dict):
        return result
    wrapper = result["output"]
    inner = wrapper.get("result") if "tool_name" in wrapper else None
    if not isinstance(inner, dict) or not isinstance(inner.get("output"), dict):
        return result
    summaries: Dict[Tuple[str, Any, Any], Any] = {}
    for kind, list_key, id_key in BUNDLE_ITEMS.values():
        for quote in arguments.get(kind) or []:
            for offer in (quote or {}).get(QUOTE_LISTS[kind]) or []:
                if isinstance(offer, dict) and "summary" in offer:
                    summaries[(kind, quote.get(list_key), offer.get(id_key))] = offer["summary"]

    def restore(item: Dict[str, Any], kind: str) -> Dict[str, Any]:
        _, list_key, id_key = next(v for v in BUNDLE_ITEMS.values() if v[0] == kind)
        summary = summaries.get((kind, item.get(list_key), item.get(id_key)))
        return item if "summary" in item or summary is None else {**item, "summary": summary}

    inner = {**inner, "output": _bundles(inner["output"], restore)}
    return {**result, "output": {**wrapper, "result": inner}}


def pascal_case(snake: str) -> str:
    return "".join(part.capitalize() for part in snake.split("_"))


def tool_outcome(result: Any) -> Tuple[bool, Dict[str, Any]]:
    """``(success, output)`` of what ``SHC.handler_call`` returned, unwrapping ``{tool_name, result}``."""
    if not isinstance(result, dict):
        return False, {"error": {"code": "internal_error", "message": "The tool returned nothing.", "retryable": True}}
    output = result.get("output")
    if isinstance(output, dict) and "tool_name" in output and isinstance(output.get("result"), dict):
        result, output = output["result"], output["result"].get("output")
    output = output if isinstance(output, dict) else {}
    success = bool(result.get("success"))
    if not success and not isinstance(output.get("error"), dict):
        output = {**output, "error": {"code": "tool_failed", "message": "The tool failed.", "retryable": True}}
    return success, output


class Tools:
    """Base wrapper: subclasses only name their tool."""

    tool_name: str = ""

    def __init__(self, deps: ToolDeps | None = None):
        self.deps = deps or ToolDeps()

    @property
    def name(self) -> str:
        return self.tool_name

    def run(self, payload: Dict[str, Any]) -> Dict[str, Any]:
        return guarded(self.tool_name, payload, lambda: self._run(payload))

    def specialist(self) -> Any:
        module = importlib.import_module(f"handlers.specialists.{self.tool_name}")
        return getattr(module, pascal_case(self.tool_name))(self.deps)

    def _run(self, payload: Dict[str, Any]) -> Dict[str, Any]:
        try:
            specialist = self.specialist()
        except (ImportError, AttributeError):
            return fail(payload, "not_available", f"The {self.tool_name} tool is not installed.")
        inner = {
            "args": payload.get("arguments") or payload.get("args") or {},
            "now": payload.get("now"),
            "org": payload.get("org") or {},
            "trip_id": payload.get("trip_id"),
        }
        result = specialist.run(inner)
        wrapped = ok(payload, {"tool_name": self.tool_name, "result": result}, stack=[result])
        wrapped["success"] = bool(isinstance(result, dict) and result.get("success"))
        return wrapped

    @classmethod
    def run_tests(cls) -> None:
        if cls.tool_name:  # a wrapper: its specialist is installed and its result comes back wrapped
            payload = {
                "tool_name": cls.tool_name,
                "arguments": {},
                "now": "2026-12-01T14:00:00+00:00",
                "org": {},
                "trip_id": "t",
            }
            result = cls(ToolDeps()).run(payload)
            assert result["output"].get("tool_name") == cls.tool_name, result["output"]
            assert result["success"] is result["output"]["result"]["success"]
            return
        assert args_hash({"a": 1, "b": [2]}) == args_hash({"b": [2], "a": 1})
        assert pascal_case("flight_quote_search") == "FlightQuoteSearch"
        inner = {"success": False, "output": {"error": {"code": "timeout", "message": "m", "retryable": True}}}
        success, out = tool_outcome({"success": False, "output": {"tool_name": "x", "result": inner}})
        assert success is False and out["error"]["code"] == "timeout"
        success, out = tool_outcome(
            {"success": True, "output": {"tool_name": "x", "result": {"success": True, "output": {"n": 1}}}}
        )
        assert success and out == {"n": 1}
        missing = type("Missing", (cls,), {"tool_name": "no_such_tool"})().run({"arguments": {}})
        assert missing["success"] is False and missing["output"]["error"]["code"] == "not_available"


class TripRequirementsExtract(Tools):
    tool_name = "trip_requirements_extract"


class FlightQuoteSearch(Tools):
    tool_name = "flight_quote_search"


class HotelQuoteSearch(Tools):
    tool_name = "hotel_quote_search"


class TripOptionRanker(Tools):
    tool_name = "trip_option_ranker"


class PolicyAndRiskCheck(Tools):
    tool_name = "policy_and_risk_check"


class ReservationHoldCreate(Tools):
    tool_name = "reservation_hold_create"


class ReservationHoldRelease(Tools):
    tool_name = "reservation_hold_release"


class BookingConfirmAndPurchase(Tools):
    tool_name = "booking_confirm_and_purchase"


class BookingCancel(Tools):
    tool_name = "booking_cancel"
