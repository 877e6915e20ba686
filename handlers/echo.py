"""Change echoes: every change a message made to the trip, said back in one line.

"Return moved to Thu Feb 9", "Hotel capped at $250.00 USD a night", "Now 6 adults": the
traveller sees what their words did, so nothing changes silently. The Patcher reports each
changed leaf with its value before and after (``changes``); this module words them. A value
filled in for the first time is not a change (the questions and the understood trip cover
those), unless options were already on screen.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Dict, List, Optional

from .common.beds import beds_words
from .common.board import board_words
from .common.clock import day_text
from .common.formats import stops_text
from .common.intent import WORK_STARS, new_trip_intent
from .common.shape import CABIN_WORDS, arrival_text, carrier_words, place_name, time_wish_text
from .patcher import value_at
from .wording import money

REFUNDABLE_WORDS = {"either": "either", "flight": "flights", "hotel": "the hotel", "all": "everything"}


NONSTOP_WISHED = "Nonstops first, connections shown too"


def _stops_line(max_stops: Any, flight: Dict[str, Any]) -> str:
    """The stops now searched: a nonstop wished without a limit is said as a wish, not as "any"."""
    if max_stops is None:
        return NONSTOP_WISHED if flight.get("prefer_nonstop") else "Any number of stops"
    return "Nonstop only" if max_stops == 0 else f"At most {stops_text(max_stops)}"


def _empty(value: Any) -> bool:
    return value in (None, "", [], {}, 0, False)


_BLANK = new_trip_intent("", datetime.fromtimestamp(0, UTC))


def _filled_in(change: Dict[str, Any]) -> bool:
    """A value said for the first time: it was empty, or still what every new trip starts with."""
    before = change.get("before")
    return _empty(before) or before == value_at(_BLANK, change["path"])


def _place(value: Any) -> str:
    return place_name(value) or "?"


def _party(t: Dict[str, Any]) -> str:
    words = {"adults": ("adult", "adults"), "children": ("child", "children"), "infants": ("lap infant", "lap infants")}
    parts = [f"{n} {words[k][n != 1]}" for k in words if (n := int(t.get(k) or 0))]
    return ", ".join(parts) or "nobody"


def _split(path: str) -> List[str]:
    return path.split(".")


def echo_lines(changes: List[Dict[str, Any]], after: Dict[str, Any], *, options_on_screen: bool) -> List[str]:
    """Phrases for the changes worth saying ("Return moved to Thu Feb 9"), in a stable order.

    ``changes`` = ``[{"path", "before", "after"}]`` from the Patcher; ``after`` is the trip now.
    """
    # what was filled in for the traveller (``status.assumptions``) is not something they changed
    if not options_on_screen and all(_filled_in(c) or str(c.get("path")).startswith("status.") for c in changes):
        return []
    currency = (after.get("constraints") or {}).get("currency") or "USD"
    itinerary = after.get("itinerary") or {}
    segments = [s for s in itinerary.get("segments") or [] if isinstance(s, dict)]
    round_trip = itinerary.get("trip_type") == "round_trip" and len(segments) == 2
    out: List[str] = []
    said = set()

    def add(key: str, text: Optional[str]) -> None:
        if text and key not in said and text not in out:  # the lodging's city and its stay's: said once
            said.add(key)
            out.append(text)

    flight_days = set()
    # flights first, so a stay that moved with its flight is said once, with the flight
    for change in sorted(changes, key=lambda c: (not str(c.get("path")).startswith("itinerary.segments"), c["path"])):
        parts, new, old = _split(change["path"]), change.get("after"), change.get("before")
        head = ".".join(parts[:2])
        if head == "itinerary.segments" and len(parts) == 2:
            if len(segments) == 1 and isinstance(old, list) and len(old) == 2:
                add("legs", "Now one way: no return flight")
            elif round_trip and isinstance(old, list) and len(old) == 1:
                add("legs", f"Return flight added on {day_text(segments[1].get('depart_date'))}")
                flight_days.add(segments[1].get("depart_date"))
            else:
                route = (
                    " → ".join([_place(segments[0].get("origin"))] + [_place(s.get("destination")) for s in segments])
                    if segments
                    else "none"
                )
                add("legs", f"Flights now {route}")
        elif head == "itinerary.segments" and len(parts) >= 4:
            n, field = int(parts[2]), parts[3]
            if field == "depart_date":
                which = "Return" if round_trip and n == 1 else "Departure" if n == 0 else f"Flight {n + 1}"
                add(f"date{n}", f"{which} moved to {day_text(new)}")
                flight_days.add(new)
            elif field in ("origin", "destination"):
                mirrored = round_trip and n == 1  # the return leg follows the outbound one
                if len(parts) > 4 and parts[4] != "code":
                    continue  # its name or kind changed with its code (said there), or alone: the same place
                if not mirrored:
                    verb = "Leaving from" if field == "origin" else "Going to"
                    place = segments[n].get(field) if n < len(segments) else None
                    if old and _place(new) == _place(old) and isinstance(place, dict):  # "ord" on a trip to Chicago
                        line = f"{'Leaving from' if field == 'origin' else 'Landing at'} {_place(place)} ({place.get('code')})"
                    else:
                        line = f"{verb} {_place(new)} instead of {_place(old)}" if old else f"{verb} {_place(new)}"
                    add(f"{field}{n}", line)
        elif change["path"] == "itinerary.flights_needed":
            add("flights", "No flights: hotel only" if new is False else "Flights added")
        elif change["path"] == "itinerary.lodging.needed":
            add("hotel", "Hotel dropped: flights only" if new is False else "Hotel added")
        elif change["path"].startswith("itinerary.lodging.city"):
            city = (itinerary.get("lodging") or {}).get("city")
            add("hotel_city", f"Hotel now in {_place(city)}" if city else "Hotel back at your destination")
        elif head == "itinerary.lodging" and len(parts) >= 3 and parts[2] == "stays":
            stays = (itinerary.get("lodging") or {}).get("stays") or []
            if len(parts) == 3:
                if not stays:
                    add("hotel", "Hotel dropped")
                else:
                    where = "; ".join(
                        f"{s.get('location_hint') or s.get('location_code')} {day_text(s.get('check_in'))} to {day_text(s.get('check_out'))}"
                        for s in stays
                    )
                    add("stays", f"Hotel: {where}")
            elif len(parts) >= 5 and parts[4] in ("check_in", "check_out") and new not in flight_days:
                what = "check-in" if parts[4] == "check_in" else "check-out"
                add(f"stay{parts[3]}{parts[4]}", f"Hotel {what} moved to {day_text(new)}")
            elif len(parts) >= 5 and parts[4] == "location_code":
                stay = stays[int(parts[3])] if int(parts[3]) < len(stays) else {}
                add(f"stay{parts[3]}place", f"Hotel now in {stay.get('location_hint') or new}")
        elif change["path"] == "itinerary.lodging.rooms":
            add("rooms", f"Now {new} room{'s' if new != 1 else ''}")
        elif head == "party.travelers":
            add("party", f"Now {_party((after.get('party') or {}).get('travelers') or {})}")
        elif head == "party.child_ages":
            ages = ", ".join(str(a) for a in (after.get("party") or {}).get("child_ages") or [])
            add("ages", f"Children's ages: {ages}" if ages else "Children's ages cleared")
        elif change["path"] == "preferences.flight.cabin":
            back = CABIN_WORDS.get(str(old or "economy"), str(old or "economy"))
            undo = (
                f" (say 'switch back to {back}' to undo)"
                if options_on_screen and new not in (None, "economy", old)
                else ""
            )
            add("cabin", f"Cabin now {CABIN_WORDS.get(str(new), str(new))}{undo}")
        elif change["path"] == "preferences.flight.max_stops":
            add("stops", _stops_line(new, (after.get("preferences") or {}).get("flight") or {}))
        elif change["path"] == "preferences.flight.prefer_nonstop":
            add("stops", NONSTOP_WISHED if new else "Nonstops no longer ranked first")
        elif change["path"].startswith("preferences.flight.airlines"):
            words = carrier_words((after.get("preferences") or {}).get("flight") or {})
            add("airlines", "Airlines: " + ("; ".join(words) or "any"))
        elif change["path"].startswith("preferences.flight.time_of_day"):
            leg = parts[-1] if parts[-1] in ("outbound", "return") else "outbound"
            label = "Outbound" if leg == "outbound" else "Return"
            add(f"tod{leg}", f"{label} {time_wish_text(new)}")
        elif change["path"].startswith("preferences.flight.arrival"):
            leg = parts[-1] if parts[-1] in ("outbound", "return") else "outbound"
            add(f"arr{leg}", f"{'Outbound' if leg == 'outbound' else 'Return'} {arrival_text(new)}")
        elif change["path"] == "preferences.flight.avoid_red_eye":
            add("red_eye", "No red-eyes" if new else "Red-eyes allowed")
        elif change["path"] == "preferences.hotel.min_stars":
            add("stars", f"Hotels of {new}★ or better" if new else "Hotels of any star rating")
        elif change["path"] == "preferences.hotel.refundable_only":
            add("hotel_refund", "Refundable hotels only" if new else "Any hotel rate, refundable or not")
        elif change["path"] == "preferences.hotel.board":
            add("board", f"Hotel with {board_words(new)}" if new else "Hotel with or without meals")
        elif change["path"] == "preferences.hotel.beds" and new:
            add("beds", f"Rooms with {beds_words(new)} first")
        elif change["path"] == "preferences.hotel.for_work" and new:
            add("for_work", f"A work trip: hotels of {WORK_STARS}★ or better first")
        elif change["path"] == "preferences.hotel.quality" and new:
            add("quality", f"Hotels of {new}★ or better first")
        elif change["path"] == "preferences.hotel.near":
            add("near", f"Hotel near {new}" if new else "Hotel anywhere in town")
        elif change["path"] == "constraints.hotel_max_per_night":
            add("cap", f"Hotel capped at {money(new, currency)} a night" if new else "No nightly hotel cap")
        elif change["path"] == "constraints.budget_total":
            add("budget", f"Budget {money(new, currency)} for the whole trip" if new else "No trip budget")
        elif change["path"] == "constraints.budget_per_person":
            add("budget_pp", f"Budget {money(new, currency)} per person" if new else "No per-person budget")
        elif change["path"] == "constraints.refundable_preference":
            undo = (
                " (say 'non-refundable is fine' to undo)" if options_on_screen and new not in (None, "either") else ""
            )
            add("refund", f"Refundable: {REFUNDABLE_WORDS.get(str(new), new)}{undo}")
    return out


def echo_line(changes: List[Dict[str, Any]], after: Dict[str, Any], *, options_on_screen: bool) -> Optional[str]:
    """The one line that says every change ("Return moved to Thu Feb 9; hotel capped at $250.00 USD a night.")."""
    lines = echo_lines(changes, after, options_on_screen=options_on_screen)
    if not lines:
        return None
    text = "; ".join([lines[0]] + [line[0].lower() + line[1:] for line in lines[1:]])
    return text + "."
