"""Requirements fields -> a TripIntent patch (what the Patcher merges).

A patch is a partial TripIntent: nested objects merge, lists replace. The segment and stay
lists are therefore always sent whole, rebuilt from the trip's current ones plus what the
message said, so ids stay stable (``seg_1``, ``st_1``) and a change to one leg moves its
return leg and the stay with it. ``status.assumptions`` carries what was filled in for the
traveller ("Assumed economy"), so the summary can show it and a later answer can replace it.
"""

from __future__ import annotations

import copy
import math
import re
from datetime import date, timedelta
from typing import Any, Dict, List, Optional, Tuple

from .party import ALONE_WORDS, UNACCOMPANIED

ASSUMED_ECONOMY = "Assumed economy"
ASSUMED_TWO_PER_ROOM = "Assumed 2 guests per room"
# A room sleeps at most four: a bigger family is given more rooms (said, so the traveller can change it)
MAX_GUESTS_PER_ROOM = 4
ASSUMED_ROOMS_FOR_PARTY = (
    "Assumed {rooms} rooms for {people} guests (a room sleeps at most 4); say how many rooms you want"
)


# Colleagues travelling together ("me and 2 coworkers") get a room each, as a company books them
ASSUMED_ROOM_EACH = "Assumed a room each for {adults} colleagues; say if you'll share a room"


def hotel_assumption(line: str) -> bool:
    """Whether an assumption line says which hotel was assumed ("Assumed a hotel in Denver for the stay")."""
    head, tail = HOTEL_ASSUMED.split("{}")
    return line.startswith(head) and line.endswith(tail)


def rooms_assumption(line: str) -> bool:
    """Whether an assumption line is one about how many rooms the party needs."""
    return (
        line == ASSUMED_TWO_PER_ROOM
        or (line.startswith("Assumed ") and "(a room sleeps at most 4)" in line)
        or (line.startswith("Assumed a room each for ") and line.endswith("colleagues; say if you'll share a room"))
    )


HOTEL_ASSUMED = "Assumed a hotel in {} for the stay"
ASSUMED_HOTEL_ONLY = "Assumed only a hotel, no flights (say if you need flights too)"
# "Taking next Friday as Fri Dec 4", "Taking mid March as Mon Mar 15": how a date was read, dropped
# whenever dates are said again (the new message's readings are said instead)
DATE_READING = "Taking "


def fields_to_patch(
    fields: Dict[str, Any], trip_intent: Optional[Dict[str, Any]] = None, today: Optional[date] = None
) -> Dict[str, Any]:
    """The patch for ``fields`` against the trip as it stands; dates before ``today`` are never written."""
    fields = _not_before(fields, today)
    cur = trip_intent if isinstance(trip_intent, dict) else {}
    itinerary = cur.get("itinerary") or {}
    lodging = itinerary.get("lodging") or {}
    patch: Dict[str, Any] = {}
    assumptions = [a for a in ((cur.get("status") or {}).get("assumptions") or []) if isinstance(a, str)]

    travelers = _party(fields, cur, patch)
    _preferences(fields, patch, cur)
    _beds_for_friends(fields, patch, cur, travelers)
    if fields.get("flights_needed") is not None and fields["flights_needed"] != itinerary.get("flights_needed", True):
        patch.setdefault("itinerary", {})["flights_needed"] = fields["flights_needed"]
    if fields.get("flights_needed"):
        assumptions = [a for a in assumptions if a != ASSUMED_HOTEL_ONLY]
    if _dates_said(fields):
        assumptions = [a for a in assumptions if not a.startswith(DATE_READING)]

    segments, trip_type = _segments(fields, itinerary)
    if segments is not None:
        patch.setdefault("itinerary", {})["segments"] = segments
    if trip_type:
        patch.setdefault("itinerary", {})["trip_type"] = trip_type
    segments = segments if segments is not None else list(itinerary.get("segments") or [])
    trip_type = trip_type or itinerary.get("trip_type")

    # more than one room that was not assumed: the traveller said so, and a party size leaves it be
    rooms_told = int(lodging.get("rooms") or 1) > 1 and not any(rooms_assumption(a) for a in assumptions)
    new_lodging, derived, rooms_assumed = _lodging(
        fields, lodging, travelers, segments, trip_type, itinerary.get("segments") or [], rooms_told
    )
    if new_lodging is not None:
        patch.setdefault("itinerary", {})["lodging"] = new_lodging
        assumptions = [a for a in assumptions if not _hotel_gone(a, new_lodging)]
    for place in derived:
        _add(assumptions, HOTEL_ASSUMED.format(place))

    flight_prefs = (cur.get("preferences") or {}).get("flight") or {}
    if fields.get("cabin"):
        assumptions = [a for a in assumptions if a != ASSUMED_ECONOMY]
    elif segments and not itinerary.get("segments") and flight_prefs.get("cabin") in (None, "economy"):
        _add(assumptions, ASSUMED_ECONOMY)  # said once, when the trip first has flights
    if fields.get("rooms") or fields.get("separate_rooms") or rooms_assumed:
        assumptions = [a for a in assumptions if not rooms_assumption(a)]
    if rooms_assumed and not (fields.get("rooms") or fields.get("separate_rooms")):
        _add(assumptions, rooms_assumed)
    if travelers.get("adults"):
        assumptions = [a for a in assumptions if a != UNACCOMPANIED]  # a grown-up goes after all
    if fields.get("adults") and fields["adults"] != int(
        (cur.get("party") or {}).get("travelers", {}).get("adults") or 0
    ):
        assumptions = [a for a in assumptions if ALONE_WORDS not in a]  # someone flies with the teenager now
    used = _codes_held(segments, new_lodging if new_lodging is not None else lodging)
    assumptions = [a for a in assumptions if not _guess_dropped(a, used)]
    if assumptions != ((cur.get("status") or {}).get("assumptions") or []):
        patch["status"] = {"assumptions": assumptions}
    return patch


# "Assumed Portland, Oregon (PDX) for Portland; say if you meant Portland, Maine (PWM)": the code guessed
_GUESSED = re.compile(r"^Assumed [^;]*\((?P<code>[A-Z]{3})\) for [^;]*; say if you meant ")


def _codes_held(segments: List[Any], lodging: Dict[str, Any]) -> set:
    codes = set()
    for seg in segments:
        for end in ("origin", "destination"):
            place = seg.get(end) if isinstance(seg, dict) else None
            if isinstance(place, dict) and place.get("code"):
                codes.add(place["code"])
    for stay in (lodging or {}).get("stays") or []:
        if isinstance(stay, dict):
            codes.add(stay.get("location_code") or (stay.get("location") or {}).get("code"))
    return codes


def _guess_dropped(assumption: str, used: set) -> bool:
    """A guess between towns of one name ("Assumed Portland, Oregon (PDX) ...") for a place the trip no
    longer holds: the traveller said which they meant."""
    m = _GUESSED.match(assumption)
    return bool(m) and bool(used) and m.group("code") not in used


def _hotel_gone(assumption: str, lodging: Dict[str, Any]) -> bool:
    """An "Assumed a hotel in San Francisco" line for a stay the trip no longer has (the hotel was
    dropped, or the trip now goes to Chicago): not said again under the new trip."""
    if not hotel_assumption(assumption):
        return False
    head, tail = HOTEL_ASSUMED.split("{}")
    place = assumption[len(head) : len(assumption) - len(tail)]
    stays = lodging.get("stays") or [] if lodging.get("needed") else []
    return place not in {s.get(k) for s in stays if isinstance(s, dict) for k in ("location_hint", "location_code")}


def _dates_said(fields: Dict[str, Any]) -> bool:
    return bool(
        fields.get("depart_date")
        or fields.get("return_date")
        or any(s.get("check_in") or s.get("check_out") for s in fields.get("stays") or [] if isinstance(s, dict))
        or any(isinstance(leg, dict) and leg.get("depart_date") for leg in fields.get("legs") or [])
    )


def _lodging(
    fields: Dict[str, Any],
    lodging: Dict[str, Any],
    travelers: Dict[str, int],
    segments: List[Dict[str, Any]],
    trip_type: Optional[str],
    old_segments: List[Dict[str, Any]],
    rooms_told: bool = False,
) -> Tuple[Optional[Dict[str, Any]], List[str], str]:
    """(the new lodging or None when unchanged, places of stays assumed, what was assumed of the rooms)."""
    rooms, per_room, rooms_assumed = _rooms(fields, lodging, travelers, rooms_told)
    needed = fields.get("hotel_needed")
    if needed is None:
        needed = lodging.get("needed", True)
    stays = _stays(fields, lodging, segments, trip_type, needed, old_segments)
    party_said = any(fields.get(k) is not None for k in ("adults", "children", "rooms"))
    # a one-way flight with no stay said needs no hotel (the new trip's default said it did)
    one_way_default = (
        trip_type == "one_way" and bool(segments) and lodging.get("needed", True) and not lodging.get("stays")
    )
    if stays is None and not party_said and fields.get("hotel_needed") is None and not one_way_default:
        return None, [], rooms_assumed
    stays = stays if stays is not None else copy.deepcopy(list(lodging.get("stays") or []))
    derived = [s.get("location_hint") or s.get("location_code") for s in stays if s.pop("_derived", False)]
    derived = [place for place in derived if place]  # a stay with no place yet is assumed once it has one
    for stay in stays:
        stay["rooms"], stay["guests_per_room"] = rooms, per_room
    first = stays[0] if stays else {}
    destination = ((segments[0] if segments else {}).get("destination")) or {}
    city = first.get("location_code") if first.get("location_code") != destination.get("code") else None
    new = {
        "needed": bool(needed) and (bool(stays) or not segments or trip_type != "one_way"),
        "city": city,
        "rooms": rooms,
        "guests_per_room": per_room,
        "check_in": first.get("check_in"),
        "check_out": first.get("check_out"),
        "location_hint": first.get("location_hint"),
        "stays": stays,
    }
    if all(lodging.get(k) == v for k, v in new.items()):
        return None, [], rooms_assumed
    return new, derived, rooms_assumed


def _copied(value: Any) -> Any:
    """A deep copy of JSON-shaped data (dicts, lists, scalars), several times cheaper than ``copy.deepcopy``."""
    if isinstance(value, dict):
        return {key: _copied(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copied(item) for item in value]
    return copy.deepcopy(value) if isinstance(value, (set, tuple)) else value


def _not_before(fields: Dict[str, Any], today: Optional[date]) -> Dict[str, Any]:
    """A copy of ``fields`` without dates in the past (a model may return one; the offline reader never does)."""
    fields = _copied(fields)
    if today is None:
        return fields
    floor = today.isoformat()

    def keep(value: Any) -> Any:
        return value if isinstance(value, str) and value >= floor else None

    for key in ("depart_date", "return_date"):
        fields[key] = keep(fields.get(key))
    for leg in fields.get("legs") or []:
        leg["depart_date"] = keep(leg.get("depart_date"))
    for stay in fields.get("stays") or []:
        stay["check_in"], stay["check_out"] = keep(stay.get("check_in")), keep(stay.get("check_out"))
    return fields


def _add(items: List[str], text: str) -> None:
    if text not in items:
        items.append(text)


def _party(fields: Dict[str, Any], cur: Dict[str, Any], patch: Dict[str, Any]) -> Dict[str, int]:
    party = cur.get("party") or {}
    travelers = dict(party.get("travelers") or {"adults": 0, "children": 0, "infants": 0})
    said = {k: fields[k] for k in ("adults", "children", "infants") if fields.get(k) is not None}
    if said:
        travelers.update(said)
        patch.setdefault("party", {})["travelers"] = travelers
    if fields.get("child_ages"):
        patch.setdefault("party", {})["child_ages"] = list(fields["child_ages"])
    elif said.get("children") == 0 and party.get("child_ages"):
        patch.setdefault("party", {})["child_ages"] = []  # the children stay home: their ages go too
    return travelers


def _preferences(fields: Dict[str, Any], patch: Dict[str, Any], cur: Dict[str, Any]) -> None:
    flight = {k: fields[k] for k in ("max_stops", "avoid_red_eye") if fields.get(k) is not None}
    if fields.get("cabin"):
        flight["cabin"] = fields["cabin"]
    current_flight = ((cur.get("preferences") or {}).get("flight")) or {}
    if fields.get("prefer_nonstop"):  # "ideally nonstop": ranked first, connections still shown
        flight["prefer_nonstop"] = True
        if fields.get("max_stops") is None and current_flight.get("max_stops") == 0:
            flight["max_stops"] = None  # after "nonstop only": a wish now, no longer a filter
    _carriers(fields, current_flight, flight)
    times = {k: fields[f] for k, f in (("outbound", "time_out"), ("return", "time_return")) if fields.get(f)}
    if times:
        flight["time_of_day"] = times
    lands = {k: fields[f] for k, f in (("outbound", "arrive_out"), ("return", "arrive_return")) if fields.get(f)}
    if lands:
        flight["arrival"] = lands
    hotel: Dict[str, Any] = {}
    if fields.get("hotel_min_stars"):
        hotel["min_stars"] = fields["hotel_min_stars"]
    if fields.get("hotel_near"):
        hotel["near"] = fields["hotel_near"]
    if fields.get("hotel_board"):
        hotel["board"] = fields["hotel_board"]  # "with free breakfast": the least the rate includes
    if fields.get("hotel_beds"):
        hotel["beds"] = fields["hotel_beds"]  # "2 queens": rooms with them ranked first (no search filters beds)
    if fields.get("for_work"):
        hotel["for_work"] = True  # "business trip": no hostel ranked first (no search filters it)
    if fields.get("hotel_quality"):
        hotel["quality"] = fields["hotel_quality"]  # "a nice hotel": 3★ or more ranked first (no search filters it)
    constraints: Dict[str, Any] = {}
    if fields.get("refundable"):
        constraints["refundable_preference"] = fields["refundable"]
        if fields["refundable"] in ("hotel", "all"):
            hotel["refundable_only"] = True
    for key in ("budget_total", "budget_per_person", "hotel_max_per_night"):
        if fields.get(key) is not None:
            constraints[key] = f"{float(fields[key]):.2f}"
    if fields.get("currency"):
        constraints["currency"] = fields["currency"]
    _relaxed(fields.get("relax") or [], flight, hotel, constraints)
    for key, value in (("flight", flight), ("hotel", hotel)):
        if value:
            patch.setdefault("preferences", {})[key] = value
    if constraints:
        patch["constraints"] = constraints


def _beds_for_friends(
    fields: Dict[str, Any], patch: Dict[str, Any], cur: Dict[str, Any], travelers: Dict[str, int]
) -> None:
    """Friends two to a room ("6 guys", "me and 3 buddies") get rooms with 2 beds
    first, unless beds were said, now or before ("a king is fine" replaces it): the summary says so."""
    if not fields.get("friends_sharing") or fields.get("hotel_beds") or int(travelers.get("children") or 0):
        return
    if int(travelers.get("adults") or 0) < 2 or ((cur.get("preferences") or {}).get("hotel") or {}).get("beds"):
        return
    patch.setdefault("preferences", {}).setdefault("hotel", {})["beds"] = "2 beds"


def _relaxed(names: List[str], flight: Dict[str, Any], hotel: Dict[str, Any], constraints: Dict[str, Any]) -> None:
    """Filters the traveller let go of ("stops are fine", "any airline") back to their defaults,
    unless the same message sets them anew ("one stop is fine")."""
    resets = {
        "max_stops": (flight, {"max_stops": None, "prefer_nonstop": False}),
        "airlines": (flight, {"airlines_required": [], "airlines_avoid": []}),
        "red_eye": (flight, {"avoid_red_eye": False}),
        "time_window": (
            flight,
            {"time_of_day": {"outbound": None, "return": None}, "arrival": {"outbound": None, "return": None}},
        ),
        "min_stars": (hotel, {"min_stars": None, "quality": None}),
        "board": (hotel, {"board": None}),
        "refundable": (hotel, {"refundable_only": False}),
        "max_nightly": (constraints, {"hotel_max_per_night": None}),
        "budget": (constraints, {"budget_total": None, "budget_per_person": None}),
    }
    for name in names:
        target, values = resets.get(name, ({}, {}))
        for key, value in values.items():
            target.setdefault(key, value)
    if "refundable" in names:
        constraints.setdefault("refundable_preference", "either")


def _carriers(fields: Dict[str, Any], current: Dict[str, Any], flight: Dict[str, Any]) -> None:
    """Preferred, required and avoided airlines; naming one in a list takes it out of the others
    ("no United" after "prefer United" leaves United only avoided)."""
    keys = ("airlines", "airlines_required", "airlines_avoid")
    said = {k: list(fields[k]) for k in keys if fields.get(k) is not None}
    if not said:
        return
    for key in keys:
        codes = said.get(key, [c for c in current.get(key) or [] if isinstance(c, str)])
        others = {c for k, v in said.items() if k != key for c in v}
        kept = [c for c in codes if c not in others]
        if key in said or kept != list(current.get(key) or []):
            flight[key] = kept


def _segment(
    n: int, origin: Any, destination: Any, depart_date: Optional[str], base: Optional[Dict[str, Any]] = None
) -> Dict[str, Any]:
    seg = copy.deepcopy(base) if base else {}
    seg.update(
        segment_id=f"seg_{n}", origin=origin, destination=destination, depart_date=depart_date, transport_mode="flight"
    )
    return seg


def _plus(day: Optional[str], nights: Optional[int]) -> Optional[str]:
    if not day or not nights:
        return None
    return (date.fromisoformat(day) + timedelta(days=nights)).isoformat()


def _segments(
    fields: Dict[str, Any], itinerary: Dict[str, Any]
) -> Tuple[Optional[List[Dict[str, Any]]], Optional[str]]:
    """(segments or None when unchanged, trip_type or None when unchanged)."""
    current = [s for s in (itinerary.get("segments") or []) if isinstance(s, dict)]
    if fields.get("legs"):
        legs = fields["legs"]
        segs = [
            _segment(
                i + 1,
                leg.get("origin"),
                leg.get("destination"),
                leg.get("depart_date"),
                current[i] if i < len(current) else None,
            )
            for i, leg in enumerate(legs)
        ]
        return segs, "multi_city"
    keys = ("origin", "destination", "depart_date", "return_date", "one_way")
    if all(fields.get(k) is None for k in keys) and not (fields.get("nights") and current):
        return None, None  # a length of stay alone is about the hotel until there are flights
    out = current[0] if current else {}
    origin = fields.get("origin") or out.get("origin")
    destination = fields.get("destination") or out.get("destination") or _stay_place(itinerary)
    stay_in, stay_out = _stay_days(itinerary, fields)
    depart = fields.get("depart_date") or out.get("depart_date") or stay_in
    trip_type = itinerary.get("trip_type")
    back = current[1] if len(current) == 2 and trip_type == "round_trip" else None
    if stay_out and not fields.get("return_date") and fields.get("one_way") is not True and depart == stay_in:
        fields = {**fields, "return_date": stay_out}  # flights added to a hotel: there and back with the stay
    if fields.get("one_way") is True:
        return [_segment(1, origin, destination, depart, out)], "one_way"
    return_date = fields.get("return_date") or _plus(depart, fields.get("nights")) or _kept_length(out, back, depart)
    wants_return = (
        back is not None
        or fields.get("return_date")
        or fields.get("one_way") is False
        or (fields.get("nights") and trip_type != "one_way")
    )
    segs = [_segment(1, origin, destination, depart, out)]
    if not wants_return:
        return segs, trip_type
    segs.append(_segment(2, destination, origin, return_date, back))
    return segs, "round_trip"


def _kept_length(out: Dict[str, Any], back: Optional[Dict[str, Any]], depart: Optional[str]) -> Optional[str]:
    """The return as it was; but a departure moved past it ("make it late January", "no, the 16th"
    on a Jan 12-15 trip) takes the return along, the trip as long as before, not ending before it starts."""
    was_out, was_back = out.get("depart_date"), (back or {}).get("depart_date")
    if not (was_out and was_back and depart and depart >= was_back):
        return was_back
    try:
        length = date.fromisoformat(was_back) - date.fromisoformat(was_out)
        return (date.fromisoformat(depart) + length).isoformat()
    except ValueError:
        return was_back


def _stay_days(itinerary: Dict[str, Any], fields: Dict[str, Any]) -> Tuple[Optional[str], Optional[str]]:
    """A flight added to a trip that so far is a hotel flies on the stay's first and last days
    (unless the message gives its own dates)."""
    stays = ((itinerary.get("lodging") or {}).get("stays")) or []
    first = stays[0] if stays and isinstance(stays[0], dict) else {}
    if itinerary.get("segments") or fields.get("depart_date") or fields.get("nights"):
        return None, None
    return first.get("check_in"), first.get("check_out")


def _stay_place(itinerary: Dict[str, Any]) -> Optional[Dict[str, str]]:
    """A flight added to a trip that so far is a hotel goes where the hotel is."""
    stays = ((itinerary.get("lodging") or {}).get("stays")) or []
    first = stays[0] if stays and isinstance(stays[0], dict) else {}
    if itinerary.get("segments") or not first.get("location_code"):
        return None
    return {
        "type": "city",
        "code": first["location_code"],
        "name": first.get("location_hint") or first["location_code"],
    }


def _rooms(
    fields: Dict[str, Any], lodging: Dict[str, Any], travelers: Dict[str, int], told: bool = False
) -> Tuple[int, int, str]:
    """(rooms, guests per room, what was assumed about the rooms or ""): two adults to a room unless
    told (or two big beds are wished for up to four), and no more than four guests to a room (a family
    of five needs two)."""
    people = int(travelers.get("adults") or 0) + int(travelers.get("children") or 0)
    rooms = fields.get("rooms")
    assumed = ""
    if fields.get("separate_rooms") and not rooms:
        rooms = max(1, int(travelers.get("adults") or 0))  # one room per adult
    elif fields.get("colleagues") and not rooms and not told and int(travelers.get("adults") or 0) >= 2:
        rooms = int(travelers["adults"])  # "me and 2 coworkers": a room each, said
        assumed = ASSUMED_ROOM_EACH.format(adults=rooms)
    # "4 of us, need 2 queens": two big beds sleep the party in one room
    shared = fields.get("hotel_beds") in ("2 queen", "2 double", "2 king") and 2 < people <= MAX_GUESTS_PER_ROOM
    if not rooms:
        rooms = lodging.get("rooms") or 1
        if fields.get("adults") is not None and travelers.get("adults") and not told and not shared:
            rooms = max(1, math.ceil(int(travelers["adults"]) / 2))
            assumed = ASSUMED_TWO_PER_ROOM if rooms > 1 else ""
        if people > rooms * MAX_GUESTS_PER_ROOM and not told:
            rooms = math.ceil(people / MAX_GUESTS_PER_ROOM)
            assumed = ASSUMED_ROOMS_FOR_PARTY.format(rooms=rooms, people=people)
    per_room = max(1, math.ceil(people / rooms)) if people else int(lodging.get("guests_per_room") or 2)
    return int(rooms), per_room, assumed


def _stay(
    n: int,
    place: Optional[Dict[str, Any]],
    check_in: Optional[str],
    check_out: Optional[str],
    base: Optional[Dict[str, Any]] = None,
) -> Dict[str, Any]:
    stay = copy.deepcopy(base) if base else {}
    stay["stay_id"] = stay.get("stay_id") or f"st_{n}"
    if place:
        stay["location_code"] = place.get("code")
        stay["location_hint"] = place.get("name")
    stay.setdefault("location_code", None)
    stay.setdefault("location_hint", None)
    stay["check_in"] = check_in
    stay["check_out"] = check_out
    return stay


def _stays(
    fields: Dict[str, Any],
    lodging: Dict[str, Any],
    segments: List[Dict[str, Any]],
    trip_type: Optional[str],
    needed: bool,
    old_segments: List[Dict[str, Any]],
) -> Optional[List[Dict[str, Any]]]:
    """The new stays list, or None when the message changes nothing about stays.

    Stays derived from the flights (not named by the traveller) carry ``_derived`` so the
    caller can list them as assumptions; it is removed before the patch is returned."""
    current = [s for s in (lodging.get("stays") or []) if isinstance(s, dict)]
    said = fields.get("stays") or []
    if fields.get("hotel_needed") is False:
        return []
    if not needed:
        return None
    if len(said) > 1 and all(s.get("location") and s.get("check_in") and s.get("check_out") for s in said):
        # "3 nights lisbon then 2 in porto": each stay as said, whatever the flights
        return [
            _stay(i + 1, s["location"], s["check_in"], s["check_out"], current[i] if i < len(current) else None)
            for i, s in enumerate(said)
        ]
    if trip_type == "multi_city" and (fields.get("legs") or said):
        wanted = {((s.get("location") or {}).get("code")) for s in said if s.get("location")}
        out = []
        for seg, nxt in zip(segments, segments[1:], strict=False):
            dest = seg.get("destination") or {}
            if wanted and dest.get("code") not in wanted:
                continue
            base = current[len(out)] if len(out) < len(current) else None
            stay = _stay(len(out) + 1, dest, seg.get("depart_date"), nxt.get("depart_date"), base)
            stay["_derived"] = not wanted
            out.append(stay)
        return out
    if segments and trip_type == "round_trip":
        place = (said[0].get("location") if said else None) or segments[0].get("destination")
        base = current[0] if current else None
        # the stay follows the flights, unless the traveller dated it themselves
        old_in = old_segments[0].get("depart_date") if old_segments else None
        old_out = old_segments[1].get("depart_date") if len(old_segments) > 1 else None
        kept_in = (base or {}).get("check_in") if (base or {}).get("check_in") not in (None, old_in) else None
        kept_out = (base or {}).get("check_out") if (base or {}).get("check_out") not in (None, old_out) else None
        check_in = (said[0].get("check_in") if said else None) or kept_in or segments[0].get("depart_date")
        check_out = (said[0].get("check_out") if said else None) or kept_out or segments[1].get("depart_date")
        stay = _stay(1, place, check_in, check_out, base)
        # a hotel the traveller put elsewhere than the destination stays there while the dates move
        if (
            base
            and not said
            and base.get("location_code")
            and base.get("location_code") != (place or {}).get("code")
            and not fields.get("destination")
        ):
            stay["location_code"], stay["location_hint"] = base["location_code"], base.get("location_hint")
        # assumed when first placed: with the flights, or once the destination asked for is answered
        stay["_derived"] = not said and not (base or {}).get("location_code")
        return [stay] + current[1:]
    if said or fields.get("nights"):
        return _merge_stays(fields, current, segments)
    return None


def _merge_stays(
    fields: Dict[str, Any], current: List[Dict[str, Any]], segments: List[Dict[str, Any]]
) -> List[Dict[str, Any]]:
    """Stays the traveller named or dated ("hotel in London", "check in the 2nd for 3 nights")."""
    said = fields.get("stays") or [{"location": None, "check_in": None, "check_out": None}]
    nights = fields.get("nights")
    out = [copy.deepcopy(s) for s in current]
    for i, s in enumerate(said):
        base = out[i] if i < len(out) else None
        place = s.get("location")
        if place is None and base is None and segments:
            place = segments[0].get("destination")
        check_in = s.get("check_in") or (base or {}).get("check_in")
        if check_in is None and segments and not base:
            check_in = segments[0].get("depart_date")
        check_out = s.get("check_out") or (base or {}).get("check_out")
        stay_nights = nights if i == 0 and nights else (base or {}).get("nights")
        if stay_nights and check_in and (nights or not check_out):
            check_out = _plus(check_in, stay_nights)
        stay = _stay(i + 1, place, check_in, check_out, base)
        if stay_nights:
            stay["nights"] = stay_nights
        if i < len(out):
            out[i] = stay
        else:
            out.append(stay)
    return out


# What a change may put back: the trip's requirements, never its status or caches.
REVERTIBLE = ("party", "itinerary", "preferences", "constraints")
ELIDED = "…"  # a value the Patcher did not keep (too large to echo): that change cannot be put back


def revert_patch(current: Dict[str, Any], changes: List[Dict[str, Any]]) -> Optional[Dict[str, Any]]:
    """The patch that puts each changed path back to its value before (``{"path", "before"}`` as the
    Patcher describes a change), on ``current``; None when one cannot be put back (its old value was
    not kept). A path through a list ("itinerary.segments.0.depart_date") puts back the whole list,
    as the patch replaces lists."""
    patch: Dict[str, Any] = {}
    for change in changes:
        path, before = str(change.get("path") or ""), change.get("before")
        parts = path.split(".")
        if parts[0] not in REVERTIBLE:
            continue
        if before == ELIDED:
            return None
        # up to the first list: the patch sets the list with the one item put back
        cut = next((i for i, p in enumerate(parts) if p.isdigit()), len(parts))
        node, target = patch, current
        for part in parts[: cut - 1]:
            target = target.get(part) if isinstance(target, dict) else None
            node = node.setdefault(part, {})
        key = parts[cut - 1]
        if cut == len(parts):
            node[key] = copy.deepcopy(before)
            continue
        items = node.get(key)
        if items is None:
            items = copy.deepcopy((target or {}).get(key) if isinstance(target, dict) else None)
        if not isinstance(items, list):
            return None
        node[key] = items
        holder: Any = items
        for part in parts[cut:-1]:
            holder = (
                holder[int(part)]
                if part.isdigit() and isinstance(holder, list) and int(part) < len(holder)
                else (holder.setdefault(part, {}) if isinstance(holder, dict) else None)
            )
            if holder is None:
                return None
        last = parts[-1]
        if isinstance(holder, list) and last.isdigit() and int(last) < len(holder):
            holder[int(last)] = copy.deepcopy(before)
        elif isinstance(holder, dict):
            holder[last] = copy.deepcopy(before)
        else:
            return None
    return patch
