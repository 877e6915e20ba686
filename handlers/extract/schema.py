"""The requirements fields (handlers/README.md "Requirements fields") as one JSON schema.

The offline extractor returns exactly these keys, and the OpenAI path asks the model for them
as structured output (strict mode: every key required, ``null`` meaning "not said"), so both
paths feed the same ``fields_to_patch``.
"""

from __future__ import annotations

import copy
from typing import Any, Dict

from ..common.shape import ARRIVAL_BOUND_PATTERN, CLOCK_BOUND_PATTERN, SUPERLATIVES

# Search filters a traveller can let go of (``relax``), named as the searches report them; and the
# trip's budget ("forget the budget"), which ranks and badges options rather than filtering them.
RELAX_FILTERS = (
    "max_stops",
    "airlines",
    "red_eye",
    "time_window",
    "min_stars",
    "refundable",
    "max_nightly",
    "budget",
    "board",
)


def _nullable(schema: Dict[str, Any]) -> Dict[str, Any]:
    if "enum" in schema:
        return {**schema, "enum": [*schema["enum"], None]}
    return {**schema, "type": [schema["type"], "null"]}


TIMES_OF_DAY = ("morning", "afternoon", "evening", "night")
_DATE = {"type": "string", "description": "ISO date YYYY-MM-DD"}
_PLACE = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "type": {"enum": ["airport", "city"]},
        "code": {"type": "string", "description": "IATA airport code or metro code (NYC, LON)"},
        "name": {"type": "string", "description": "city name as people say it"},
    },
    "required": ["type", "code", "name"],
}
_NULL_PLACE = {"anyOf": [_PLACE, {"type": "null"}]}
_LEG = {
    "type": "object",
    "additionalProperties": False,
    "properties": {"origin": _NULL_PLACE, "destination": _NULL_PLACE, "depart_date": _nullable(_DATE)},
    "required": ["origin", "destination", "depart_date"],
}
_STAY = {
    "type": "object",
    "additionalProperties": False,
    "properties": {"location": _NULL_PLACE, "check_in": _nullable(_DATE), "check_out": _nullable(_DATE)},
    "required": ["location", "check_in", "check_out"],
}
_COUNT = {"type": ["integer", "null"], "minimum": 0}
# A flight's departure-time wish: a time of day, or a clock bound on the local departure time.
_TIME_WISH = {
    "anyOf": [
        {"enum": [*TIMES_OF_DAY, *SUPERLATIVES]},
        {
            "type": "string",
            "pattern": CLOCK_BOUND_PATTERN,
            "description": "'after 17:00', 'before 09:00', 'around 07:30'",
        },
        {"type": "null"},
    ]
}
# A flight's arrival-time wish: a strict clock bound on the local arrival time ("land by 6pm").
_ARRIVAL_WISH = {
    "anyOf": [
        {
            "type": "string",
            "pattern": ARRIVAL_BOUND_PATTERN,
            "description": "'before 18:00' ('land by 6pm'), 'after 07:00' ('not landing before 7am')",
        },
        {"type": "null"},
    ]
}

REQUIREMENTS_SCHEMA: Dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "origin": _NULL_PLACE,
        "destination": _NULL_PLACE,
        "depart_date": _nullable(_DATE),
        "return_date": _nullable(_DATE),
        "nights": _COUNT,
        "one_way": {"type": ["boolean", "null"]},
        "legs": {"type": ["array", "null"], "items": _LEG},
        "adults": _COUNT,
        "children": _COUNT,
        "infants": _COUNT,
        "child_ages": {"type": ["array", "null"], "items": {"type": "integer", "minimum": 0, "maximum": 17}},
        "rooms": _COUNT,
        "cabin": _nullable({"enum": ["economy", "premium_economy", "business", "first"]}),
        "airlines": {
            "type": ["array", "null"],
            "items": {"type": "string", "description": "IATA carrier code"},
            "description": "preferred airlines",
        },
        "airlines_required": {
            "type": ["array", "null"],
            "items": {"type": "string", "description": "IATA carrier code"},
            "description": "only these airlines ('only Delta', 'must be United')",
        },
        "airlines_avoid": {
            "type": ["array", "null"],
            "items": {"type": "string", "description": "IATA carrier code"},
            "description": "never these airlines ('no Spirit', 'anything but AA')",
        },
        "time_out": _TIME_WISH,
        "time_return": _TIME_WISH,
        "arrive_out": _ARRIVAL_WISH,
        "arrive_return": _ARRIVAL_WISH,
        "max_stops": _COUNT,
        "prefer_nonstop": {
            "type": ["boolean", "null"],
            "description": "true: nonstop wished but not required ('ideally nonstop', 'direct if possible')",
        },
        "avoid_red_eye": {"type": ["boolean", "null"]},
        "budget_total": {"type": ["number", "null"], "minimum": 0, "description": "the whole trip"},
        "budget_per_person": {"type": ["number", "null"], "minimum": 0},
        "hotel_max_per_night": {"type": ["number", "null"], "minimum": 0, "description": "per room and night"},
        "currency": {"type": ["string", "null"], "description": "ISO 4217"},
        "refundable": _nullable({"enum": ["hotel", "flight", "all"]}),
        "hotel_needed": {"type": ["boolean", "null"], "description": "false: flight only / already has a hotel"},
        "flights_needed": {"type": ["boolean", "null"], "description": "false: a hotel-only trip (driving, train)"},
        "separate_rooms": {"type": ["boolean", "null"], "description": "true: one room per adult"},
        "stays": {"type": ["array", "null"], "items": _STAY},
        "hotel_min_stars": {"type": ["integer", "null"], "minimum": 1, "maximum": 5},
        "hotel_near": {"type": ["string", "null"]},
        "hotel_board": _nullable(
            {"enum": ["breakfast", "half_board", "full_board", "all_inclusive"]},
        ),
        "for_work": {
            "type": ["boolean", "null"],
            "description": "true: the trip is for work ('business trip', 'for a conference', 'client meeting')",
        },
        "hotel_quality": {
            "type": ["integer", "null"],
            "minimum": 2,
            "maximum": 4,
            "description": "a hotel wished good in words, not stars: 4 'somewhere fancy', 3 'a nice hotel', "
            "2 'somewhere decent' / 'not a dump' / 'no hostels'",
        },
        "hotel_beds": _nullable(
            {
                "enum": ["king", "queen", "double", "2 king", "2 queen", "2 double", "2 twin", "2 beds"],
                "description": "the beds wished in a room ('a king bed': king, '2 queens': 2 queen, 'two beds': 2 beds)",
            },
        ),
        "friends_sharing": {
            "type": ["boolean", "null"],
            "description": "true: friends sharing rooms ('6 guys', 'me and 3 buddies', 'girls trip'), not a couple or a family",
        },
        "colleagues": {
            "type": ["boolean", "null"],
            "description": "true: colleagues travel together ('me and 2 coworkers'): a room each unless said",
        },
        "relax": {
            "type": ["array", "null"],
            "items": {"enum": list(RELAX_FILTERS)},
            "description": "filters the traveller lets go of ('stops are fine', 'any airline', 'no hotel cap', 'forget the budget')",
        },
    },
}
REQUIREMENTS_SCHEMA["required"] = list(REQUIREMENTS_SCHEMA["properties"])
FIELD_NAMES = tuple(REQUIREMENTS_SCHEMA["properties"])


def empty_fields() -> Dict[str, Any]:
    """Every field, each ``None`` ("not said")."""
    return {name: None for name in FIELD_NAMES}


def schema() -> Dict[str, Any]:
    """A copy callers may decorate (names, descriptions) without touching the shared one."""
    return copy.deepcopy(REQUIREMENTS_SCHEMA)
