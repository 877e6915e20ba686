"""Suppliers behind one protocol (``protocol.Supplier``): the sandbox (SUPPLIER.md: deterministic
offers, holds, orders and faults) and real adapters (``handlers.supplier.duffel``).

The tool handlers in ``handlers/specialists`` only see the protocol, ``SupplierError`` and
these shapes; the host chooses the implementation.
"""

from .errors import SupplierError
from .protocol import PassengerDirectory, PassengerRef, Supplier
from .sandbox import SandboxSupplier
from .summary import compact_offer, compact_rate, summarize_offer, summarize_rate

__all__ = [
    "PassengerDirectory",
    "PassengerRef",
    "SandboxSupplier",
    "Supplier",
    "SupplierError",
    "compact_offer",
    "compact_rate",
    "summarize_offer",
    "summarize_rate",
]
