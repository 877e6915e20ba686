"""A slip put right inside the message: "Jan 8 - sorry, Jan 9", "to Seattle, oops I meant Portland",
"march 2-5, wait no, march 3-6", "2 adults ... actually make that 3 adults".

The message is rewritten before it is read: the corrected day, place or count takes the place of the
one it corrects, and the correction itself is taken out, so every reader sees one trip. A correction
corrects the same kind of thing written just before it (a day, a place, or a count of people); for
"i meant" / "make that" the last one of its kind anywhere before it. Nothing else is changed."""

from __future__ import annotations

import re
from typing import Callable, List, Optional, Tuple

from .places import find_places

_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_DAY = r"\d{1,2}(?:st|nd|rd|th)?"
_DAYS = rf"{_DAY}(?:\s*(?:-|to|through|thru)\s*(?:{_MONTH}\s+)?{_DAY})?"
_DATE = re.compile(
    rf"(?:(?:on|the)\s+)?(?:{_MONTH}\s+{_DAYS}|{_DAYS}\s+(?:of\s+)?{_MONTH}|\d{{1,2}}/\d{{1,2}}(?:/\d{{2,4}})?"
    rf"(?:\s*-\s*\d{{1,2}}/\d{{1,2}}(?:/\d{{2,4}})?)?|the\s+{_DAY}|(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?)\b",
    re.I,
)
_COUNT = re.compile(
    r"\b\d{1,2}\s+(?:adults?|people|persons?|ppl|pax|travell?ers?|passengers?|of\s+us|kids?|children|infants?|babies|rooms?)\b",
    re.I,
)
# the words that take back what was just written ("sorry", "oops", "wait no"), then those that bring in
# the right one ("i meant", "make that"); either may come alone
_SLIP = r"\b(?:(?:no\s*,?\s*)?sorry|no(?=\s*,\s*\w)|actually|oops|whoops|woops|wait(?:\s*,?\s*no)?|no\s*,?\s*wait|erm?|err|correction|my\s+bad|typo|scratch\s+that|no\s+no)\b"
_MEANT = r"\b(?:(?:i|we)\s+meant?|i\s+mean|(?:actually\s+)?make\s+(?:that|it)|should\s+(?:be|say|read))\b"
_MARKER = re.compile(
    rf"[\s,;.!-]*(?:{_SLIP}[\s,;:.!-]*(?P<meant1>{_MEANT}[\s,:]*)?|(?P<meant2>{_MEANT})[\s,:]*)",
    re.I,
)
_CUE = re.compile(rf"{_SLIP}|{_MEANT}", re.I)
_MONTH_AFTER = re.compile(rf"[\s,-]*of\s+{_MONTH}", re.I)
# what may stand before the right value: "sorry, to Portland", "I meant from Providence"
_LEADS = frozenset({"", "to", "from", "in", "into", "on", "for"})
_GAP = re.compile(r"[\s,;.:!-]*$")

Span = Tuple[int, int]


def _dates(text: str) -> List[Span]:
    return [m.span() for m in _DATE.finditer(text)]


def _counts(text: str) -> List[Span]:
    return [m.span() for m in _COUNT.finditer(text)]


def _places(text: str) -> List[Span]:
    return [(m.start, m.end) for m in find_places(text)]


_KINDS: List[Tuple[str, Callable[[str], List[Span]]]] = [("date", _dates), ("count", _counts), ("place", _places)]


def self_corrected(msg: str) -> str:
    """``msg`` with each slip it puts right replaced by the right value (see the module docstring)."""
    if not _CUE.search(msg):
        return msg
    for _ in range(3):  # a message puts right at most a few slips
        fixed = _one_correction(msg)
        if fixed is None:
            return msg
        msg = fixed
    return msg


# "Boston to Denver, sorry, from Providence to Denver", "BOS to ORD, no wait, ORD to BOS": a whole route said
# again puts right the route just before the slip (a hesitation such as "no," "um" may stand between)
_ROUTE_GAP = re.compile(r"\s*(?:to|-|–|->|→|>)\s*", re.I)
_HESITATION = re.compile(r"[\s,;.:!-]*(?:(?:no|nope|oh|ah|um+|uh+|hmm+)\b[\s,;.:!-]*)*", re.I)


def _route_again(before: str, after: str) -> Optional[str]:
    said = find_places(after[:80])
    if len(said) < 2 or after[: said[0].start].strip(" ,").lower() not in ("", "from"):
        return None
    if not _ROUTE_GAP.fullmatch(after[said[0].end : said[1].start]):
        return None
    old = find_places(before)
    if len(old) < 2 or not _ROUTE_GAP.fullmatch(before[old[-2].end : old[-1].start]):
        return None
    if not _HESITATION.fullmatch(before[old[-1].end :]):
        return None
    return before[: old[-2].start] + after[said[0].start :]


def _one_correction(msg: str) -> Optional[str]:
    for marker in _MARKER.finditer(msg):
        meant = marker.group("meant1") or marker.group("meant2")
        after = msg[marker.end() :]
        before = msg[: marker.start()]
        route = _route_again(before, after)
        if route is not None:
            return route
        for kind, spans in _KINDS:
            right = next(iter(spans(after[:40])), None)  # the right value opens what follows
            lead = after[: right[0]].strip(" ,").lower() if right else ""
            if right is None or lead not in _LEADS or (lead and marker.group(0).strip(" ,;.!-").lower() == "actually"):
                continue  # "to denver, actually from boston" adds the origin; "to denver, actually boston" corrects
            # the wrong one: just before (a clause's worth of text), or for "i meant" anywhere before
            start = 0 if meant or kind == "count" else max(0, len(before) - 60)
            said = [(a + start, b + start) for a, b in spans(before[start:])]
            adjacent = [s for s in said if _GAP.fullmatch(before[s[1] :])]
            wrong = adjacent[-1] if adjacent else (said[-1] if said and (meant or kind == "count") else None)
            if kind == "place" and lead == "from" and said:
                wrong = said[0]  # "boston to denver, sorry, from providence": the origin put right
            if wrong is None:
                continue
            value = after[right[0] : right[1]]
            rest = after[right[1] :]
            if _MONTH_AFTER.match(rest):  # "the 9th - i mean the 10th - of january": the month still follows
                rest = " " + rest.lstrip(" -,")
            return before[: wrong[0]] + value + before[wrong[1] :] + rest
    return None
