"""The one exception the sandbox supplier raises; specialists turn it into a failed tool result."""

from __future__ import annotations

from typing import Any


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
