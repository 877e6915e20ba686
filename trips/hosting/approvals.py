"""The purchase tool's view of approvals and payment methods (``handlers.common.host``).

The tool calls ``verify`` before it buys and ``consume`` after; both delegate to
``trips.services.approvals``, where the checks, the row lock and the single-use rule live.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Dict, Optional

from handlers.common.clock import parse_now
from trips.models import PaymentMethod
from trips.services.approvals import approval_claim, approval_consume


def _as_datetime(now: Any) -> datetime:
    return now if isinstance(now, datetime) else parse_now(str(now))


class DjangoApprovalVerifier:
    def verify(self, *, trip_id: str, token: str, hold_ids: list, now: Any) -> Dict[str, Any]:
        """Check the token and claim its approval for this purchase (see ``approval_claim``)."""
        return approval_claim(trip_id=int(trip_id), token=token, hold_ids=hold_ids, now=_as_datetime(now)).as_core()

    def consume(self, *, approval_id: str, booking: Dict[str, Any], now: Any) -> None:
        approval_consume(approval_id=int(approval_id), booking=booking, now=_as_datetime(now))


class DjangoPaymentMethods:
    def get(self, *, trip_id: str, payment_method_id: str) -> Optional[Dict[str, Any]]:
        """The method, if it belongs to the trip's owner: nobody pays with someone else's card."""
        if not str(payment_method_id).isdigit():
            return None
        method = PaymentMethod.objects.filter(pk=int(payment_method_id), owner__trips__pk=int(trip_id)).first()
        return method.as_core() if method else None
