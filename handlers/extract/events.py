"""Events travellers go to by name: where some are, and which have no day the desk can know.

Days of events that follow a rule ("mardi gras", "the kentucky derby") are dated in
``dates._RULE_DAYS``. An event held in one town names the trip's destination when no other place
does ("the kentucky derby! flying from charlotte": Louisville), told as an assumption. An event
whose days change every year ("coachella", "the super bowl") dates nothing: "coachella weekend 1"
is not this weekend, and the desk asks when.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Dict, List, Optional

# (what the traveller says, the town it is held in)
_EVENT_TOWNS = (
    (r"mardi\s+gras|fat\s+tuesday", "New Orleans"),
    (r"(?:the\s+)?kentucky\s+derby|(?:the\s+)?kentucky\s+oaks", "Louisville"),
    (r"(?:the\s+)?indy\s*500|(?:the\s+)?indianapolis\s+500", "Indianapolis"),
    (r"(?:the\s+)?boston\s+marathon|marathon\s+monday", "Boston"),
    (r"(?:the\s+)?new\s+orleans\s+jazz\s+fest|jazz\s*fest", "New Orleans"),
)
_EVENT_TOWN = [(re.compile(rf"\b(?:{said})\b", re.I), town) for said, town in _EVENT_TOWNS]

# Events whose days move from year to year: a weekend said with them is theirs, not this one
_VARYING = (
    r"coachella|stagecoach|super\s*bowl|burning\s+man|lollapalooza|lolla|bonnaroo|edc|sxsw|south\s+by"
    r"|acl|austin\s+city\s+limits|art\s+basel|comic[\s-]?con|ces|f1|formula\s+(?:1|one)|grand\s+prix|the\s+masters"
    r"|final\s+four|march\s+madness|world\s+series|the\s+open|wimbledon|oktoberfest|chinese\s+new\s+year"
    r"|lunar\s+new\s+year|diwali|eid|ramadan|fan\s*expo|the\s+eras\s+tour|pride"
)
# "coachella weekend 1", "super bowl weekend", "weekend 2 of coachella", "the coachella wknd"
EVENT_WEEKEND = re.compile(
    rf"\b(?:{_VARYING})(?:'s)?\s+(?P<a>(?:long\s+)?(?:weekend|wknd))\b"
    rf"|\b(?P<b>weekend|wknd)\s+(?:(?:one|two|three|1|2|3)\s+)?(?:of|for|at)\s+(?:the\s+)?(?:{_VARYING})\b",
    re.I,
)


def event_weekends(text: str) -> List[range]:
    """Where "weekend" belongs to an event of no fixed days ("coachella weekend 1"): not a day to read."""
    out = []
    for m in EVENT_WEEKEND.finditer(text):
        key = "a" if m.group("a") else "b"
        out.append(range(m.start(key), m.end(key)))
    return out


# "mardi gras in mobile", "the derby at churchill downs": where it is held is said (a town or not)
_HELD_ELSEWHERE = re.compile(r"\s+(?:in|at)\s+(?!(?:this|next|the\s+(?:spring|fall))\b)[a-z]", re.I)


def event_town(text: str, lookup: Callable[[str], Optional[Dict[str, Any]]]) -> Optional[tuple]:
    """(the event as said, the town it is held in) for the first event of one town the text names."""
    for said, town in _EVENT_TOWN:
        m = said.search(text)
        if m and not _HELD_ELSEWHERE.match(text, m.end()):
            place = lookup(town)
            if place:
                return m.group(0), place
    return None


def town_told(event: str, place: Dict[str, Any]) -> str:
    """The assumption line for a destination taken from the event."""
    name = re.sub(r"^the\s+", "", event, flags=re.I)
    return f"Took {name} as a trip to {place['name']} ({place['code']}); say if you're going somewhere else"
