"""What a trip's shape and preferences mean, read the same way by the Reducer, the searches,
the ranker and the policy check: which carriers may fly, what a time of day is, how many seats
and rooms a party needs and what the traveller's budget comes to for the whole party.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any, Dict, List, Optional, Tuple

from . import geo
from .beds import beds_words
from .board import board_words
from .carriers import carriers_text
from .formats import money_text
from .landmarks import where_near

# Local departure times ("HH:MM", inclusive) for each time of day; night wraps past midnight.
TIME_OF_DAY: Dict[str, Tuple[str, str]] = {
    "morning": ("05:00", "11:59"),
    "afternoon": ("12:00", "16:59"),
    "evening": ("17:00", "20:59"),
    "night": ("21:00", "04:59"),
}
LAP_INFANT_MAX_AGE = 1  # under 2: may fly on a lap; from 2 a child needs a seat


def _codes(values: Any) -> List[str]:
    return [str(v).strip().upper() for v in values or [] if isinstance(v, str) and v.strip()]


def carrier_rules(flight_prefs: Dict[str, Any]) -> Dict[str, List[str]]:
    """``{"preferred", "required", "avoid"}`` IATA codes; an avoided carrier is never preferred or required.

    Avoiding wins over everything else, so "not United" can never turn into "only United"; a
    required list emptied that way means any carrier but the avoided ones.
    """
    avoid = _codes(flight_prefs.get("airlines_avoid"))
    required = [c for c in _codes(flight_prefs.get("airlines_required")) if c not in avoid]
    preferred = [c for c in _codes(flight_prefs.get("airlines")) if c not in avoid]
    return {"preferred": preferred, "required": required, "avoid": avoid}


def carrier_words(flight_prefs: Dict[str, Any]) -> List[str]:
    """The airline wishes in words: ["only Delta Airlines", "prefer Star Alliance", "avoid low-cost airlines"]."""
    rules = carrier_rules(flight_prefs)
    either = " or ".join(carriers_text(rules["required"]).rsplit(", ", 1))  # "only Delta Airlines or American Airlines"
    words = [f"only {either}"] if rules["required"] else []
    words += [f"prefer {carriers_text(rules['preferred'])}"] if rules["preferred"] else []
    return words + ([f"avoid {carriers_text(rules['avoid'])}"] if rules["avoid"] else [])


def carrier_allowed(carrier: str, rules: Dict[str, List[str]]) -> bool:
    code = str(carrier or "").upper()
    if code in rules.get("avoid", []):
        return False
    return not rules.get("required") or code in rules["required"]


# A clock bound on a flight's local departure: "after 17:00", "before 09:00", "around 07:30".
CLOCK_BOUND = re.compile(r"^(?P<bound>after|before|around)\s(?P<hh>[01]\d|2[0-3]):(?P<mm>[0-5]\d)$")
CLOCK_BOUND_PATTERN = CLOCK_BOUND.pattern
ARRIVAL_BOUND_PATTERN = r"^(?:after|before)\s(?:[01]\d|2[0-3]):[0-5]\d$"  # arrivals: no "around"
AROUND_MINUTES = 90  # "around 7am": departures from 5:30 to 8:30


# "the earliest flight out", "the last flight back": the leg's first (last) departures of the day.
SUPERLATIVES = ("earliest", "latest")
SUPERLATIVE_SPAN_MINUTES = 60  # "the earliest flight": those leaving within an hour of the first one


def is_time_wish(value: Any) -> bool:
    """A departure-time wish the core understands: a time of day ("evening"), a clock bound
    ("after 17:00") or a superlative ("earliest", "latest")."""
    return isinstance(value, str) and (
        value in TIME_OF_DAY or value in SUPERLATIVES or CLOCK_BOUND.match(value) is not None
    )


def is_arrival_wish(value: Any) -> bool:
    """An arrival-time wish: a strict clock bound on the local arrival ("before 18:00", "after 07:00")."""
    bound = CLOCK_BOUND.match(value) if isinstance(value, str) else None
    return bound is not None and bound["bound"] in ("before", "after")


def clock_text(hhmm: str) -> str:
    """ "17:00" → "5:00 PM"; "12:00" → "noon"."""
    hours, minutes = int(hhmm[:2]), int(hhmm[3:5])
    if (hours, minutes) == (12, 0):
        return "noon"
    return f"{(hours - 1) % 12 + 1}:{minutes:02d} {'AM' if hours < 12 else 'PM'}"


def time_wish_text(value: Any) -> str:
    """How a departure-time wish reads in a sentence: "in the evening", "after 5:00 PM"."""
    if value in TIME_OF_DAY:
        return f"in the {value}"
    if value in SUPERLATIVES:
        return f"on the {value} flight"
    bound = CLOCK_BOUND.match(str(value or ""))
    if bound is None:
        return "at any time of day"
    return f"{bound['bound']} {clock_text(value[-5:])}"


def _shifted(hhmm: str, minutes: int) -> str:
    total = min(max(int(hhmm[:2]) * 60 + int(hhmm[3:5]) + minutes, 0), 23 * 60 + 59)
    return f"{total // 60:02d}:{total % 60:02d}"


def time_window(name: Any) -> Optional[Dict[str, str]]:
    """A departure-time wish as a window ``{"from", "to", "label"}`` of local "HH:MM" (inclusive);
    None when not one we know. Bounds are strict: "after 17:00" starts at 17:01, "before 09:00"
    ends at 08:59 (so "a later flight than the 17:00" is "after 17:00")."""
    if name in TIME_OF_DAY:
        start, end = TIME_OF_DAY[name]
        return {"from": start, "to": end, "label": str(name)}
    bound = CLOCK_BOUND.match(str(name or ""))
    if bound is None:
        return None
    at = name[-5:]
    if bound["bound"] == "after":
        start, end = _shifted(at, 1), "23:59"
    elif bound["bound"] == "before":
        start, end = "00:00", _shifted(at, -1)
    else:
        start, end = _shifted(at, -AROUND_MINUTES), _shifted(at, AROUND_MINUTES)
    return {"from": start, "to": end, "label": time_wish_text(name)}


def arrival_text(value: Any) -> str:
    """How an arrival wish reads: "arriving before 6:00 PM"."""
    return f"arriving {time_wish_text(value)}" if is_arrival_wish(value) else "arriving at any time"


def superlative_pick(times: List[str], which: Any) -> Optional[Tuple[str, str]]:
    """For "earliest" ("latest") and the local "HH:MM" departures found, the window ``(from, to)``
    of those leaving within ``SUPERLATIVE_SPAN_MINUTES`` of the first (last) one; None otherwise."""
    if which not in SUPERLATIVES or not times:
        return None
    if which == "earliest":
        first = min(times)
        return first, _shifted(first, SUPERLATIVE_SPAN_MINUTES)
    last = max(times)
    return _shifted(last, -SUPERLATIVE_SPAN_MINUTES), last


def in_window(local_hhmm: str, window: Optional[Dict[str, Any]]) -> bool:
    """Whether a local "HH:MM" lies in ``window`` (a window whose end is before its start wraps midnight)."""
    if not window:
        return True
    start, end = window.get("from") or "00:00", window.get("to") or "23:59"
    if start <= end:
        return start <= local_hhmm <= end
    return local_hhmm >= start or local_hhmm <= end


def lands_in(depart_at: str, arrive_at: str, window: Dict[str, Any]) -> bool:
    """Whether a flight's local arrival (ISO, the destination's clock) meets an arrival window
    (``time_window`` of "before 18:00" / "after 07:00"): one landing after midnight of its departure
    day is later than any "before" and meets any "after"."""
    if arrive_at[:10] > depart_at[:10]:
        return (window.get("to") or "23:59") == "23:59"
    return in_window(arrive_at[11:16], window)


def leg_name(leg_index: int, legs: int, round_trip: bool) -> Optional[str]:
    """Which leg a trip's flight number ``leg_index`` (of ``legs``) is: "outbound" is the first,
    "return" the last of a round trip; None for the legs between."""
    if round_trip and legs > 1 and leg_index == legs - 1:
        return "return"
    return "outbound" if leg_index == 0 else None


def leg_index(leg: str, legs: int, round_trip: bool) -> Optional[int]:
    """The flight number of ``leg`` ("outbound" / "return") in a trip of ``legs`` flights: the
    inverse of ``leg_name``; None when the trip has no such leg."""
    if leg == "return":
        return legs - 1 if round_trip and legs > 1 else None
    return 0 if leg == "outbound" and legs else None


def leg_of(flights: List[Any], leg: str) -> Any:
    """A bundle's outbound flight (its first) or return flight (its last, when it has two or more)."""
    if leg == "return":
        return flights[-1] if len(flights) > 1 else None
    return flights[0] if flights else None


def leg_departure(bundle: Dict[str, Any], leg: str) -> str:
    """The local departure "YYYY-MM-DDTHH:MM" of a bundle's outbound or return flight ("" when none)."""
    flight = leg_of(list(bundle.get("flights") or []), leg) or {}
    return str((flight.get("summary") or {}).get("depart_at") or "")[:16]


def leg_time_of_day(
    flight_prefs: Dict[str, Any], leg_index: int, legs: int, round_trip: bool, key: str = "time_of_day"
) -> Optional[str]:
    """The departure-time wish for one leg (see ``leg_name``); ``key="arrival"``: its arrival wish."""
    wanted = flight_prefs.get(key) or {}
    leg = leg_name(leg_index, legs, round_trip)
    return wanted.get(leg) if isinstance(wanted, dict) and leg else None


def party_size(party: Dict[str, Any]) -> int:
    """People a per-person budget counts: everyone, lap infants included."""
    t = (party or {}).get("travelers") or {}
    return sum(int(t.get(k) or 0) for k in ("adults", "children", "infants"))


def _amount(value: Any) -> Optional[Decimal]:
    if value in (None, ""):
        return None
    try:
        out = Decimal(str(value))
    except (InvalidOperation, ValueError):
        return None
    return out if out > 0 else None


def budget_limit(constraints: Dict[str, Any], people: int) -> Tuple[Optional[Decimal], str]:
    """The trip total the traveller's budgets allow and which budget sets it ("total" or "per_person").

    A per-person budget counts for the whole party; with both, the tighter one wins.
    """
    total = _amount((constraints or {}).get("budget_total"))
    per_person = _amount((constraints or {}).get("budget_per_person"))
    scaled = per_person * max(1, people) if per_person is not None else None
    if scaled is not None and (total is None or scaled < total):
        return scaled, "per_person"
    return total, "total"


def nightly_cap(constraints: Dict[str, Any]) -> Optional[Decimal]:
    """The traveller's own per-night hotel cap (per room, before tax), apart from the trip total."""
    return _amount((constraints or {}).get("hotel_max_per_night"))


CABIN_WORDS = {"premium_economy": "premium economy"}


def place_name(place: Any) -> Optional[str]:
    """A place as words: its name, else the city its code stands for ("MSY" is New Orleans), else the code."""
    if not isinstance(place, dict):
        place = {"code": str(place)} if place else {}
    known = (geo.place(str(place["code"])) or {}) if place.get("code") else {}
    return place.get("name") or known.get("city") or place.get("code")


def _near_words(near: str, lodging: Dict[str, Any]) -> str:
    """The place the hotel is wished near, by the name the cards measure from ("the convention
    center" in Las Vegas: "the Las Vegas Convention Center"); the traveller's words otherwise."""
    stays = [s for s in lodging.get("stays") or [] if isinstance(s, dict)]
    found = where_near(near, geo.place(stays[0].get("location_code"))) if stays else None
    return found["name"] if found and found["name"] not in ("the centre", "the airport") else near


def trip_details(doc: Dict[str, Any]) -> List[Dict[str, str]]:
    """What the traveller asked for beyond route, dates and party, as ``[{"label", "value"}]`` lines.

    The chat's "understood trip" card and the back office's trip page both show these, so a
    preference that shapes the search is never invisible. Defaults (economy, any airline) are
    not listed.
    """
    itinerary = doc.get("itinerary") or {}
    lodging = itinerary.get("lodging") or {}
    prefs = doc.get("preferences") or {}
    fp, hp = prefs.get("flight") or {}, prefs.get("hotel") or {}
    constraints = doc.get("constraints") or {}
    currency = constraints.get("currency") or "USD"
    party = doc.get("party") or {}
    lines: List[Tuple[str, Optional[str]]] = []
    if itinerary.get("flights_needed") is False:
        lines.append(("Flights", "none: hotel only"))
    if lodging.get("needed") is False:
        lines.append(("Hotel", "none: flights only"))
    elif lodging.get("city"):
        lines.append(("Hotel city", place_name(lodging["city"])))
    rooms = int(lodging.get("rooms") or 1)
    if lodging.get("needed") is not False and rooms > 1:
        lines.append(("Rooms", f"{rooms} rooms"))
    ages = [str(a) for a in party.get("child_ages") or []]
    if ages:
        lines.append(("Children's ages", ", ".join(ages)))
    cap = nightly_cap(constraints)
    if cap is not None and lodging.get("needed") is not False:
        lines.append(("Hotel price", f"up to {money_text(cap, currency)} a night"))
    total, per_person = _amount(constraints.get("budget_total")), _amount(constraints.get("budget_per_person"))
    budget = [f"{money_text(total, currency)} in all"] if total is not None else []
    budget += [f"{money_text(per_person, currency)} per person"] if per_person is not None else []
    if budget:
        lines.append(("Budget", "; ".join(budget)))
    if itinerary.get("flights_needed") is not False:
        if fp.get("cabin") and fp["cabin"] != "economy":
            lines.append(("Cabin", CABIN_WORDS.get(fp["cabin"], str(fp["cabin"]))))
        airlines = carrier_words(fp)
        if airlines:
            lines.append(("Airlines", "; ".join(airlines)))
        stops = fp.get("max_stops")
        if stops is not None:
            wished = ", nonstop preferred" if fp.get("prefer_nonstop") and int(stops) else ""
            lines.append(("Stops", "nonstop only" if int(stops) == 0 else f"at most {int(stops)}{wished}"))
        elif fp.get("prefer_nonstop"):
            lines.append(("Stops", "nonstop preferred, connections shown too"))
        times = fp.get("time_of_day") if isinstance(fp.get("time_of_day"), dict) else {}
        lands = fp.get("arrival") if isinstance(fp.get("arrival"), dict) else {}
        when = []
        for leg in ("outbound", "return"):
            said = [time_wish_text(times[leg])] if is_time_wish(times.get(leg)) else []
            said += [arrival_text(lands[leg])] if is_arrival_wish(lands.get(leg)) else []
            when += [f"{leg} {', '.join(said)}"] if said else []
        if when:
            lines.append(("Times", "; ".join(when)))
        if fp.get("avoid_red_eye"):
            lines.append(("Red-eyes", "avoided"))
        if constraints.get("refundable_preference") in ("flight", "all"):
            lines.append(("Fares", "refundable only"))
    if lodging.get("needed") is not False:
        hotel = [f"{int(hp['min_stars'])}★ or better"] if hp.get("min_stars") else []
        hotel += ["refundable only"] if hp.get("refundable_only") else []
        hotel += [f"near {_near_words(hp['near'], lodging)}"] if hp.get("near") else []
        hotel += [board_words(hp["board"])] if hp.get("board") else []
        hotel += [beds_words(hp["beds"])] if hp.get("beds") else []
        if hotel:
            lines.append(("Hotel wishes", "; ".join(hotel)))
    return [{"label": label, "value": value} for label, value in lines if value]
