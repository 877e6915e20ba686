"""What a message changes in a trip that already has dates and places, and what it only mentions.

- Asides: a place named for the weather, an event that was elsewhere, a bus, train or drive,
  or someone else's whereabouts ("my sister in Dallas says...") is not a trip place; those
  clauses are masked before places and people are read.
- Relative shifts: "push the return by two days", "leave a day later", "shift everything one
  day earlier" move exactly the dates named, from the trip's own dates.
- "X instead of Y": X takes Y's place wherever Y is in the trip (origin, destination, a date).
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any, Dict, List, Optional, Tuple

from handlers.common import geo

from .text import NUMBER_RE, to_int

# Clause boundaries: sentences, semicolons, and ", then", ", but", "by the way".
_CLAUSE = re.compile(
    r"[.!?;]+(?:\s|$)|,\s*(?=(?:then|but|and\s+then|by\s+the\s+way|btw|anyway)\b)|\s+(?=but\b)|\s+-\s+|\n", re.I
)
_WEATHER = re.compile(r"\b(?:weather|snow(?:ing|y)?|rain(?:ing|y)?|temperatures?|forecast|sunny|humid)\b", re.I)
_ASIDE = re.compile(
    r"\b(?:originally|used\s+to\s+be|last\s+(?:week|month|year|time)|yesterday|ago|was\s+in|were\s+in)\b"
    r"|\b(?:my|our|his|her)\s+(?:boss|wife|husband|sister|brother|friend|mom|mum|dad|mother|father|partner|colleague|cousin|family|parents|manager)\b"
    r"(?!\s*(?:,|and\s+(?:i|me)\b|&\s*(?:i|me)\b|\+))[^.;]*\b(?:is|will|says|said|lives?|living|meets?|meeting|flying\s+in|coming|separately)\b",
    re.I,
)
_SOMEONE_ELSE = re.compile(
    r"\b(?:my|our|his|her)\s+(?:boss|wife|husband|sister|brother|friend|mom|mum|dad|mother|father|partner|colleague|"
    r"cousin|family|parents|manager)\s+(?:is|was|will|'s|'ll|says|said|lives?|flies|flying|comes|coming|meets?)\b",
    re.I,
)
_SELF = re.compile(r"\b(?:i|me|we|us|i'm|i'll|we're|we'll)\b", re.I)
# Someone joining the trip: "my wife is coming too", "my sister is joining us", "my dad is tagging along"
_JOINS = re.compile(
    r"\b(?:coming|joining|come|join)\s+(?:too|along|as\s+well|with\s+(?:us|me))\b|\bjoin(?:ing)?\s+(?:us|me)\b|\btagging\s+along\b",
    re.I,
)
# Ground transport beside a flight ("then I'll take a bus to Orlando"); on its own it is the trip.
_GROUND = re.compile(
    r"\b(?:bus|buses|train|trains|amtrak|uber|lyft|taxi|cab|ferry|shuttle|rental\s+car|rent\s+a\s+car|car)\b[^.;]*\b(?:to|from)\b"
    r"|\b(?:drive|driving)\s+(?:up\s+|down\s+|over\s+|on\s+)?to\b",
    re.I,
)
_FLIGHT = re.compile(r"\b(?:fly|flying|flights?|plane|airport)\b", re.I)
# What makes a clause the trip itself, whatever else it says ("book me NYC to Boston", "fly ... to")
_TRIP = re.compile(
    r"\b(?:book|need|want|get|fly|flying|flights?|tickets?|round[\s-]?trip|one[\s-]?way)\b[^.;]*\b(?:to|from)\b", re.I
)


def aside_spans(msg: str, trip_exists: bool = False) -> List[Tuple[int, int]]:
    """Spans of the clauses that name places for another purpose than the trip: only beside a
    trip (another clause of the message, or the trip so far), so "a bus from Fresno to LA" asked
    on its own is still read."""
    clauses = []
    start = 0
    for end in [m.end() for m in _CLAUSE.finditer(msg)] + [len(msg)]:
        clauses.append((start, end))
        start = end
    flights_here = bool(_FLIGHT.search(msg))
    spans, ground, rest = [], [], []
    for lo, hi in clauses:
        clause = msg[lo:hi]
        if _JOINS.search(clause):
            rest.append(clause)  # "my mother-in-law is coming too": someone joining the trip, no aside
        elif _SOMEONE_ELSE.search(clause) and not _SELF.search(clause):
            spans.append((lo, hi))  # "my boss is flying in from Houston separately": not the traveller's trip
        elif _TRIP.search(clause) and not _transport_only(clause):
            rest.append(clause)
        elif _ASIDE.search(clause):
            spans.append((lo, hi))
        elif (_GROUND.search(clause) and not _FLIGHT.search(clause)) or _WEATHER.search(clause):
            ground.append((lo, hi))  # beside a trip in the same message only ("weather in X, then a flight there")
        elif clause.strip():
            rest.append(clause)
    beside_trip = any(_PLACE_TALK.search(c) for c in rest)
    if ground and (flights_here or beside_trip):
        spans += ground  # "LA to Seattle Feb 1-3. Is there a train from there to Vancouver?"
    if not trip_exists and not beside_trip:
        return []
    return sorted(spans)


# A clause that speaks of the trip's places ("Chicago to Nashville", "from Boston", "to Denver").
_PLACE_TALK = re.compile(r"\b(?:to|from|into|in)\s+[A-Za-z]", re.I)


def _transport_only(clause: str) -> bool:
    """ "book me ... then I'll take the bus to Providence": the bus part alone is the aside."""
    return bool(re.search(r"\b(?:bus|train|uber|lyft|taxi|ferry|drive)\b", clause, re.I)) and not re.search(
        r"\b(?:fly|flying|flights?|plane)\b", clause, re.I
    )


def _amount(k: str) -> str:
    return rf"(?P<n{k}>{NUMBER_RE}|a\s+couple\s+of|a\s+few|an?|one)"


def _unit(k: str) -> str:
    return rf"(?P<unit{k}>days?|nights?|weeks?)"


_LATER = r"(?P<dir>later|earlier|sooner|early|late|after|before|back|forward|ahead|out)"
_SHIFT = re.compile(
    rf"\b(?P<verb>push(?:ed)?|move[ds]?|shift(?:ed)?|bump(?:ed)?|bring|change[ds]?|make|leave|leaving|depart(?:ing)?|go(?:ing)?|"
    rf"come\s+back|coming\s+back|return(?:ing)?|fly(?:ing)?(?:\s+back|\s+home|\s+out)?|get\s+back|head(?:ing)?\s+home|check[\s-]?out|check[\s-]?in|extend|"
    rf"everything|it|the\s+(?:trip|dates|whole\s+(?:trip|thing))|both(?:\s+(?:dates|flights|legs))?)"
    rf"(?P<what>(?:\s+(?:the|my|our|it|all|everything|both|whole|trip|dates?|flights?|legs?|return(?:\s+flight)?|departure|outbound|inbound|hotel|stay|check[\s-]?out|check[\s-]?in|out|back|home))*)"
    rf"(?:\s+(?P<pre>forward|ahead|earlier|later|up))?\s+(?:by\s+|for\s+)?{_amount('1')}\s+{_unit('1')}(?:\s+{_LATER})?"
    rf"|\b{_amount('2')}\s+{_unit('2')}\s+(?P<dir2>later|earlier|sooner)\b",
    re.I,
)
_RETURN_WORDS = re.compile(
    r"\b(?:return|back|home|inbound|check[\s-]?out|come\s+back|coming\s+back|get\s+back|stay|extend)\b", re.I
)
_DEPART_WORDS = re.compile(r"\b(?:leave|leaving|depart\w*|outbound|go|going|fly\s+out|check[\s-]?in)\b", re.I)
_BOTH_WORDS = re.compile(r"\b(?:everything|it|all|trip|dates|both|whole|thing|shift)\b", re.I)


# A stay made longer or shorter at its end: "add a night", "one more night", "an extra night",
# "another night", "stay 2 nights longer"; "one night less", "cut a night", "drop a night".
_N_NIGHTS = rf"(?:{NUMBER_RE}|an?|one|another)"
_MORE_NIGHTS = re.compile(
    rf"\b(?:add(?:ing)?|tack\s+on|plus)\s+(?:on\s+)?{_N_NIGHTS}\s+(?:more\s+|extra\s+|additional\s+)?nights?\b"
    rf"|\b(?:stay|extend(?:\s+(?:it|the\s+trip|the\s+stay))?)\s+(?:for\s+)?(?:an?\s+)?{_N_NIGHTS}\s+(?:more|extra|additional)\s+(?:days?|nights?)\b"
    rf"|\b{_N_NIGHTS}\s+(?:more|extra|additional)\s+nights?\b|\b(?:an?\s+)?(?:extra|additional)\s+{_N_NIGHTS}\s+nights?\b"
    rf"|\bstay\s+{_N_NIGHTS}\s+(?:more\s+)?nights?\s+(?:longer|more|extra)\b"
    r"|\banother\s+night\b"
    rf"|\b(?:lengthen|stretch)\s+(?:\w+\s+){{0,3}}?by\s+{_N_NIGHTS}\s+(?:days?|nights?)\b"
    rf"|\b{_N_NIGHTS}\s+(?:days?|nights?)\s+longer\b",
    re.I,
)
_FEWER_NIGHTS = re.compile(
    rf"\b(?:cut|drop|remove|lose|minus|take\s+off|shave\s+off)\s+{_N_NIGHTS}\s+nights?\b"
    rf"|\b{_N_NIGHTS}\s+(?:fewer|less)\s+nights?\b|\b{_N_NIGHTS}\s+(?:days?|nights?)\s+(?:less|fewer|shorter)\b"
    rf"|\b(?:shorten|cut)\s+(?:\w+\s+){{0,3}}?(?:short\s+)?by\s+{_N_NIGHTS}\s+(?:days?|nights?)\b",
    re.I,
)


def _nights_changed(msg: str) -> Optional[Tuple[str, int, Tuple[int, int]]]:
    """("end", ±nights, span) for "add a night", "one more night", "one night less"."""
    for rx, sign in ((_MORE_NIGHTS, 1), (_FEWER_NIGHTS, -1)):
        m = rx.search(msg)
        if m is None:
            continue
        said = re.findall(rf"\b(?:{NUMBER_RE})\b", m.group(0), re.I)  # "an extra 2 nights": the last, 2
        raw = said[-1].lower() if said else "a"
        n = 1 if raw in ("a", "an", "one", "another") else to_int(raw)
        if n and n <= 30:
            return "end", sign * n, m.span()
    return None


# Arriving a day before the trip's first day, said once options are out: "I need to be there the night
# before", "we have to get in the day before", "can we fly in the evening before?"
_DAY_BEFORE = re.compile(
    r"\b(?:(?:need|have|want|got|'d\s+like|would\s+like)\s+to\s+(?:be|get|arrive|land)(?:\s+there|\s+in)?"
    r"|(?:arrive|get\s+in|get\s+there|fly\s+in|fly\s+out|go|leave|be\s+there)|(?:arriving|flying\s+in|getting\s+in))"
    r"\s+(?:on\s+)?the\s+(?:night|day|evening)\s+before\b(?!\s+(?:the|my|our|his|her|their)\b)",
    re.I,
)


def read_shift(msg: str) -> Optional[Tuple[str, int, Tuple[int, int]]]:
    """("start" | "end" | "both", days, span) for "push the return by two days", "a day later",
    "add a night" (the end a day later), "one night less", "I need to be there the night before"."""
    nights = _nights_changed(msg)
    if nights:
        return nights
    before = _DAY_BEFORE.search(msg)
    if before:
        return "start", -1, before.span()
    for m in _SHIFT.finditer(msg):
        raw = (m.group("n1") or m.group("n2") or "").lower()
        n = (
            2
            if raw.startswith("a couple")
            else 3
            if raw.startswith("a few")
            else 1
            if raw in ("a", "an", "one")
            else to_int(raw)
        )
        if not n or n > 60:
            continue
        unit = (m.group("unit1") or m.group("unit2") or "").lower()
        days = n * (7 if unit.startswith("week") else 1)
        direction = (m.group("dir") or m.group("dir2") or m.group("pre") or "").lower()
        head = (m.group("verb") or "") + (m.group("what") or "")
        if not direction:
            if re.match(r"(?:extend|push|bump)", head, re.I):
                direction = "later"
            else:
                continue
        sign = -1 if direction in ("earlier", "early", "sooner", "before", "forward", "ahead", "up") else 1
        if (
            re.search(r"\bback\b", m.group(0), re.I)
            and re.match(r"(?:push|move|bump)", head, re.I)
            and direction == "back"
        ):
            sign = 1  # "push it back a day": later
        which = "both"
        words = head + " " + msg[max(0, m.start() - 30) : m.start()]
        if re.search(r"\bextend\b", head, re.I) or (
            _RETURN_WORDS.search(head)
            and not _BOTH_WORDS.search(head)
            and not re.match(r"push\s+(?:it\s+)?back", head, re.I)
        ):
            which = "end"
        elif _DEPART_WORDS.search(head) and not _BOTH_WORDS.search(head):
            which = "start"
        elif m.group("dir2") and not _BOTH_WORDS.search(words):
            which = "end" if _RETURN_WORDS.search(words) else "start" if _DEPART_WORDS.search(words) else "both"
        return which, sign * days, m.span()
    return None


def shifted(
    known: Tuple[Optional[date], Optional[date], bool], which: str, days: int
) -> Tuple[Optional[date], Optional[date]]:
    start, end, _ = known
    delta = timedelta(days=days)
    new_start = start + delta if start and which in ("start", "both") else None
    new_end = end + delta if end and which in ("end", "both") else None
    return new_start, new_end


_INSTEAD = re.compile(r"\binstead\s+of\b|\brather\s+than\b|\bnot\b(?=\s+\S+\s*$)", re.I)


def instead_of(msg: str) -> Optional[Tuple[int, int]]:
    """The span of the "Y" in "X instead of Y" (what is being replaced), or None."""
    m = re.search(r"\b(?:instead\s+of|rather\s+than)\s+(?P<y>[^,.;!?]+)", msg, re.I) or _NOT_THAT_DAY.search(msg)
    return m.span("y") if m else None


# "coming back the 14th not the 13th", "the 9th, not the 8th": the day after "not" is the one replaced
_NOT_THAT_DAY = re.compile(
    r"(?<=\S)[\s,]+(?:and\s+)?not\s+(?:on\s+)?(?P<y>(?:the\s+)?\d{1,2}(?:st|nd|rd|th)\b|"
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?\b"
    r"|(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day)?\b)",
    re.I,
)


def place_roles(current: Dict[str, Any]) -> Dict[str, str]:
    """code -> the trip's role for it ("origin" / "destination"); a metro's airports too
    ("JFK" on a trip from NYC)."""
    segments = ((current.get("itinerary") or {}).get("segments")) or []
    first = segments[0] if segments and isinstance(segments[0], dict) else {}
    out = {}
    for role in ("origin", "destination"):
        place = first.get(role)
        if isinstance(place, dict) and place.get("code"):
            out[place["code"]] = role
            for code in geo.airports_for(place["code"]):
                out.setdefault(code, role)
    return out
