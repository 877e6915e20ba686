"""The sandbox supplier (SUPPLIER.md): deterministic offers, holds, orders and faults.

A real supplier adapter can replace it behind the same methods; the tool handlers in
``handlers/specialists`` only see ``SupplierError`` and these shapes.
"""

from .errors import SupplierError
from .sandbox import SandboxSupplier
from .summary import summarize_offer, summarize_rate

__all__ = ["SandboxSupplier", "SupplierError", "summarize_offer", "summarize_rate"]
