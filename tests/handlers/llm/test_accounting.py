"""Cost estimates from the rate table, and totals over accounting entries."""

from __future__ import annotations

from handlers.common.openai_adapter import Usage
from handlers.llm.accounting import llm_entry, tool_entry, usage_totals
from handlers.llm.config import LLMLimits, ModelTarget, estimate_cost_usd


def test_cost_uses_the_cached_rate_for_cached_input():
    usage = Usage(input_tokens=1_000_000, output_tokens=1_000_000, cached_tokens=500_000)
    # gpt-4.1-mini: 0.40 input, 0.10 cached input, 1.60 output per million tokens.
    assert estimate_cost_usd("gpt-4.1-mini", usage) == "1.850000"


def test_dated_model_names_use_their_family_rate_and_unknown_models_have_no_price():
    usage = Usage(input_tokens=2000, output_tokens=100)
    assert estimate_cost_usd("gpt-4.1-mini-2025-04-14", usage) == estimate_cost_usd("gpt-4.1-mini", usage) == "0.000960"
    assert estimate_cost_usd("gpt-4.1-2025-04-14", usage) == "0.004800"
    assert estimate_cost_usd("llama-3-70b", usage) is None


def test_totals_count_llm_calls_only_and_stay_unpriced_when_any_model_is():
    target = ModelTarget("gpt-4.1-nano")
    entries = [
        llm_entry(purpose="extract", target=target, latency_ms=5, error="server"),
        llm_entry(purpose="extract", target=target, latency_ms=9, usage=Usage(1000, 100, 0)),
        tool_entry(purpose="followup", tool="bundle_times", call_id="c1", latency_ms=1, chars_in=10, chars_out=99),
    ]
    assert usage_totals(entries) == {
        "llm_calls": 2,
        "input_tokens": 1000,
        "output_tokens": 100,
        "cached_tokens": 0,
        "total_tokens": 1100,
        "cost_usd": "0.000140",
    }
    unpriced = entries + [llm_entry(purpose="extract", target=ModelTarget("local"), latency_ms=3, usage=Usage(5, 5, 0))]
    assert usage_totals(unpriced)["cost_usd"] is None


def test_errors_in_entries_are_redacted():
    entry = llm_entry(purpose="x", target=ModelTarget("m"), latency_ms=1, error="bad token=tdk_apv_abcdefghijk")
    assert "tdk_apv_" not in entry["error"] and entry["status"] == "failed"


def test_backoff_doubles_up_to_the_maximum():
    limits = LLMLimits(backoff_base_s=1.0, backoff_max_s=5.0)
    assert [limits.backoff(n) for n in (1, 2, 3, 4)] == [1.0, 2.0, 4.0, 5.0]
