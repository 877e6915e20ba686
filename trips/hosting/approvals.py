"""The purchase tool's view of approvals and payment methods (``handlers.common.host``).

The tool calls ``verify`` before it buys and ``consume`` after; both delegate to
``trips.services.approvals``, where the checks, the row lock and the single-use rule live.

A queued purchase carries no token (tokens are never stored): its traveller's token was checked
when it was submitted, and the message names the approval. While its turn runs, the core is
handed a *pass* instead of a token (``purchase_pass``): a random value that lives only in this
process's memory for that one turn and stands for that one approval of that one trip.
"""

from __future__ import annotations

import secrets
import threading
from contextlib import contextmanager
from datetime import datetime
from typing import Any, Dict, Iterator, Optional

from handlers.common.clock import parse_now
from handlers.common.crash import crash_point
from trips.models import PaymentMethod
from trips.services.approvals import approval_claim, approval_claim_queued, approval_consume

_passes: Dict[str, tuple[int, int]] = {}  # pass → (trip id, approval id), only while its turn runs
_passes_lock = threading.Lock()


@contextmanager
def purchase_pass(*, trip_id: int, approval_id: int) -> Iterator[str]:
    """A one-turn stand-in for the approval's token, valid in this process until the block ends."""
    value = "pass_" + secrets.token_urlsafe(32)
    with _passes_lock:
        _passes[value] = (trip_id, approval_id)
    try:
        yield value
    finally:
        with _passes_lock:
            _passes.pop(value, None)


def _as_datetime(now: Any) -> datetime:
    return now if isinstance(now, datetime) else parse_now(str(now))


class DjangoApprovalVerifier:
    def verify(self, *, trip_id: str, token: str, hold_ids: list, now: Any) -> Dict[str, Any]:
        """Check the token (or a queued purchase's pass) and claim its approval for this purchase."""
        with _passes_lock:
            passed = _passes.get(token) if isinstance(token, str) else None
        if passed is not None and str(passed[0]) == str(trip_id):
            verdict = approval_claim_queued(
                trip_id=passed[0], approval_id=passed[1], hold_ids=hold_ids, now=_as_datetime(now)
            )
        else:
            verdict = approval_claim(trip_id=int(trip_id), token=token, hold_ids=hold_ids, now=_as_datetime(now))
        crash_point("purchase.claimed")
        return verdict.as_core()

    def consume(self, *, approval_id: str, booking: Dict[str, Any], now: Any) -> None:
        approval_consume(approval_id=int(approval_id), booking=booking, now=_as_datetime(now))
        crash_point("purchase.booking_written")


class DjangoPaymentMethods:
    def get(self, *, trip_id: str, payment_method_id: str) -> Optional[Dict[str, Any]]:
        """The method, if it belongs to the trip's owner: nobody pays with someone else's card."""
        if not str(payment_method_id).isdigit():
            return None
        method = PaymentMethod.objects.filter(pk=int(payment_method_id), owner__trips__pk=int(trip_id)).first()
        return method.as_core() if method else None
