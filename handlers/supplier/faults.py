"""Faults on demand: ``{"flight_quote_search": {"timeout": 0.2, "empty": 0.1}}``.

Each call to a tool draws once per configured kind from (seed, tool, call number, kind), the call
number being a counter in the store: a sequence of calls fails the same way on every run, and a
retry is a new draw (so "try again" can recover when the rate is below 1).
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

from .errors import SupplierError
from .seeded import unit

FAULT_KINDS = ("timeout", "error", "empty", "price_jump", "sold_out")


class FaultPlan:
    def __init__(self, *, store: Any, seed: int, rates: Optional[Dict[str, Dict[str, float]]], prefix: str) -> None:
        unknown = {k for kinds in (rates or {}).values() for k in kinds} - set(FAULT_KINDS)
        if unknown:
            raise ValueError(f"unknown fault kinds: {sorted(unknown)}")
        self._store, self._seed, self._rates, self._prefix = store, seed, dict(rates or {}), prefix

    def draw(self, tool: str, *, kinds: Tuple[str, ...] = FAULT_KINDS, key: Optional[str] = None) -> Tuple[str, ...]:
        """The faults of ``kinds`` that strike this call of ``tool``; raises at once for timeout and error.

        With ``key`` the draw is fixed by it instead of the call number: a purchase's price jump
        must be the same when the price is quoted and when it is paid.
        """
        rates = self._rates.get(tool)
        if not rates or not any(rates.get(kind) for kind in kinds):
            return ()
        call = key if key is not None else self._store.incr(f"{self._prefix}faultcalls:{tool}", 1)
        struck = tuple(kind for kind in kinds if unit(self._seed, "fault", tool, call, kind) < rates.get(kind, 0))
        if "timeout" in struck:
            raise SupplierError("timeout", "The supplier did not answer in time.", retryable=True)
        if "error" in struck:
            raise SupplierError("supplier_error", "The supplier reported an error.", retryable=True)
        return struck
