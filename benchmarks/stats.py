"""Latency summaries shared by every benchmark: nearest-rank percentiles, in milliseconds."""

from __future__ import annotations

import math
import statistics
from typing import Iterable, Optional


def percentile(values: list[float], fraction: float) -> float:
    """The nearest-rank percentile: the smallest value with at least ``fraction`` of them at or below it."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def summary_ms(seconds: Iterable[float]) -> dict[str, Optional[float]]:
    """``n``, median, p95, p99 and max of durations given in seconds, in ms (``None`` when empty)."""
    values = [s * 1000 for s in seconds]
    if not values:
        return {"n": 0, "median": None, "p95": None, "p99": None, "max": None}
    return {
        "n": len(values),
        "median": round(statistics.median(values), 1),
        "p95": round(percentile(values, 0.95), 1),
        "p99": round(percentile(values, 0.99), 1),
        "max": round(max(values), 1),
    }
