"""Accounting entries: one per LLM request and one per tool call the model asked for.

The host stores them as audit events (``LLM usage``), so they carry no prompt text and their
error strings are redacted. Shapes::

    {"type": "llm", "purpose", "provider", "model", "status": "ok"|"failed", "error",
     "latency_ms", "input_tokens", "output_tokens", "cached_tokens", "total_tokens",
     "cost_usd", "stop_reason", "at"}
    {"type": "tool", "purpose", "tool", "call_id", "status": "ok"|"failed", "error",
     "latency_ms", "chars_in", "chars_out", "at"}
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Dict, Iterable, Optional

from handlers.common.clock import Clock, iso
from handlers.common.openai_adapter import Usage
from handlers.common.redact import redact_text

from .config import ModelTarget, estimate_cost_usd


def _stamp(clock: Optional[Clock]) -> Optional[str]:
    return iso(clock()) if clock is not None else None


def llm_entry(
    *,
    purpose: str,
    target: ModelTarget,
    latency_ms: int,
    usage: Usage = Usage(),
    error: Optional[str] = None,
    stop_reason: Optional[str] = None,
    clock: Optional[Clock] = None,
) -> Dict[str, Any]:
    return {
        "type": "llm",
        "purpose": purpose,
        "provider": target.provider,
        "model": target.model,
        "status": "failed" if error else "ok",
        "error": redact_text(error) if error else None,
        "latency_ms": latency_ms,
        "input_tokens": usage.input_tokens,
        "output_tokens": usage.output_tokens,
        "cached_tokens": usage.cached_tokens,
        "total_tokens": usage.total_tokens,
        "cost_usd": estimate_cost_usd(target.model, usage),
        "stop_reason": stop_reason,
        "at": _stamp(clock),
    }


def tool_entry(
    *,
    purpose: str,
    tool: str,
    call_id: str,
    latency_ms: int,
    chars_in: int,
    chars_out: int,
    error: Optional[str] = None,
    clock: Optional[Clock] = None,
) -> Dict[str, Any]:
    return {
        "type": "tool",
        "purpose": purpose,
        "tool": tool,
        "call_id": call_id,
        "status": "failed" if error else "ok",
        "error": redact_text(error) if error else None,
        "latency_ms": latency_ms,
        "chars_in": chars_in,
        "chars_out": chars_out,
        "at": _stamp(clock),
    }


def usage_totals(entries: Iterable[Dict[str, Any]]) -> Dict[str, Any]:
    """LLM calls, tokens and estimated cost over ``entries`` (cost None if any model is unpriced)."""
    totals: Dict[str, Any] = {"llm_calls": 0, "input_tokens": 0, "output_tokens": 0, "cached_tokens": 0}
    cost: Optional[Decimal] = Decimal("0")
    for entry in entries:
        if entry.get("type") != "llm":
            continue
        totals["llm_calls"] += 1
        for key in ("input_tokens", "output_tokens", "cached_tokens"):
            totals[key] += int(entry.get(key) or 0)
        if cost is not None and (entry.get("total_tokens") or 0):
            cost = cost + Decimal(entry["cost_usd"]) if entry.get("cost_usd") is not None else None
    totals["total_tokens"] = totals["input_tokens"] + totals["output_tokens"]
    totals["cost_usd"] = str(cost) if cost is not None else None
    return totals
