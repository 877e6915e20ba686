"""Model targets, the agent-contract limits and the rate table behind cost estimates."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Dict, Optional, Tuple

from handlers.common.openai_adapter import Usage

DEFAULT_MODEL = "gpt-4.1-mini"


@dataclass(frozen=True)
class ModelTarget:
    """One place a request can go; retries cycle through the configured targets in order."""

    model: str
    provider: str = "openai"
    temperature: Optional[float] = None  # None: the model's default (some models accept no other)


@dataclass(frozen=True)
class LLMLimits:
    """The AGENT_CONTRACT tunables that apply to TripDesk.

    ``max_retries`` counts every attempt of one turn, the first included (1 = no retry).
    Backoff without a Retry-After header doubles from ``backoff_base_s`` up to ``backoff_max_s``.
    """

    max_turns: int = 4
    max_tool_calls_per_turn: int = 4
    max_retries: int = 3
    tool_timeout_s: float = 5.0
    tool_response_max_bytes: int = 8192
    max_output_tokens: int = 1024
    request_timeout_s: float = 30.0
    backoff_base_s: float = 1.0
    backoff_max_s: float = 60.0

    def backoff(self, attempt: int) -> float:
        """Seconds to wait after the ``attempt``-th (1-based) rate-limited attempt."""
        return min(self.backoff_base_s * (2 ** max(attempt - 1, 0)), self.backoff_max_s)


# USD per million tokens: (input, cached input, output). Public list prices; an estimate only.
RATES_PER_MILLION: Dict[str, Tuple[str, str, str]] = {
    "gpt-4.1": ("2.00", "0.50", "8.00"),
    "gpt-4.1-mini": ("0.40", "0.10", "1.60"),
    "gpt-4.1-nano": ("0.10", "0.025", "0.40"),
    "gpt-4o": ("2.50", "1.25", "10.00"),
    "gpt-4o-mini": ("0.15", "0.075", "0.60"),
    "gpt-5": ("1.25", "0.125", "10.00"),
    "gpt-5-mini": ("0.25", "0.025", "2.00"),
    "gpt-5-nano": ("0.05", "0.005", "0.40"),
}


def _rates_for(model: str) -> Optional[Tuple[str, str, str]]:
    """Exact name first, then the longest known prefix (``gpt-4.1-mini-2025-04-14`` → ``gpt-4.1-mini``)."""
    if model in RATES_PER_MILLION:
        return RATES_PER_MILLION[model]
    prefixes = [name for name in RATES_PER_MILLION if model.startswith(name + "-")]
    return RATES_PER_MILLION[max(prefixes, key=len)] if prefixes else None


def estimate_cost_usd(model: str, usage: Usage) -> Optional[str]:
    """Cost as a decimal string (6 places), or None for a model not in the rate table.

    Cached input tokens are part of ``input_tokens`` and are billed at the cached rate.
    """
    rates = _rates_for(model)
    if rates is None:
        return None
    rate_in, rate_cached, rate_out = (Decimal(r) for r in rates)
    cached = min(usage.cached_tokens, usage.input_tokens)
    cost = ((usage.input_tokens - cached) * rate_in + cached * rate_cached + usage.output_tokens * rate_out) / Decimal(
        1_000_000
    )
    return str(cost.quantize(Decimal("0.000001"), rounding=ROUND_HALF_UP))
