"""Read-only "bundle detail" tools the follow-up model may call.

They answer what travellers ask about the bundles on screen (baggage, cancellation terms,
times) from the TripIntent's ``working_memory``: the bundle in ``ranked_bundles`` and the offers
and rates it points to in ``flight_quotes`` / ``hotel_quotes``, as a search keeps them
(``handlers.supplier.compact_offer``; a trip searched before that kept whole offers, read the same way). They read, never write,
and they only know bundles that are on screen. Entries have the registry's shape, so the same
``side_effects`` / ``internal`` filter decides what is offered.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Mapping, Optional

from handlers.supplier.summary import compact_offer
from handlers.supplier.table import output_items

_BUNDLE_ID_SCHEMA = {
    "type": "object",
    "properties": {"bundle_id": {"type": "string", "description": "A bundle on screen: B1, B2, ..."}},
    "required": ["bundle_id"],
    "additionalProperties": False,
}


def _entry(name: str, description: str) -> Dict[str, Any]:
    return {
        "name": name,
        "description": description,
        "side_effects": False,
        "read_only": True,
        "internal": False,
        "timeout_s": 2,
        "enabled": True,
        "version": 1,
        "schema": _BUNDLE_ID_SCHEMA,
    }


BUNDLE_TOOLS: List[Dict[str, Any]] = [
    _entry("bundle_baggage", "Carry-on and checked bags included per passenger on each flight of a bundle on screen."),
    _entry(
        "bundle_cancellation_terms",
        "Refund and change rules of each flight, and the hotel cancellation timeline and conditions, of a bundle on screen.",
    ),
    _entry(
        "bundle_times",
        "Departure and arrival times (local), durations and connections, and hotel dates, of a bundle on screen.",
    ),
]


class _Screen:
    """Look-ups over one TripIntent's working memory."""

    def __init__(self, trip_intent: Mapping[str, Any]):
        self.wm = trip_intent.get("working_memory") or {}

    def bundle(self, bundle_id: Any) -> Optional[Dict[str, Any]]:
        wanted = str(bundle_id or "").strip().upper()
        return next((b for b in self.wm.get("ranked_bundles") or [] if str(b.get("bundle_id")).upper() == wanted), None)

    def not_on_screen(self, bundle_id: Any) -> Dict[str, Any]:
        on_screen = [b.get("bundle_id") for b in self.wm.get("ranked_bundles") or []]
        return {"error": f"bundle {bundle_id!r} is not on screen", "bundles_on_screen": on_screen}

    def offer(self, flight: Mapping[str, Any]) -> Dict[str, Any]:
        """The offer as a search keeps it (``compact_offer``: conditions, baggage, legs); {} if gone."""
        for quote in self.wm.get("flight_quotes") or []:
            if quote.get("segment_id") == flight.get("segment_id"):
                for offer in output_items(quote, "offers"):
                    if offer.get("offer_id") == flight.get("offer_id"):
                        return compact_offer(offer)
        return {}

    def rate(self, hotel: Mapping[str, Any]) -> Dict[str, Any]:
        for quote in self.wm.get("hotel_quotes") or []:
            if quote.get("stay_id") == hotel.get("stay_id"):
                for rate in quote.get("rates") or []:
                    if rate.get("rate_id") == hotel.get("rate_id"):
                        return rate
        return {}


def _flight_head(flight: Mapping[str, Any]) -> Dict[str, Any]:
    summary = flight.get("summary") or {}
    return {
        "segment_id": flight.get("segment_id"),
        "carrier": summary.get("carrier_name") or summary.get("carrier"),
        "flight_numbers": summary.get("flight_numbers"),
    }


def _hotel_head(hotel: Mapping[str, Any]) -> Dict[str, Any]:
    summary = hotel.get("summary") or {}
    return {"stay_id": hotel.get("stay_id"), "hotel_name": summary.get("hotel_name")}


def baggage(screen: _Screen, bundle: Mapping[str, Any]) -> Dict[str, Any]:
    flights = []
    for flight in bundle.get("flights") or []:
        per_type = screen.offer(flight).get("baggage") or {}
        flights.append({**_flight_head(flight), "baggage_by_passenger_type": per_type or "not stated by the airline"})
    return {"bundle_id": bundle.get("bundle_id"), "flights": flights}


def cancellation_terms(screen: _Screen, bundle: Mapping[str, Any]) -> Dict[str, Any]:
    flights = []
    for flight in bundle.get("flights") or []:
        conditions = screen.offer(flight).get("conditions") or {}
        flights.append(
            {
                **_flight_head(flight),
                "refundable": (flight.get("summary") or {}).get("refundable"),
                "refund_before_departure": conditions.get("refund_before_departure"),
                "change_before_departure": conditions.get("change_before_departure"),
            }
        )
    hotels = []
    for hotel in bundle.get("hotels") or []:
        rate = screen.rate(hotel)
        hotels.append(
            {
                **_hotel_head(hotel),
                "refundable": (hotel.get("summary") or {}).get("refundable"),
                "cancellation_timeline": rate.get("cancellation_timeline"),
                "conditions": rate.get("conditions"),
            }
        )
    return {"bundle_id": bundle.get("bundle_id"), "flights": flights, "hotels": hotels}


def times(screen: _Screen, bundle: Mapping[str, Any]) -> Dict[str, Any]:
    flights = []
    for flight in bundle.get("flights") or []:
        summary = flight.get("summary") or {}
        legs = screen.offer(flight).get("legs") or []
        flights.append(
            {
                **_flight_head(flight),
                "depart_at": summary.get("depart_at"),
                "arrive_at": summary.get("arrive_at"),
                "duration_minutes": summary.get("duration_minutes"),
                "stops": summary.get("stops"),
                "connections": summary.get("connections"),
                "legs": legs,
            }
        )
    hotels = [
        {**_hotel_head(h), **{k: (h.get("summary") or {}).get(k) for k in ("check_in", "check_out", "nights")}}
        for h in bundle.get("hotels") or []
    ]
    return {"bundle_id": bundle.get("bundle_id"), "flights": flights, "hotels": hotels}


_VIEWS: Dict[str, Callable[[_Screen, Mapping[str, Any]], Dict[str, Any]]] = {
    "bundle_baggage": baggage,
    "bundle_cancellation_terms": cancellation_terms,
    "bundle_times": times,
}


def bundle_tool_executors(trip_intent: Mapping[str, Any]) -> Dict[str, Callable[[Dict[str, Any]], Any]]:
    """The bundle tools bound to one TripIntent: ``{name: fn(arguments) -> JSON-able}``."""
    screen = _Screen(trip_intent)

    def bind(view: Callable[[_Screen, Mapping[str, Any]], Dict[str, Any]]) -> Callable[[Dict[str, Any]], Any]:
        def run(arguments: Dict[str, Any]) -> Dict[str, Any]:
            bundle = screen.bundle(arguments.get("bundle_id"))
            return view(screen, bundle) if bundle is not None else screen.not_on_screen(arguments.get("bundle_id"))

        return run

    return {name: bind(view) for name, view in _VIEWS.items()}
