"""Host hooks the Runner needs (SPEC §B.2): AGU for UI output, SHC for tool execution.

They are not constructor parameters: the host binds them for the duration of a turn::

    with bind_host(agu=my_agu, shc=my_shc):
        result = Runner(trip_store=..., tool_store=...).run(payload)

Inside the Runner, ``self.AGU`` and ``self.SHC`` read the bound context.
"""

from __future__ import annotations

import contextlib
import contextvars
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterator, Optional, Protocol


class AGU(Protocol):
    def print_chat(self, trip_id: str, message: Dict[str, Any]) -> None:
        """Show ``message`` in the trip's chat.

        message = {"role": "assistant", "kind": "message"|"progress"|"error"|"status",
                   "text": str, "widget": {"type": ...} | None}
        """


class SHC(Protocol):
    def handler_call(
        self, portfolio: str, org: Dict[str, Any], tool: str, handler: str, args: Dict[str, Any]
    ) -> Dict[str, Any]:
        """Run the tool ``tool`` whose registry entry names ``handler``; return its handler result."""


class ApprovalVerifier(Protocol):
    """The host's approval tokens, seen from the purchase tool. Tokens are never stored in clear."""

    def verify(self, *, trip_id: str, token: str, hold_ids: list, now: Any) -> Dict[str, Any]:
        """{"ok": bool, "code": str, "message": str, "approval_id": str|None, "ceiling": str|None,
        "currency": str|None, "existing_booking": dict|None}"""

    def consume(self, *, approval_id: str, booking: Dict[str, Any], now: Any) -> None:
        """Mark the approval used by ``booking`` (single use)."""


class PaymentMethods(Protocol):
    def get(self, *, trip_id: str, payment_method_id: str) -> Optional[Dict[str, Any]]:
        """The trip owner's payment method ({id, brand, last4}) or None."""


@dataclass
class ToolDeps:
    """What a tool handler may reach: everything else comes in its arguments."""

    supplier: Any = None  # a handlers.supplier.protocol.Supplier: the sandbox or a real adapter
    clock: Optional[Callable[[], Any]] = None
    approvals: Optional[ApprovalVerifier] = None
    payments: Optional[PaymentMethods] = None
    llm_extractor: Any = None  # None = offline deterministic extractor
    passengers: Any = None  # handlers.supplier.protocol.PassengerDirectory (None: nobody named)
    bookings: Any = None  # handlers.supplier.protocol.BookingRecords: bookings live with the host
    settings: Dict[str, Any] = field(default_factory=dict)


_agu: contextvars.ContextVar[Optional[AGU]] = contextvars.ContextVar("tripdesk_agu", default=None)
_shc: contextvars.ContextVar[Optional[SHC]] = contextvars.ContextVar("tripdesk_shc", default=None)


@contextlib.contextmanager
def bind_host(*, agu: AGU, shc: SHC) -> Iterator[None]:
    t1, t2 = _agu.set(agu), _shc.set(shc)
    try:
        yield
    finally:
        _agu.reset(t1)
        _shc.reset(t2)


def current_agu() -> Optional[AGU]:
    return _agu.get()


def current_shc() -> Optional[SHC]:
    return _shc.get()
