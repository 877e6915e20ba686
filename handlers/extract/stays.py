"""A hotel for part of the trip: "hotel only for the first 3 nights", "hotel for the last 2 nights",
"no hotel for the last night (staying w friends)", "we don't need a room the first night".

The flights keep their days; the stay is the nights said, counted from the outbound day (the first
nights) or back from the return day (the last nights). A hotel for part of the trip is still a
hotel: the words are not read as "no hotel", "hotel only" or a trip of that many nights."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any, Callable, Dict, List, Optional, Tuple

from .cues import RANGE_CUE
from .text import NUMBER_RE, to_int

_HOTEL = r"(?:hotels?|rooms?|accommodations?|lodging|place\s+to\s+stay)"
_SOMEONE = (
    r"(?:(?:a|my|our|his|her|their)\s+)?(?:friends?|family|relatives|parents|in-laws|folks|mom|dad|mum|sister|brother"
    r"|son|daughter|cousin|aunt|uncle|grand(?:parents|ma|pa)|girlfriend|boyfriend|partner|them|him|her)(?:'s)?"
    r"(?:\s+(?:place|house|home|apartment|flat))?"
)


def _part(k: int) -> str:
    return rf"(?:the\s+)?(?P<which{k}>first|last|final|1st)\s+(?:(?P<n{k}>{NUMBER_RE})\s+)?nights?\b"


_PARTIAL_STAY = re.compile(
    # "no hotel for the last night", "don't need a room the first night"
    rf"(?P<no>\bno\s+{_HOTEL}|\b(?:don'?t|do\s+not|won'?t)\s+need\s+(?:a\s+|the\s+|any\s+)?{_HOTEL})\s+(?:needed\s+|required\s+)?"
    rf"(?:for\s+|on\s+)?{_part(1)}"
    # "hotel only for the first 3 nights", "a room just the last 2 nights", "hotel for the first night only"
    rf"|\b{_HOTEL}\s+(?:(?:is\s+|are\s+)?(?:only|just)\s+|needed\s+|required\s+){{0,2}}(?:for\s+|on\s+)?(?:only\s+|just\s+)?{_part(2)}(?:\s+only)?"
    # "the first 3 nights in a hotel", "the last night at a hotel"
    rf"|\b{_part(3)}\s+(?:in|at)\s+(?:a\s+|the\s+)?{_HOTEL}"
    # "staying with friends the last night", "at my sister's for the first 2 nights": those nights have a bed
    rf"|(?P<away>\b(?:stay(?:ing)?|crash(?:ing)?|sleep(?:ing)?)\s+(?:with|at)\s+{_SOMEONE})\s+(?:for\s+|on\s+)?{_part(4)}",
    re.I,
)


def partial_stay(text: str) -> Optional[Tuple[str, int, bool, Tuple[int, int]]]:
    """("first" | "last", nights, whether those nights are the ones without a hotel, span) or None."""
    m = _PARTIAL_STAY.search(text)
    if not m:
        return None
    k = next(k for k in (1, 2, 3, 4) if m.group(f"which{k}"))
    which = "last" if m.group(f"which{k}").lower() in ("last", "final") else "first"
    n = to_int(m.group(f"n{k}")) if m.group(f"n{k}") else 1
    return which, n or 1, bool(m.group("no") or m.group("away")), m.span()


def stay_nights(
    said: Tuple[str, int, bool, Tuple[int, int]], depart: Optional[str], back: Optional[str]
) -> Optional[Tuple[str, str]]:
    """(check-in, check-out) for the part of a trip from ``depart`` to ``back`` said, or None when
    the trip's days are not known or the part is not shorter than the trip."""
    if not depart or not back:
        return None
    start, end = date.fromisoformat(depart), date.fromisoformat(back)
    which, n, without, _ = said
    if not 0 < n < (end - start).days:
        return None
    if without:  # the nights without a hotel are taken off that end of the trip
        start, end = (start + timedelta(days=n), end) if which == "first" else (start, end - timedelta(days=n))
    else:
        start, end = (start, start + timedelta(days=n)) if which == "first" else (end - timedelta(days=n), end)
    return start.isoformat(), end.isoformat()


def apply_partial_stay(
    said: Optional[Tuple[str, int, bool, Tuple[int, int]]], fields: Dict[str, Any], current: Dict[str, Any]
) -> None:
    """Puts the part of the trip said into the first stay (the trip's days read from ``fields``, else the trip)."""
    if said is None:
        return
    segments: List[Any] = ((current.get("itinerary") or {}).get("segments")) or []
    depart = fields.get("depart_date") or (segments[0].get("depart_date") if segments else None)
    back = fields.get("return_date") or (segments[1].get("depart_date") if len(segments) > 1 else None)
    nights = stay_nights(said, depart, back)
    if nights is None:
        return
    stays = fields.get("stays") or [{"location": None, "check_in": None, "check_out": None}]
    stays[0]["check_in"], stays[0]["check_out"] = nights
    fields["stays"] = stays
    fields["hotel_needed"] = True


# "hotel jan 20-23", "hotel from the 5th to the 9th", "room only jan 5-8": the stay's own days
_HOTEL_LEAD = re.compile(
    rf"\b{_HOTEL}\s+(?:(?:only|just|needed|required|is|for|from|on|between)\s+){{0,3}}(?:the\s+)?$", re.I
)


def hotel_days(msg: str, dates: List[Any]) -> List[Any]:
    """The two dates of a range written right after a hotel word, when the message has other days
    as well (the flights'): "phoenix to boston jan 20-25, hotel jan 20-23"; [] otherwise."""
    for i, d in enumerate(dates[:-1]):
        nxt = dates[i + 1]
        if not _HOTEL_LEAD.search(msg[max(0, d.start - 40) : d.start]):
            continue
        if nxt.end - d.start < 40 and RANGE_CUE.match(msg[d.end : nxt.start]) and len(dates) > 2:
            return [d, nxt]
    return []


# "keep the hotel from the 4th", "hotel starting jan 7", "only need the hotel till the 14th": one end of the stay
_HOTEL_END_LEAD = re.compile(
    rf"\b{_HOTEL}\s+(?:(?:only|just|needed|required|is|are)\s+)*"
    r"(?:(?P<start>from|starting(?:\s+(?:on|from))?|beginning|as\s+of)|(?P<end>till|until|til|through|thru))\s+(?:the\s+|on\s+)?$",
    re.I,
)


def hotel_day(msg: str, dates: List[Any]) -> Optional[Tuple[str, Any, Tuple[int, int]]]:
    """("check_in" | "check_out", the date, the words' span) for one day written right after a hotel
    word and "from" or "till", when the message has the trip's two days as well: "boston to LA dec 3-7,
    my flight lands late so keep the hotel from the 4th" (the flights keep their days; "only need the
    hotel from the 11th" is no hotel-only trip); None otherwise."""
    if len(dates) < 3:
        return None
    for d in dates:
        lo = max(0, d.start - 60)
        m = _HOTEL_END_LEAD.search(msg[lo : d.start])
        if m:
            return ("check_in" if m.group("start") else "check_out"), d, (lo + m.start(), d.end)
    return None


# A stay of some nights in one town of several: "3 nights lisbon", "2 nts in porto", "porto for 2 nights",
# and after a first one "then 2 in porto", "then 3 florence"
_NIGHTS = r"(?:nights?|nts?|nites?|days?)"
_TOWN = r"(?P<town>[A-Za-z\u00C0-\u017F][\w\u00C0-\u017F'.-]*(?:\s+[A-Za-z\u00C0-\u017F][\w\u00C0-\u017F'.-]*){0,2})"
# "3 nights (in) lisbon", "2 more nights in porto", and (after a first stay) "2 in porto", "3 florence"
_NIGHTS_FIRST = re.compile(rf"\b(?P<n>{NUMBER_RE})\s+(?P<unit>(?:more\s+)?{_NIGHTS}\s+)?(?:(?:in|at)\s+)?{_TOWN}", re.I)
# "lisbon for 3 nights", "porto 2 nights", "seattle feb 3, 2 nights" (the day masked), and after a first
# stay "then vegas for 2" (a bare number closing its clause: not "vegas for 2 adults")
_TOWN_FIRST = re.compile(
    rf"\b{_TOWN.replace('{0,2})', '{0,2}?)')}\s*,?\s+(?:for\s+)?(?P<n>{NUMBER_RE})"
    rf"(?:\s+(?P<unit>(?:more\s+)?{_NIGHTS})\b|(?=\s*(?:$|[,;.!)]|then\b|and\b|&|->|→)))",
    re.I,
)
# between two stays: "then", ", then", "and then", "followed by", "+", "and", "->"
_STAY_LINK = re.compile(
    r"^(?:\s*(?:from|starting|beginning|on)\b)?"  # "austin 2 nights from feb 1, then ..." (the day masked)
    r"[\s,;.]*(?:(?:and\s+)?then|after\s+that|followed\s+by|and|\+|&|->|→|>)?[\s,]*"
    r"(?:(?:train|drive|bus|ferry|head(?:ing)?|go(?:ing)?|move)\s+(?:on\s+)?(?:to\s+)?)?(?:in\s+)?$",
    re.I,
)


_IN_A_TOWN = re.compile(r"\s+(?:in|at)\s", re.I)
_NIGHTS_WORD = re.compile(rf"\b{_NIGHTS}\b", re.I)
_A_NUMBER = re.compile(rf"\b{NUMBER_RE}\b", re.I)
# words after a number that are never a town ("2 adults", "3 kids", "4 stars")
_NOT_TOWNS = frozenset(
    "adult adults kid kids child children people person persons pax guest guests room rooms star stars night nights "
    "day days week weeks bed beds queen queens king kings twin twins of a an the and or to for pm am".split()
)


def _town(words: str, lookup: Callable[[str], Optional[Dict[str, Any]]]) -> Tuple[Optional[Dict[str, Any]], int]:
    """The town the longest opening of ``words`` names (three words, two, one) and how many characters that is."""
    parts = words.split()
    if not parts or parts[0].lower() in _NOT_TOWNS:
        return None, 0
    for n in range(min(3, len(parts)), 0, -1):
        name = " ".join(parts[:n])
        place = lookup(name)
        if place:
            return place, len(name)
    return None, 0


def split_stays(
    msg: str, lookup: Callable[[str], Optional[Dict[str, Any]]], start: Optional[date]
) -> Optional[List[Dict[str, Any]]]:
    """Stays in two towns or more said by nights, in order ("3 nights lisbon then 2 in porto", "4 nights
    rome then 3 florence", "2 nights in orlando then 3 nights in miami"), each checked in the day the
    one before checks out, the first on ``start``; ``lookup`` names a town. None when fewer than two
    are said in a row or no day is known."""
    if start is None or len(_NIGHTS_WORD.findall(msg)) < 1 or len(_A_NUMBER.findall(msg)) < 2:
        return None  # most messages: no nights said, or one number only
    found: List[Tuple[int, int, Dict[str, Any], int, bool]] = []  # (start, end, town, nights, nights word said)
    for m in _NIGHTS_FIRST.finditer(msg):
        place, size = _town(m.group("town"), lookup)
        if place:
            found.append((m.start(), m.start("town") + size, place, to_int(m.group("n")) or 0, bool(m.group("unit"))))
    for m in _TOWN_FIRST.finditer(msg):
        if "," in msg[m.end("town") : m.start("n")] and _IN_A_TOWN.match(msg, m.end()):
            continue  # "from boston, 2 nights in denver": the nights are the town's after them
        words = m.group("town").split()
        for k in range(len(words)):  # the longest ending that names a town ("then florence": "florence")
            if words[k].lower() in _NOT_TOWNS:
                continue
            place = lookup(" ".join(words[k:]))
            if place:
                lo = m.start("town") + m.group("town").rindex(" ".join(words[k:]))
                found.append((lo, m.end(), place, to_int(m.group("n")) or 0, bool(m.group("unit"))))
                break
    found.sort(key=lambda f: f[0])
    chain: List[Tuple[int, int, Dict[str, Any], int, bool]] = []
    for part in found:
        if chain and part[0] < chain[-1][1]:  # one stay read both ways ("lisbon, 3 nights lisbon"): the longer
            if part[2].get("code") == chain[-1][2].get("code") and part[3] == chain[-1][3]:
                chain[-1] = (*chain[-1][:1], max(part[1], chain[-1][1]), *chain[-1][2:])
            continue
        if not 0 < part[3] <= 30:
            continue
        if chain and _STAY_LINK.match(msg[chain[-1][1] : part[0]]) and part[2].get("code") != chain[-1][2].get("code"):
            chain.append(part)
        elif len(chain) < 2 and part[4]:  # a chain opens with its nights said ("3 nights"), not "2 adults boston"
            chain = [part]
    if len(chain) < 2 or start is None:
        return None
    stays, day = [], start
    for _, _, place, nights, _ in chain:
        out = day + timedelta(days=nights)
        stays.append({"location": place, "check_in": day.isoformat(), "check_out": out.isoformat()})
        day = out
    return stays
