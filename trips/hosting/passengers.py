"""The trip's passengers as the tools see them (``handlers.supplier.protocol.PassengerDirectory``).

``refs`` is all the core ever gets: opaque references, the type, a child's age and a lap
infant's adult. ``resolve`` hands the details to the supplier adapter for the one request that
needs them; companions without their own email or phone travel with the lead's, as airlines
accept.
"""

from __future__ import annotations

from typing import Any, Dict, List, Sequence

from handlers.supplier import SupplierError
from trips.models import Trip, TripPassenger
from trips.services.travellers import travel_date


def _rows(trip_id: str) -> List[TripPassenger]:
    if not str(trip_id).isdigit():
        return []
    return list(TripPassenger.objects.filter(trip_id=int(trip_id)).order_by("position"))


class DjangoPassengerDirectory:
    def refs(self, trip_id: str) -> List[Dict[str, Any]]:
        rows = _rows(trip_id)
        # A child's age counts on the day of travel, read from the TripIntent: only a party with a
        # child born on a known day reads (and decodes) it, not every hold.
        dated = any(row.passenger_type == "child" and row.born_on for row in rows)
        day = travel_date(Trip.objects.only("intent").get(pk=rows[0].trip_id)) if dated else None
        out = []
        for row in rows:
            ref: Dict[str, Any] = {"passenger_id": row.ref, "type": row.passenger_type}
            if row.passenger_type == "child" and day is not None and row.born_on:
                ref["age"] = row.age_on(day)
            if row.infant_of:
                ref["infant_of"] = row.infant_of
            out.append(ref)
        return out

    def resolve(self, trip_id: str, refs: Sequence[Dict[str, Any]]) -> List[Dict[str, Any]]:
        rows = {row.ref: row for row in _rows(trip_id)}
        if not refs or any(r.get("passenger_id") not in rows for r in refs):
            raise SupplierError(
                "passengers_missing",
                "Some travellers are not named any more; name everyone travelling and hold again.",
            )
        lead = next(iter(rows.values()))
        people = []
        for ref in refs:
            row = rows[ref["passenger_id"]]
            details = row.details()
            details["email"] = details["email"] or lead.email or None
            details["phone_number"] = details["phone_number"] or lead.phone_number or None
            details["known_traveler_number"] = details.pop("known_traveller_number")
            details["loyalty_programme_accounts"] = details.pop("loyalty_programmes")
            people.append(
                {
                    **{k: v for k, v in details.items() if v is not None},
                    "passenger_id": row.ref,
                    "type": row.passenger_type,
                }
                | ({"infant_of": row.infant_of} if row.infant_of else {})
            )
        return people
