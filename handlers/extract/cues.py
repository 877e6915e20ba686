"""The words around a place or a date that say what it is ("from Denver", "back on the 16th").

Adjacent cues (``*_CUE``) must end right before the value; clause words (``*_WORDS``) may sit
anywhere earlier in the clause; ``AFTER_*`` follow the value ("March 11th check-out").
"""

from __future__ import annotations

import re
from typing import List, Tuple

_PLACE_TAIL = (
    r"(?:\s+(?:is|was|the|city|town|airport|city\s+of|airport\s+(?:of|in)|main\s+airport\s+in|beautiful|sunny|lovely))*"
)
_DATE_TAIL = (
    r"(?:\s+(?:date|day))?"
    # a time said between the cue and the day: "back by lunch on the 12th", "leave in the morning on the 9th"
    r"(?:\s+(?:by|before|after|around|at|in\s+the)\s+(?:lunch(?:time)?|dinner|noon|midday|breakfast|morning|afternoon"
    r"|evening|night|\d{1,2}(?::\d\d)?\s*(?:am|pm)?))?"
    r"(?:\s+(?:is|of|on|at|by|for|will\s+be|would\s+be|should\s+be|be))*(?:\s+the)?"
)


def _cue(words: str, tail: str) -> re.Pattern[str]:
    return re.compile(rf"\b(?:{words}){tail}\s*$", re.I)


ORIGIN_CUE = _cue(
    r"from|form|out\s+of|leav(?:e|ing)(?:\s+from)?|depart(?:ing|ure)?(?:\s+(?:from|city|airport))?|fly(?:ing)?\s+(?:out\s+)?(?:of|from)|"
    r"fly(?:ing)?\s+out|start(?:ing)?\s+(?:in|from|at)|based\s+in|(?<!parents\s)(?<!family\s)(?<!folks\s)(?<!kids\s)(?<!children\s)(?<!they\s)(?<!relatives\s)(?<!friends\s)live\s+in|currently\s+in|i'?m\s+in|i\s+am\s+in|(?:we'?re|we\s+are)\s+(?:all\s+|both\s+)?in|"
    r"coming\s+from|origin",
    _PLACE_TAIL,
)
DEST_CUE = _cue(
    r"to|too|into|visit(?:ing)?|head(?:ing|ed)?(?:\s+(?:to|for))?|go(?:ing)?(?:\s+to)?|arriv(?:e|ing|al)(?:\s+(?:in|at))?|"
    r"destination|towards?|land(?:ing)?\s+in|back\s+to|trip\s+to|bound\s+for|travel(?:l?ing)?\s+to|then|reach",
    _PLACE_TAIL,
)
WEAK_DEST_CUE = _cue(r"for", _PLACE_TAIL)
STAY_CUE = _cue(
    r"in|at|near|around|within|hotels?\s+in|stay(?:ing)?\s+in|search\s+in|look\s+in|area\s+of|downtown|central",
    _PLACE_TAIL,
)
DEPART_CUE = _cue(
    r"leav(?:e|ing)|depart(?:ing|ure)?|out|fly(?:ing)?|go(?:ing)?|start(?:ing)?|from|arriv(?:e|ing)|between|in\s+on|"
    r"(?:fly(?:ing)?|get(?:ting)?)\s+in|(?:get(?:ting)?|be)\s+there|"
    r"travel(?:l?ing)?|begin(?:ning)?",
    _DATE_TAIL,
)
RETURN_CUE = _cue(
    r"back|returns?|return(?:ing)?|com(?:e|ing)\s+back|get(?:ting)?\s+back|until|untill|till|through|thru|check(?:ing)?[\s-]?out|"
    r"end(?:ing)?|fly(?:ing)?\s+home|home",
    _DATE_TAIL,
)
CHECK_IN_CUE = _cue(
    r"check(?:ing)?[\s-]?in(?:to)?|arriv(?:e|ing|al)|get(?:ting)?\s+there|reach(?:ing)?|from|start(?:ing)?|begin(?:ning)?|in",
    _DATE_TAIL,
)
CHECK_OUT_CUE = _cue(
    r"check(?:ing)?[\s-]?out|leav(?:e|ing)|depart(?:ing|ure)?|until|untill|till|through|thru|back|return(?:ing)?|end(?:ing)?|out",
    _DATE_TAIL,
)
# The same ideas as words anywhere earlier in the clause (only the unambiguous ones).
DEPART_WORDS = re.compile(
    r"\b(?:leav(?:e|ing)|depart(?:ing|ure)?|fly(?:ing)?\s+out|outbound|fly(?:ing)?(?!\s+(?:back|home))|get(?:ting)?\s+(?:in|there))\b",
    re.I,
)
RETURN_WORDS = re.compile(
    r"\b(?:returns?|return(?:ing)?|com(?:e|ing)\s+back|get(?:ting)?\s+back|fly(?:ing)?\s+back|inbound)\b", re.I
)
CHECK_IN_WORDS = re.compile(r"\b(?:check(?:ing)?[\s-]?in|arriv(?:e|ing|al))\b", re.I)
CHECK_OUT_WORDS = re.compile(r"\b(?:check(?:ing)?[\s-]?out|leav(?:e|ing)|depart(?:ing|ure)?)\b", re.I)
# ...and right after a date ("next Tuesday check in").
AFTER_CHECK_IN = re.compile(r"\s*(?:as\s+(?:the\s+)?|for\s+(?:the\s+)?)?(?:check(?:ing)?[\s-]?in|arrival)\b", re.I)
AFTER_CHECK_OUT = re.compile(r"\s*(?:as\s+(?:the\s+)?|for\s+(?:the\s+)?)?(?:check(?:ing)?[\s-]?out|departure)\b", re.I)
AFTER_DEPART = re.compile(r"\s*(?:as\s+(?:the\s+)?|for\s+(?:the\s+)?)?(?:departure|outbound)\b", re.I)
AFTER_RETURN = re.compile(r"\s*(?:as\s+(?:the\s+)?|for\s+(?:the\s+)?)?(?:return|inbound)\b", re.I)
RANGE_CUE = re.compile(r"^\s*(?:to|-|–|until|till|through|thru|and|&)(?:\s+the)?\s*$", re.I)
FLIGHT_WORDS = re.compile(
    r"\b(?:fly|flying|flights?|plane|(?:air|aero)planes?|airlines?|airports?|one[\s-]?way|round[\s-]?trip|depart\w*|tickets?|seats?|"
    r"layovers?|non[\s-]?stop|economy|bags?|carry[\s-]?ons?)\b",
    re.I,
)
CHECK_IN_OUT = re.compile(r"\bcheck(?:ing)?[\s-]?(?:in|out)\b", re.I)
# "0 bags to check in", "checking in two bags": the flight's bags, not a hotel's check-in
BAGS_CHECKED = re.compile(
    r"\b(?:bags?|luggage|baggage|suitcases?)\s+(?:\w+\s+){0,2}check(?:ed|ing)?[\s-]?in\b|"
    r"\bcheck(?:ed|ing)?[\s-]?in\s+(?:\w+\s+){0,2}(?:bags?|luggage|baggage|suitcases?)\b",
    re.I,
)
# What a stay is called when it is asked for ("add a hotel", "need a room", "a place to stay").
STAY_NOUNS = r"hotels?|motels?|rooms?|accommodations?|lodging|places?\s+to\s+stay"
# Hotel chains people name instead of saying "hotel" ("book the marriott in denver", "a hilton near the
# airport"); names that are also plain words ("four seasons", "courtyard", "omni") are left out.
HOTEL_BRANDS = (
    r"marriott|hilton|hyatt|westin|sheraton|ritz(?:[\s-]carlton)?|doubletree|hampton|radisson|wyndham|"
    r"intercontinental|kimpton|fairmont|best\s+western|la\s+quinta|motel\s*6|embassy\s+suites|"
    r"homewood\s+suites|springhill\s+suites|st\.?\s+regis|waldorf(?:[\s-]astoria)?|loews|ihg"
)
HOTEL_WORDS = re.compile(
    rf"\b(?:{STAY_NOUNS}|{HOTEL_BRANDS}|inn|house|houses|homes?|app?artments?|condo|airbnb|stay(?:ing)?|check[\s-]?in|check[\s-]?out)\b",
    re.I,
)


def before(msg: str, start: int, floor: int = 0) -> str:
    """Up to 40 characters before ``start``, not reaching back past ``floor``."""
    return msg[max(floor, start - 40) : start]


# An airport a stay is near ("a hotel near the airport", "an airport hotel", "by the Denver airport"):
# the word is about where to sleep, not a flight to search.
_AIRPORT_STAY = re.compile(
    r"\b(?:near|by|close\s+to|next\s+to|around|walking\s+distance\s+(?:to|from|of))\s+(?:the\s+)?"
    r"(?:[A-Za-z]+\s+)?(?P<near>airports?)\b|\b(?P<named>airport)\s+(?:hotels?|motels?|inns?|lodging)\b",
    re.I,
)


def airport_stay_spans(text: str) -> List[Tuple[int, int]]:
    """Where ``text`` says "airport" of a stay ("hotel near the airport", "airport hotel")."""
    return [m.span("near") if m.group("near") else m.span("named") for m in _AIRPORT_STAY.finditer(text)]


# A flight the traveller already has, said as the reason for a night's stay ("a hotel near lax on jan 7,
# i have an early flight next morning", "hotel by JFK the night of feb 3, flying out early feb 4"):
# when the message names no route, it is the hotel that is asked for, not a flight to search.
_OWN_FLIGHT = re.compile(
    r"\b(?:(?:i|we)\s*(?:'ve|ve|have)?\s*(?:have|got)|(?:i'?m|we'?re|i\s+am|we\s+are)\s+(?:catching|taking|on))\s+"
    r"(?:an?\s+|the\s+|my\s+|our\s+)?(?:(?:very|super|really|early|late|red[- ]?eye|morning|evening|connecting|"
    r"\d{1,2}(?::\d\d)?\s*(?:am|pm)?)\s+)*(?:flight|plane)\b[^,.;!?]*"
    r"|\b(?:my|our)\s+(?:\w+\s+)?flight\s+(?:leaves|is|departs|goes)\b[^,.;!?]*"
    r"|\bflying\s+(?:out|home|back)\s+(?:really\s+|very\s+|super\s+)?(?:early|first\s+thing)\b[^,.;!?]*",
    re.I,
)
# The flight the morning after: the stay is that one night
_NEXT_MORNING = re.compile(r"\b(?:next|following)\s+(?:morning|day)\b|\bmorning\s+after\b|\btomorrow\s+morning\b", re.I)


def own_flight_spans(text: str) -> List[Tuple[int, int]]:
    """Where a hotel message speaks of a flight the traveller already has (nothing when it asks for no hotel)."""
    if not HOTEL_WORDS.search(text):
        return []
    return [m.span() for m in _OWN_FLIGHT.finditer(text)]


def flight_next_morning(text: str, spans: List[Tuple[int, int]]) -> bool:
    """The traveller's own flight leaves the morning after the night asked for."""
    return any(_NEXT_MORNING.search(text[a:b]) for a, b in spans)
