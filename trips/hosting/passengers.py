"""The trip's passengers as the tools see them (``handlers.supplier.protocol.PassengerDirectory``).

References only for the core; the details are resolved for the supplier's request alone.
"""

from __future__ import annotations

from typing import Any, Dict, List, Sequence

from handlers.supplier import SupplierError


class DjangoPassengerDirectory:
    def refs(self, trip_id: str) -> List[Dict[str, Any]]:
        return []

    def resolve(self, trip_id: str, refs: Sequence[Dict[str, Any]]) -> List[Dict[str, Any]]:
        raise SupplierError("passengers_missing", "Nobody is named for this trip yet.")
