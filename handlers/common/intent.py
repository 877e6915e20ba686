"""The TripIntent document: its empty shape and small accessors (SPEC §C, DESIGN.md "TripIntent")."""

from __future__ import annotations

import copy
from datetime import datetime
from typing import Any, Dict, Optional

from .defaults import DEFAULT_POLICY

SCHEMA = "renglo.trip_intent.v1"

# status.phase values, in the order a trip moves through them.
PHASES = (
    "intake",  # gathering requirements
    "quoting",  # searches running
    "presenting",  # bundles on screen
    "selected",  # a bundle picked and risk-checked
    "awaiting_hold_approval",  # org policy needs an approver before holds
    "held",  # holds placed, approval requested
    "approved",  # approver granted; traveller may buy
    "purchased",  # booking confirmed
    "needs_attention",  # a half-failed purchase or similar: staff must look
)
STATES = ("needs_input", "ready", "running", "error", "done", "blocked")

WORKING_MEMORY_DEFAULTS: Dict[str, Any] = {
    "flight_quotes": [],  # [{segment_id, offers: [...], searched_at, args_hash}]
    "hotel_quotes": [],  # [{stay_id, rates: [...], searched_at, args_hash}]
    "ranked_bundles": [],  # [{bundle_id: "B1", ...}] — the bundles on screen
    "risk_report": None,  # {bundle_id, blocking: [...], warnings: [...], ok: bool, checked_at}
    "selected": {"bundle_id": None, "flight_option_id": None, "hotel_option_id": None},
    "holds": [],  # [{hold_id, item_type, offer_id|rate_id, segment_id|stay_id, status, payment_required_by, ...}]
    "approval": None,  # {approval_id, status, amount, currency, expires_at} — never the token
    "bookings": [],  # [{booking_id, order_ids, record_locators, total, currency, created_at}]
    "last_error": None,  # {tool, code, message, retryable, call}
}


# A work trip's hotel has at least this many stars (``preferences.hotel.for_work``): none under it is ranked first.
WORK_STARS = 2


def new_trip_intent(
    trip_id: str,
    now: datetime,
    *,
    timezone: str = "America/New_York",
    locale: str = "en-US",
    policy: Optional[Dict[str, Any]] = None,
    currency: str = "USD",
) -> Dict[str, Any]:
    ts = int(now.timestamp())
    pol = copy.deepcopy(policy if policy is not None else DEFAULT_POLICY)
    return {
        "schema": SCHEMA,
        "trip_id": trip_id,
        "version": 0,
        "created_at": ts,
        "updated_at": ts,
        "request": {"user_message": "", "locale": locale, "timezone": timezone},
        "status": {
            "phase": "intake",
            "state": "needs_input",
            "missing_required": [],
            "assumptions": [],
            "notes": [],
            "pending_question": None,  # {"slots": ["origin"], "text": "Where are you flying from?"}
        },
        "party": {
            # children: 2 or older, each with a seat; infants: lap infants under 2
            "travelers": {"adults": 0, "children": 0, "infants": 0},
            "child_ages": [],  # one int per child
            "traveler_profile_ids": [],
            "contact": {"email": None, "phone": None},
        },
        "itinerary": {
            "trip_type": None,  # one_way | round_trip | multi_city
            "flights_needed": True,  # False: a hotel-only trip (no segments are asked for or searched)
            "segments": [],
            "lodging": {
                "needed": True,  # False: flight-only ("I already have a hotel")
                "city": None,  # the hotel city (place/metro code), None = the flight destination
                "check_in": None,
                "check_out": None,
                "rooms": 1,
                "guests_per_room": 2,
                "location_hint": None,
                "stays": [],
            },
            "ground": {"needed": False},
        },
        "preferences": {
            "flight": {
                "cabin": "economy",  # economy | premium_economy | business | first
                "max_stops": None,  # 0 = nonstop
                "prefer_nonstop": False,  # nonstops ranked first, the others still shown ("ideally nonstop")
                "avoid_red_eye": False,
                "airlines": [],  # preferred IATA carrier codes (ranked higher, others still shown)
                "airlines_required": [],  # only these carriers
                "airlines_avoid": [],  # never these carriers
                # morning | afternoon | evening | night | earliest | latest | "after 17:00" (a clock bound)
                "time_of_day": {"outbound": None, "return": None},
                "arrival": {"outbound": None, "return": None},  # "before 18:00" | "after 07:00": local arrival
            },
            "hotel": {
                "min_stars": None,
                "refundable_only": False,
                "near": None,
                "board": None,
                "beds": None,
                "for_work": None,  # a work trip: a hotel under 2★ (a hostel) is never ranked first
                "quality": None,  # stars wished in words ("a nice hotel": 3): a hotel under them is not ranked first
            },
        },
        "constraints": {
            "budget_total": None,  # the whole trip
            "budget_per_person": None,
            "hotel_max_per_night": None,  # per room and night, apart from the trip total
            "currency": currency,
            "refundable_preference": "either",
        },
        "policy": pol,
        "working_memory": copy.deepcopy(WORKING_MEMORY_DEFAULTS),
        "audit": {"events": []},
    }


def ensure_working_memory(doc: Dict[str, Any]) -> Dict[str, Any]:
    """SPEC invariant: working_memory keys exist before any invalidation."""
    wm = doc.setdefault("working_memory", {})
    for key, default in WORKING_MEMORY_DEFAULTS.items():
        if key not in wm or (wm[key] is None and default is not None):
            wm[key] = copy.deepcopy(default)
    return doc
