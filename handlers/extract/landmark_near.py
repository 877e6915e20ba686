"""A hotel wished near a well-known place named anywhere in the message: "for a conference at
McCormick Place, hotel close by", "4 star on the strip", "hotel near times sq w/ breakfast".

The places are ``handlers.common.landmarks.LANDMARKS``. Words several places share ("the
convention center", "disneyland") are kept as said, to be placed in the stay's city.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cache
from typing import Dict, List, Optional, Tuple

from ..common import geo
from ..common.landmarks import CENTRES, LANDMARKS, REACH_KM, Landmark, km
from .places import Mention, lookup

# A landmark's words (two words, or one of six letters or more: "moscone", "javits") -> its name when they name one place only
_SHARED = Counter(w for mark in LANDMARKS for w in set(mark.words))
_NAMED: Dict[str, str] = {
    w: mark.name if _SHARED[w] == 1 else w for mark in LANDMARKS for w in mark.words if " " in w or len(w) >= 6
}
# parts of town a hotel is "in" ("a hotel in midtown"); other landmarks a hotel is near
_DISTRICTS = frozenset(w for mark in LANDMARKS for w in mark.words if mark.district)
_NAMED.update({w: mark.name for mark in LANDMARKS for w in mark.words if mark.district and w not in _NAMED})
_LONGEST_FIRST = sorted(_NAMED, key=len, reverse=True)
# nearness said without the place: "a conference at McCormick Place, hotel close by"
_CLOSE = re.compile(
    r"\b(?:near(?:by|er)?|close(?:\s+by|r)?|walk(?:ing|able)?|next\s+to|steps\s+from|minutes?\s+from)\b"
)
# "on the strip", "on the vegas strip", "along the strip": the Las Vegas Strip
_ON_THE_STRIP = re.compile(r"\b(?:on|along|off)\s+the\s+(?:las\s+vegas\s+|vegas\s+)?strip\b")
# a landmark said as where the hotel should be: "by disneyland", "near the orange county convention center"
_NEAR_CUE = (
    r"\b(?P<cue>near(?:by)?|close\s+to|closer\s+to|next\s+to|by|at|in|walking\s+distance\s+(?:to|from|of)|steps\s+from"
    r"|minutes?\s+from)\s+(?:the\s+)?"
)


def _named(low: str) -> List[str]:
    """The landmark words in ``low`` (lower case), longest first, whole words only: a substring test
    first, since most messages name none and one pattern of every name costs a hundred microseconds."""
    return [w for w in _LONGEST_FIRST if w in low and _whole(w).search(low)]


@cache
def _whole(words: str) -> re.Pattern[str]:
    return re.compile(rf"\b{re.escape(words)}\b")


@cache
def _as_near(words: str) -> re.Pattern[str]:
    return re.compile(rf"{_NEAR_CUE}(?P<what>{re.escape(words)})\b")


def landmark_near(text: str) -> Optional[str]:
    """The well-known place the hotel should be near, as the card names it ("McCormick Place"), when
    the message names one with a word of nearness; None otherwise."""
    low = text.lower()
    if "strip" in low and _ON_THE_STRIP.search(low):
        return "the Las Vegas Strip"
    for words in _named(low):
        for m in _as_near(words).finditer(low):
            # "hotel near times sq", "staying in midtown"; "a conference at McCormick Place" with
            # nearness said elsewhere ("hotel close by")
            if (
                m.group("cue") not in ("at", "in")
                or m.group("cue") == "in"
                and words in _DISTRICTS
                or _CLOSE.search(low)
            ):
                return _NAMED[words]
    return None


# A kind of area wished instead of a place: "by the water", "in the old town", "a waterfront hotel",
# "near the lake", "somewhere in the historic center" (``landmarks.area_kind`` places it in the stay's city)
_NAMED_AFTER = r"(?!,?\s+(?:(?-i:[A-Z])|alexandria\b|scottsdale\b|san\s+diego\b|maine\b))"  # "Old Town Alexandria"
_KIND = re.compile(
    r"\b(?:in|on|by|near|at|around|along|close\s+to|next\s+to|right\s+on)\s+(?:the\s+)?(?P<what>"
    r"old\s+(?:town|city|quarter|part\s+of\s+town)|historic(?:al)?\s+(?:cent(?:er|re)|district|old\s+town|area|part\s+of\s+town)"
    rf"|water(?:front)?|lake(?:front|shore)?|harbou?r(?:front)?|river(?:front)?|marina)\b{_NAMED_AFTER}"
    r"|\b(?P<adj>water|lake|harbou?r|river)[\s-]?front\b"
    rf"|(?<!\bto\s)(?<!\bfrom\s)\b(?P<bare>old\s+town|historic\s+cent(?:er|re))\b{_NAMED_AFTER}",
    re.I,
)


def area_kind_said(text: str) -> Optional[Tuple[str, Tuple[int, int]]]:
    """("the old town", its span) for a kind of area wished for the hotel ("by the water" -> "the
    water", "a lakefront hotel" -> "the lakefront"); None when the message names none."""
    m = _KIND.search(text)
    if m is None:
        return None
    if m.group("adj"):
        return f"the {m.group('adj').lower()}front", m.span()
    what = m.group("what") or m.group("bare")
    span = m.span("what") if m.group("what") else m.span("bare")
    return "the " + " ".join(what.lower().replace("historical", "historic").split()), span


def landmark_spans(text: str) -> List[Tuple[int, int]]:
    """Where ``text`` names a landmark as where the hotel should be ("hotel by disneyland", "near
    the orange county convention center"): spans the route reader skips, so the town in a landmark's
    name is not read as the trip's origin or destination ("to disneyland" is still a destination)."""
    low = text.lower()
    return [m.span("what") for w in _named(low) for m in _as_near(w).finditer(low)]


# A venue named without its town ("a conference at moscone center", "a show at msg", "cubs game at wrigley"):
# the words of one landmark only, long enough not to be a word ("msg", "lvcc": only after "at"), and no
# part of town a hotel is "in"; words that are also plain words do not count ("universal", "capitol")
_VENUES: Dict[str, Landmark] = {
    w: mark
    for mark in LANDMARKS
    for w in mark.words
    if _SHARED[w] == 1 and not mark.district and w not in ("universal", "capitol", "loop", "strip", "broadway")
}
_VENUES_LONGEST_FIRST = sorted(_VENUES, key=len, reverse=True)
_AT = re.compile(r"\b(?:at|@)\s+(?:the\s+)?$")


def venue_town(text: str) -> Optional[Tuple[Tuple[int, int], Landmark, str]]:
    """(its span, the venue, the town whose centre is nearest it) for the first well-known venue the
    message names, whatever its town; None when it names none or the desk knows no town near it."""
    low = text.lower()
    for words in _VENUES_LONGEST_FIRST:
        if words not in low:
            continue
        for m in _whole(words).finditer(low):
            if (" " in words or len(words) >= 6) or _AT.search(low[: m.start()]):
                mark = _VENUES[words]
                (town, _country), (lat, lon) = min(
                    CENTRES.items(), key=lambda c: km(c[1][0], c[1][1], mark.lat, mark.lon)
                )
                if km(lat, lon, mark.lat, mark.lon) <= REACH_KM:
                    return m.span(), mark, town
    return None


def venue_placed(text: str, places: List[Mention]) -> List[Mention]:
    """The places, with the town of a well-known venue named without it ("a show at msg from chicago": New York)
    when no place named lies near the venue."""
    venue = venue_town(text)
    town = lookup(venue[2]) if venue else None
    if venue is None or town is None:
        return places
    (start, end), mark, name = venue
    for p in places:
        there = geo.place(str(p.place.get("code") or ""))
        if there and km(float(there["lat"]), float(there["lon"]), mark.lat, mark.lon) <= REACH_KM:
            return places  # "hotel near times square in nyc": the town is said
    said = Mention(start, end, town, f"Assumed {name} for {mark.name}")
    return sorted([*places, said], key=lambda m: m.start)
