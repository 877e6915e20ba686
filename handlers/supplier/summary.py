"""The short views of offers and rates that bundles, widgets and policy checks read.

Everything a ranker or a policy check needs is here, so they never re-read the full offer; the
fields beyond handlers/README.md's list (origin, connections, expires_at, hold policy…) are
additive.
"""

from __future__ import annotations

from datetime import datetime
from itertools import pairwise
from typing import Any, Dict, List

from .carriers import BY_CODE
from .money import amount, money


def is_red_eye(depart_at: str, arrive_at: str) -> bool:
    """Leaves late at night (21:00–04:59 local) and lands the next day or before 07:00."""
    dep, arr = datetime.fromisoformat(depart_at), datetime.fromisoformat(arrive_at)
    late = dep.hour >= 21 or dep.hour < 5
    return late and (arr.date() > dep.date() or arr.hour < 7)


def _connections(segments: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    found = []
    for a, b in pairwise(segments):
        gap = datetime.fromisoformat(b["depart_at"]) - datetime.fromisoformat(a["arrive_at"])
        found.append({"airport": a["destination"], "minutes": int(gap.total_seconds() // 60)})
    return found


def summarize_offer(offer: Dict[str, Any]) -> Dict[str, Any]:
    slice_ = offer["slices"][0]
    segments = slice_["segments"]
    carrier = offer["owner"]["iata_code"]
    refund = offer.get("conditions", {}).get("refund_before_departure") or {}
    return {
        "carrier": carrier,
        "carrier_name": offer["owner"].get("name") or getattr(BY_CODE.get(carrier), "name", carrier),
        "flight_numbers": [s["flight_number"] for s in segments],
        "origin": segments[0]["origin"],
        "destination": segments[-1]["destination"],
        "depart_at": segments[0]["depart_at"],
        "arrive_at": segments[-1]["arrive_at"],
        "stops": len(segments) - 1,
        "connections": _connections(segments),
        "duration_minutes": slice_["duration_minutes"],
        "total": offer["price"]["total_amount"],
        "currency": offer["price"]["currency"],
        "refundable": bool(refund.get("allowed")),
        "red_eye": any(is_red_eye(s["depart_at"], s["arrive_at"]) for s in segments),
        "cabin": offer.get("cabin") or offer["passengers"][0]["cabin"],
        "expires_at": offer["expires_at"],
        "holdable": bool(offer["hold_policy"]["holdable"]) and not offer.get("requires_instant_payment"),
        "max_hold_minutes": offer["hold_policy"].get("max_hold_minutes"),
        "price_guarantee_minutes": offer["hold_policy"].get("price_guarantee_minutes"),
        "seats_remaining": offer.get("seats_remaining"),
    }


def summarize_rate(rate: Dict[str, Any]) -> Dict[str, Any]:
    """``nightly_avg`` and ``nightly_max`` are per room and night before tax (what travel policies cap).

    ``room_charges`` (every room, every night, before tax) plus ``taxes_and_fees`` is ``total``:
    what a card shows adds up to what is held.
    """
    price = rate["price"]
    per_room = max(1, int(rate.get("rooms") or 1))
    nightly = [money(n) / per_room for n in price["nightly"]] or [money(0)]
    timeline = rate.get("cancellation_timeline") or []
    return {
        "hotel_id": rate["hotel"]["id"],
        "hotel_name": rate["hotel"]["name"],
        "stars": rate["hotel"]["star_rating"],
        "distance_km": rate["hotel"].get("distance_to_center", {}).get("value"),
        "board_type": rate["board_type"],
        "refundable": bool(timeline),
        "refundable_until": timeline[0]["before"] if timeline else None,
        "total": price["total_amount"],
        "currency": price["currency"],
        "nightly_avg": amount(sum(nightly) / len(nightly)),
        "nightly_max": amount(max(nightly)),
        "rooms": per_room,
        "room_charges": amount(sum(money(n) for n in price["nightly"])),
        "taxes_and_fees": amount(money(price["total_amount"]) - sum(money(n) for n in price["nightly"])),
        "nights": rate.get("nights") or len(price["nightly"]),
        "check_in": rate["check_in"],
        "check_out": rate["check_out"],
        "expires_at": rate["expires_at"],
        "holdable": bool(rate["hold_policy"]["holdable"]),
        "max_hold_minutes": rate["hold_policy"].get("max_hold_minutes"),
        "price_guarantee_minutes": rate["hold_policy"].get("price_guarantee_minutes"),
    }
