"""The one exception the sandbox supplier raises; specialists turn it into a failed tool result."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Dict, List, Optional, Sequence


class SupplierError(Exception):
    """A refusal or failure a real supplier API would report (HTTP 4xx/5xx with a code).

    ``code`` is stable and machine-readable (``sold_out``, ``hold_expired``, ``timeout``…),
    ``message`` is plain words a traveller can read, ``retryable`` says whether the same call
    may succeed later.
    """

    def __init__(self, code: str, message: str, *, retryable: bool = False, **details: Any) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.retryable = retryable
        self.details = details  # e.g. ``current_amount`` for price_changed


def live_hold(supplier: Any, hold_id: str, now: datetime) -> Dict[str, Any]:
    """``supplier``'s hold as it reads now (deadlines enforced), if it can still be paid; otherwise
    the refusal a supplier gives. Every adapter's pay and re-price path starts here."""
    hold = supplier.get_hold(hold_id, now=now)
    if hold["status"] == "held":
        return hold
    if hold["status"] == "expired":
        raise SupplierError("hold_expired", "The hold has expired and its space was released.")
    raise SupplierError("hold_not_active", f"The hold is {hold['status']} and cannot be paid.")


def passenger_refs(passengers: Optional[Sequence[Dict[str, Any]]]) -> List[Dict[str, Any]]:
    """Passengers cut down to references: id, type, age and lap adult; never a name or a date."""
    keep = ("passenger_id", "type", "age", "infant_of")
    return [{k: p[k] for k in keep if p.get(k) is not None} for p in passengers or []]
