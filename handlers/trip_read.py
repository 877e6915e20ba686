"""Reading a TripIntent: its segments, stays and party, what is still missing, and the state of its holds.

Pure functions of the document (``expire_lapsed`` alone writes: it marks lapsed holds). The
Reducer, the Applier, the Runner and the host all read trips through these.
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any, Dict, List, Optional, Tuple

from .common.clock import parse_now

# The requirements quoting needs, in the order the traveller is asked for them (wording.QUESTIONS asks them).
SLOTS = (
    "origin",
    "destination",
    "hotel_location",
    "depart_date",
    "check_in",
    "adults",
    "return_date",
    "check_out",
    "child_ages",
)


def _code(place: Any) -> Optional[str]:
    return place.get("code") if isinstance(place, dict) and place.get("code") else None


def flights_needed(doc: Dict[str, Any]) -> bool:
    """False for a hotel-only trip: no flight is asked for, searched or held."""
    return (doc.get("itinerary") or {}).get("flights_needed", True) is not False


def segments_of(doc: Dict[str, Any]) -> List[Dict[str, Any]]:
    """The flights to quote, each with a ``segment_id`` (``S1``, ``S2``… when absent); none for a hotel-only trip."""
    if not flights_needed(doc):
        return []
    segs = (doc.get("itinerary") or {}).get("segments") or []
    return [{**s, "segment_id": s.get("segment_id") or f"S{i + 1}"} for i, s in enumerate(segs) if isinstance(s, dict)]


def travellers(doc: Dict[str, Any]) -> Dict[str, int]:
    t = (doc.get("party") or {}).get("travelers") or {}
    return {k: int(t.get(k) or 0) for k in ("adults", "children", "infants")}


def stays_of(doc: Dict[str, Any]) -> List[Dict[str, Any]]:
    """The hotel stays to quote, each with a ``stay_id`` and rooms that fit the party.

    Explicit ``lodging.stays`` win; else one stay from ``lodging.check_in/check_out``; else one
    stay at each destination between consecutive flights (a round trip gives one, a three-leg
    multi-city two, a day trip none); a hotel-only trip without dates gives one undated stay (asked for). A stay
    without a place is in ``lodging.city`` (the hotel city) when the traveller named one, else
    at the first flight's destination. No lodging → none.
    """
    lodging = (doc.get("itinerary") or {}).get("lodging") or {}
    if lodging.get("needed") is False:
        return []
    segs = segments_of(doc)
    city = _code(lodging.get("city"))
    # a hotel-only trip may still carry the place the traveller named as a flight's destination
    named = [s for s in (doc.get("itinerary") or {}).get("segments") or [] if isinstance(s, dict)]
    default = city or (_code(named[0].get("destination")) if named else None)
    if lodging.get("stays"):
        stays = [dict(s) for s in lodging["stays"] if isinstance(s, dict)]
    elif lodging.get("check_in") or lodging.get("check_out"):
        stays = [{"check_in": lodging.get("check_in"), "check_out": lodging.get("check_out")}]
    elif not flights_needed(doc):  # dates said as if flying ("Mar 2-5") are the stay's
        stays = [{"check_in": named[0].get("depart_date") if named else None}]
        stays[0]["check_out"] = named[1].get("depart_date") if len(named) > 1 else None
    else:
        stays = [
            {
                "location_code": city if city and len(segs) == 2 else _code(a.get("destination")),
                "check_in": a.get("depart_date"),
                "check_out": b.get("depart_date"),
            }
            for a, b in zip(segs, segs[1:], strict=False)
            if _code(a.get("destination")) and _code(a.get("destination")) != _code(segs[0].get("origin"))
        ]
    if flights_needed(doc):  # a day trip ("home same evening") has no night to stay
        stays = [s for s in stays if not (s.get("check_in") and s.get("check_in") == s.get("check_out"))]
    per_room = max(1, int(lodging.get("guests_per_room") or 2))
    people = max(1, travellers(doc)["adults"] + travellers(doc)["children"])
    out = []
    home = _code(segs[0].get("origin")) if segs else None
    for i, stay in enumerate(stays):
        # the flight out to it: the stay begins as that flight lands (``_from_landing``)
        flight = next(
            (
                s
                for s in segs
                if stay.get("check_in")
                and s.get("depart_date") == stay.get("check_in")
                and _code(s.get("destination")) != home
            ),
            None,
        )
        if flight is not None:
            stay = {**stay, **_from_landing(doc, flight, stay.get("check_out")), "after": flight["segment_id"]}
        location = stay.get("location") if isinstance(stay.get("location"), dict) else {}
        guests = max(1, int(stay.get("guests_per_room") or per_room))
        rooms = max(int(stay.get("rooms") or lodging.get("rooms") or 1), math.ceil(people / guests))
        out.append(
            {
                "stay_id": stay.get("stay_id") or f"H{i + 1}",
                "location_code": stay.get("location_code") or _code(location) or default,
                "location_hint": stay.get("location_hint")
                or (_name(lodging.get("city")) if city and not stay.get("location_code") else None)
                or lodging.get("location_hint"),
                "check_in": stay.get("check_in"),
                "check_out": stay.get("check_out"),
                "rooms": rooms,
                "guests_per_room": guests,
                # the flight it follows (its check-in waits for that flight's search) and, when that
                # moved the check-in, the first night the flight's travellers need a bed
                **{k: stay[k] for k in ("after", "first_night") if stay.get(k)},
            }
        )
    return out


def _from_landing(doc: Dict[str, Any], flight: Dict[str, Any], leaves: Optional[str]) -> Dict[str, Any]:
    """The check-in of a stay that begins the day ``flight`` leaves (and ends the day ``leaves``
    says): that day, or the first night a bed is needed when its search found no flight landing in
    time for that day's night (across the Pacific: no night is paid while the traveller is in the
    air, and no hotel gives the room away as a no-show on the first night). ``first_night``:
    that night, when it moved the check-in. A stay dated on the day its flight leaves follows the flights
    (as the extractor keeps it: ``handlers.extract.patch``), so however it was dated, it starts when
    the traveller arrives."""
    day = flight.get("depart_date")
    quotes = (doc.get("working_memory") or {}).get("flight_quotes") or []
    quote = next((q for q in quotes if isinstance(q, dict) and q.get("segment_id") == flight["segment_id"]), {})
    night = quote.get("first_night")
    if not isinstance(day, str) or quote.get("searched") != flight_key(flight) or not isinstance(night, str):
        return {"check_in": day}
    if not day < night < (leaves or "9999"):  # (no night before the next flight: nothing to move)
        return {"check_in": day}
    return {"check_in": night, "first_night": night}


def flight_key(flight: Dict[str, Any]) -> str:
    """A flight search's route and day ("BOS>LIS 2027-03-03"), from a segment or a search's arguments."""
    ends = [p.get("code") if isinstance(p, dict) else p for p in (flight.get("origin"), flight.get("destination"))]
    return f"{ends[0]}>{ends[1]} {flight.get('depart_date')}"


def _name(place: Any) -> Optional[str]:
    return (place.get("name") or place.get("code")) if isinstance(place, dict) else None


def _hotel_only_missing(doc: Dict[str, Any]) -> List[str]:
    """A hotel-only trip needs a city, check-in and check-out dates and the party; nothing about flying."""
    missing: List[str] = []
    stays = stays_of(doc)
    if not stays:  # hotel-only with the hotel dropped too: nothing left to quote
        return ["hotel_location"]
    if any(not s["location_code"] for s in stays):
        missing.append("hotel_location")
    if any(not s["check_in"] for s in stays):
        missing.append("check_in")
    if any(not s["check_out"] for s in stays):
        missing.append("check_out")
    if travellers(doc)["adults"] < 1:
        missing.append("adults")
    return missing


def unknown_child_ages(doc: Dict[str, Any]) -> int:
    """Children on a flight whose age is not known yet: from 2 a child needs its own seat, under 2 it
    may fly as a lap infant at a tenth of the fare, so the age changes the fare and the seat."""
    if not segments_of(doc):
        return 0
    children = travellers(doc)["children"]
    ages = [a for a in (doc.get("party") or {}).get("child_ages") or [] if isinstance(a, int)]
    return max(0, children - len(ages))


def missing_slots(doc: Dict[str, Any]) -> List[str]:
    """Requirements still unknown for quoting, in the order we ask for them."""
    if not flights_needed(doc):
        return sorted(_hotel_only_missing(doc), key=SLOTS.index)
    segs = segments_of(doc)
    trip_type = (doc.get("itinerary") or {}).get("trip_type")
    missing: List[str] = []
    for index, seg in enumerate(segs or [{}]):
        # the way home ends where the trip starts: an unknown end there is asked as "where from?"
        way_home = trip_type == "round_trip" and len(segs) == 2 and index == 1
        for slot, ok_ in (
            # ... and starts where the outbound ends: while that is asked, so is this
            ("origin", _code(seg.get("origin")) or (way_home and not _code(segs[0].get("destination")))),
            ("destination", way_home or _code(seg.get("destination"))),
            ("depart_date", seg.get("depart_date")),
        ):
            if not ok_ and slot not in missing:
                missing.append(slot)
    if travellers(doc)["adults"] < 1:
        missing.append("adults")
    if trip_type not in ("one_way", "multi_city") and len(segs) <= 1:
        missing.append("return_date")
    elif "depart_date" not in missing and any(
        not s["check_in"] or not s["check_out"] or (not s["location_code"] and "destination" not in missing)
        for s in stays_of(doc)
    ):  # (a stay at a destination still asked for is where the answer puts it)
        missing.append("check_out")  # (while the departure is asked, the stay waits for it: it follows the flights)
    elif trip_type == "one_way" and (doc.get("itinerary") or {}).get("lodging", {}).get("needed") and not stays_of(doc):
        missing.append("check_out")
    if unknown_child_ages(doc):
        missing.append("child_ages")
    return sorted(missing, key=SLOTS.index)


def current_quotes(doc: Dict[str, Any]) -> Tuple[List[Dict[str, Any]], List[Dict[str, Any]]]:
    """The stored quotes of today's segments and stays, in itinerary order."""
    wm = doc["working_memory"]
    seg_ids = [s["segment_id"] for s in segments_of(doc)]
    stay_ids = [s["stay_id"] for s in stays_of(doc)]
    flights = sorted(
        (q for q in wm["flight_quotes"] if q.get("segment_id") in seg_ids), key=lambda q: seg_ids.index(q["segment_id"])
    )
    hotels = sorted(
        (q for q in wm["hotel_quotes"] if q.get("stay_id") in stay_ids), key=lambda q: stay_ids.index(q["stay_id"])
    )
    return flights, hotels


def bundle_items(bundle: Dict[str, Any]) -> List[Dict[str, Any]]:
    """What holding ``bundle`` means at the supplier: one item per flight and per hotel stay."""
    items = [
        {"item_type": "flight", "offer_id": f.get("offer_id"), "segment_id": f.get("segment_id")}
        for f in bundle.get("flights") or []
    ]
    return items + [
        {"item_type": "hotel", "rate_id": h.get("rate_id"), "stay_id": h.get("stay_id")}
        for h in bundle.get("hotels") or []
    ]


def live_holds(doc: Dict[str, Any], now: datetime) -> List[Dict[str, Any]]:
    def alive(hold: Dict[str, Any]) -> bool:
        deadline = hold.get("payment_required_by")
        return hold.get("status") == "held" and (not deadline or parse_now(deadline) > now)

    return [h for h in doc["working_memory"]["holds"] if alive(h)]


def unbooked_purchases(doc: Dict[str, Any]) -> List[Dict[str, Any]]:
    """Holds a purchase paid for that no booking lists: a retryable failure stopped it half way, and
    submitting it again replays these (nothing charged twice) and buys the rest."""
    wm = doc["working_memory"]
    booked = {o.get("hold_id") for b in wm["bookings"] for o in b.get("orders") or []}
    return [h for h in wm["holds"] if h.get("status") == "purchased" and h.get("hold_id") not in booked]


def earliest_deadline(holds: List[Dict[str, Any]]) -> Optional[str]:
    """The first payment deadline among ``holds`` (ISO, UTC), None without any: what an approval can last."""
    deadlines = [h["payment_required_by"] for h in holds if h.get("payment_required_by")]
    return min(deadlines, key=parse_now) if deadlines else None


def unheld_items(bundle: Dict[str, Any], held: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """The items of ``bundle`` that no live hold covers (all of them before the first hold)."""
    covered = {(h.get("item_type"), h.get("offer_id") or h.get("rate_id")) for h in held}
    return [i for i in bundle_items(bundle) if (i["item_type"], i.get("offer_id") or i.get("rate_id")) not in covered]


def expire_lapsed(doc: Dict[str, Any], now: datetime) -> List[Dict[str, Any]]:
    """Write down holds still marked held whose deadline has passed; returns them."""
    lapsed = [h for h in doc["working_memory"]["holds"] if h.get("status") == "held" and h not in live_holds(doc, now)]
    for hold in lapsed:
        hold["status"] = "expired"
    return lapsed


def offers_lapsed(bundle: Dict[str, Any], items: List[Dict[str, Any]], now: datetime) -> bool:
    """Whether the supplier's offer behind any of ``items`` has expired (it can no longer be held)."""
    wanted = {i.get("offer_id") or i.get("rate_id") for i in items}
    parts = [(f.get("offer_id"), f.get("summary") or {}) for f in bundle.get("flights") or []]
    parts += [(h.get("rate_id"), h.get("summary") or {}) for h in bundle.get("hotels") or []]
    return any(
        ref in wanted and summary.get("expires_at") and parse_now(summary["expires_at"]) <= now
        for ref, summary in parts
    )
