"""Building the Reducer's tool calls from a TripIntent: searches, the ranker and holds, each with a stable call id.

A call whose arguments match the last failed call is recognised (``failed_before``) so it is not
repeated until the traveller says "try again".
"""

from __future__ import annotations

import copy
from typing import Any, Dict, List, Optional

from .common.shape import SUPERLATIVES, carrier_rules, leg_time_of_day, nightly_cap, time_window
from .quotes import bundle_summaries, with_bundle_summaries
from .tools import args_hash
from .trip_read import bundle_items, current_quotes, missing_slots, segments_of, stays_of, travellers

SEARCH_TOOLS = ("flight_quote_search", "hotel_quote_search", "trip_option_ranker")


def tool_call(name: str, arguments: Dict[str, Any]) -> Dict[str, Any]:
    return {"name": name, "arguments": arguments, "call_id": f"{name}:{args_hash(arguments)}"}


def flight_args(doc: Dict[str, Any], seg: Dict[str, Any]) -> Dict[str, Any]:
    """One segment's search: the party with the children's ages, and every flight preference that filters.

    Keys a trip does not use are left out, so a trip that never said them searches exactly as before.
    """
    pref = (doc.get("preferences") or {}).get("flight") or {}
    carriers = carrier_rules(pref)
    passengers: Dict[str, Any] = dict(travellers(doc))
    ages = [a for a in (doc.get("party") or {}).get("child_ages") or [] if isinstance(a, int)]
    if ages and passengers["children"]:
        passengers["child_ages"] = ages[: passengers["children"]]
    args = {
        "segment_id": seg["segment_id"],
        "origin": seg["origin"],
        "destination": seg["destination"],
        "depart_date": seg["depart_date"],
        "passengers": passengers,
        "cabin": pref.get("cabin") or "economy",
        "max_stops": pref.get("max_stops"),
        "airlines": carriers["preferred"],
    }
    if carriers["required"]:
        args["airlines_required"] = carriers["required"]
    if carriers["avoid"]:
        args["airlines_avoid"] = carriers["avoid"]
    if pref.get("avoid_red_eye"):
        args["avoid_red_eye"] = True
    segs = segments_of(doc)
    index = next((i for i, s in enumerate(segs) if s["segment_id"] == seg["segment_id"]), 0)
    round_trip = (doc.get("itinerary") or {}).get("trip_type") == "round_trip"
    wish = leg_time_of_day(pref, index, len(segs), round_trip)
    window = seg.get("depart_time_window") or time_window(wish)
    if window:
        args["depart_time_window"] = window
    elif wish in SUPERLATIVES:
        args["depart_pick"] = wish  # "the earliest flight out": the first departures of those found
    arrival = time_window(leg_time_of_day(pref, index, len(segs), round_trip, key="arrival"))
    if arrival:
        args["arrive_time_window"] = arrival
    return args


def hotel_args(doc: Dict[str, Any], stay: Dict[str, Any]) -> Dict[str, Any]:
    pref = (doc.get("preferences") or {}).get("hotel") or {}
    refundable = (doc.get("constraints") or {}).get("refundable_preference") in ("hotel", "all")
    return {
        **{
            k: stay[k]
            for k in ("stay_id", "location_code", "location_hint", "check_in", "check_out", "rooms", "guests_per_room")
        },
        "min_stars": pref.get("min_stars"),
        "refundable_only": bool(pref.get("refundable_only") or refundable),
        "near": pref.get("near"),
        **({"board": pref["board"]} if pref.get("board") else {}),
        **({"max_nightly": f"{cap:.2f}"} if (cap := nightly_cap(doc.get("constraints") or {})) is not None else {}),
    }


def ranker_args(doc: Dict[str, Any]) -> Dict[str, Any]:
    flights, hotels = current_quotes(doc)
    # A trimmed quote's offers come back whole from the quote store (``with_stored_offers``); should
    # it not know them, the ranker still gets the kept ones with their summaries.
    summaries = bundle_summaries(doc["working_memory"])
    return {
        "flight_quotes": with_bundle_summaries("flight_quotes", flights, summaries),
        "hotel_quotes": with_bundle_summaries("hotel_quotes", hotels, summaries),
        "preferences": copy.deepcopy(doc.get("preferences") or {}),
        "constraints": copy.deepcopy(doc.get("constraints") or {}),
        "party": {"travelers": travellers(doc)},
        "top_k": 5,
    }


def ranking_key(doc: Dict[str, Any]) -> str:
    """What a ranking was computed from: each quote by its search and time, plus preferences and
    constraints. Cheap to compare, unlike hashing every offer."""
    flights, hotels = current_quotes(doc)
    fingerprint = lambda quotes, key: [(q.get(key), q.get("args_hash"), q.get("searched_at")) for q in quotes]  # noqa: E731
    return args_hash(
        {
            "flights": fingerprint(flights, "segment_id"),
            "hotels": fingerprint(hotels, "stay_id"),
            "preferences": doc.get("preferences"),
            "constraints": doc.get("constraints"),
        }
    )


def hold_args(
    doc: Dict[str, Any], bundle: Dict[str, Any], items: Optional[List[Dict[str, Any]]] = None
) -> Dict[str, Any]:
    """Arguments to hold ``items`` (default: the whole bundle) under a key stable for that set.

    ``travelers``: the party the hold is for, so the tool can refuse to hold before everyone is
    named (counts and ages only: the core never sees a name)."""
    items = bundle_items(bundle) if items is None else items
    key = args_hash({"trip": doc.get("trip_id"), "bundle": bundle.get("bundle_id"), "items": items})
    return {
        "trip_id": doc.get("trip_id"),
        "bundle_id": bundle.get("bundle_id"),
        "items": items,
        "idempotency_key": f"hold_{key}",
        "travelers": {**travellers(doc), "child_ages": list((doc.get("party") or {}).get("child_ages") or [])},
    }


def failed_before(doc: Dict[str, Any], call: Dict[str, Any]) -> bool:
    err = doc["working_memory"].get("last_error") or {}
    failed = err.get("call") or {}
    return failed.get("name") == call["name"] and args_hash(failed.get("arguments") or {}) == args_hash(
        call["arguments"]
    )


def pending_searches(doc: Dict[str, Any]) -> List[Dict[str, Any]]:
    """A search for each segment and stay whose stored quotes do not match today's arguments; a stay
    that follows a flight searched now waits for it (its check-in is the day that flight lands:
    ``trip_read.stays_of``)."""
    wm = doc["working_memory"]
    flights = {q.get("segment_id"): q.get("args_hash") for q in wm["flight_quotes"]}
    hotels = {q.get("stay_id"): q.get("args_hash") for q in wm["hotel_quotes"]}
    calls = [tool_call("flight_quote_search", flight_args(doc, s)) for s in segments_of(doc)]
    calls = [c for c in calls if flights.get(c["arguments"]["segment_id"]) != args_hash(c["arguments"])]
    searched = {c["arguments"]["segment_id"] for c in calls}
    hotel_calls = [
        tool_call("hotel_quote_search", hotel_args(doc, s)) for s in stays_of(doc) if s.get("after") not in searched
    ]
    return calls + [c for c in hotel_calls if hotels.get(c["arguments"]["stay_id"]) != args_hash(c["arguments"])]


def work_pending(doc: Dict[str, Any]) -> bool:
    """Nothing is missing, yet a search or the ranking is not current (e.g. a turn hit its limit)."""
    if missing_slots(doc):
        return False
    ranking = (doc["working_memory"].get("ranking") or {}).get("key")
    return bool(pending_searches(doc)) or ranking != ranking_key(doc)
