"""Dates and stay lengths in free text, resolved against the traveller's ``today``.

A date without a year is the next such date (today included); "next Tuesday" is the coming
Tuesday, as people booking travel mean it, unless that is in this same week (Monday to Sunday)
and at most two days away: said on a Thursday, "next Friday" is the Friday of next week (tomorrow
would be "Friday" or "tomorrow"), said on a Saturday, "next Monday" is the coming Monday. The
reading of "next <day>" is always said back to the traveller (``next_weekday_said``).
"the 11th" is the next 11th. Lengths ("for 3
nights", "a week") are returned separately so the caller can turn them into a return or
check-out date once the start is known.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass, replace
from datetime import date, timedelta
from typing import List, Optional, Tuple

from .cues import RETURN_CUE
from .events import event_weekends
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
# Month names in the languages travellers here write most after English ("2 mars - 9 mars", "15. Januar",
# "el 3 de abril"): read only with a day, as every month is
_FOREIGN_MONTHS = {
    "enero": 1, "janvier": 1, "januar": 1, "gennaio": 1, "janeiro": 1,
    "febrero": 2, "février": 2, "fevrier": 2, "februar": 2, "febbraio": 2, "fevereiro": 2,
    "marzo": 3, "mars": 3, "märz": 3, "marz": 3, "março": 3,
    "abril": 4, "avril": 4, "aprile": 4,
    "mayo": 5, "mai": 5, "maggio": 5, "maio": 5,
    "junio": 6, "juin": 6, "juni": 6, "giugno": 6, "junho": 6,
    "julio": 7, "juillet": 7, "juli": 7, "luglio": 7, "julho": 7,
    "agosto": 8, "août": 8, "aout": 8,
    "septiembre": 9, "septembre": 9, "settembre": 9, "setembro": 9,
    "octubre": 10, "octobre": 10, "oktober": 10, "ottobre": 10, "outubro": 10,
    "noviembre": 11, "novembre": 11, "novembro": 11,
    "diciembre": 12, "décembre": 12, "decembre": 12, "dezember": 12, "dicembre": 12, "dezembro": 12,
}  # fmt: skip
MONTHS.update(_FOREIGN_MONTHS)
WEEKDAYS = {"monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "saturday": 5, "sunday": 6}
_WD_ABBR = {"mon": 0, "tue": 1, "tues": 1, "wed": 2, "thu": 3, "thur": 3, "thurs": 3, "fri": 4, "sat": 5, "sun": 6}
# Short days that are words too ("we wed in june", "the sun", "sat down", "c'mon"): days in lower case only
# beside a cue; "fri", "thu", "tue" are days wherever they stand
_WORD_ABBR = frozenset({"wed", "sat", "sun", "mon"})
# ...or beside another day of the week said ("Austin wed then back fri")
_OTHER_DAY = re.compile(
    r"\b(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|satur|sun)day|tues?|thu(?:rs?)?|fri|next\s+week|this\s+week)\b",
    re.I,
)

_MONTH_WORDS = "|".join(sorted(MONTHS, key=len, reverse=True))
_MONTH = r"(?P<month>" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_ORD_WORD = "|".join(sorted(ORDINAL_WORDS, key=len, reverse=True)).replace(" ", r"[\s-]")
_DAY = rf"(?P<day>\d{{1,2}}(?:st|nd|rd|th)?|{_ORD_WORD})"
_YEAR = r"(?:,?\s*(?P<year>(?:19|20)\d\d))?"
_WEEKDAY = r"(?P<wd>" + "|".join(list(WEEKDAYS) + sorted(_WD_ABBR, key=len, reverse=True)) + r")\b\.?"

# Days people name instead of dating: fixed ones (month, day) and US holidays by rule
# (month, weekday, nth; nth -1 = the last one in the month).
_FIXED_DAYS = {
    "christmas eve": (12, 24),
    "christmas": (12, 25),
    "christmas day": (12, 25),
    "xmas": (12, 25),
    "boxing day": (12, 26),
    "new year's eve": (12, 31),
    "new years eve": (12, 31),
    "nye": (12, 31),
    "new year's day": (1, 1),
    "new years day": (1, 1),
    "new year's": (1, 1),
    "valentine's day": (2, 14),
    "valentines day": (2, 14),
    "valentine's": (2, 14),
    "st patrick's day": (3, 17),
    "independence day": (7, 4),
    "fourth of july": (7, 4),
    "4th of july": (7, 4),
    "july 4th": (7, 4),
    "july fourth": (7, 4),
    "halloween": (10, 31),
    "veterans day": (11, 11),
    "cinco de mayo": (5, 5),
    "juneteenth": (6, 19),
}
_RULE_DAYS = {
    "mlk day": (1, 0, 3),
    "martin luther king day": (1, 0, 3),
    "presidents day": (2, 0, 3),
    "presidents' day": (2, 0, 3),
    "memorial day": (5, 0, -1),
    "labor day": (9, 0, 1),
    "labour day": (9, 0, 1),
    "columbus day": (10, 0, 2),
    "thanksgiving": (11, 3, 4),
    "thanksgiving day": (11, 3, 4),
    "easter": (0, 6, 0),  # month 0: counted from Easter Sunday (the weekday and nth are unused)
    "easter sunday": (0, 6, 0),
    "easter monday": (0, 0, 1),
    "good friday": (0, 4, -2),
    # days of events, which the traveller is told as read ("Taking mardi gras as Tue Feb 9")
    "mardi gras": (0, 1, -47),
    "fat tuesday": (0, 1, -47),
    "ash wednesday": (0, 2, -46),
    "carnival": (0, 5, -50),  # Rio's: the Saturday to Fat Tuesday; the day it starts
    "carnaval": (0, 5, -50),
    "kentucky derby": (5, 5, 1),
    "boston marathon": (4, 0, 3),  # Patriots' Day
    "marathon monday": (4, 0, 3),
}
_EVENT_DAYS = frozenset(list(_RULE_DAYS)[list(_RULE_DAYS).index("mardi gras") :])  # told as read
_NAMED_RE = "|".join(
    re.escape(k).replace("'", "'?").replace(r"\ ", r"\s+")
    for k in sorted({**_FIXED_DAYS, **_RULE_DAYS}, key=len, reverse=True)
).replace("carnival", r"carnival(?!\s+(?:cruises?|lines?|ships?|corp\w*|games?|rides?))")  # a cruise line, a fair

# A part of a month said instead of a day ("mid March", "early april", "the first week of Feb"):
# read as one day in it, which the traveller is told (``DateMention.period``).
_PERIOD = (
    r"(?:(?:in\s+)?(?:the\s+)?(?P<edge>early|mid|middle\s+of|late|(?:the\s+)?(?:very\s+)?end\s+of|"
    r"(?:the\s+)?(?:beginning|start)\s+of)[\s-]*"
    r"|(?:the\s+)?(?P<nth>first|1st|second|2nd|third|3rd|fourth|4th|last)\s+week\s+(?:of|in)\s+)"
)
_PERIOD_DAY = {"early": 5, "mid": 15, "middle": 15, "late": 25, "end": -3, "beginning": 1, "start": 1}
_WEEK_DAY = {"first": 1, "1st": 1, "second": 8, "2nd": 8, "third": 15, "3rd": 15, "fourth": 22, "4th": 22, "last": -6}

# A weekend named by its place in a month ("the 3rd weekend of January": its 3rd Saturday) or by the
# holiday it holds ("MLK weekend", "a long weekend over Presidents Day": Saturday to the Monday off).
_NTH = r"first|1st|second|2nd|third|3rd|fourth|4th|last"
_NTH_SATURDAY = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "last": -1}
_HOLIDAY_SHORT = {
    "mlk": "mlk day",
    "martin luther king": "mlk day",
    "presidents": "presidents day",
    "president's": "presidents day",
    "presidents'": "presidents day",
    "memorial": "memorial day",
    "labor": "labor day",
    "labour": "labor day",
    "columbus": "columbus day",
}
_HOLIDAY_NAME = "|".join(
    [re.escape(k).replace(r"\ ", r"\s+") for k in sorted(_HOLIDAY_SHORT, key=len, reverse=True)] + [_NAMED_RE]
)
_HOLIDAY_WEEKEND = re.compile(
    rf"\b(?:the\s+)?(?P<name>{_HOLIDAY_NAME})(?:\s+day)?\s+(?:long\s+)?weekend\b"
    rf"|\b(?:a\s+|the\s+)?long\s+weekend\s+(?:over|for|on|of|around)\s+(?:the\s+)?(?P<name2>{_HOLIDAY_NAME})(?:\s+day)?\b",
    re.I,
)
# A holiday said as a span rather than a day: "thanksgiving week", "christmas break" (the week it falls
# in, from the Saturday before), "over christmas", "for thanksgiving", "over new year's" (the days around
# it that people travel: _AROUND_HOLIDAY). Always told back; "spring break" names no dates and is asked.
_SPAN_HOLIDAYS = r"christmas|xmas|thanksgiving|new\s+year'?s?|easter"
_HOLIDAY_SPAN_SAID = re.compile(
    rf"\b(?:the\s+)?(?P<name>{_SPAN_HOLIDAYS})\s+(?P<what>week|break|holidays?|vacation|vacay)\b"
    rf"|\b(?P<over>over|during|around|through)\s+(?:the\s+)?(?P<name2>{_SPAN_HOLIDAYS})(?:\s+(?P<year>(?:19|20)\d\d))?\b"
    r"(?!\s+(?:day|eve|weekend|week|break|holidays?|vacation|dinner|party|lunch|morning|night|\d))"
    r"|\b(?:over|for|during)\s+the\s+(?P<hols>holidays)\b",
    re.I,
)
# (first, last) days around a holiday for "over <holiday>"
_AROUND_HOLIDAY = {"christmas": (-2, 2), "thanksgiving": (-1, 3), "new years": (-2, 1), "easter": (-2, 1)}
_SPAN_NAME = {"xmas": "christmas", "new year": "new years", "new years": "new years", "new year's": "new years"}
# The last day of a weekend that starts on a holiday's weekday (a Monday holiday: from the Saturday before)
# (a Saturday or Sunday holiday: with the Friday or Monday it is observed on)
_HOLIDAY_SPAN = {0: (-2, 0), 1: (-3, 0), 2: (3, 4), 3: (0, 3), 4: (0, 2), 5: (-1, 1), 6: (-1, 1)}

# Words after which a lower-case "sun", "sat" or "wed" is a day: "back sun", "leaving fri", "thu-sun"
_DAY_CUE = re.compile(
    r"\b(?:back|return(?:ing)?|leav(?:e|ing)|out|depart(?:ing)?|fly(?:ing)?|home|til+|until|thru|through"
    r"|(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day)?\s*(?:-|to|thru|through|til+|until))\s*$",
    re.I,
)
_DAY_NEXT = re.compile(
    r"\s*(?:-|to|thru|through|til+|until)\s*(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day)?\b"
    rf"|,?\s+(?:the\s+\d{{1,2}}(?:st|nd|rd|th)?|\d{{1,2}}(?:st|nd|rd|th)|\d{{1,2}}/\d{{1,2}}|(?:{_MONTH_WORDS})\.?\s+\d)\b",
    re.I,
)  # "thu-sun", "thu the 14th", "sat jan 9": a day

# "our 10th anniversary", "her 40th birthday", "my 2nd time", "the 3rd floor": a count, not a day
_NOT_A_DAY = (
    r"(?:wedding\s+)?(?:anniversary|birthday|bday|b-day|time|times|year|grade|graders?|floor|row|century|edition|round"
    r"|visit|trip|attempt|place|leg|stop|option|one|choice|annual|season|street|st\b|ave(?:nue)?\b)"
)
_ASAP = re.compile(
    r"\b(?:asap|a\.s\.a\.p\b\.?|as\s+(?:soon|early)\s+as\s+(?:possible|(?:i|we)\s+can)|urgent(?:ly)?|right\s+away"
    r"|immediately)(?!\w)",
    re.I,
)

_PATTERNS: List[Tuple[str, re.Pattern[str]]] = [
    # "2027-02-03", "2027/02/03", "2027.02.03": the year first is always year, month, day
    ("iso", re.compile(r"\b(?P<year>(?:19|20)\d\d)(?P<sep>[-/.])(?P<month>\d{1,2})(?P=sep)(?P<day>\d{1,2})\b")),
    # "05-03-2027", "3-5-27": read as "05/03/2027" (the locale says which is the month); a year is needed
    ("dashed", re.compile(r"(?<![\d-])\b(?P<a>\d{1,2})-(?P<b>\d{1,2})-(?P<year>\d{4}|\d{2})\b(?!-)")),
    (
        "numeric",
        re.compile(r"\b(?P<a>\d{1,2})/(?P<b>\d{1,2})(?:/(?P<year>\d{4}|\d{2}))?\b(?!\s*(?:nights?|stars?|night\b))"),
    ),
    (
        "dotted",
        re.compile(
            # "03.02", "3.2.", "12.01.2027": two-digit parts, a closing dot or a year ("4.3" is a rating)
            r"(?<![$\u20ac\u00a3\d.,])\b(?:(?P<a>[0-3]?\d)\.(?P<b>[01]?\d)(?:\.(?P<year>\d{4}|\d{2})|\.(?!\d))"
            r"|(?P<a2>[0-3]\d)\.(?P<b2>[01]\d))(?!\d|[.,]\d)"
            r"(?!\s*(?:stars?|k\b|%|hours?|h\b|km|miles|mi\b|kg|lbs?))",
            re.I,
        ),
    ),
    ("holiday_weekend", _HOLIDAY_WEEKEND),
    ("holiday_span", _HOLIDAY_SPAN_SAID),
    (
        "nth_weekend",
        re.compile(rf"\b(?:the\s+)?(?P<nth>{_NTH})\s+(?:long\s+)?weekend\s+(?:of|in)\s+{_MONTH}(?!\w){_YEAR}", re.I),
    ),
    ("named", re.compile(rf"\b(?P<name>{_NAMED_RE})(?:\s+(?P<year>(?:19|20)\d\d))?\b", re.I)),
    ("period", re.compile(rf"\b{_PERIOD}{_MONTH}(?!\w|\s*\d){_YEAR}", re.I)),
    ("period_rel", re.compile(rf"\b{_PERIOD}(?P<rel>the|this|next)\s+month\b", re.I)),
    ("month_day", re.compile(rf"\b{_MONTH}(?:\s+(?:the\s+)?|(?=\d)){_DAY}\b{_YEAR}", re.I)),
    # "the 3rd of March", "15. Januar", "3 de abril"
    (
        "day_month",
        re.compile(rf"\b(?:the\s+)?{_DAY}(?:\.(?=\s))?\s+(?:day\s+)?(?:(?:of|de|del)\s+)?{_MONTH}(?!\w){_YEAR}", re.I),
    ),
    ("after_tomorrow", re.compile(r"\b(?:the\s+)?day\s+after\s+tomorrow\b", re.I)),
    ("tomorrow", re.compile(r"\b(?:tomorrow|tmrw|tmr)\b", re.I)),
    ("today", re.compile(r"\b(?:today|tonight|this\s+(?:evening|morning|afternoon))\b", re.I)),
    # "asap", "as soon as possible", "urgently": today (said back), when no day is said beside it
    ("asap", _ASAP),
    (
        "weekend",
        re.compile(r"\b(?:(?P<rel>this|next|coming)\s+)?(?:long\s+)?weekend(?P<after_next>\s+after\s+next)?\b", re.I),
    ),
    (
        "in_n",
        re.compile(
            rf"\bin\s+(?P<n>{NUMBER_RE}|a)\s+(?P<unit>days?|weeks?|fortnight)\b(?!\s+(?:before|after|prior|early|earlier|later))|\b(?P<n2>{NUMBER_RE}|a)\s+(?P<unit2>days?|weeks?)\s+from\s+(?:now|today)\b",
            re.I,
        ),
    ),
    (
        "weekday",
        re.compile(
            rf"\b(?:(?P<rel>this|next|coming|on)\s+)?(?:(?P<wk1>this|next)\s+week\s+(?:on\s+)?)?{_WEEKDAY}"
            rf"(?:\s+(?:of\s+)?(?P<wk2>this|next)\s+week\b|\s+(?P<after_next>after\s+next)\b)?",
            re.I,
        ),
    ),
    (
        "ordinal",
        re.compile(
            # "the 15th of next month", "the 16th next month"
            rf"\b(?:the\s+)?(?P<day>\d{{1,2}})(?:st|nd|rd|th)\b(?!\s+{_NOT_A_DAY})(?:,?\s+(?:of\s+)?(?P<rel>this|next)\s+month)?|"
            rf"\bthe\s+(?P<dayw>{_ORD_WORD})\b(?!\s+(?:one|option|bundle|flight|hotel|choice|time|stop|leg|room|day|night|week|place|thing|class))"
            rf"(?:,?\s+(?:of\s+)?(?P<relw>this|next)\s+month)?",
            re.I,
        ),
    ),
]

_RANGE_SEP = r"\s*(?:-|to|through|thru|until|till|til)\s*(?:the\s+)?"
_DAY2 = _DAY.replace("?P<day>", "?P<day2>")
# "Apr 3-7", "Jan 10th-14th", "feb10-13", "12-15 Jan", "the 18th through the 22nd of december"
_MONTH_RANGE = re.compile(
    rf"\b{_MONTH}\s*(?:the\s+)?{_DAY}{_RANGE_SEP}{_DAY2}\b(?!\s*(?:{_MONTH_WORDS}|/|:|am\b|pm\b))", re.I
)
_RANGE_MONTH = re.compile(rf"\b(?:the\s+)?{_DAY}{_RANGE_SEP}{_DAY2}\s+(?:of\s+)?{_MONTH}(?!\w){_YEAR}", re.I)

_DURATION = re.compile(
    rf"\b(?P<n>{NUMBER_RE}|a\s+couple\s+of|a\s+few)[\s-]+(?:(?:full|whole|entire)\s+)?(?P<unit>nights?|nites?|nts|days?|weeks?|wks?|months?)\b(?!\s+(?:ago|from\s+now|from\s+today|later|early|earlier|ahead))"
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
    by_convention: bool = False  # "03/04": read month or day first by the locale, not by what was written
    day_only: bool = False  # "the 9th": a day of the month and nothing else
    period: bool = False  # "mid March", "the weekend of the 14th": one day read for a span, said back
    weekday_only: bool = False  # "Thursday": a day of the week and nothing else
    until: Optional[date] = None  # "this weekend", "MLK weekend": the span's last day (the way back, unless told)
    event: bool = False  # "the wedding is Saturday Jan 16": an event's day, a travel day only when none other is said
    before_event: str = ""  # "a sales meeting jan 12, back the 14th": the day before the meeting, the way out
    counted_from: Optional[date] = None  # "the thursday before fat tuesday": the day it is counted from

    def in_month_of(self, anchor: date, today: date) -> DateMention:
        """ "make it the 9th" about a trip that starts Jan 8: the 9th of the trip's month (the next
        month's when that day is before ``today`` or does not exist), not the next 9th from today."""
        if not self.day_only:
            return self
        for month_offset in (0, 1):
            month = anchor.month + month_offset
            value = _safe(anchor.year + (month - 1) // 12, (month - 1) % 12 + 1, self.value.day)
            if value is not None and value >= today:
                return replace(self, value=value)
        return self

    def near(self, anchor: date, today: date) -> DateMention:
        """ "fly out thursday instead" about a trip that leaves Mon Feb 15: the Thursday of that trip's
        week (the first on or after three days before it), not the next Thursday from ``today``."""
        if not self.weekday_only:
            return self
        start = max(today, anchor - timedelta(days=3))
        return replace(self, value=start + timedelta(days=(self.value.weekday() - start.weekday()) % 7))

    def after(self, day: date) -> date:
        """The value counted from ``day`` instead of today ("back the 2nd" after a January 30 departure)."""
        if not self.floating or self.value >= day:
            return self.value
        if self.weekday_only:  # "back sun": the first such day from ``day`` (the words alone may not read as a day)
            return day + timedelta(days=(self.value.weekday() - day.weekday()) % 7)
        again = find_dates(self.text, day)[0]
        return again[0].value if again else self.value


@dataclass(frozen=True)
class Duration:
    start: int
    end: int
    nights: int
    months: int = 0  # "for a month": calendar months, so the nights depend on the day it starts

    def nights_from(self, start: Optional[date]) -> int:
        """The nights from ``start`` ("for a month" from Jan 5: 31, to Feb 5), else as counted."""
        if not self.months or start is None:
            return self.nights
        month = start.month - 1 + self.months
        year, month = start.year + month // 12, month % 12 + 1
        end = date(year, month, min(start.day, calendar.monthrange(year, month)[1]))
        return (end - start).days


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


# Locales whose numeric dates put the month first; others put the day first.
_MONTH_FIRST_REGIONS = frozenset({"US", "PH", "FM", "MH", "PW", "AS", "GU", "MP", "PR", "UM", "VI"})


def order_for(locale: object) -> Optional[str]:
    """ "mdy" or "dmy" from a locale such as "en-US" / "en_GB"; None when it names no region."""
    if not isinstance(locale, str):
        return None
    parts = re.split(r"[-_]", locale.strip())
    region = next((p.upper() for p in parts[1:] if len(p) == 2 and p.isalpha()), None)
    if region is None:
        return None
    return "mdy" if region in _MONTH_FIRST_REGIONS else "dmy"


def named_day(name: str, today: date, year: Optional[int] = None) -> Optional[date]:
    """The next "Christmas Eve", "Memorial Day", "Thanksgiving" on or after ``today`` (or in ``year``)."""
    key = re.sub(r"\s+", " ", name.lower()).replace("'", "")
    fixed = {k.replace("'", ""): v for k, v in _FIXED_DAYS.items()}
    rules = {k.replace("'", ""): v for k, v in _RULE_DAYS.items()}
    for y in [year] if year else [today.year, today.year + 1]:
        if key in fixed:
            d = _safe(y, *fixed[key])
        elif key in rules and rules[key][0] == 0:  # Easter and the days counted from it
            d = _easter(y) + timedelta(days=rules[key][2])
        elif key in rules:
            month, weekday, nth = rules[key]
            days = [
                dd for dd in range(1, calendar.monthrange(y, month)[1] + 1) if date(y, month, dd).weekday() == weekday
            ]
            d = date(y, month, days[nth if nth < 0 else nth - 1])
        else:
            return None
        if d and (year or d >= today):
            return d
    return None


def _easter(year: int) -> date:
    """Easter Sunday (the Gregorian computus)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = b // 4, b % 4
    g = (8 * b + 13) // 25
    h = (19 * a + b - d - g + 15) % 30
    i, k = c // 4, c % 4
    leg = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 19 * leg) // 433
    month = (h + leg - 7 * m + 90) // 25
    return date(year, month, (h + leg - 7 * m + 33 * month + 19) % 32)


def _resolve(kind: str, m: re.Match[str], today: date, order: Optional[str] = "mdy") -> Optional[date]:
    g = m.groupdict()
    if kind == "iso":
        return _safe(int(g["year"]), int(g["month"]), int(g["day"]))
    if kind in ("numeric", "dotted", "dashed"):
        a, b, year = int(g.get("a") or g.get("a2")), int(g.get("b") or g.get("b2")), _year(g.get("year"))
        if a > 12 and b <= 12 or kind == "dotted" or order == "dmy":
            a, b = (b, a) if not (b > 12 and a <= 12) else (a, b)  # day first, unless it cannot be
        elif not (b > 12) and order is None:
            return None  # "03/04" with no locale to tell: asked, not guessed
        month, day = a, b
        return _safe(year, month, day) if year else next_month_day(today, month, day)
    if kind == "named":
        return named_day(g["name"], today, _year(g.get("year")))
    if kind in ("month_day", "day_month"):
        month, day, year = MONTHS[g["month"].lower().rstrip(".")], _day_number(g["day"]), _year(g.get("year"))
        if kind == "month_day" and g["month"].lower() == "may" and not re.search(r"\d", g["day"] or ""):
            return None  # "may the first one..." is not a date
        if day is None:
            return None
        return _safe(year, month, day) if year else next_month_day(today, month, day)
    if kind == "period":
        month, year = MONTHS[g["month"].lower().rstrip(".")], _year(g.get("year"))
        edge = (g.get("edge") or "").lower().split()
        day = _WEEK_DAY[g["nth"].lower()] if g.get("nth") else _PERIOD_DAY[edge[-2] if edge[-1] == "of" else edge[0]]
        if day < 0:  # counted from the month's end: "end of January" is the 28th, "the last week" the 25th
            day += calendar.monthrange(year or today.year, month)[1]
        return _safe(year, month, day) if year else next_month_day(today, month, day)
    if kind == "period_rel":  # "end of the month", "mid next month": in this month or the next, not before today
        first = date(today.year + today.month // 12, today.month % 12 + 1, 1) if g["rel"].lower() == "next" else today
        edge = (g.get("edge") or "").lower().split()
        day = _WEEK_DAY[g["nth"].lower()] if g.get("nth") else _PERIOD_DAY[edge[-2] if edge[-1] == "of" else edge[0]]
        if day < 0:
            day += calendar.monthrange(first.year, first.month)[1]
        return max(today, date(first.year, first.month, day))
    if kind in ("today", "asap"):
        return today
    if kind == "tomorrow":
        return today + timedelta(days=1)
    if kind == "after_tomorrow":
        return today + timedelta(days=2)
    if kind in _WEEKEND_KINDS:
        span = weekend_span(kind, m, today)
        return span[0] if span else None
    if kind == "in_n":
        n = to_int(g.get("n") or g.get("n2"))
        unit = (g.get("unit") or g.get("unit2") or "").lower()
        if n is None:
            return None
        return today + timedelta(days=n * (14 if unit == "fortnight" else 7 if unit.startswith("week") else 1))
    if kind == "weekday":
        wd_raw = g["wd"].lower().rstrip(".")
        target = WEEKDAYS.get(wd_raw, _WD_ABBR.get(wd_raw))
        if target is None:
            return None
        if (
            wd_raw in _WORD_ABBR
            and not g.get("rel")
            and not m.group(0)[0].isupper()
            and not _DAY_CUE.search(m.string[max(0, m.start() - 24) : m.start()])
            and not _DAY_NEXT.match(m.string, m.end())
            and not _OTHER_DAY.search(m.string[: m.start()] + " " + m.string[m.end() :])
        ):
            return None  # "sun", "sat", "wed" in lower case are usually words, unless "back sun", "fri-sun"
        if g.get("after_next"):  # "friday after next": a week after the coming one
            return today + timedelta(days=((target - today.weekday()) % 7 or 7) + 7)
        week = (g.get("wk1") or g.get("wk2") or "").lower()
        if week == "next":  # "Thursday next week": that day in the coming calendar week
            return today + timedelta(days=7 - today.weekday() + target)
        ahead = (target - today.weekday()) % 7
        rel = (g.get("rel") or "").lower()
        if ahead == 0 and rel in ("next", "coming", "on", ""):  # "tuesday" said on a Tuesday: next week's
            ahead = 7
        elif rel == "next" and ahead <= NEXT_WITHIN and today.weekday() + ahead <= 6:
            ahead += 7  # "next Friday" said on a Thursday: not tomorrow but the Friday after
        return today + timedelta(days=ahead)
    if kind == "ordinal":
        day = _day_number(g.get("day") or g.get("dayw"))
        rel = (g.get("rel") or g.get("relw") or "").lower()
        if day is None:
            return None
        return next_day_of_month(today, day, 1 if rel == "next" else 0)
    return None


_WEEKEND_KINDS = frozenset({"weekend", "nth_weekend", "holiday_weekend", "holiday_span"})


def weekend_span(kind: str, m: re.Match[str], today: date) -> Optional[Tuple[date, date]]:
    """The first and last day of a weekend said in words: "this weekend" (Saturday and Sunday), "the
    weekend after next", "a long weekend" (Friday to Monday), "the 3rd weekend of January" (its
    3rd Saturday), "MLK weekend" (Saturday to the Monday off), "Thanksgiving weekend" (Thursday to Sunday)."""
    g = m.groupdict()
    if kind == "holiday_span":
        raw = re.sub(r"\s+", " ", (g.get("name") or g.get("name2") or "christmas").lower())
        name = _SPAN_NAME.get(raw, raw)
        day = named_day(
            "new year's day" if name == "new years" else name, today - timedelta(days=3), _year(g.get("year"))
        )
        if day is None:
            return None
        if g.get("what") or g.get("hols"):  # the week it falls in, from the Saturday before
            monday = day - timedelta(days=day.weekday())
            return max(today, monday - timedelta(days=2)), monday + timedelta(days=6)
        first, last = _AROUND_HOLIDAY[name]
        return max(today, day + timedelta(days=first)), day + timedelta(days=last)
    if kind == "holiday_weekend":
        raw = re.sub(r"\s+", " ", (g.get("name") or g.get("name2") or "").lower())
        day = named_day(_HOLIDAY_SHORT.get(raw, raw), today - timedelta(days=3))
        if day is None:
            return None
        first, last = _HOLIDAY_SPAN[day.weekday()]
        return day + timedelta(days=first), day + timedelta(days=last)
    long = re.search(r"\blong\b", m.group(0), re.I) is not None
    if kind == "nth_weekend":
        month, year = MONTHS[g["month"].lower().rstrip(".")], _year(g.get("year"))
        saturday: Optional[date] = None
        for y in [year] if year else [today.year, today.year + 1]:
            days = [d for d in range(1, calendar.monthrange(y, month)[1] + 1) if date(y, month, d).weekday() == 5]
            nth = _NTH_SATURDAY[g["nth"].lower()]
            saturday = date(y, month, days[nth if nth < 0 else nth - 1])
            if year or saturday >= today:
                break
        if saturday is None:
            return None
    else:
        ahead = (5 - today.weekday()) % 7
        if (g.get("rel") or "").lower() == "next" and today.weekday() >= 5 or g.get("after_next"):
            ahead += 7
        saturday = today + timedelta(days=ahead)
    if long:
        return max(today, saturday - timedelta(days=1)), saturday + timedelta(days=2)
    return saturday, saturday + timedelta(days=1)


def _said_back(kind: str, m: re.Match[str]) -> bool:
    """A weekend whose reading the traveller is told: all but a plain "this weekend"."""
    g = m.groupdict()
    return kind != "weekend" or bool(g.get("after_next") or (g.get("rel") or "").lower() == "next")


NEXT_WITHIN = 2  # "next <day>" at most this many days away in the same week is the one a week later
_NEXT_WEEKDAY = re.compile(rf"^next\s+{_WEEKDAY}$", re.I)
_AFTER_NEXT = re.compile(rf"^{_WEEKDAY}\s+after\s+next$", re.I)


def next_weekday_said(mention: DateMention) -> bool:
    """Whether a date was said as "next <weekday>" (a reading the traveller is told)."""
    return _NEXT_WEEKDAY.match(mention.text.strip()) is not None


def asap_said(mention: DateMention) -> bool:
    """Whether a date was said as "asap" (today, for a trip that has no day yet)."""
    return _ASAP.fullmatch(mention.text) is not None


def after_next_said(mention: DateMention) -> bool:
    """Whether a date was said as "<weekday> after next" (a reading the traveller is told too)."""
    return _AFTER_NEXT.match(" ".join(mention.text.split())) is not None


# Kinds whose value is "the next such day of the month" (as opposed to "tomorrow" or "March 2").
_FLOATING = frozenset({"ordinal", "weekday"})


@dataclass(frozen=True)
class Doubt:
    """A date not read because it could mean two days: ``kind`` "order" (03/04) or "weekday" (Tuesday Feb 3),
    or "event" (the way out to a game said with only the way back: the day before it or its day; ``text`` names
    the event); or "long": a numeric end date whose reading makes the trip implausibly long (one reading, asked
    to confirm)."""

    start: int
    end: int
    text: str
    kind: str
    readings: Tuple[date, ...] = ()  # the days it could mean, in the order to offer them
    since: Optional[date] = None  # "long": the day the trip starts, to say how long the reading makes it
    slot: str = ""  # the date it stands for ("depart_date"), when the words around it tell


def find_dates(
    text: str, today: date, *, order: Optional[str] = "mdy", doubts: Optional[List[Doubt]] = None
) -> Tuple[List[DateMention], str]:
    """Dates in ``text`` in order, and the text with them masked out.

    ``order`` says how "03/04" reads: "mdy" (the US), "dmy" (most of the world) or None
    (unknown: not read, and listed in ``doubts``). A day over 12 settles it either way and
    dotted dates (03.02.) are day first. A weekday before a date ("Tuesday Feb 2") is checked
    against it: the date wins when they agree; when they do not, neither is read (a doubt).
    """
    found: List[DateMention] = []
    doubts = doubts if doubts is not None else []
    # "12/01 to 18/01" where the locale reads month first: the 18th says the 12th is a day too (with no
    # locale to go by, the one that could be either is still asked)
    order = (_order_said(text) or order) if order else order
    masked = text
    for rx in (_MONTH_RANGE, _RANGE_MONTH):
        for m in rx.finditer(masked):
            month = MONTHS[m.group("month").lower().rstrip(".")]
            d1, d2 = _day_number(m.group("day")), _day_number(m.group("day2"))
            year = _year(m.groupdict().get("year"))
            first = (_safe(year, month, d1) if year else next_month_day(today, month, d1)) if d1 else None
            if first is None or d2 is None or d2 <= d1:
                continue
            second = _safe(first.year, month, d2)
            if second is None:
                continue
            mid = m.start("day2")
            found.append(DateMention(m.start(), mid - 1, first, m.group(0)))
            found.append(DateMention(mid, m.end(), second, m.group(0)))
        masked = mask(masked, [(d.start, d.end) for d in found])
    found += _dotted_range(masked, today, order)
    masked = mask(masked, [(d.start, d.end) for d in found])
    lower = text.lower()
    for kind, pattern in _PATTERNS:
        if (
            (kind in _WEEKEND_KINDS and kind != "holiday_span" and "weekend" not in lower)
            or (kind == "period_rel" and "month" not in lower)
            or (kind == "holiday_span" and not _SPAN_WORDS.search(lower))
        ):
            continue  # the rarer patterns only where they can match (speed)
        for m in pattern.finditer(masked):
            if kind == "dotted" and _RATING.search(masked[max(0, m.start() - 24) : m.start()]):
                continue  # "a rating of 4.7.": a score, not the 4th of July
            value = _resolve(kind, m, today, order)
            if value is None and kind in ("numeric", "dotted", "dashed") and _ambiguous_order(m):
                readings = tuple(d for d in (_resolve(kind, m, today, "mdy"), _resolve(kind, m, today, "dmy")) if d)
                doubts.append(Doubt(m.start(), m.end(), m.group(0), "order", readings))
            if value is not None:
                floating = kind in _FLOATING and not m.groupdict().get("year")
                if kind == "weekday":  # "Saturday" (not "next Saturday") counts from the day it follows
                    g = m.groupdict()
                    floating = (g.get("rel") or "on").lower() == "on" and not (
                        g.get("wk1") or g.get("wk2") or g.get("after_next")
                    )
                by_convention = kind in ("numeric", "dotted", "dashed") and _ambiguous_order(m)
                day_only = kind == "ordinal" and not (m.groupdict().get("rel") or m.groupdict().get("relw"))
                span = weekend_span(kind, m, today) if kind in _WEEKEND_KINDS else None
                found.append(
                    DateMention(
                        m.start(),
                        m.end(),
                        value,
                        m.group(0),
                        floating,
                        by_convention,
                        day_only,
                        kind in ("period", "period_rel", "asap")
                        or (span is not None and _said_back(kind, m))
                        or (kind == "named" and " ".join(m.group("name").lower().split()) in _EVENT_DAYS),
                        kind == "weekday" and floating,
                        span[1] if span else None,
                    )
                )
        masked = mask(masked, [(d.start, d.end) for d in found] + [(d.start, d.end) for d in doubts])
    found.sort(key=lambda d: d.start)
    if "weekend" in lower or "wknd" in lower:  # "coachella weekend 1": the event's, which has no known days
        found = [d for d in found if not any(d.start in r for r in event_weekends(text))]
    # "asap, leaving jan 5": the day said ("asap ... back in 3 days" still leaves today)
    if any(not asap_said(d) and not RETURN_CUE.search(text[max(0, d.start - 40) : d.start]) for d in found):
        found = [d for d in found if not asap_said(d)]
    found = _event_day(text, _same_weekday(_weekdays_checked(text, found, doubts)), today)
    found = _days_in_the_month_said(found, today)
    found = _holiday_weekend(text, _counted_from(text, found), today)
    found = _holiday_named_dated(text, found)
    found = _back_in(text, found, today)
    if any(not d.event for d in found):
        found = _day_before_the_event(text, found, doubts)
    found = _event_day_alone(text, found, doubts)
    found = _bounds_dropped(text, found)
    masked = mask(masked, [(d.start, d.end) for d in found])
    return _week_of(text, _weekend_days(text, _weekend_from(_weekend_of(text, found))), today), masked


_A_WEEKEND = re.compile(r"(?:(?P<long>long)\s+)?weekend", re.I)


def _weekend_from(found: List[DateMention]) -> List[DateMention]:
    """ "a long weekend in Montreal starting Fri Jan 15": the weekend is the trip's length (Friday to
    Monday; a weekend two nights) from the one day said, not this weekend."""
    bare = [d for d in found if _A_WEEKEND.fullmatch(d.text.strip())]
    others = [d for d in found if d not in bare]
    if len(bare) != 1 or len(others) != 1 or others[0].until or others[0].weekday_only:
        return found
    nights = 3 if re.match(r"\s*long\b", bare[0].text, re.I) else 2
    return [replace(others[0], until=others[0].value + timedelta(days=nights))]


_SPAN_WORDS = re.compile(r"christmas|xmas|thanksgiving|new year|easter|holidays")
_BARE_WEEKEND = re.compile(r"(?:long\s+)?weekend", re.I)
_HOLIDAY_ALONE = re.compile(rf"(?P<name>{_HOLIDAY_NAME})(?:\s+day)?", re.I)
_OVER = re.compile(r"\b(?:over|for|around|during|on)\s+(?:the\s+)?$", re.I)


def _holiday_weekend(text: str, found: List[DateMention], today: date) -> List[DateMention]:
    """ "a long weekend in New Orleans over Presidents Day": the weekend said, then the holiday it is
    for, are one span (Saturday to the Monday off), not this weekend and a day in February."""
    weekend = next((d for d in found if _BARE_WEEKEND.fullmatch(d.text)), None)
    if weekend is None:
        return found
    for d in found:
        said = _HOLIDAY_ALONE.fullmatch(d.text)
        if d is weekend or not said or not _OVER.search(text[max(0, d.start - 12) : d.start]):
            continue
        span = weekend_span("holiday_weekend", said, today)
        if span is None:
            continue
        whole = DateMention(d.start, d.end, span[0], d.text + " weekend", period=True, until=span[1])
        return [whole if o is d else o for o in found if o is not weekend]
    return found


_BACK_BEFORE = re.compile(r"\b(?:back|return(?:ing)?|home|fly(?:ing)?\s+back|com(?:e|ing)\s+back)\s*$", re.I)


def _back_in(text: str, found: List[DateMention], today: date) -> List[DateMention]:
    """ "dec 12, back in 5 days", "on friday, back in a week": with the day out said first, the way back
    "in" a while is counted from that day (the trip's length), not from today."""
    if len(found) != 2 or found[0].until:
        return found
    out, back = found
    said = dict(_PATTERNS)["in_n"].fullmatch(back.text)
    if not said or not said.group("n") or not _BACK_BEFORE.search(text[max(0, back.start - 20) : back.start]):
        return found
    return [out, replace(back, value=out.value + (back.value - today))]


def _holiday_named_dated(text: str, found: List[DateMention]) -> List[DateMention]:
    """ "home for the holidays! pittsburgh to tampa dec 22, back jan 3": a holiday said as a span names the
    occasion when the days out and back are said too; with only the day out said, the span still ends the trip."""
    spans = [d for d in found if _HOLIDAY_SPAN_SAID.fullmatch(d.text)]
    if not spans:
        return found
    others = [d for d in found if d not in spans and _CALENDAR_DATE.search(d.text)]
    back = [d for d in others if RETURN_CUE.search(text[max(0, d.start - 40) : d.start])]
    if back and len(back) < len(others):
        return [d for d in found if d not in spans]
    out = [d for d in others if d not in back]
    span = spans[0]
    if len(spans) == 1 and len(found) == 2 and len(out) == 1 and span.until and span.value <= out[0].value < span.until:
        return [replace(out[0], until=span.until)]  # "for the holidays ... dec 22": out on the 22nd, back at its end
    return found


# A day counted from another: "a week from Friday", "3 days from today", "the day after Christmas",
# "the Wednesday before Thanksgiving". ("a week from Jan 8" is a week's stay that starts then.)
_ALL_WEEKDAYS = "|".join(sorted([*WEEKDAYS, *_WD_ABBR], key=len, reverse=True))
_COUNTED = re.compile(
    rf"\b(?:(?P<n>{NUMBER_RE}|an?|one|a\s+couple\s+of)\s+(?P<unit>days?|weeks?)|(?:the\s+)?(?P<one>day|night)"
    rf"|(?:the\s+)?(?P<wd>{_ALL_WEEKDAYS})\.?|(?P<wk>the\s+week))\s+(?P<dir>before|after|from|prior\s+to)\s+(?:the\s+)?$",
    re.I,
)
_CALENDAR_DATE = re.compile(rf"\d|\b(?:{_MONTH_WORDS})\b", re.I)


# "the conference is Feb 9, so fly in the night before", "the wedding's the 12th, home the day after",
# "graduation is May 22, get there two days before", "thanksgiving, the wednesday before to the sunday
# after", "in before dinner, home the next morning": a day counted from the date said just before it
_DAY_AROUND = re.compile(
    rf"\b(?:the\s+)?(?:(?:(?P<n>{NUMBER_RE}|a\s+couple\s+of|a\s+few)\s+(?P<unit>days?|nights?)"
    rf"|(?P<wd>{'|'.join(sorted([*WEEKDAYS, *_WD_ABBR], key=len, reverse=True))})|day|night|evening|morning)\s+(?P<dir>before|after|prior)\b"
    r"(?!\s+(?:that|tomorrow|next|work|school|lunch|dinner|breakfast|brunch)\b)"
    r"(?(wd)(?=\s*(?:$|[,.;!?)&-]|(?:and|to|then|so|but|or|thru|through|until|til+)\b)))"
    r"|same\s+(?:day|night|evening)\b|(?P<next>(?:next|following)\s+(?:day|morning|evening|night))\b"
    # "trade show jan 19-22, need to be there a day early", "fly in two days early": before its first day
    r"|(?:(?:be|get(?:ting)?)\s+(?:there|in)|arriv(?:e|ing)|fly(?:ing)?\s+in|go(?:ing)?\s+out)\s+"
    rf"(?P<early_n>{NUMBER_RE}|a\s+couple\s+of|a\s+few|a)\s+(?:days?|nights?)\s+(?P<early>early|earlier|ahead)\b"
    # "leaving Saturday Jan 23, back the following Saturday": that weekday after the day said
    rf"|following\s+(?P<fwd>{'|'.join(sorted(WEEKDAYS, key=len, reverse=True))})\b)",
    re.I,
)


def _around_the_last(text: str, found: List[DateMention]) -> List[DateMention]:
    out = list(found)
    counted: List[DateMention] = []  # the days each counted day is counted from
    said = list(_DAY_AROUND.finditer(text))
    anchors = [d for d in found if not any(m.start() <= d.start < m.end() for m in said)]
    for m in said:
        if any(d.start <= m.start() < d.end and not d.weekday_only for d in found) or any(
            m.end() <= d.start <= m.end() + 5 and not _RANGE_GAP.fullmatch(text[m.end() : d.start]) for d in found
        ):
            continue  # part of a date ("the day after tomorrow") or counting from the next one ("the saturday before to ash wednesday" is not)
        last = next((d for d in reversed(anchors) if d.end <= m.start()), None)
        if last is None:
            continue
        direction = (
            "after"
            if m.group("next") or m.group("fwd")
            else "before"
            if m.group("early")
            else (m.group("dir") or "").lower()
        )
        if direction in ("before", "prior"):  # "conference Jan 25-27, fly in the evening before": before the 25th
            last = next((d for d in anchors if d.text == last.text and d.start < last.start), last)
        last = _across_the_day_named(last, direction)
        if m.group("wd") or m.group("fwd"):
            name = (m.group("wd") or m.group("fwd")).lower()
            weekday = WEEKDAYS.get(name, _WD_ABBR.get(name, 0))
            if direction == "after":
                days = (weekday - last.value.weekday() - 1) % 7 + 1
            else:
                days = -((last.value.weekday() - weekday - 1) % 7 + 1)
        else:
            raw = (m.group("n") or m.group("early_n") or "a").lower()
            n = 2 if raw.startswith("a couple") else 3 if raw.startswith("a few") else 1 if raw == "a" else to_int(raw)
            if n is None:
                continue
            days = 0 if direction == "" else -n if direction in ("before", "prior") else n
        out = [
            d for d in out if not (d.weekday_only and m.start() <= d.start < m.end())
        ]  # "wednesday" of "wednesday before"
        if m.group("early") and last in out:
            # "trade show jan 19-22, be there a day early": the way out takes the first day's place, so the
            # range's other end is still the way back
            out[out.index(last)] = DateMention(last.start, last.end, last.value + timedelta(days=days), m.group(0))
            continue
        out.append(DateMention(m.start(), m.end(), last.value + timedelta(days=days), m.group(0)))
        counted.append(last)
        clause = re.split(r"[.!?;,]", text[: last.start])[-1]
        if last in out and (last.event or _EVENT.search(clause)):
            out[out.index(last)] = replace(last, event=True)  # the wedding's day is not a travel day
        elif last in out and counted.count(last) == 2:
            out.remove(last)  # nor a holiday both ends are counted from
    return sorted(out, key=lambda d: d.start)


def _across_the_day_named(last: DateMention, direction: str) -> DateMention:
    """ "the thursday before fat tuesday and home the day after": a day counted the other way from a
    day that was itself counted from a named one is counted from the named one (the day after Mardi
    Gras, not the day after that Thursday)."""
    named = last.counted_from
    if named is None:
        return last
    if (direction == "after" and named > last.value) or (direction in ("before", "prior") and named < last.value):
        return replace(last, value=named)
    return last


_EVENT = re.compile(
    r"\b(?:conference|meeting|wedding|game|concert|event|show|party|interview|funeral|graduation|appointment"
    r"|summit|expo|convention|festival|race|marathon|ceremony|reunion|presentation|pitch|starts?|begins?)\b",
    re.I,
)
# "the wedding is Saturday Jan 16", "conference starts Monday the 11th", "my interview's on the 9th": a
# date said as an event's (not a travel day once a travel day is said beside it)
_EVENT_IS = re.compile(
    r"\b(?:conference|meeting|wedding|game|match|concert|event|show|party|interview|funeral|graduation|appointment"
    r"|summit|expo|convention|festival|race|marathon|ceremony|reunion|recital|tournament|service|surgery|procedure"
    r"|exam|competition|gig|birthday|anniversary|shower|celebration|memorial|training|course|workshop|presentation"
    r"|pitch)s?\b"
    r"(?:\s+[\w']+){0,3}?\s*(?:'s|\s+is|\s+are|\s+was|\s+will\s+be|\s+starts?|\s+begins?|\s+kicks?\s+off"
    r"|\s+runs?|\s+happens?|\s+takes\s+place)(?:\s+on)?(?:\s+the)?\s*$"
    # "Job interview Thursday 1/14 in Atlanta. Fly in Wednesday": an event opening its sentence with its day
    r"|^\W*(?:(?:my|our|the|a|his|her|their|[\w']+'s)\s+)?(?:[\w-]+\s+)?(?:conference|meeting|wedding|game|match|concert|event"
    r"|show|party|interview|funeral|graduation|appointment|summit|expo|convention|festival|race|marathon|ceremony"
    r"|reunion|recital|tournament|surgery|exam|competition|gig|celebration|memorial|closing)\s+(?:is\s+)?(?:on\s+)?(?:the\s+)?$",
    re.I,
)
# "comic con is july 22-25, fly in the 21st": anything named, opening its sentence, said to be on a day
_NAMED_IS = re.compile(
    r"^\W*(?!(?:the\s+|my\s+|our\s+)?(?:trip|vacation|vacay|holiday|stay|visit|getaway|flights?|dates?|return|departure"
    r"|check[\s-]?(?:in|out)|hotel|room|it|this|that|we|i|they|he|she|you|there|today|tomorrow)\b)"
    r"(?:[\w'&-]+\s+){1,4}?(?:is|are|runs?)\s+(?:on\s+)?(?:the\s+)?$",
    re.I,
)
# "my cousin's wedding in Charlotte on Saturday Jan 23", "job interview in Atlanta Monday Dec 14": an
# event, where it is, then its day; read as the event's only when the travel days beside it are bare
# weekdays or days of the month ("fly Friday, back Sunday"), which then fall around it
_EVENT_AT = re.compile(
    r"\b(?:conference|meeting|wedding|game|match|concert|event|show|party|interview|funeral|graduation|appointment"
    r"|summit|expo|convention|festival|race|marathon|ceremony|reunion|recital|tournament|surgery|exam|competition"
    r"|gig|celebration|memorial|training|workshop|kickoff|offsite|retreat|presentation|pitch)s?"
    r"(?:\s+(?:in|at)(?:\s+(?!(?:from|to|out|with|for|and|then|on)\b)[\w'.-]+){1,3})?\s+(?:on\s+)?(?:the\s+)?$",
    re.I,
)
# an event the traveller must attend, right before its day: "for my friend's funeral on", "wedding in savannah on"
_MUST_ATTEND_ON = re.compile(
    r"\b(?:wedding|funeral|graduation|ceremony|memorial|meeting|interview|appointment|surgery|procedure)s?"
    r"(?:\s+(?:in|at)(?:\s+(?!(?:from|to|out|with|for|and|then|on)\b)[\w'.-]+){1,3})?\s+on\s+(?:the\s+)?$",
    re.I,
)
_TRAVEL_WORD = re.compile(
    r"\b(?:fly\w*|flight|leav\w*|depart\w*|back|return\w*|arriv\w*|land\w*|home|get\s+(?:in|there)|head\w*)\b", re.I
)
_RANGE_GAP = re.compile(r"\s*(?:-|\u2013|to|through|thru|until|till|til)\s*(?:the\s+)?$", re.I)


def _event_day(text: str, found: List[DateMention], today: date) -> List[DateMention]:
    """ "my cousin's wedding is Saturday Jan 16, we fly in Friday and home Sunday": the event's day is not
    a travel day when travel days are said beside it, and the days said bare ("Friday", "the 14th") are
    the ones around it (Jan 15 and 17), not the next such days from today."""
    for i, d in enumerate(found):
        clause = re.split(r"[.!?;,]|\b(?:and|so|but)\b", text[: d.start])[-1]
        # "home for thanksgiving, wed to sun": the holiday is what the days fall around
        reason = _HOLIDAY_ALONE.fullmatch(d.text.strip()) and _FOR_HOLIDAY.search(text[max(0, d.start - 12) : d.start])
        if reason:
            if not all(o.weekday_only or o.day_only for o in found if o is not d) or len(found) < 2:
                continue
        elif _TRAVEL_WORD.search(clause) and not _MUST_ATTEND_ON.search(clause):
            continue  # ("flying to nashville for my friend's funeral on dec 10": the funeral's day)
        elif not (_EVENT_IS.search(clause) or _NAMED_IS.search(clause)):
            bare = [o for o in found if o.value != d.value]
            if not (
                bare and (all(o.weekday_only or o.day_only for o in bare) or _back_from_work(text, d, bare))
            ) or not _EVENT_AT.search(clause):
                continue
        event = [d]
        for e in found[i + 1 :]:  # "the conference is Jan 11-14": both ends are the event's
            if _RANGE_GAP.fullmatch(text[event[-1].end : e.start]) or e.text == d.text and e.start == event[-1].end + 1:
                event.append(e)
            else:
                break
        if len(event) == len(found):
            return found
        out = []
        for o in found:
            if o in event:
                o = replace(o, event=True)
            elif o.weekday_only:
                shift = (o.value.weekday() - d.value.weekday() + 3) % 7 - 3
                near = d.value + timedelta(days=shift)
                o = replace(o, value=near, floating=False, weekday_only=False) if near >= today else o
            elif o.day_only:
                near = min(
                    (v for k in (-1, 0, 1) for v in [_month_day(d.value, k, o.value.day)] if v and v >= today),
                    key=lambda v: abs((v - d.value).days),
                    default=None,
                )
                o = replace(o, value=near, floating=False) if near else o
            out.append(o)
        return out
    return found


# What the event is, said before its day: "a sales meeting", "my interview", "the wedding"
_EVENT_NOUN = re.compile(
    r"\b(?P<noun>conference|meeting|wedding|game|match|concert|show|party|interview|funeral|graduation|appointment"
    r"|summit|expo|convention|festival|race|marathon|ceremony|reunion|recital|tournament|surgery|procedure|exam"
    r"|competition|gig|celebration|memorial|training|workshop|presentation|pitch|kickoff|offsite|retreat)s?\b",
    re.I,
)


# Events the traveller must be at, from their start: an agent flies them in the day before ("a meeting feb 4,
# return feb 5", "my sister's wedding on june 12th, back the 14th"); a game or a show may be flown to that day (asked)
_WORK_EVENT = frozenset(
    "meeting interview presentation appointment pitch training workshop kickoff offsite exam surgery procedure".split()
    + "wedding funeral graduation ceremony memorial".split()
)


def _back_from_work(text: str, day: DateMention, others: List[DateMention]) -> bool:
    """ "a 10am meeting on feb 4, from chicago, return feb 5": a day's work and only the way back said after it."""
    nouns = list(_EVENT_NOUN.finditer(text[: day.start]))
    return bool(nouns) and nouns[-1].group("noun").lower() in _WORK_EVENT and _only_back(text, day, others)


def _only_back(text: str, day: DateMention, others: List[DateMention]) -> bool:
    return all(o.value >= day.value and RETURN_CUE.search(text[max(0, o.start - 40) : o.start]) for o in others)


def _day_before_the_event(text: str, found: List[DateMention], doubts: List[Doubt]) -> List[DateMention]:
    """The dates without the event's; when the only other dates are the way back and the event is a day's
    work ("for a sales meeting jan 12, back on the 14th"), the way out is the day before it, told as such
    (``before_event``), not a question that ignores the meeting."""
    events = [d for d in found if d.event]
    rest = [d for d in found if not d.event]
    if len(events) != 1 or not _only_back(text, events[0], rest):
        return rest
    (day,) = events
    nouns = list(_EVENT_NOUN.finditer(text[: day.start]))
    if not nouns:
        return rest
    noun = nouns[-1].group("noun").lower()
    if noun not in _WORK_EVENT:
        # "a hockey game jan 9, back the 10th": that day or the one before, asked by naming both
        eve = day.value - timedelta(days=1)
        doubts.append(Doubt(day.start, day.end, noun, "event", (eve, day.value), slot="depart_date"))
        return rest
    before = replace(day, value=day.value - timedelta(days=1), event=False, before_event=noun)
    return sorted([before, *rest], key=lambda d: d.start)


# "for mardi gras", "going to the kentucky derby": the event the trip is for ("back ash wednesday" is a day of travel)
_FOR_EVENT = re.compile(r"\b(?:for|over|around|during|at|to|see|attend(?:ing)?)\s+(?:the\s+)?$", re.I)


def _event_day_alone(text: str, found: List[DateMention], doubts: List[Doubt]) -> List[DateMention]:
    """ "new orleans for mardi gras", no day of travel said: the way out is the day before it or its
    day, asked by naming both, rather than flown on the day itself without a word."""
    if len(found) != 1 or found[0].counted_from is not None:
        return found
    (day,) = found
    name = " ".join(day.text.lower().split())
    if name not in _EVENT_DAYS or not _FOR_EVENT.search(text[: day.start]):
        return found
    eve = day.value - timedelta(days=1)
    doubts.append(Doubt(day.start, day.end, name.title(), "event", (eve, day.value), slot="depart_date"))
    return []


_FOR_HOLIDAY = re.compile(r"\b(?:for|over|around|during|at)\s+(?:the\s+)?$", re.I)
_HOLIDAY_BOUND = re.compile(r"\b(?:before|after|ahead\s+of)\s+(?:the\s+)?$", re.I)


def _bounds_dropped(text: str, found: List[DateMention]) -> List[DateMention]:
    """ "before christmas, say the 21st": a holiday said as a bound is not a travel day when a day is said
    beside it (the bound alone still reads as the holiday); nor is one the days said fall around."""
    holidays = [d for d in found if _HOLIDAY_ALONE.fullmatch(d.text.strip())]
    days = [d.value for d in found if d not in holidays]
    bounds = [
        d
        for d in holidays
        if _HOLIDAY_BOUND.search(text[max(0, d.start - 12) : d.start])
        # "around valentine's day, maybe feb 12 to 16": the days said around it are the trip's
        or (len(days) >= 2 and min(days) - timedelta(days=3) <= d.value <= max(days) + timedelta(days=3))
    ]
    if not bounds or len(bounds) == len(found):
        return found
    return [d for d in found if d not in bounds]


def _days_in_the_month_said(found: List[DateMention], today: date) -> List[DateMention]:
    """ "the trip is jan 5-9, flying out the 5th": a bare day of the month said after the first dated day is
    in that day's month (the first such day from three days before it), not the next such day from today."""
    out: List[DateMention] = []
    anchor: Optional[DateMention] = None
    for d in found:
        if d.day_only and anchor is not None:
            start = max(today, anchor.value - timedelta(days=3))
            value = next((v for k in (0, 1, 2) for v in [_month_day(start, k, d.value.day)] if v and v >= start), None)
            d = replace(d, value=value) if value else d
        elif (
            anchor is None
            and not d.day_only
            and not d.weekday_only
            and not d.floating
            and _CALENDAR_DATE.search(d.text)
        ):
            anchor = d
        out.append(d)
    return out


def _same_weekday(found: List[DateMention]) -> List[DateMention]:
    """ "fri the 18th - sun the 20th, leave after dinner friday": a bare weekday said after a date on that
    weekday is that date again, not the coming one."""
    dated = [d for d in found if not d.weekday_only and not d.event]
    out = []
    for d in found:
        same = next((o for o in dated if o.end <= d.start and o.value.weekday() == d.value.weekday()), None)
        if d.weekday_only and same is not None and same.value != d.value:
            d = replace(d, value=same.value, floating=False, weekday_only=False)
        out.append(d)
    return out


def _month_day(anchor: date, months: int, day: int) -> Optional[date]:
    month = anchor.month + months
    return _safe(anchor.year + (month - 1) // 12, (month - 1) % 12 + 1, day)


def _counted_from(text: str, found: List[DateMention]) -> List[DateMention]:
    lower = text.lower()
    if not any(
        word in lower for word in ("before", "after", "from", "prior", "same", "next", "following", "early", "ahead")
    ):
        return found
    out: List[DateMention] = []
    for d in found:
        window = lower[max(0, d.start - 40) : d.start]
        said = any(word in window for word in ("before", "after", "from", "prior"))
        m = _COUNTED.search(text[max(0, d.start - 40) : d.start]) if said else None
        if m is None:
            out.append(d)
            continue
        start = max(0, d.start - 40) + m.start()
        direction = m.group("dir").lower()
        if m.group("wk"):
            # "the week after thanksgiving": the Monday that starts the next week (the one before it, "before")
            if direction == "from":
                out.append(d)
                continue
            monday = -d.value.weekday()
            days = monday - 7 if direction == "before" or direction.startswith("prior") else monday + 7
        elif m.group("wd"):
            name = m.group("wd").lower()
            weekday = WEEKDAYS.get(name, _WD_ABBR.get(name, 0))
            if direction == "before" or direction.startswith("prior"):
                days = -((d.value.weekday() - weekday - 1) % 7 + 1)
            else:
                days = (weekday - d.value.weekday() - 1) % 7 + 1
        else:
            if direction == "from" and (m.group("one") or _CALENDAR_DATE.search(d.text)):
                out.append(d)
                continue
            raw = (m.group("n") or "a").lower()
            n = 2 if raw.startswith("a couple") else 1 if raw in ("a", "an", "one") else to_int(raw)
            if n is None:
                out.append(d)
                continue
            days = n * (7 if (m.group("unit") or "").lower().startswith("week") else 1)
            days = -days if direction == "before" or direction.startswith("prior") else days
        out = [o for o in out if o.end <= start]  # "Wednesday before Thanksgiving": one day, not two
        value = d.value + timedelta(days=days)
        # "a week from Friday" is told back (some mean the coming Friday's week); "the day after Christmas" is not
        said_back = d.period or direction == "from" or bool(m.group("wk"))
        out.append(DateMention(start, d.end, value, text[start : d.end], period=said_back, counted_from=d.value))
    if any(word in lower for word in ("before", "after", "same", "next", "following", "early", "ahead")):
        out = _around_the_last(text, out)
    return out


def _weekend_of(text: str, found: List[DateMention]) -> List[DateMention]:
    """ "the weekend of the 14th": the Saturday nearest that day (the weekend before a Monday or
    Tuesday 14th, after a Wednesday or Thursday one), one date and not two."""
    out: List[DateMention] = []
    for d in found:
        prev = out[-1] if out else None
        if (
            prev is not None
            and _WEEKEND.search(prev.text)
            and re.fullmatch(r"\s+of\s+", text[prev.end : d.start], re.I)
        ):
            shift = (5 - d.value.weekday() + 3) % 7 - 3
            out[-1] = DateMention(
                prev.start, d.end, d.value + timedelta(days=shift), text[prev.start : d.end], period=True
            )
            out[-1] = replace(out[-1], until=out[-1].value + timedelta(days=1))
            continue
        out.append(d)
    return out


_RATING = re.compile(r"\b(?:rating|rated|ratings|score[ds]?|reviews?|stars?)\b[^\d]{0,12}$", re.I)
_WEEKEND = re.compile(r"\bweekend\b", re.I)
_WEEK_OF = re.compile(r"\b(?:the\s+)?week\s+(?:of|starting|beginning|commencing)\s+(?:(?:mon(?:day)?|the)\s+)?$", re.I)


_WEEK_AHEAD = re.compile(r"\b(?:(?:next|coming)\s+week|(?P<after>week\s+after\s+next))\b", re.I)


def _week_of(text: str, found: List[DateMention], today: date) -> List[DateMention]:
    """ "the week of Jan 18, Mon to Thu": the weekdays named are that week's (Monday to Sunday), and
    the date that names the week is not itself a trip date."""
    week = next(
        (d for d in found if (not d.floating or d.day_only) and _WEEK_OF.search(text[max(0, d.start - 40) : d.start])),
        None,
    )
    days = [d for d in found if d.floating and not d.day_only and d is not week]
    if not days:
        return found
    if week is not None:
        monday = week.value - timedelta(days=week.value.weekday())
    else:  # "next week, tue to thu", "the week after next, mon to fri"
        said = next(
            (m for m in _WEEK_AHEAD.finditer(text) if not any(d.start <= m.start() < d.end for d in found)), None
        )  # not "Thursday next week", a day of its own
        if said is None:
            return found
        monday = today - timedelta(days=today.weekday()) + timedelta(days=14 if said.group("after") else 7)
    out = []
    for d in found:
        if d is week:
            continue
        if d in days:
            d = replace(d, value=monday + timedelta(days=d.value.weekday()), floating=False)
        out.append(d)
    return out


def _weekend_days(text: str, found: List[DateMention]) -> List[DateMention]:
    """ "the weekend, this Sunday", "Sunday, that weekend": the day named says which day of the weekend."""
    out = list(found)
    for a, b in zip(found, found[1:], strict=False):
        if not re.fullmatch(
            r"[\s,;:-]*(?:(?:on|this|that|i\s+mean|so|probably|maybe)\s+)*", text[a.end : b.start], re.I
        ):
            continue
        for weekend, day in ((a, b), (b, a)):
            if (
                _WEEKEND.search(weekend.text)
                and not _WEEKEND.search(day.text)
                and abs((day.value - weekend.value).days) <= 1
            ):
                if weekend in out:
                    out.remove(weekend)
    return _weekend_ends(text, out)


_IN_A_MONTH = re.compile(rf"\s*(?:in|of|during)\s+(?:{_MONTH_WORDS})\b", re.I)


def _weekend_ends(text: str, found: List[DateMention]) -> List[DateMention]:
    """ "this weekend ... leaving Friday after work": the weekend is where the trip ends (its Sunday),
    the Friday where it starts; "a long weekend in january" is some weekend of January (asked), not this one."""
    weekend = next((d for d in found if d.until and _WEEKEND.search(d.text)), None)
    if weekend is None or any(not d.weekday_only for d in found if d is not weekend):
        return found  # "weekend in portland, flying out thu the 10th back sun": the days said
    said = _IN_A_MONTH.match(text, weekend.end) if _A_WEEKEND.fullmatch(weekend.text.strip()) else None
    if said and MONTHS[said.group(0).split()[-1].lower()] != weekend.value.month:
        return [d for d in found if d is not weekend]
    out = []
    for d in found:
        if d.weekday_only:  # "MLK weekend, leaving friday": the Friday of that weekend, not this week's
            shift = (d.value.weekday() - weekend.value.weekday() + 3) % 7 - 3
            d = replace(d, value=weekend.value + timedelta(days=shift), floating=False, weekday_only=False)
        out.append(d)
    if any(d.value < weekend.value for d in out if d is not weekend):
        out = [replace(d, value=d.until, until=None, period=False) if d is weekend else d for d in out]  # its end
    return out


# "12.10-12.14", "1.15 - 1.19", "23.12 - 02.01": two dotted days joined as a range (prices and ratings are not)
_DOTTED_RANGE = re.compile(
    r"(?<![$\u20ac\u00a3\d.,])\b(?P<a>[0-3]?\d)\.(?P<b>[0-3]?\d)(?P<to>\s*(?:-|\u2013|to|until|till|thru|through)\s*)"
    r"(?P<c>[0-3]?\d)\.(?P<d>[0-3]?\d)\b(?![.,]?\d)(?!\s*(?:stars?|k\b|%|hours?|h\b|km|miles|mi\b|kg|lbs?))",
    re.I,
)


def _dotted_range(text: str, today: date, order: Optional[str]) -> List[DateMention]:
    """The two days of a dotted range, read in one order: a part over 12 settles it for both ("23.12 -
    02.01": day first; "12.10-12.14": month first), else the desk's ("12.10-12.14" on a US desk is
    December), day first where the desk names none (the dotted convention), and the other order when
    only it makes a trip of weeks rather than months ("03.02 - 07.02": Feb 3-7)."""
    out: List[DateMention] = []
    for m in _DOTTED_RANGE.finditer(text):
        if _RATING.search(text[max(0, m.start() - 24) : m.start()]):
            continue
        a, b, c, d = (int(m.group(k)) for k in "abcd")
        month_first = _dotted_days(today, (a, b), (c, d))
        day_first = _dotted_days(today, (b, a), (d, c))
        if a > 12 or c > 12:
            days = day_first
        elif b > 12 or d > 12:
            days = month_first
        else:
            said, other = (month_first, day_first) if order == "mdy" else (day_first, month_first)
            days = (
                other if other and (not said or (said[1] - said[0]).days > 31 >= (other[1] - other[0]).days) else said
            )
        if days is None:
            continue
        mid = m.start("to")
        out.append(DateMention(m.start(), mid, days[0], text[m.start() : mid]))
        out.append(DateMention(m.end("to"), m.end(), days[1], text[m.end("to") : m.end()]))
    return out


def _dotted_days(today: date, first: Tuple[int, int], second: Tuple[int, int]) -> Optional[Tuple[date, date]]:
    """(month, day) and (month, day) as the next such days, the second after the first; None if not days."""
    if not (1 <= first[0] <= 12 and 1 <= second[0] <= 12):
        return None
    start = next_month_day(today, *first)
    end = _safe(start.year, *second) if start else None
    if start and end and end < start:
        end = _safe(start.year + 1, *second)
    if start is None or end is None or (end - start).days > 330:
        return None
    return start, end


def _order_said(text: str) -> Optional[str]:
    """ "dmy" or "mdy" when a numeric date in ``text`` can be read only one way ("18/01": day first)
    and none only the other; else None (the locale says)."""
    if "/" not in text:
        return None
    said = set()
    for m in _NUMERIC.finditer(text):
        a, b = int(m.group("a")), int(m.group("b"))
        if a > 12 >= b:
            said.add("dmy")
        elif b > 12 >= a:
            said.add("mdy")
    return said.pop() if len(said) == 1 else None


_NUMERIC = dict(_PATTERNS)["numeric"]


def _ambiguous_order(m: re.Match[str]) -> bool:
    g = m.groupdict()
    return int(g.get("a") or g.get("a2")) <= 12 and int(g.get("b") or g.get("b2")) <= 12


def _weekdays_checked(text: str, found: List[DateMention], doubts: List[Doubt]) -> List[DateMention]:
    """ "Tuesday Feb 2": one date (the weekday only confirms it); "Tuesday Feb 3" (a Wednesday): a doubt."""
    out: List[DateMention] = []
    for d in found:
        prev = out[-1] if out else None
        if prev is not None and re.fullmatch(
            r"[\s,]*(?:(?:morning|afternoon|evening|night)[\s,]+)?(?:the\s+)?", text[prev.end : d.start], re.I
        ):  # "Tuesday Feb 2", "monday morning jan 11"
            wd = re.match(_WEEKDAY, prev.text.split()[-1] if prev.text.split() else "", re.I)
            relative = re.match(r"\s*(?:this|next|coming)\b", prev.text, re.I)  # "next Tuesday, the 14th": two days
            if wd and not relative and not re.search(r"\d", prev.text):
                name = wd.group("wd").lower().rstrip(".")
                weekday = WEEKDAYS.get(name, _WD_ABBR.get(name))
                out.pop()
                if weekday is not None and weekday != d.value.weekday() and d.day_only:
                    # "Sunday the 10th": the next 10th that is a Sunday (Jan 10 when Dec 10 is a Thursday)
                    d = _next_such_day(d, weekday)
                if weekday is not None and weekday != d.value.weekday():
                    # "Tuesday Feb 3" (a Wednesday): the Tuesday nearest it, or the 3rd
                    shift = (weekday - d.value.weekday() + 3) % 7 - 3
                    readings = (d.value + timedelta(days=shift), d.value)
                    doubts.append(Doubt(prev.start, d.end, text[prev.start : d.end], "weekday", readings))
                    continue
                out.append(DateMention(prev.start, d.end, d.value, text[prev.start : d.end], d.floating))
                continue
        out.append(d)
    return out


def _next_such_day(d: DateMention, weekday: int) -> DateMention:
    """``d`` (a bare day of the month) moved to the first of the next two months where that day falls
    on ``weekday``; unchanged when neither does (then the weekday and the day disagree: a doubt)."""
    for months in (1, 2):
        month = d.value.month + months
        value = _safe(d.value.year + (month - 1) // 12, (month - 1) % 12 + 1, d.value.day)
        if value is not None and value.weekday() == weekday:
            return replace(d, value=value, floating=False)
    return d


_PRICE_BEFORE = re.compile(
    r"[\d$\u20ac\u00a3]\s*(?:k\b)?\s*(?:usd|dollars|bucks|eur|euros?|pounds|gbp)?\s*(?:/|per)?\s*$", re.I
)


# "back 3 days later", "returning a week later": the trip's length, counted from the way out
_LATER = re.compile(
    rf"\b(?:back|return(?:ing)?|home|fly(?:ing)?\s+back|com(?:e|ing)\s+back)\s+(?:(?:home|again)\s+)?"
    rf"(?P<n>{NUMBER_RE}|a\s+couple\s+of|a\s+few)[\s-]+(?P<unit>nights?|days?|weeks?)\s+later\b",
    re.I,
)


def find_durations(text: str) -> List[Duration]:
    """Stay lengths ("3 nights", "a week", "twelve days", "back 3 days later") in order."""
    out = []
    for m in sorted([*_DURATION.finditer(text), *_LATER.finditer(text)], key=lambda m: m.start()):
        if _PRICE_BEFORE.search(text[max(0, m.start() - 30) : m.start()]):
            continue  # "200 a night" is a price, not a one-night stay
        if m.groupdict().get("fort"):
            out.append(Duration(m.start(), m.end(), 14))
            continue
        raw = m.group("n").lower()
        n = 2 if raw.startswith("a couple") else 3 if raw.startswith("a few") else to_int(raw)
        if n is None or n <= 0 or n > 90:
            continue
        unit = m.group("unit").lower()
        if unit.startswith("mo"):
            if n > 12:
                continue
            out.append(Duration(m.start(), m.end(), n * 30, months=n))
            continue
        out.append(Duration(m.start(), m.end(), n * 7 if unit.startswith("w") else n))
    return out
