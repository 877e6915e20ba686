"""A stopover on the way: a town the traveller stays in between home and the destination ("sfo to
amsterdam with a stopover in reykjavik", "seattle to tokyo, stopping over in honolulu for 3 days",
"a 2 night stopover in dubai on the way back"). With its length the trip is three flights (two
without a way home), the stopover's nights a stay of their own; without it the town is told as not
in the search, and neither the destination nor the hotel."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .dates import find_durations
from .places import Mention

# "stopover in", "stop over at", "stopping over in", "stop off in"; "a stop in X" only with its length
_CUE = re.compile(
    r"\b(?:(?P<pre>\w+(?:-|\s+)(?:days?|nights?)\s+)?(?:stop\s*-?\s*over|stopping\s+over|stop(?:ping)?\s+off)"
    r"|(?P<stop>stop(?:ping)?))\s+(?:of\s+(?P<of>\w+\s+(?:days?|nights?))\s+)?(?:in|at)\s+",
    re.I,
)
_CLAUSE_END = re.compile(r"[,.;!?]|\s(?:then|and|on\s+the\s+way|leaving|flying|from|to)\b|$", re.I)
_WAY_BACK = re.compile(r"\s*(?:,\s*)?on\s+the\s+(?:way|trip)\s+(?:back|home)|\s*(?:,\s*)?on\s+the\s+return", re.I)


@dataclass(frozen=True)
class Stopover:
    place_start: int  # where the town's name starts
    nights: Optional[int]  # its length, when said
    back: bool  # on the way home, not on the way out
    spans: Tuple[Tuple[int, int], ...]  # its length's words, which are not the trip's


def stopover_said(text: str) -> Optional[Stopover]:
    """The stopover ``text`` names, if any (its town is found by the place reader)."""
    cue = _CUE.search(text)
    if cue is None:
        return None
    end = _CLAUSE_END.search(text, cue.end())
    clause_end = end.start() if end else len(text)
    nights: Optional[int] = None
    spans: List[Tuple[int, int]] = []
    before = cue.group("pre") or cue.group("of")
    if before:
        found = find_durations(before)
        if found:
            nights = found[0].nights
            where = cue.start("pre") if cue.group("pre") else cue.start("of")
            spans.append((where, where + len(before)))
    if nights is None:  # "honolulu for 3 days"
        after = text[cue.end() : clause_end + 1]
        m = re.search(r"\s+for\s+", after)
        found = find_durations(after[m.end() :]) if m else []
        if m and found and not after[m.end() : m.end() + found[0].start].strip():
            nights = found[0].nights
            spans.append((cue.end() + m.start(), cue.end() + m.end() + found[0].end))
    if cue.group("stop") and nights is None:
        return None  # "a stop in denver is fine": a connection, not a stay
    back = _WAY_BACK.match(text, clause_end) is not None
    return Stopover(cue.end(), nights, back, tuple(spans))


def stopover_place(stop: Optional[Stopover], places: Sequence[Mention]) -> Optional[Mention]:
    return next((p for p in places if stop is not None and p.start == stop.place_start), None)


# Where a flight changes planes, not where the trip goes: "via chicago", "connecting through atlanta",
# "a layover in dallas is fine", "one stop in denver", "no layover in atlanta"
_CONNECTION = re.compile(
    r"\b(?:via|(?:connect(?:ing|ion)?|change\s+planes?|transfer(?:ring)?)\s+(?:in|at|through|thru|via)"
    r"|(?:flying|going|routed?|routing)\s+(?:through|thru)|layovers?\s+(?:in|at)"
    r"|(?:a|one|1|the)\s+stop\s+(?:in|at))\s+(?:the\s+)?$",
    re.I,
)


def connections(text: str, places: Sequence[Mention]) -> List[Mention]:
    """The places ``text`` names as where a flight connects (never one end of the trip)."""
    return [p for p in places if _CONNECTION.search(text[max(0, p.start - 30) : p.start])]


def stopover_legs(
    stop: Stopover, town: Mention, fields: Dict[str, Any], assumptions: Optional[List[str]]
) -> Optional[List[Dict[str, Any]]]:
    """The flights with the stopover in them, from the trip read without it; None (and the traveller told)
    when its length, the trip's ends or the day it is on are not said."""
    home, there = fields.get("origin"), fields.get("destination")
    out, back = fields.get("depart_date"), fields.get("return_date")
    day = back if stop.back else out
    name = town.place.get("name") or town.place.get("code")
    if not (stop.nights and home and there and out and day):
        if assumptions is not None:
            assumptions.append(
                f"A stopover in {name} is not in this search yet; say how many days there to add it"
                if not stop.nights
                else f"A stopover in {name} is not in this search yet; say where from, where to and the day"
            )
        return None
    later = (date.fromisoformat(day) + timedelta(days=stop.nights)).isoformat()
    if stop.back:
        return [_leg(home, there, out), _leg(there, town.place, back), _leg(town.place, home, later)]
    legs = [_leg(home, town.place, out), _leg(town.place, there, later)]
    if back and back > later:
        legs.append(_leg(there, home, back))
    elif assumptions is not None and not back:
        assumptions.append("No flight home yet; say the day to add it")
    return legs


def _leg(origin: Any, destination: Any, day: Optional[str]) -> Dict[str, Any]:
    return {"origin": origin, "destination": destination, "depart_date": day}
