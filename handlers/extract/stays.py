"""A hotel for part of the trip: "hotel only for the first 3 nights", "hotel for the last 2 nights",
"no hotel for the last night (staying w friends)", "we don't need a room the first night".

The flights keep their days; the stay is the nights said, counted from the outbound day (the first
nights) or back from the return day (the last nights). A hotel for part of the trip is still a
hotel: the words are not read as "no hotel", "hotel only" or a trip of that many nights."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any, Dict, List, Optional, Tuple

from .cues import RANGE_CUE
from .text import NUMBER_RE, to_int

_HOTEL = r"(?:hotels?|rooms?|accommodations?|lodging|place\s+to\s+stay)"


def _part(k: int) -> str:
    return rf"(?:the\s+)?(?P<which{k}>first|last|final|1st)\s+(?:(?P<n{k}>{NUMBER_RE})\s+)?nights?\b"


_PARTIAL_STAY = re.compile(
    # "no hotel for the last night", "don't need a room the first night"
    rf"(?P<no>\bno\s+{_HOTEL}|\b(?:don'?t|do\s+not|won'?t)\s+need\s+(?:a\s+|the\s+|any\s+)?{_HOTEL})\s+(?:needed\s+|required\s+)?"
    rf"(?:for\s+|on\s+)?{_part(1)}"
    # "hotel only for the first 3 nights", "a room just the last 2 nights", "hotel for the first night only"
    rf"|\b{_HOTEL}\s+(?:(?:is\s+|are\s+)?(?:only|just)\s+|needed\s+|required\s+){{0,2}}(?:for\s+|on\s+)?(?:only\s+|just\s+)?{_part(2)}(?:\s+only)?"
    # "the first 3 nights in a hotel", "the last night at a hotel"
    rf"|\b{_part(3)}\s+(?:in|at)\s+(?:a\s+|the\s+)?{_HOTEL}",
    re.I,
)


def partial_stay(text: str) -> Optional[Tuple[str, int, bool, Tuple[int, int]]]:
    """("first" | "last", nights, whether those nights are the ones without a hotel, span) or None."""
    m = _PARTIAL_STAY.search(text)
    if not m:
        return None
    k = next(k for k in (1, 2, 3) if m.group(f"which{k}"))
    which = "last" if m.group(f"which{k}").lower() in ("last", "final") else "first"
    n = to_int(m.group(f"n{k}")) if m.group(f"n{k}") else 1
    return which, n or 1, bool(m.group("no")), m.span()


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
