"""The pending question: which slots a bare answer ("Los Angeles", "the 11th", "4") fills.

The Reducer asks with ``{"slots": ["origin"], "text": "Where are you flying from?"}``; another
assistant's question (the SGD system turns) comes as text only, so the slots are read from it.
"""

from __future__ import annotations

import re
from typing import Any, List

SLOTS = (
    "origin",
    "destination",
    "depart_date",
    "return_date",
    "nights",
    "adults",
    "rooms",
    "hotel_location",
    "check_in",
    "check_out",
    "cabin",
    "airlines",
    "hotel_min_stars",
)
# Names other parts (or other assistants) use for the same slot.
_ALIASES = {
    "hotel_city": "hotel_location",
    "location": "hotel_location",
    "stay_location": "hotel_location",
    "travelers": "adults",
    "passengers": "adults",
    "party": "adults",
    "guests": "adults",
    "dates": "depart_date",
    "date": "depart_date",
    "departure_date": "depart_date",
    "stars": "hotel_min_stars",
    "min_stars": "hotel_min_stars",
    "airline": "airlines",
    "stay_length": "nights",
    "duration": "nights",
}

_RULES = [
    (
        "origin",
        r"\b(?:from\s+where|where\b[^?.]*\b(?:from|depart|departing|leaving|leave|fly\s+out|flying\s+out)|"
        r"(?:departure|origin|departing|leaving|source)\s+(?:city|airport|location|town|point)|\bsource\b|"
        r"(?:which|what)\s+(?:city|airport|town|place|location)\b[^?.]*\b(?:from|depart|leav|fly\s+out|currently)|"
        r"where\b[^?.]*\b(?:start|currently)|catching\s+your\s+flight)",
    ),
    (
        "destination",
        r"\b(?:where\b[^?.]*\b(?:to|going|heading|headed|travel|traveling|travelling|fly|flying|visit|go|trip|destination)\b"
        r"(?!\s+(?:depart|leave|fly\s+out|start))|"
        r"destination|(?:arrival|arriving)\s+(?:city|airport)|which\s+city\b[^?.]*\b(?:to|visit|going|heading|travel)\b(?!\s+(?:depart|leave|fly\s+out|start))|"
        r"what\s+city\b[^?.]*\b(?:to|visit|going|heading|travel))\b(?!\s+(?:depart|leave|fly\s+out|start))",
    ),
    (
        "hotel_location",
        r"\b(?:(?:which|what)\s+(?:city|location|area|place)|where\b[^?.]*\b(?:stay|hotel|house|book|search|look|find)|"
        r"(?:city|location|area)\s+(?:should|do|would)|in\s+what\s+city|any\s+(?:desired|particular|specific)\s+(?:place|city|location))\b",
    ),
    (
        "return_date",
        r"\b(?:return|returning|come\s+back|coming\s+back|get\s+back|back\s+home|fly\s+back|head\s+back)\b",
    ),
    ("check_out", r"\bcheck(?:ing)?[\s-]?out\b"),
    (
        "check_in",
        r"\bcheck(?:ing)?[\s-]?in\b|\b(?:start|begin)\s+(?:your|the)\s+stay\b|\bfrom\s+when\b|\bwhen\b[^?.]*\b(?:stay|arrive|booking|book|reservation|room)",
    ),
    ("nights", r"\bhow\s+(?:long|many\s+(?:days|nights))\b|\bnumber\s+of\s+(?:days|nights)\b|\blength\s+of\b"),
    (
        "depart_date",
        r"\b(?:when|what\s+(?:date|day)|which\s+(?:date|day)|travel\s+date|departure\s+date|date\s+of|dates)\b",
    ),
    ("rooms", r"\bhow\s+many\s+rooms\b|\bnumber\s+of\s+rooms\b|\brooms?\s+do\s+you\s+need\b"),
    (
        "adults",
        r"\bhow\s+many\s+(?:people|persons|travell?ers|passengers|tickets|seats|adults|guests|of\s+you)\b|"
        r"\bnumber\s+of\s+(?:people|travell?ers|passengers|tickets|seats|guests|adults)\b|\bwho\s+(?:is|will\s+be)\s+travell?ing\b",
    ),
    ("cabin", r"\b(?:seating\s+)?class\b|\bcabin\b"),
    ("airlines", r"\bairlines?\b|\bcarrier\b"),
    ("hotel_min_stars", r"\bstar\s+rating\b|\bhow\s+many\s+stars\b|\bstars?\b[^?.]*\?"),
]
_COMPILED = [(slot, re.compile(rx, re.I)) for slot, rx in _RULES]
_HOTEL_CONTEXT = re.compile(r"\b(?:hotel|stay|house|room|accommodation|check[\s-]?(?:in|out))", re.I)


def pending_slots(question: Any) -> List[str]:
    """Slots the question asks for, from its ``slots`` when given, else from its words."""
    if isinstance(question, dict):
        slots = [_ALIASES.get(str(s), str(s)) for s in question.get("slots") or [] if isinstance(s, str)]
        slots = [s for s in slots if s in SLOTS]
        if slots:
            return slots
        question = question.get("text")
    if not isinstance(question, str) or not question.strip():
        return []
    return slots_from_text(question[:500])


# Words that make a "when" question about leaving, not only about coming back.
_DEPARTURE_WORDS = re.compile(
    r"\b(?:leav(?:e|ing)|depart\w*|go|going|fly|flying|travel\w*|trip|start|begin|embark)\b(?!\s+from)", re.I
)


def slots_from_text(text: str) -> List[str]:
    found = [slot for slot, rx in _COMPILED if rx.search(text)]
    if (
        "depart_date" in found
        and ("return_date" in found or "check_out" in found)
        and not _DEPARTURE_WORDS.search(text)
    ):
        found.remove("depart_date")  # "When would you like to return?"
    hotelish = bool(_HOTEL_CONTEXT.search(text))
    if hotelish and "depart_date" in found:
        found.remove("depart_date")
        if "check_in" not in found and "check_out" not in found:
            found.append("check_in")
    if hotelish and "return_date" in found and "check_out" not in found:
        found[found.index("return_date")] = "check_out"
    if hotelish and "destination" in found and "hotel_location" not in found:
        found[found.index("destination")] = "hotel_location"
    if "origin" in found and "hotel_location" in found and not hotelish:
        found.remove("hotel_location")
    if "destination" in found and "hotel_location" in found and not hotelish:
        found.remove("hotel_location")
    return found
