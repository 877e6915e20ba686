"""Duffel's documented errors as the tools' ``SupplierError``: a stable code, retryable or final,
and a sentence the traveller can read (it is what the chat shows)."""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

from ..errors import SupplierError
from .client import DuffelApiError, DuffelTransportError

# Duffel error code -> (our code, retryable, what the traveller reads)
CODES: Dict[str, Tuple[str, bool, str]] = {
    "offer_no_longer_available": (
        "offer_expired",
        False,
        "That fare is no longer available from the airline; I need to search again for current prices.",
    ),
    "offer_expired": (
        "offer_expired",
        False,
        "That fare has expired at the airline; I need to search again for current prices.",
    ),
    "price_changed": (
        "price_changed",
        False,
        "The airline changed the price since it was quoted, so nothing was bought at the old price.",
    ),
    "insufficient_balance": (
        "payment_failed",
        False,
        "The payment could not be taken, so nothing was bought. Our staff have to top up the account.",
    ),
    "payment_declined": ("payment_failed", False, "The payment was declined, so nothing was bought."),
    "already_paid": ("already_paid", False, "That booking is already paid for; nothing was charged again."),
    "already_cancelled": ("already_cancelled", False, "That booking was already cancelled."),
    "rate_limit_exceeded": (
        "rate_limited",
        True,
        "The airline's booking system is busy right now; try again in a minute.",
    ),
    "not_found": ("not_found", False, "The airline no longer knows that booking or offer."),
    "order_not_found": ("not_found", False, "The airline no longer knows that booking."),
}
PASSENGER_FIELDS = ("passenger", "given_name", "family_name", "born_on", "phone", "email", "title", "gender")


def _passenger_problem(error: DuffelApiError) -> bool:
    if error.type != "validation_error":
        return False
    text = " ".join(f"{e.get('code')} {e.get('message')} {(e.get('source') or {})}" for e in error.errors).lower()
    return any(f in text for f in PASSENGER_FIELDS)


def as_supplier_error(exc: Exception, *, doing: str = "", **details: Any) -> SupplierError:
    """The tool-facing error for anything the client raised while ``doing`` something."""
    if isinstance(exc, SupplierError):
        return exc
    if isinstance(exc, DuffelTransportError):
        return SupplierError("timeout", "The airline's system did not answer in time; try again.", retryable=True)
    if not isinstance(exc, DuffelApiError):
        raise exc
    details = {**details, "supplier_request_id": exc.request_id} if exc.request_id else details
    known = CODES.get(exc.code)
    if known:
        code, retryable, message = known
        return SupplierError(code, message, retryable=retryable, **details)
    if exc.status == 429:
        code, retryable, message = CODES["rate_limit_exceeded"]
        return SupplierError(code, message, retryable=retryable, **details)
    if _passenger_problem(exc):
        return SupplierError(
            "passenger_invalid",
            "The airline refused a traveller's details. Check each name exactly as on the passport, "
            "the date of birth and the phone number, then try again.",
            **details,
        )
    if exc.status in (401, 403):
        return SupplierError(
            "supplier_unavailable",
            "Booking with the airline is not available right now; our staff have been told.",
            **details,
        )
    if exc.status == 404:
        return SupplierError("not_found", f"The airline does not know that {doing or 'item'}.", **details)
    if exc.status >= 500:
        return SupplierError(
            "supplier_error",
            "The airline's system had a problem; nothing new was confirmed. Try again in a moment.",
            retryable=True,
            **details,
        )
    who = "hotel" if doing.startswith(("hotel", "room")) else "airline"
    return SupplierError(
        "supplier_refused",
        f"The {who} refused the {doing or 'request'}, so nothing changed; search again or choose another option.",
        supplier_code=exc.code or str(exc.status),
        **details,
    )


def first_error_code(exc: Optional[BaseException]) -> str:
    return exc.code if isinstance(exc, DuffelApiError) else ""
