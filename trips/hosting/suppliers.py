"""Which supplier the tools talk to, chosen by ``TRIPDESK_SUPPLIER`` (``sandbox`` by default).

Both keep what they must remember in the host's database (``DjangoKeyValueStore``): the
sandbox its whole state, the Duffel adapter the keys of the writes it made. Bookings themselves
are ``trips.models.Booking`` rows (``DjangoBookingRecords``), never supplier state.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Callable, Dict, Optional

from django.conf import settings

from handlers.supplier import SandboxSupplier
from handlers.supplier.protocol import Supplier
from trips.models import Booking
from trips.services.batch import TurnWrites

from .stores import DjangoKeyValueStore


def supplier_is_remote() -> bool:
    """Whether the tools' supplier answers over the network (its calls take a while), not in-process."""
    return settings.TRIPDESK.get("SUPPLIER", "sandbox") == "duffel"


def supplier_from_settings(
    *, clock: Callable[[], datetime], passengers: Any = None, writes: Optional[TurnWrites] = None
) -> Supplier:
    """``writes``: a running turn's queue, which the supplier's batched writes (a search's offers) join."""
    conf = settings.TRIPDESK
    if supplier_is_remote():
        from handlers.supplier.duffel import DuffelClient, DuffelSupplier

        duffel = conf["DUFFEL"]
        client = DuffelClient(duffel["ACCESS_TOKEN"], base_url=duffel["BASE_URL"], timeout=duffel["TIMEOUT_S"])
        return DuffelSupplier(client, DjangoKeyValueStore(writes=writes), clock=clock, passengers=passengers)
    return SandboxSupplier(
        DjangoKeyValueStore(writes=writes), seed=conf["SUPPLIER_SEED"], clock=clock, faults=conf["SUPPLIER_FAULTS"]
    )


class DjangoBookingRecords:
    """``BookingRecords``: the booking as the purchase recorded it (``approvals.approval_consume``)."""

    def get(self, booking_id: str) -> Optional[Dict[str, Any]]:
        booking = Booking.objects.filter(booking_id=booking_id).first()
        if booking is None:
            return None
        return {
            "booking_id": booking.booking_id,
            "status": booking.status,
            "orders": list(booking.orders or []),
            "record_locators": list(booking.record_locators or []),
            "total": str(booking.total),
            "currency": booking.currency,
        }
