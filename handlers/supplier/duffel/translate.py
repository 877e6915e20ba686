"""Duffel's documented shapes -> the protocol's (SUPPLIER.md), and passengers the other way.

Flights: an offer's ``slices[].segments[]`` carry local times without an offset plus each
airport's ``time_zone``; the protocol wants ISO-8601 with the offset. Stays: a search result's
accommodation and its rooms' rates become one ``HotelRate`` per rate.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from decimal import Decimal
from typing import Any, Dict, List, Optional, Sequence
from zoneinfo import ZoneInfo

from handlers.common.clock import iso

from ..errors import SupplierError
from ..money import amount, money

DURATION_RE = re.compile(r"P(?:(\d+)D)?T?(?:(\d+)H)?(?:(\d+)M)?")
PAYMENT_TYPES = {"pay_now": "pay_now", "deposit": "deposit", "guarantee": "pay_at_hotel"}


def minutes(duration: Optional[str]) -> int:
    match = DURATION_RE.fullmatch(duration or "")
    if not match:
        return 0
    days, hours, mins = (int(g or 0) for g in match.groups())
    return days * 1440 + hours * 60 + mins


def local(at: str, place: Dict[str, Any]) -> str:
    """A Duffel local time (no offset) at ``place`` as ISO-8601 with the offset."""
    moment = datetime.fromisoformat(at)
    if moment.tzinfo is None and place.get("time_zone"):
        moment = moment.replace(tzinfo=ZoneInfo(place["time_zone"]))
    return moment.isoformat()


def _minutes_until(when: Optional[str], now: datetime) -> Optional[int]:
    if not when:
        return None
    return max(0, int((datetime.fromisoformat(when.replace("Z", "+00:00")) - now).total_seconds() // 60))


def _passenger_type(p: Dict[str, Any]) -> str:
    kind, age = p.get("type"), p.get("age")
    if kind == "infant_without_seat" or (kind is None and age is not None and int(age) < 2):
        return "infant"
    if kind == "adult" or (kind is None and age is not None and int(age) >= 18):
        return "adult"
    return "child"


def flight_offer(offer: Dict[str, Any], *, now: datetime) -> Dict[str, Any]:
    requirements = offer.get("payment_requirements") or {}
    instant = bool(requirements.get("requires_instant_payment"))
    slices = []
    for s in offer.get("slices") or []:
        segments = []
        for seg in s.get("segments") or []:
            segments.append(
                {
                    "origin": seg["origin"]["iata_code"],
                    "origin_terminal": seg.get("origin_terminal"),
                    "destination": seg["destination"]["iata_code"],
                    "destination_terminal": seg.get("destination_terminal"),
                    "depart_at": local(seg["departing_at"], seg["origin"]),
                    "arrive_at": local(seg["arriving_at"], seg["destination"]),
                    "marketing_carrier": seg["marketing_carrier"]["iata_code"],
                    "flight_number": f"{seg['marketing_carrier']['iata_code']}{seg['marketing_carrier_flight_number']}",
                    "operating_carrier": (seg.get("operating_carrier") or seg["marketing_carrier"])["iata_code"],
                    "duration": seg.get("duration"),
                    "duration_minutes": minutes(seg.get("duration")),
                    "stops": len(seg.get("stops") or []),
                }
            )
        total = s.get("duration")
        if not total and segments:
            first, last = (
                datetime.fromisoformat(segments[0]["depart_at"]),
                datetime.fromisoformat(segments[-1]["arrive_at"]),
            )
            total_minutes = int((last - first).total_seconds() // 60)
        else:
            total_minutes = minutes(total)
        slices.append(
            {
                "origin": segments[0]["origin"] if segments else None,
                "destination": segments[-1]["destination"] if segments else None,
                "duration": total,
                "duration_minutes": total_minutes,
                "stops": max(0, len(segments) - 1),
                "segments": segments,
            }
        )
    first_segment = ((offer.get("slices") or [{}])[0].get("segments") or [{}])[0]
    fares = {p.get("passenger_id"): p for p in first_segment.get("passengers") or []}
    passengers = []
    for p in offer.get("passengers") or []:
        fare = fares.get(p["id"], {})
        bags = {b.get("type"): int(b.get("quantity") or 0) for b in fare.get("baggages") or []}
        passengers.append(
            {
                "id": p["id"],
                "type": _passenger_type(p),
                "age": p.get("age"),
                "cabin": fare.get("cabin_class") or offer.get("cabin_class") or "economy",
                "fare_basis": fare.get("fare_basis_code"),
                "baggage": {"carry_on": bags.get("carry_on", 0), "checked": bags.get("checked", 0)},
            }
        )
    total = money(offer["total_amount"])
    tax = money(offer.get("tax_amount") or 0)
    return {
        "offer_id": offer["id"],
        "owner": {"iata_code": offer["owner"]["iata_code"], "name": offer["owner"].get("name")},
        "created_at": offer.get("created_at") or iso(now),
        "expires_at": offer["expires_at"],
        "requires_instant_payment": instant,
        "slices": slices,
        "passengers": passengers,
        "cabin": passengers[0]["cabin"] if passengers else "economy",
        "price": {
            "base_amount": amount(money(offer.get("base_amount") or total - tax)),
            "tax_amount": amount(tax),
            "total_amount": amount(total),
            "currency": offer["total_currency"],
        },
        "conditions": {
            k: (offer.get("conditions") or {}).get(k) or {"allowed": False, "penalty_amount": None}
            for k in ("refund_before_departure", "change_before_departure")
        },
        "seats_remaining": None,  # Duffel does not say
        "hold_policy": {
            "holdable": not instant,
            "max_hold_minutes": 0 if instant else _minutes_until(requirements.get("payment_required_by"), now),
            "price_guarantee_minutes": _minutes_until(requirements.get("price_guarantee_expires_at"), now),
        },
        "supplier": "duffel",
    }


def hotel_rates(result: Dict[str, Any], *, guests_per_room: int) -> List[Dict[str, Any]]:
    """Every rate of one stays search result, in the protocol's shape."""
    acc = result["accommodation"]
    location = acc.get("location") or {}
    coords = location.get("geographic_coordinates") or {}
    check_in, check_out = result["check_in_date"], result["check_out_date"]
    nights = max(1, (date.fromisoformat(check_out) - date.fromisoformat(check_in)).days)
    rates = []
    for room in acc.get("rooms") or []:
        for rate in room.get("rates") or []:
            total = money(rate["total_amount"])
            per_night = amount(total / nights)
            rates.append(
                {
                    "rate_id": rate["id"],
                    "hotel": {
                        "id": acc["id"],
                        "name": acc["name"],
                        "address": location.get("address") or {},
                        "star_rating": int(acc.get("rating") or 0),
                        "location": {"lat": coords.get("latitude"), "lon": coords.get("longitude")},
                        "distance_to_center": {"value": None, "unit": "km"},
                    },
                    "check_in": check_in,
                    "check_out": check_out,
                    "nights": nights,
                    "rooms": int(result.get("rooms") or 1),
                    "guests_per_room": guests_per_room,
                    "room": {"type": room.get("name"), "beds": room.get("beds") or [], "description": room.get("name")},
                    "board_type": rate.get("board_type") or "room_only",
                    "payment_type": PAYMENT_TYPES.get(rate.get("payment_type") or "", "pay_now"),
                    "price": {
                        "nightly": [per_night] * nights,
                        "base_amount": rate.get("base_amount") or amount(total),
                        "tax_amount": rate.get("tax_amount") or "0.00",
                        "fee_amount": rate.get("fee_amount") or "0.00",
                        "total_amount": amount(total),
                        "due_at_property_amount": rate.get("due_at_accommodation_amount") or "0.00",
                        "currency": rate["total_currency"],
                    },
                    "cancellation_timeline": [
                        {"before": c["before"], "refund_amount": c["refund_amount"]}
                        for c in rate.get("cancellation_timeline") or []
                    ],
                    "conditions": [c.get("description") or c.get("title") for c in rate.get("conditions") or []],
                    "expires_at": rate.get("expires_at") or result.get("expires_at"),
                    "quantity_available": rate.get("quantity_available") or int(result.get("rooms") or 1),
                    "hold_policy": {"holdable": True, "max_hold_minutes": None, "price_guarantee_minutes": None},
                    "supplier": "duffel",
                }
            )
    return rates


def refund_now(timeline: Sequence[Dict[str, Any]], now: datetime) -> Decimal:
    """A stay's refund at ``now``: the first timeline step still ahead, else nothing."""
    for step in sorted(timeline, key=lambda s: s["before"]):
        if now < datetime.fromisoformat(step["before"].replace("Z", "+00:00")):
            return money(step["refund_amount"])
    return money(0)


def order_passengers(offer_passengers: List[Dict[str, Any]], people: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """Pair the traveller details with the offer's passenger ids (adults, children, infants in turn)
    and link each lap infant to its adult, as an order's ``passengers`` wants them."""
    pools: Dict[str, List[Dict[str, Any]]] = {"adult": [], "child": [], "infant": []}
    for p in offer_passengers:
        pools[p["type"]].append(p)
    wanted = {kind: sum(1 for p in people if p.get("type") == kind) for kind in pools}
    if any(len(pools[kind]) != wanted[kind] for kind in pools):
        raise SupplierError(
            "passengers_mismatch",
            "The named travellers do not match the party this fare was priced for; search again.",
        )
    ids = {p["passenger_id"]: pools[p["type"]].pop(0)["id"] for p in people}
    out = []
    for p in people:
        entry = {
            "id": ids[p["passenger_id"]],
            "title": p.get("title"),
            "gender": p.get("gender"),
            "given_name": p.get("given_name"),
            "family_name": p.get("family_name"),
            "born_on": p.get("born_on"),
            "email": p.get("email"),
            "phone_number": p.get("phone_number"),
        }
        if p.get("loyalty_programme_accounts"):
            entry["loyalty_programme_accounts"] = p["loyalty_programme_accounts"]
        if p.get("known_traveler_number"):
            entry["identity_documents"] = [
                {"type": "known_traveler_number", "unique_identifier": p["known_traveler_number"]}
            ]
        out.append({k: v for k, v in entry.items() if v is not None})
    for p in people:
        if p.get("type") == "infant" and p.get("infant_of") in ids:
            adult = next(o for o in out if o["id"] == ids[p["infant_of"]])
            adult["infant_passenger_id"] = ids[p["passenger_id"]]
    return out
