"""Dates and stay lengths in free text, resolved against the traveller's ``today``.

A date without a year is the next such date (today included); "next Tuesday" is the coming
Tuesday, as people booking travel mean it; "the 11th" is the next 11th. Lengths ("for 3
nights", "a week") are returned separately so the caller can turn them into a return or
check-out date once the start is known.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, timedelta
from typing import List, Optional, Tuple

from .text import NUMBER_RE, ORDINAL_WORDS, mask, to_int

MONTHS = {
    "january": 1,
    "jan": 1,
    "february": 2,
    "feb": 2,
    "march": 3,
    "mar": 3,
    "april": 4,
    "apr": 4,
    "may": 5,
    "june": 6,
    "jun": 6,
    "july": 7,
    "jul": 7,
    "august": 8,
    "aug": 8,
    "september": 9,
    "sept": 9,
    "sep": 9,
    "october": 10,
    "oct": 10,
    "november": 11,
    "nov": 11,
    "december": 12,
    "dec": 12,
}
WEEKDAYS = {"monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "saturday": 5, "sunday": 6}
_WD_ABBR = {"mon": 0, "tue": 1, "tues": 1, "wed": 2, "thu": 3, "thur": 3, "thurs": 3, "fri": 4, "sat": 5, "sun": 6}

_MONTH = r"(?P<month>" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_ORD_WORD = "|".join(sorted(ORDINAL_WORDS, key=len, reverse=True)).replace(" ", r"[\s-]")
_DAY = rf"(?P<day>\d{{1,2}}(?:st|nd|rd|th)?|{_ORD_WORD})"
_YEAR = r"(?:,?\s*(?P<year>(?:19|20)\d\d))?"
_WEEKDAY = r"(?P<wd>" + "|".join(list(WEEKDAYS) + sorted(_WD_ABBR, key=len, reverse=True)) + r")\b\.?"

_PATTERNS: List[Tuple[str, re.Pattern[str]]] = [
    ("iso", re.compile(r"\b(?P<year>\d{4})-(?P<month>\d{1,2})-(?P<day>\d{1,2})\b")),
    ("numeric", re.compile(r"\b(?P<month>\d{1,2})/(?P<day>\d{1,2})(?:/(?P<year>\d{4}|\d{2}))?\b")),
    ("month_day", re.compile(rf"\b{_MONTH}\s+(?:the\s+)?{_DAY}\b{_YEAR}", re.I)),
    ("day_month", re.compile(rf"\b(?:the\s+)?{_DAY}\s+(?:day\s+)?(?:of\s+)?{_MONTH}(?!\w){_YEAR}", re.I)),
    ("after_tomorrow", re.compile(r"\b(?:the\s+)?day\s+after\s+tomorrow\b", re.I)),
    ("tomorrow", re.compile(r"\b(?:tomorrow|tmrw|tmr)\b", re.I)),
    ("today", re.compile(r"\b(?:today|tonight|this\s+(?:evening|morning|afternoon))\b", re.I)),
    ("weekend", re.compile(r"\b(?P<rel>this|next|coming)?\s*weekend\b", re.I)),
    (
        "in_n",
        re.compile(
            rf"\bin\s+(?P<n>{NUMBER_RE}|a)\s+(?P<unit>days?|weeks?)\b|\b(?P<n2>{NUMBER_RE}|a)\s+(?P<unit2>days?|weeks?)\s+from\s+(?:now|today)\b",
            re.I,
        ),
    ),
    (
        "weekday",
        re.compile(
            rf"\b(?:(?P<rel>this|next|coming|on)\s+)?(?:(?P<wk1>this|next)\s+week\s+(?:on\s+)?)?{_WEEKDAY}"
            rf"(?:\s+(?:of\s+)?(?P<wk2>this|next)\s+week\b)?",
            re.I,
        ),
    ),
    (
        "ordinal",
        re.compile(
            rf"\b(?:the\s+)?(?P<day>\d{{1,2}})(?:st|nd|rd|th)\b(?:\s+of\s+(?P<rel>this|next)\s+month)?|"
            rf"\bthe\s+(?P<dayw>{_ORD_WORD})\b(?!\s+(?:one|option|bundle|flight|hotel|choice|time|stop|leg|room|day|night|week|place|thing|class))"
            rf"(?:\s+of\s+(?P<relw>this|next)\s+month)?",
            re.I,
        ),
    ),
]

_DURATION = re.compile(
    rf"\b(?P<n>{NUMBER_RE}|a\s+couple\s+of|a\s+few)[\s-]+(?P<unit>nights?|days?|weeks?)\b(?!\s+(?:ago|from\s+now|from\s+today|later))"
    r"|\b(?:a|one)\s+(?P<fort>fortnight)\b",
    re.I,
)


@dataclass(frozen=True)
class DateMention:
    start: int
    end: int
    value: date
    text: str = ""
    floating: bool = False  # "the 2nd": the next such day, which may be counted from another day

    def after(self, day: date) -> date:
        """The value counted from ``day`` instead of today ("back the 2nd" after a January 30 departure)."""
        if not self.floating or self.value >= day:
            return self.value
        again = find_dates(self.text, day)[0]
        return again[0].value if again else self.value


@dataclass(frozen=True)
class Duration:
    start: int
    end: int
    nights: int


def _day_number(raw: Optional[str]) -> Optional[int]:
    if not raw:
        return None
    raw = raw.lower().replace("-", " ")
    raw = re.sub(r"\s+", " ", raw)
    if raw in ORDINAL_WORDS:
        return ORDINAL_WORDS[raw]
    digits = re.match(r"\d+", raw)
    return int(digits.group(0)) if digits else None


def _safe(y: Optional[int], m: int, d: int) -> Optional[date]:
    if y is None or not (1 <= m <= 12 and 1 <= y <= 9999) or not (1 <= d <= calendar.monthrange(y, m)[1]):
        return None
    return date(y, m, d)


def next_month_day(today: date, month: int, day: int) -> Optional[date]:
    """The next ``month``/``day`` on or after ``today``."""
    for year in (today.year, today.year + 1, today.year + 4):
        d = _safe(year, month, day)
        if d and d >= today:
            return d
    return None


def next_day_of_month(today: date, day: int, month_offset: int = 0) -> Optional[date]:
    """The next date whose day of the month is ``day`` (today included)."""
    y, m = today.year, today.month + month_offset
    for _ in range(14):
        y2, m2 = y + (m - 1) // 12, (m - 1) % 12 + 1
        d = _safe(y2, m2, day)
        if d and d >= today:
            return d
        m += 1
    return None


def _year(raw: Optional[str]) -> Optional[int]:
    if not raw:
        return None
    y = int(raw)
    return y + 2000 if y < 100 else y


def _resolve(kind: str, m: re.Match[str], today: date) -> Optional[date]:
    g = m.groupdict()
    if kind == "iso":
        return _safe(int(g["year"]), int(g["month"]), int(g["day"]))
    if kind == "numeric":
        month, day, year = int(g["month"]), int(g["day"]), _year(g.get("year"))
        return _safe(year, month, day) if year else next_month_day(today, month, day)
    if kind in ("month_day", "day_month"):
        month, day, year = MONTHS[g["month"].lower().rstrip(".")], _day_number(g["day"]), _year(g.get("year"))
        if kind == "month_day" and g["month"].lower() == "may" and not re.search(r"\d", g["day"] or ""):
            return None  # "may the first one..." is not a date
        if day is None:
            return None
        return _safe(year, month, day) if year else next_month_day(today, month, day)
    if kind == "today":
        return today
    if kind == "tomorrow":
        return today + timedelta(days=1)
    if kind == "after_tomorrow":
        return today + timedelta(days=2)
    if kind == "weekend":
        ahead = (5 - today.weekday()) % 7
        if (g.get("rel") or "").lower() == "next" and today.weekday() >= 5:
            ahead += 7
        return today + timedelta(days=ahead)
    if kind == "in_n":
        n = to_int(g.get("n") or g.get("n2"))
        unit = (g.get("unit") or g.get("unit2") or "").lower()
        if n is None:
            return None
        return today + timedelta(days=n * (7 if unit.startswith("week") else 1))
    if kind == "weekday":
        wd_raw = g["wd"].lower().rstrip(".")
        target = WEEKDAYS.get(wd_raw, _WD_ABBR.get(wd_raw))
        if target is None:
            return None
        if wd_raw in _WD_ABBR and not g.get("rel") and not m.group(0)[0].isupper():
            return None  # "sun", "sat", "wed" in lower case are usually words
        week = (g.get("wk1") or g.get("wk2") or "").lower()
        if week == "next":  # "Thursday next week": that day in the coming calendar week
            return today + timedelta(days=7 - today.weekday() + target)
        ahead = (target - today.weekday()) % 7
        if ahead == 0 and (g.get("rel") or "").lower() in ("next", "coming", "on"):
            ahead = 7
        return today + timedelta(days=ahead)
    if kind == "ordinal":
        day = _day_number(g.get("day") or g.get("dayw"))
        rel = (g.get("rel") or g.get("relw") or "").lower()
        if day is None:
            return None
        return next_day_of_month(today, day, 1 if rel == "next" else 0)
    return None


# Kinds whose value is "the next such day of the month" (as opposed to "tomorrow" or "March 2").
_FLOATING = frozenset({"ordinal"})


def find_dates(text: str, today: date) -> Tuple[List[DateMention], str]:
    """Dates in ``text`` in order, and the text with them masked out."""
    found: List[DateMention] = []
    masked = text
    for kind, pattern in _PATTERNS:
        for m in pattern.finditer(masked):
            value = _resolve(kind, m, today)
            if value is not None:
                floating = kind in _FLOATING and not m.groupdict().get("year")
                found.append(DateMention(m.start(), m.end(), value, m.group(0), floating))
        masked = mask(masked, [(d.start, d.end) for d in found])
    found.sort(key=lambda d: d.start)
    return found, masked


def find_durations(text: str) -> List[Duration]:
    """Stay lengths ("3 nights", "a week", "twelve days") in order."""
    out = []
    for m in _DURATION.finditer(text):
        if m.group("fort"):
            out.append(Duration(m.start(), m.end(), 14))
            continue
        raw = m.group("n").lower()
        n = 2 if raw.startswith("a couple") else 3 if raw.startswith("a few") else to_int(raw)
        if n is None or n <= 0 or n > 90:
            continue
        unit = m.group("unit").lower()
        out.append(Duration(m.start(), m.end(), n * 7 if unit.startswith("week") else n))
    return out
