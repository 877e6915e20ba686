"""Who travels and how many rooms: "4 people", "me and my wife", "2 adults and a child (age 5)"."""

from __future__ import annotations

import re
from typing import Any, Dict, List, Optional

from .text import NUMBER_RE, to_int

_N = rf"(?P<n>{NUMBER_RE})"
_ADULTS = re.compile(rf"\b{_N}\s+(?:more\s+)?(?:adults?|grown[- ]?ups?)\b", re.I)
_CHILDREN = re.compile(
    rf"\b{_N}\s+(?:little\s+|young\s+|small\s+)?(?:children|child|kids?|minors?|teens?|teenagers?)\b", re.I
)
_INFANTS = re.compile(rf"\b{_N}\s+(?:infants?|babies|baby|toddlers?|lap\s+infants?)\b", re.I)
_CABIN_WORDS = r"(?:(?:premium\s+)?(?:economy|business|first|coach)(?:\s+class)?\s+)?"
_PEOPLE = re.compile(
    rf"\b(?P<n1>{NUMBER_RE})\s+(?:peoples?|persons?|person|total|in\s+total|travell?ers?|passengers?|pax|guests?|individuals|of\s+us|members|"
    rf"reservations|(?:one[\s-]?way\s+|round[\s-]?trip\s+|return\s+)?{_CABIN_WORDS}(?:plane\s+|airline\s+|flight\s+)?"
    rf"(?:tickets?|seats?)|"
    rf"adults?\s+tickets?|in\s+(?:my|our|the)\s+(?:group|party|team))\b"
    rf"|\b(?:group|party|team)\s+(?:has|is|of|will\s+be)\s+(?P<n6>{NUMBER_RE})\b"
    rf"|\b(?:party|group|family|team)\s+of\s+(?P<n2>{NUMBER_RE})\b|\bwe\s+(?:are|'re)\s+(?P<n3>{NUMBER_RE})\b(?!\s*(?:nights?|days?|stars?))"
    rf"|\bthere\s+(?:are|will\s+be)\s+(?P<n4>{NUMBER_RE})\s+of\s+us\b|\b(?:for|book)\s+(?P<n5>(?!(?:a|an|no)\b){NUMBER_RE})\b(?!\s*(?:nights?|days?|weeks?|months?|stars?|rooms?|beds?|bags?|am\b|pm\b|%|percent|"
    rf"dollars|usd|bucks|hours?|minutes?|o'?clock|st\b|nd\b|rd\b|th\b|[.:/]\d|\d|-|of\s+(?:the|these|those|them)|more|way|stop))",
    re.I,
)
_SOLO = re.compile(
    r"\b(?:just\s+(?:be\s+)?me|only\s+(?:be\s+)?me|me\s+alone|just\s+myself|by\s+myself|on\s+my\s+own|travell?ing\s+alone|alone|solo|one\s+person)\b",
    re.I,
)
_COMPANION = re.compile(
    r"\b(?:my|our)\s+(?:wife|husband|partner|spouse|girlfriend|boyfriend|fianc[eé]e?|friend|colleague|coworker|"
    r"co-worker|boss|mom|mother|dad|father|brother|sister|mum|roommate|assistant|manager)\b",
    re.I,
)
_SELF_WITH = re.compile(
    r"\b(?:me\s+and|and\s+(?:I|me)\b|with\s+(?:my|our|me)\b|i\s+and|bringing|including\s+(?:me|myself))", re.I
)
_GROUP_COMPANIONS = re.compile(
    rf"\b{_N}\s+(?:more\s+)?(?:friends?|colleagues?|coworkers?|co-workers?|others|other\s+(?:people|persons?|travell?ers|adults))\b",
    re.I,
)
_AGES = re.compile(
    r"\b(?:aged?|ages)\s+(?P<list>\d{1,2}(?:\s*(?:,|and|&)\s*\d{1,2})*)|\b(?P<one>\d{1,2})[- ]years?[- ]old\b", re.I
)
_ROOMS = re.compile(
    rf"\b(?!(?:a|an)\b){_N}\s+(?:(?:hotel|separate|double|single|twin|available|more|free|adjoining|king|queen)\s+)?rooms?\b",
    re.I,
)


def _count(pattern: re.Pattern[str], text: str) -> Optional[int]:
    """The sum over every mention ("1 child ... and another 2 children")."""
    total = None
    for m in pattern.finditer(text):
        n = to_int(m.group("n"))
        if n is not None and 0 < n <= 20:
            total = (total or 0) + n
    return total


def read_party(text: str) -> Dict[str, Any]:
    """{"adults", "children", "infants", "child_ages", "rooms"}; None where the text says nothing."""
    adults = _count(_ADULTS, text)
    children = _count(_CHILDREN, text)
    infants = _count(_INFANTS, text)
    if adults is None:
        people = _first(_PEOPLE, text)
        if people is not None:
            adults = (
                max(1, people - (children or 0) - (infants or 0))
                if (children or infants) and people > (children or 0)
                else people
            )
    if adults is None:
        companions = len(_COMPANION.findall(text)) + (_count(_GROUP_COMPANIONS, text) or 0)
        if companions and _SELF_WITH.search(text):
            adults = 1 + companions
        elif _SOLO.search(text):
            adults = 1
    ages: List[int] = []
    for m in _AGES.finditer(text):
        ages += [int(x) for x in re.findall(r"\d+", m.group("list") or m.group("one") or "")]
    ages = [a for a in ages if 0 <= a < 18]
    if ages and children is None:
        children = len(ages)
    return {
        "adults": adults,
        "children": children,
        "infants": infants,
        "child_ages": ages or None,
        "rooms": _first(_ROOMS, text),
    }


def _first(pattern: re.Pattern[str], text: str) -> Optional[int]:
    """The last number the text gives for this pattern (people correct themselves: "2, no 3 rooms")."""
    value = None
    for m in pattern.finditer(text):
        n = to_int(next((v for v in m.groupdict().values() if v), None))
        if n is not None and 0 < n <= 20:
            value = n
    return value
