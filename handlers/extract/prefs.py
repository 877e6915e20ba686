"""Preferences and constraints: cabin, airlines, stops, red-eyes, budget, refundability, hotel wishes."""

from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Tuple

from .text import NUMBER_RE, to_int

# Airline names people type -> (IATA carrier code, name). Carriers, unlike airports, have no
# maintained offline package; this is the list the sandbox supplier and the SGD cases use.
AIRLINES: Dict[str, Tuple[str, str]] = {
    "delta": ("DL", "Delta Airlines"),
    "united": ("UA", "United Airlines"),
    "american": ("AA", "American Airlines"),
    "southwest": ("WN", "Southwest Airlines"),
    "alaska": ("AS", "Alaska Airlines"),
    "jetblue": ("B6", "JetBlue Airways"),
    "jet blue": ("B6", "JetBlue Airways"),
    "spirit": ("NK", "Spirit Airlines"),
    "frontier": ("F9", "Frontier Airlines"),
    "hawaiian": ("HA", "Hawaiian Airlines"),
    "allegiant": ("G4", "Allegiant Air"),
    "air canada": ("AC", "Air Canada"),
    "westjet": ("WS", "WestJet"),
    "british airways": ("BA", "British Airways"),
    "air france": ("AF", "Air France"),
    "klm": ("KL", "KLM"),
    "lufthansa": ("LH", "Lufthansa"),
    "emirates": ("EK", "Emirates"),
    "qatar": ("QR", "Qatar Airways"),
    "virgin atlantic": ("VS", "Virgin Atlantic"),
    "aer lingus": ("EI", "Aer Lingus"),
    "iberia": ("IB", "Iberia"),
    "swiss": ("LX", "Swiss International Air Lines"),
    "qantas": ("QF", "Qantas"),
    "aeromexico": ("AM", "Aeromexico"),
    "singapore airlines": ("SQ", "Singapore Airlines"),
    "cathay pacific": ("CX", "Cathay Pacific"),
    "japan airlines": ("JL", "Japan Airlines"),
    "all nippon": ("NH", "All Nippon Airways"),
    "turkish": ("TK", "Turkish Airlines"),
}
AIRLINE_NAMES = {code: name for code, name in AIRLINES.values()}
_ORDINARY_WORDS = frozenset(
    {"american", "united", "delta", "alaska", "swiss", "spirit", "frontier", "turkish", "qatar"}
)
_AIRLINE_RE = re.compile(
    r"\b(?P<name>" + "|".join(re.escape(k) for k in sorted(AIRLINES, key=len, reverse=True)) + r")\b"
    r"(?:\s+(?:air\s*lines?|airways|air))?",
    re.I,
)
_CABINS = [
    ("premium_economy", re.compile(r"\bpremium(?:[\s-]+economy)?\b|\beconomy\s+plus\b|\bcomfort\s*\+", re.I)),
    ("first", re.compile(r"\bfirst[\s-]+class\b|\bfly(?:ing)?\s+first\b|\bin\s+first\b", re.I)),
    ("business", re.compile(r"\bbusiness[\s-]+class\b|\b(?:fly(?:ing)?|in|sit\s+in)\s+business\b(?!\s+trip)", re.I)),
    ("economy", re.compile(r"\beconomy\b|\bcoach\b|\bmain\s+cabin\b", re.I)),
]
_NONSTOP = re.compile(r"\bnon[\s-]?stop\b|\bdirect(?:\s+flights?)?\b|\bno\s+(?:stops|layovers?|connections?)\b", re.I)
_ONE_STOP = re.compile(
    r"\b(?:at\s+most|max(?:imum)?|up\s+to|no\s+more\s+than)\s+(?:one|1)\s+(?:stop|layover|connection)s?\b"
    r"|\b(?:one|1)\s+stop\s+(?:max|at\s+most)\b",
    re.I,
)
_RED_EYE = re.compile(
    r"\b(?:no|avoid(?:ing)?|not\s+an?|without|don'?t\s+want\s+an?|hate)\s+(?:the\s+)?red[\s-]?eyes?\b", re.I
)
_BUDGET = re.compile(
    r"\b(?:under|below|less\s+than|max(?:imum)?|up\s+to|no\s+more\s+than|budget(?:\s+(?:of|is))?|within|at\s+most|cap(?:ped)?\s+at)"
    r"\s*(?:a\s+)?(?:total\s+of\s+)?(?P<cur1>[$€£])?\s*(?P<amount>\d[\d,]*(?:\.\d+)?)\s*(?P<k>k\b)?\s*(?P<cur2>dollars|usd|eur|euros?|gbp|pounds|cad)?",
    re.I,
)
_COUNTED = re.compile(
    r"\s*(?:people|persons?|travell?ers|passengers|guests|adults|rooms?|nights?|days?|stops?|stars?|miles|km)\b", re.I
)
_CURRENCY = {
    "$": "USD",
    "dollars": "USD",
    "usd": "USD",
    "€": "EUR",
    "eur": "EUR",
    "euro": "EUR",
    "euros": "EUR",
    "£": "GBP",
    "gbp": "GBP",
    "pounds": "GBP",
    "cad": "CAD",
}
_REFUNDABLE = re.compile(r"(?<!non)(?<!non-)(?<!non )\b(?:fully\s+)?refundable\b", re.I)
_NO_HOTEL = re.compile(
    r"\bno\s+(?:hotels?|accommodations?|lodging|place\s+to\s+stay)\b|\b(?:don'?t|do\s+not|won'?t)\s+need\s+(?:a\s+)?"
    r"(?:hotels?|room|accommodation|place\s+to\s+stay)\b|\bwithout\s+(?:a\s+)?hotel\b|\bflights?\s+only\b|"
    r"\bjust\s+(?:the\s+)?flights?\b|\bonly\s+(?:the\s+)?flights?\b|\bhotel\s+(?:is\s+)?not\s+needed\b",
    re.I,
)
_HOTEL = re.compile(r"\b(?:hotels?|motel|inn|accommodations?|lodging|place\s+to\s+stay|rooms?|check[\s-]?in)\b", re.I)
_STARS = re.compile(
    rf"\b(?P<n>{NUMBER_RE})[\s-]*(?:or\s+more\s+|plus\s+|\+\s*)?(?:stars?|start)(?:hotels?)?\b|\brated\s+(?:at\s+least\s+)?(?P<r>[1-5])\b"
    rf"|\bstar\s+rating\s+(?:of\s+)?(?:at\s+least\s+)?(?P<s>{NUMBER_RE})\b",
    re.I,
)
_NEAR = re.compile(
    r"\b(?:near|close\s+to|next\s+to|walking\s+distance\s+(?:to|from|of))\s+(?P<what>(?:the\s+)?[A-Za-z0-9'&\- ]{3,60}?)"
    r"(?=\s*(?:[.,!?;]|$|\b(?:and|for|from|on|with|please|in|at|by|this|next|tomorrow|today|starting)\b))",
    re.I,
)
_ONE_WAY = re.compile(r"\bone[\s-]?way\b", re.I)
_ROUND_TRIP = re.compile(r"\bround[\s-]?trips?\b|\breturn\s+(?:flights?|tickets?|trip)\b|\bthere\s+and\s+back\b", re.I)


def read_airlines(text: str) -> Tuple[Optional[List[str]], List[Tuple[int, int]]]:
    """IATA codes of the airlines named, and their spans (so place matching can skip them)."""
    codes: List[str] = []
    spans = []
    for m in _AIRLINE_RE.finditer(text):
        key = m.group("name").lower()
        if m.group(0).lower() == key and key in _ORDINARY_WORDS and not m.group(0)[0].isupper():
            continue  # "united", "american", "spirit" in lower case are ordinary words
        code = AIRLINES[key][0]
        if code not in codes:
            codes.append(code)
        spans.append((m.start(), m.end()))
    return (codes or None), spans


def read_preferences(text: str) -> Dict[str, Any]:
    cabin = next((name for name, rx in _CABINS if rx.search(text)), None)
    max_stops = 0 if _NONSTOP.search(text) else 1 if _ONE_STOP.search(text) else None
    budget, currency = _budget(text)
    stars = _stars(text)
    near = _NEAR.search(text)
    one_way = True if _ONE_WAY.search(text) else False if _ROUND_TRIP.search(text) else None
    hotel_needed = False if _NO_HOTEL.search(text) else True if _HOTEL.search(text) else None
    return {
        "cabin": cabin,
        "max_stops": max_stops,
        "avoid_red_eye": True if _RED_EYE.search(text) else None,
        "budget_total": budget,
        "currency": currency,
        "refundable": _refundable(text),
        "hotel_min_stars": stars,
        "hotel_near": near.group("what").strip() if near else None,
        "one_way": one_way,
        "hotel_needed": hotel_needed,
    }


def _budget(text: str) -> Tuple[Optional[float], Optional[str]]:
    """An amount with money words around it ("under $3000", "budget of 2k"); "up to 4 people" is not one."""
    for m in _BUDGET.finditer(text):
        amount = float(m.group("amount").replace(",", ""))
        if m.group("k"):
            amount *= 1000
        cur = (m.group("cur1") or m.group("cur2") or "").lower()
        money = cur or m.group(0).lower().startswith("budget") or (amount >= 100 and not _COUNTED.match(text, m.end()))
        if amount > 0 and money:
            return amount, _CURRENCY.get(cur)
    return None, None


def _stars(text: str) -> Optional[int]:
    value = None
    for m in _STARS.finditer(text):
        n = to_int(m.group("n") or m.group("r") or m.group("s"))
        if n is not None and 1 <= n <= 5:
            value = n
    return value


def _refundable(text: str) -> Optional[str]:
    m = _REFUNDABLE.search(text)
    if not m:
        return None
    around = text[max(0, m.start() - 30) : m.end() + 30].lower()
    hotel = re.search(r"\b(?:hotels?|rooms?|stay|rates?)\b", around)
    flight = re.search(r"\b(?:flights?|tickets?|fares?|air)\b", around)
    if hotel and not flight:
        return "hotel"
    if flight and not hotel:
        return "flight"
    return "all"
