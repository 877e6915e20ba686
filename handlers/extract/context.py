"""What the message is about, from the trip so far, the pending question and the conversation.

Whether a message arranges a stay alone or flights, which dates the trip already has, what
"there" points at, and whether a "yes" accepts values another assistant's question proposed.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .cues import BAGS_CHECKED, FLIGHT_WORDS, HOTEL_WORDS
from .dates import _WD_ABBR, MONTHS, WEEKDAYS
from .text import clean


def trip_has_flights(current: Dict[str, Any]) -> bool:
    segments = ((current.get("itinerary") or {}).get("segments")) or []
    return any(isinstance(s, dict) for s in segments)


# When only a stay is being arranged, flight words in a question mean the stay's.
STAY_SLOTS = {
    "depart_date": "check_in",
    "return_date": "check_out",
    "destination": "hotel_location",
    "origin": "hotel_location",
}


def stay_mode_of(msg: str, slots: Sequence[str], current: Dict[str, Any], conversation: Any) -> bool:
    """True when the message is about a stay alone: no flights in the trip, the words or the talk so far."""
    if FLIGHT_WORDS.search(msg) or trip_has_flights(current):
        return False
    if HOTEL_WORDS.search(msg) or trip_has_stays(current):
        return True
    for earlier in reversed(_user_turns(conversation)):
        if FLIGHT_WORDS.search(earlier):
            return False
        if HOTEL_WORDS.search(BAGS_CHECKED.sub(" ", earlier)):
            return True
    return any(s in slots for s in ("hotel_location", "check_in", "check_out", "rooms"))


def hotel_alone(msg: str, current: Dict[str, Any], conversation: Any) -> bool:
    """A new trip whose words so far ask for a hotel and say nothing of flying ("hotel in Austin Jan
    10-13 for 1"): a hotel-only trip, which asks no origin (said back as an assumption)."""
    itinerary = current.get("itinerary") or {}
    if trip_has_flights(current) or itinerary.get("flights_needed") is False or FLIGHT_WORDS.search(msg):
        return False
    if not HOTEL_WORDS.search(BAGS_CHECKED.sub(" ", msg)):
        return False
    return not any(FLIGHT_WORDS.search(earlier) for earlier in _user_turns(conversation))


THERE = re.compile(
    r"\b(?:there|here|nearby|near\s+by|close\s+by|that\s+(?:city|place|area|town)|"
    r"the\s+(?:same\s+)?(?:area|city|place|town|destination|vicinity))\b",
    re.I,
)


def place_referred_to(current: Dict[str, Any]) -> Optional[Dict[str, str]]:
    """For "a hotel there": the trip's destination or stay (the conversation's places are read by
    ``topics.conversation_places`` when the trip has none)."""
    itinerary = current.get("itinerary") or {}
    segments = itinerary.get("segments") or []
    stays = ((itinerary.get("lodging") or {}).get("stays")) or []
    if segments and isinstance(segments[0], dict) and isinstance(segments[0].get("destination"), dict):
        return segments[0]["destination"]
    if stays and isinstance(stays[0], dict) and stays[0].get("location_code"):
        code = stays[0]["location_code"]
        return {"type": "city", "code": code, "name": stays[0].get("location_hint") or code}
    return None


def _user_turns(conversation: Any) -> List[str]:
    """The traveller's earlier messages ({"role": "user", "content"}), newest last, bounded."""
    if not isinstance(conversation, list):
        return []
    turns = [m.get("content") for m in conversation[-20:] if isinstance(m, dict) and m.get("role") == "user"]
    return [clean(t)[:1000] for t in turns if isinstance(t, str)]


def unfilled_first(slots: List[str], current: Dict[str, Any]) -> List[str]:
    """Pending slots the trip has not filled yet come first: a bare answer most likely fills one of them."""
    segments = ((current.get("itinerary") or {}).get("segments")) or [{}]
    first = segments[0] if isinstance(segments[0], dict) else {}
    return sorted(slots, key=lambda slot: bool(first.get(slot)))


def known_dates(current: Dict[str, Any], stay_mode: bool) -> Tuple[Optional[date], Optional[date], bool]:
    """The trip's start and end dates so far, and whether it can have an end (not one way)."""
    itinerary = current.get("itinerary") or {}
    if stay_mode:
        stays = ((itinerary.get("lodging") or {}).get("stays")) or [{}]
        return _iso(stays[0].get("check_in")), _iso(stays[0].get("check_out")), True
    segments = itinerary.get("segments") or [{}]
    end = _iso(segments[-1].get("depart_date")) if len(segments) > 1 else None
    return _iso(segments[0].get("depart_date")), end, itinerary.get("trip_type") != "one_way"


def _iso(value: Any) -> Optional[date]:
    try:
        return date.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        return None


def trip_has_stays(current: Dict[str, Any]) -> bool:
    lodging = ((current.get("itinerary") or {}).get("lodging")) or {}
    return any(
        isinstance(s, dict) and (s.get("location_code") or s.get("check_in")) for s in lodging.get("stays") or []
    )


_YES = re.compile(
    r"^\W*(?:yes|yeah|yep|yup|ya|sure|correct|right|ok(?:ay)?|perfect|great|fine|exactly|absolutely|definitely|"
    r"that(?:'s|\s+is|\s+would\s+be|\s+will)\s+(?:\w+\s+)?(?:right|correct|fine|good|great|perfect|it|work|works)|"
    r"(?:that\s+|it\s+)?sounds?\s+(?:\w+\s+)?(?:good|great|perfect|right|fine))\b",
    re.I,
)


_NO = re.compile(r"\b(?:no|nope|not|don'?t|doesn'?t|isn'?t|wrong|instead|change|actually|rather|prefer)\b", re.I)
_PROPOSAL = re.compile(r"\?|^\W*(?:please\s+)?confirm", re.I)


def confirmed_proposal(msg: str, pending_question: Any) -> Optional[str]:
    """The words of another assistant's question that proposed values ("Leaving on March 1st?") when
    the traveller agrees ("yes") or answers without objecting; the Reducer's own questions
    (which carry ``slots``) never propose values, but for its offers (``yes_only``), which a "yes" takes."""
    if not isinstance(pending_question, dict) or pending_question.get("slots"):
        return None
    if pending_question.get("yes_only"):  # the Reducer's offer ("Shall I search leaving Wed Jan 13?"): a "yes" only
        proposal = pending_question.get("proposal")
        return proposal if isinstance(proposal, str) and _YES.match(msg) and not _NO.search(msg) else None
    text = pending_question.get("text")
    if not isinstance(text, str) or not _PROPOSAL.search(text):
        return None
    if not _YES.match(msg) and _NO.search(msg):
        return None
    return clean(text)[:1000]


_CHOICE = re.compile(
    r"^\W*(?:(?:i\s+mean|it'?s|make\s+it)\s+)?(?:the\s+)?(?P<which>first|former|earlier|second|latter|later)"
    r"(?:\s+(?:one|day|date|option|reading))?(?:\s+please)?\W*$",
    re.I,
)
_DATE_ANSWER_SLOTS = frozenset({"depart_date", "return_date", "check_in", "check_out"})


# An answer to "Do you fly out Fri Jan 8, the day before your game, or Sat Jan 9, its day?"
_AROUND_EVENT = re.compile(
    r"^\W*(?:(?:i'?ll|we'?ll|let'?s)\s+(?:fly\s+(?:out\s+)?|go\s+)?)?(?:(?P<before>(?:the\s+)?(?:day|night)\s+before)"
    r"|(?:the\s+)?(?:same\s+day|day\s+of(?:\s+the\s+\w+)?|that\s+day|its\s+day|on\s+the\s+day|(?!(?:next|following|any|other)\b)\w+\s+day))"
    r"(?:\s+(?:please|pls|is\s+fine|works))?\W*$",
    re.I,
)


def doubt_answer(msg: str, pending_question: Any) -> Dict[str, str]:
    """Days chosen by answering the date question the Reducer asked by naming readings: "the first
    one" / "the latter" (for every date it asked that way), the month or weekday that tells two
    readings apart ("April", "the Thursday"), or "yes" to "Do you mean Thu May 6 by "05/06"?".
    {} when the message is not such an answer (a date typed out is read as usual)."""
    doubts = pending_question.get("date_doubts") if isinstance(pending_question, dict) else None
    if not isinstance(doubts, dict) or not doubts or re.search(r"\d", msg) or len(msg.split()) > 5:
        return {}
    readings = {
        slot: [r for r in (_iso(x) for x in (d.get("readings") or [])) if r]
        for slot, d in doubts.items()
        if slot in _DATE_ANSWER_SLOTS and isinstance(d, dict)
    }
    readings = {slot: days for slot, days in readings.items() if days}
    if not readings:
        return {}
    choice = _CHOICE.match(msg)
    if choice and all(len(days) == 2 for days in readings.values()):
        at = 0 if choice.group("which").lower() in ("first", "former", "earlier") else 1
        return {slot: days[at].isoformat() for slot, days in readings.items()}
    around = _AROUND_EVENT.match(msg)
    if around and len(readings) == 1 and all(isinstance(d, dict) and d.get("kind") == "event" for d in doubts.values()):
        slot, days = next(iter(readings.items()))  # "the day before" to "... the day before your game, or ..."
        return {slot: days[0 if around.group("before") else -1].isoformat()} if len(days) == 2 else {}
    if len(readings) != 1:
        return {}
    slot, days = next(iter(readings.items()))
    if len(days) == 1:
        return {slot: days[0].isoformat()} if _YES.match(msg) and not _NO.search(msg) else {}
    words = re.findall(r"[a-z]+", msg.lower())
    named = [d for d in days if any(_names_day(w, d) for w in words)]
    return {slot: named[0].isoformat()} if len(named) == 1 else {}


_FLOWN_THE_DAY_BEFORE = re.compile(r"^Flying out \w+ \w+ \d+, the day before (?:your|the) \w+ on ")


def event_day_answer(msg: str, current: Any) -> Dict[str, str]:
    """ "same day" / "the day of" after "Flying out Fri Feb 19, the day before the wedding on Sat Feb 20": the
    way out on the event's day; {} otherwise."""
    around = _AROUND_EVENT.match(msg)
    status = (current or {}).get("status") if isinstance(current, dict) else None
    told = (status or {}).get("assumptions") if isinstance(status, dict) else None
    if not around or around.group("before") or not any(_FLOWN_THE_DAY_BEFORE.match(str(t)) for t in told or []):
        return {}
    segments = ((current or {}).get("itinerary") or {}).get("segments") or []
    out = _iso(segments[0].get("depart_date")) if segments and isinstance(segments[0], dict) else None
    return {"depart_date": (out + timedelta(days=1)).isoformat()} if out else {}


def _names_day(word: str, day: date) -> bool:
    word = word.rstrip(".")
    return MONTHS.get(word) == day.month or WEEKDAYS.get(word, _WD_ABBR.get(word)) == day.weekday()
