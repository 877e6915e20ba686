"""Hotel rates for one stay: a stable set of hotels per city, priced per night.

The hotels of a city depend only on the seed and the city (a traveller who searches twice sees
the same hotels); their rates depend on the stay, the party and the day of the search.
"""

from __future__ import annotations

import math
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any, Dict, List, Tuple
from zoneinfo import ZoneInfo

from handlers.common import geo
from handlers.common.clock import iso, local_time_text
from handlers.common.formats import money_text
from handlers.common.landmarks import centre, km, landmarks_near, nearest_centre

from .money import amount, money
from .pricing import advance_factor, hotel_night_factor, season_factor
from .seeded import item_id, rng, search_ref, short_id, unit

STAR_SPREAD = (2, 3, 3, 3, 4, 4, 4, 4, 5, 5, 1, 3)
NIGHTLY_BY_STARS = {1: 65, 2: 95, 3: 145, 4: 225, 5: 390}
NAME_PARTS = {
    1: ("Budget Inn", "City Hostel", "Travelers Lodge"),
    2: ("Express Inn", "Comfort Stay", "Airport Lodge"),
    3: ("Garden Hotel", "Central Hotel", "Riverside Inn", "Park Suites"),
    4: ("Grand Hotel", "Harbor View Hotel", "Plaza Hotel", "Boulevard Hotel"),
    5: ("Palace", "Royal Collection Hotel", "Imperial Residences"),
}
STREETS = ("Main", "Market", "Park", "River", "Station", "Church", "Harbor", "King", "Queen", "Bridge")
BOARD_BY_STARS = {
    1: ("room_only",),
    2: ("room_only", "breakfast"),
    3: ("room_only", "breakfast", "breakfast", "half_board"),
    4: ("room_only", "breakfast", "half_board"),
    5: ("breakfast", "half_board", "full_board", "all_inclusive"),
}
BOARD_PER_GUEST_NIGHT = {"room_only": 0, "breakfast": 18, "half_board": 45, "full_board": 70, "all_inclusive": 110}
TAX_RATE = Decimal("0.13")
TWIN_SHARE = 0.25  # rooms for one or two with two twin beds instead of one big bed
# Mexico and the Caribbean, where a hotel of three stars or more is often all-inclusive
RESORT_COUNTRIES = frozenset({"MX", "DO", "JM", "BS", "CU", "AW", "BB", "LC", "TC", "CR", "PR", "AG", "KY", "CW"})
FAR_FROM_CENTRE_KM = 9.0  # a landmark farther than the city's own hotels spread (9 km) gets hotels of its own,
OUT_OF_TOWN_KM = 45.0  # unless it is this far away (the Los Angeles Convention Center from Santa Ana)


def _offset(lat: float, lon: float, km: float, bearing: float) -> Dict[str, float]:
    dlat = km / 111.0 * math.cos(bearing)
    dlon = km / (111.0 * max(0.2, math.cos(math.radians(lat)))) * math.sin(bearing)
    return {"lat": round(lat + dlat, 5), "lon": round(lon + dlon, 5)}


def city_hotels(*, seed: int, city: Dict[str, Any]) -> List[Dict[str, Any]]:
    """The hotels of a city, around its centre (``landmarks.centre``; its main airport's point where
    the centre is not known). Where they sit is drawn as before: names, stars and distances do not
    change with the centre."""
    r = rng(seed, "hotels", city["city"], city["country"])
    lat, lon = centre(city) or (city["lat"], city["lon"])
    hotels = []
    for i, stars in enumerate(STAR_SPREAD):
        km = round(r.uniform(0.2, 2.0 if stars >= 4 else 9.0), 1)
        hotels.append(
            {
                "id": short_id("htl", seed, city["city"], city["country"], i),
                "name": f"{city['city']} {r.choice(NAME_PARTS[stars])}",
                "address": f"{r.randint(1, 400)} {r.choice(STREETS)} Street, {city['city']}",
                "star_rating": stars,
                "location": _offset(lat, lon, km, r.uniform(0, 2 * math.pi)),
                "distance_to_center": {"value": km, "unit": "km"},
                "time_zone": city["tz"],
            }
        )
    return hotels + _hotels_by_landmarks(seed, city, (lat, lon))


def _hotels_by_landmarks(seed: int, city: Dict[str, Any], middle: Tuple[float, float]) -> List[Dict[str, Any]]:
    """Two hotels beside each well-known sight of the city that lies away from its centre (Walt
    Disney World from Orlando, Disneyland from Santa Ana, Cancun's Hotel Zone; not a part of another
    town, such as Fort Lauderdale Beach from Miami), as real cities have: "a hotel near
    disney" then finds some near. Drawn apart from the city's own hotels, which do not change."""
    hotels = []
    for mark in landmarks_near(float(city["lat"]), float(city["lon"])):
        if not FAR_FROM_CENTRE_KM <= km(mark.lat, mark.lon, *middle) <= OUT_OF_TOWN_KM:
            continue  # the city's own hotels are around it already, or it is another town's
        if mark.district and nearest_centre(mark.lat, mark.lon) != middle:
            continue  # a part of another town (Fort Lauderdale Beach is not Miami's)
        r = rng(seed, "hotels-near", city["city"], city["country"], mark.name)
        short = mark.name.removeprefix("the ")
        for k, stars in enumerate(sorted(r.sample((2, 3, 4), 2))):  # two classes (one within policy), two names
            where = _offset(mark.lat, mark.lon, r.uniform(0.2, 1.5), r.uniform(0, 2 * math.pi))
            hotels.append(
                {
                    "id": short_id("htl", seed, city["city"], city["country"], mark.name, k),
                    "name": f"{short} {r.choice([p for p in NAME_PARTS[stars] if 'Airport' not in p])}",
                    "address": f"{r.randint(1, 400)} {r.choice(STREETS)} Street, {city['city']}",
                    "star_rating": stars,
                    "location": where,
                    "distance_to_center": {"value": round(km(where["lat"], where["lon"], *middle), 1), "unit": "km"},
                    "time_zone": city["tz"],
                }
            )
    return hotels


def _room(r, guests_per_room: int, twin: bool = False) -> Dict[str, Any]:
    """The room of a rate: a family room of two queen beds for three or four guests; else a king or a
    queen bed, or (``twin``, drawn by the caller apart from ``r``) two twin beds."""
    if guests_per_room >= 3:
        return {
            "type": "family",
            "beds": [{"type": "queen", "count": 2}],
            "max_occupancy": 4,
            "description": "Family room, two queen beds",
        }
    kind = r.choice(("standard", "deluxe", "superior"))
    bed = r.choice(("king", "queen"))
    if twin:
        return {
            "type": kind,
            "beds": [{"type": "twin", "count": 2}],
            "max_occupancy": 2,
            "description": f"{kind.title()} room, two twin beds",
        }
    return {
        "type": kind,
        "beds": [{"type": bed, "count": 1}],
        "max_occupancy": 2,
        "description": f"{kind.title()} room, one {bed} bed",
    }


def _timeline(r, *, refundable: bool, total, first_night, check_in: date, tz: ZoneInfo) -> List[Dict[str, str]]:
    """Full refund until a deadline 1–3 days before arrival; some rates keep a late partial refund."""
    if not refundable:
        return []
    deadline = datetime.combine(check_in - timedelta(days=r.randint(1, 3)), time(18, 0), tzinfo=tz)
    timeline = [{"before": iso(deadline), "refund_amount": amount(total)}]
    if r.random() < 0.4:
        arrival_day = datetime.combine(check_in, time(15, 0), tzinfo=tz)
        timeline.append({"before": iso(arrival_day), "refund_amount": amount(total - first_night)})
    return timeline


def build_hotel_rates(
    *,
    seed: int,
    location_code: str,
    check_in: date,
    check_out: date,
    rooms: int,
    guests_per_room: int,
    now: datetime,
    ttl_minutes: int,
) -> List[Dict[str, Any]]:
    """Rates for one stay, cheapest first; empty for an unknown place, a past or empty stay, or
    rooms for more than four guests each."""
    city = geo.place(location_code)
    nights = (check_out - check_in).days
    if not city or nights < 1 or check_in < now.date() or rooms < 1 or not 1 <= guests_per_room <= 4:
        return []
    tz = ZoneInfo(city["tz"])
    city_factor = 0.75 + 0.8 * unit(seed, "city-price", city["city"], city["country"])
    demand = season_factor(check_in) * advance_factor((check_in - now.date()).days)
    key = (seed, "rates", check_in, check_out, rooms, guests_per_room, now.date())
    search = search_ref(*key, city["city"], city["country"])
    rates: List[Dict[str, Any]] = []
    resort = city["country"] in RESORT_COUNTRIES
    for hotel in city_hotels(seed=seed, city=city):
        r = rng(*key, hotel["id"])
        if r.random() < 0.1:  # fully booked for these dates
            continue
        stars = hotel["star_rating"]
        for j in range(r.randint(1, 3)):
            board = r.choice(BOARD_BY_STARS[stars])
            if resort and stars >= 3 and board != "room_only" and unit(*key, hotel["id"], j, "resort") < 0.6:
                board = "all_inclusive"  # beach resorts sell most rooms all-inclusive (drawn apart: nothing else moves)
            refundable = r.random() < 0.6
            room_night = NIGHTLY_BY_STARS[stars] * city_factor * demand * r.uniform(0.9, 1.12)
            room_night *= 1.0 if refundable else 0.85
            room_night += BOARD_PER_GUEST_NIGHT[board] * guests_per_room
            nightly = [
                money(room_night * hotel_night_factor(check_in + timedelta(days=n)) * rooms) for n in range(nights)
            ]
            base = sum(nightly)
            tax = money(base * TAX_RATE)
            fee = money(25 * nights * rooms if stars >= 4 else 0)
            total = base + tax + fee
            payment_type = r.choice(("pay_now", "deposit", "hold") if refundable else ("pay_now", "pay_now", "hold"))
            if refundable and r.random() < 0.25:
                payment_type = "pay_at_hotel"
            holdable = payment_type != "pay_now" or refundable
            quantity = r.randint(1, 6)
            if quantity < rooms:
                continue
            timeline = _timeline(
                r, refundable=refundable, total=total, first_night=nightly[0], check_in=check_in, tz=tz
            )
            rates.append(
                {
                    "rate_id": item_id("rate", search, *key, hotel["id"], j),
                    "hotel": hotel,
                    "check_in": check_in.isoformat(),
                    "check_out": check_out.isoformat(),
                    "nights": nights,
                    "rooms": rooms,
                    "guests_per_room": guests_per_room,
                    "room": _room(r, guests_per_room, unit(*key, hotel["id"], j, "twin") < TWIN_SHARE),
                    "board_type": board,
                    "payment_type": payment_type,
                    "price": {
                        "nightly": [amount(n) for n in nightly],
                        "base_amount": amount(base),
                        "tax_amount": amount(tax),
                        "fee_amount": amount(fee),
                        "total_amount": amount(total),
                        "due_at_property_amount": amount(total if payment_type == "pay_at_hotel" else fee),
                        "currency": "USD",
                    },
                    "cancellation_timeline": timeline,
                    "conditions": _conditions(refundable, timeline, fee, board, tz=city["tz"]),
                    "created_at": iso(now),
                    "expires_at": iso(now + timedelta(minutes=ttl_minutes)),
                    "quantity_available": quantity,
                    "hold_policy": {
                        "holdable": holdable,
                        "max_hold_minutes": 2880 if holdable else 0,
                        "price_guarantee_minutes": (2880 if payment_type == "hold" else 720) if holdable else None,
                    },
                }
            )
    rates.sort(key=lambda x: (money(x["price"]["total_amount"]), x["rate_id"]))
    return rates


def _conditions(refundable: bool, timeline: List[Dict[str, str]], fee, board: str, *, tz: str) -> List[str]:
    """The rate's terms in words, as the chat and the back office show them: money as
    "$75.00", the deadline in the hotel's own zone, labelled ("Thu Jan 28, 6:00 PM MST")."""
    free_until = local_time_text(timeline[0]["before"], tz) if refundable else ""
    lines = [f"Free cancellation before {free_until}." if refundable else "Non-refundable."]
    if fee:
        lines.append(f"Includes a resort fee of {money_text(amount(fee), 'USD')}, payable at the property.")
    if board != "room_only":
        lines.append(f"Board: {board.replace('_', ' ')}.")
    return lines
