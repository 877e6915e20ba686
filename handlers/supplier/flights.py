"""Flight offers for one leg, built from real airports, great-circle distance and real carriers.

``build_flight_offers`` is pure: the same seed, search and day give the same offers (ids
included), which is what lets tests and replays rely on the sandbox.
"""

from __future__ import annotations

import math
from datetime import date, datetime, time, timedelta
from itertools import pairwise
from typing import Any, Dict, List, Optional
from zoneinfo import ZoneInfo

from handlers.common import geo
from handlers.common.clock import iso

from .carriers import LONG_HAUL_KM, Carrier, carriers_for
from .money import amount, money
from .pricing import advance_factor, flight_weekday_factor, season_factor
from .seeded import item_id, rng, search_ref

CABIN_FACTOR = {"economy": 1.0, "premium_economy": 1.7, "business": 3.6, "first": 5.5}
CABIN_LETTER = {"economy": "K", "premium_economy": "W", "business": "J", "first": "F"}
# Fare brands: price factor, refund/change conditions (penalty per passenger), checked bags.
BRANDS: Dict[str, Dict[str, Any]] = {
    "basic": {"factor": 0.85, "refund": None, "change": None, "checked": 0},
    "standard": {"factor": 1.0, "refund": None, "change": "75.00", "checked": 1},
    "flex": {"factor": 1.45, "refund": "0.00", "change": "0.00", "checked": 2},
}
PASSENGER_FACTOR = {"adult": 1.0, "child": 0.75, "infant": 0.1}
CRUISE_KMH = 820.0
MAX_DETOUR = 1.4  # a connection may add at most 40 % to the great-circle distance
ATTEMPTS_PER_ITINERARY = 4  # draws that find no sensible route are retried, up to this many per itinerary
MIN_HOP_KM = 150  # no connection at a hub next door to either end (JFK for EWR, CDG for BVA)


def block_minutes(km: float) -> int:
    """Gate-to-gate time: taxi, climb and descent (~35 min) plus cruise, in 5-minute steps."""
    return int(5 * math.ceil((35 + km / CRUISE_KMH * 60) / 5))


def iso_duration(minutes: int) -> str:
    return f"PT{minutes // 60}H{minutes % 60}M"


def passenger_list(passengers: Dict[str, Any]) -> List[Dict[str, Any]]:
    ages = list(passengers.get("child_ages") or [])
    people: List[Dict[str, Any]] = []
    for kind, count in (
        ("adult", passengers.get("adults") or 1),
        ("child", passengers.get("children") or 0),
        ("infant", passengers.get("infants") or 0),
    ):
        for _ in range(int(count)):
            age = ages.pop(0) if kind == "child" and ages else None
            people.append({"id": f"pas_{len(people) + 1}", "type": kind, "age": age})
    return people


def _route(r, carrier: Carrier, origin: str, destination: str, km: float) -> Optional[List[str]]:
    """Airports of the journey: nonstop or over one of the carrier's hubs when the carrier is
    based at either end; only over a hub otherwise (no foreign carrier flies a route nonstop).
    None when the carrier has no sensible way to fly it."""
    feasible = []
    for hub in carrier.hubs:
        first, second = geo.distance_km(origin, hub) or 0, geo.distance_km(hub, destination) or 0
        if min(first, second) >= MIN_HOP_KM and first + second <= km * MAX_DETOUR:
            feasible.append(hub)
    at_home = carrier.home_country in (geo.airport(origin)["country"], geo.airport(destination)["country"])
    if at_home and (not feasible or (km < 13000 and r.random() < 0.5)):
        return [origin, destination]
    return [origin, r.choice(feasible), destination] if feasible else None


def _pick_airport(r, airports: List[str], km: float) -> str:
    """Metro codes expand to their airports; the main one (listed first) gets most flights, and
    long-haul flights use only the two largest."""
    others = airports[1:2] if km > LONG_HAUL_KM else airports[1:3]
    return airports[0] if not others or r.random() < 0.6 else r.choice(others)


def _departure_minute(r, km: float) -> int:
    """Minutes after local midnight; long flights sometimes leave late at night (red-eyes)."""
    if km > 2500 and r.random() < 0.22:
        return r.randrange(21 * 60 + 15, 23 * 60 + 55, 5)
    return r.randrange(6 * 60, 20 * 60 + 30, 5)


def _segments(r, carrier: Carrier, airports: List[str], depart_day: date, km: float) -> List[Dict[str, Any]]:
    segments: List[Dict[str, Any]] = []
    minute = _departure_minute(r, km)
    tz0 = ZoneInfo(geo.airport(airports[0])["tz"])
    departs = datetime.combine(depart_day, time(minute // 60, minute % 60), tzinfo=tz0)
    for a, b in pairwise(airports):
        minutes = block_minutes(geo.distance_km(a, b) or 0)
        arrives = (departs + timedelta(minutes=minutes)).astimezone(ZoneInfo(geo.airport(b)["tz"]))
        segments.append(
            {
                "origin": a,
                "origin_terminal": r.choice(["1", "2", "3", "A", "B", "C"]),
                "destination": b,
                "destination_terminal": r.choice(["1", "2", "3", "A", "B", "C"]),
                "depart_at": departs.isoformat(),
                "arrive_at": arrives.isoformat(),
                "marketing_carrier": carrier.code,
                "flight_number": f"{carrier.code}{r.randint(100, 2999)}",
                "operating_carrier": carrier.code,
                "duration": iso_duration(minutes),
                "duration_minutes": minutes,
                "stops": 0,
            }
        )
        # Connections range from tight (35 min) to long (7 h) so that policy checks have work.
        departs = arrives + timedelta(minutes=r.randrange(35, 425, 5))
    return segments


def _fare(
    r,
    *,
    km: float,
    cabin: str,
    brand: str,
    stops: int,
    carrier: Carrier,
    depart_day: date,
    today: date,
    people: List[Dict[str, Any]],
) -> Dict[str, str]:
    per_adult = (40 + 0.09 * km) * CABIN_FACTOR[cabin] * BRANDS[brand]["factor"]
    per_adult *= 0.88 if stops else 1.0
    per_adult *= 0.8 if carrier.low_cost else 1.0
    per_adult *= season_factor(depart_day) * flight_weekday_factor(depart_day)
    per_adult *= advance_factor((depart_day - today).days) * r.uniform(0.88, 1.15)
    base = sum(money(per_adult * PASSENGER_FACTOR[p["type"]]) for p in people)
    tax = sum(money(0.075 * per_adult * PASSENGER_FACTOR[p["type"]] + 20 + 5.6 * (stops + 1)) for p in people)
    return {
        "base_amount": amount(base),
        "tax_amount": amount(tax),
        "total_amount": amount(base + tax),
        "currency": "USD",
    }


def _fare_details(r, people: List[Dict[str, Any]], cabin: str, brand: str) -> List[Dict[str, Any]]:
    """Each passenger with the fare they travel on: cabin, brand, fare basis and bags."""
    basis = f"{CABIN_LETTER[cabin]}{r.choice(['LW', 'HX', 'QN'])}7{brand[:2].upper()}"
    checked = max(BRANDS[brand]["checked"], 2 if cabin in ("business", "first") else 0)
    return [
        {
            **p,
            "cabin": cabin,
            "fare_brand": brand,
            "fare_basis": basis,
            "baggage": {"carry_on": 0 if p["type"] == "infant" else 1, "checked": checked},
        }
        for p in people
    ]


def _conditions(brand: str, cabin: str, n_people: int) -> Dict[str, Any]:
    spec = BRANDS[brand]
    refund = spec["refund"] if cabin == "economy" or brand != "standard" else "200.00"

    def rule(penalty: Optional[str]) -> Dict[str, Any]:
        if penalty is None:
            return {"allowed": False, "penalty_amount": None, "penalty_currency": None}
        return {"allowed": True, "penalty_amount": amount(money(penalty) * n_people), "penalty_currency": "USD"}

    return {"refund_before_departure": rule(refund), "change_before_departure": rule(spec["change"])}


def build_flight_offers(
    *,
    seed: int,
    origin: str,
    destination: str,
    depart_date: date,
    passengers: Dict[str, Any],
    cabin: str,
    now: datetime,
    ttl_minutes: int,
) -> List[Dict[str, Any]]:
    """Offers for one leg, cheapest first; empty when either end is unknown or the date has passed."""
    origins, destinations = geo.airports_for(origin), geo.airports_for(destination)
    if not origins or not destinations or depart_date < now.date() or cabin not in CABIN_FACTOR:
        return []
    people = passenger_list(passengers)
    o_country, d_country = geo.airport(origins[0])["country"], geo.airport(destinations[0])["country"]
    route_km = geo.distance_km(origins[0], destinations[0]) or 0.0
    carriers = carriers_for(o_country, d_country, route_km)
    party = tuple(sum(p["type"] == kind for p in people) for kind in PASSENGER_FACTOR)
    key = (seed, "flights", origin, destination, depart_date, cabin, party, now.date())
    r = rng(*key)
    search = search_ref(*key)
    offers: List[Dict[str, Any]] = []
    wanted = r.randint(6, 10)  # itineraries; each is sold in two fare brands
    for i in range(wanted * ATTEMPTS_PER_ITINERARY):
        if len(offers) >= 2 * wanted:
            break
        a, b = _pick_airport(r, origins, route_km), _pick_airport(r, destinations, route_km)
        km = geo.distance_km(a, b) or 0.0
        carrier = r.choice(carriers)
        route = _route(r, carrier, a, b, km) if a != b and km >= 50 else None
        if route is None:
            continue
        segments = _segments(r, carrier, route, depart_date, km)
        departs_at = datetime.fromisoformat(segments[0]["depart_at"])
        if departs_at <= now + timedelta(hours=2):
            continue
        brands = ["standard", "flex"] if cabin != "economy" else r.sample(["basic", "standard", "flex"], 2)
        seats = min(9, r.randint(1, 14))  # suppliers show at most 9 ("9 or more")
        for brand in brands:
            offer_id = item_id("off", search, *key, i, brand)
            price = _fare(
                r,
                km=km,
                cabin=cabin,
                brand=brand,
                stops=len(segments) - 1,
                carrier=carrier,
                depart_day=depart_date,
                today=now.date(),
                people=people,
            )
            instant = r.random() < (0.5 if carrier.low_cost and brand == "basic" else 0.1)
            max_hold = 4320 if brand == "flex" else 1440
            total_minutes = int((datetime.fromisoformat(segments[-1]["arrive_at"]) - departs_at).total_seconds() // 60)
            offers.append(
                {
                    "offer_id": offer_id,
                    "owner": {"iata_code": carrier.code, "name": carrier.name},
                    "created_at": iso(now),
                    "expires_at": iso(now + timedelta(minutes=ttl_minutes)),
                    "requires_instant_payment": instant,
                    "slices": [
                        {
                            "origin": a,
                            "destination": b,
                            "duration": iso_duration(total_minutes),
                            "duration_minutes": total_minutes,
                            "stops": len(segments) - 1,
                            "segments": segments,
                        }
                    ],
                    "passengers": _fare_details(r, people, cabin, brand),
                    "cabin": cabin,
                    "price": price,
                    "conditions": _conditions(brand, cabin, len(people)),
                    "seats_remaining": seats,
                    "hold_policy": {
                        "holdable": not instant,
                        "max_hold_minutes": 0 if instant else max_hold,
                        "price_guarantee_minutes": None if instant else (max_hold if brand == "flex" else 240),
                    },
                }
            )
    offers.sort(key=lambda o: (money(o["price"]["total_amount"]), o["offer_id"]))
    return offers
