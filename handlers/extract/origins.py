"""A party leaving from several towns ("3 of us from NYC and 3 from Chicago, meeting in denver",
"me from boston, my sister from philly"). A search leaves from one town, so none of them is taken
as the trip's origin: the traveller is told the towns heard and asked which to search from,
rather than one of them being searched silently and the others dropped."""

from __future__ import annotations

import re
from typing import List, Sequence

from .places import Mention, find_places

# "from" leading into a place a group leaves from; not the way home ("back from", "home from")
_FROM = re.compile(r"\bfrom\s+$", re.I)
_HOME_FROM = re.compile(r"\b(?:back|home|return(?:ing)?|returns?)\s+from\s+$", re.I)
# a town flown to ("from boston to denver, from denver to vegas": a chain of flights, not two groups)
_TO = re.compile(r"(?:\bto|\binto|>|->|→)\s+$", re.I)
# "from JFK or Newark": one origin either way
_EITHER = re.compile(r"\bor\b|\beither\b", re.I)


def _after(rx: re.Pattern[str], text: str, mention: Mention) -> bool:
    return bool(rx.search(text[: mention.start]))


def several_origins(text: str, places: Sequence[Mention] = ()) -> List[Mention]:
    """The towns a party says it leaves from, when there are two or more different ones (else [])."""
    places = places or find_places(text)
    towns = [m for m in places if _after(_FROM, text, m) and not _after(_HOME_FROM, text, m)]
    flown_to = {m.place.get("code") for m in places if _after(_TO, text, m)}
    distinct = {m.place.get("code") for m in towns}
    if len(distinct) < 2 or distinct & flown_to:
        return []
    between = text[towns[0].end : towns[-1].start]
    return [] if _EITHER.search(between) else towns


def origins_question(text: str) -> str:
    """The question for the origin when the message named several ("" when it did not)."""
    towns = several_origins(text)
    names: List[str] = []
    for m in towns:
        name = str(m.place.get("name") or text[m.start : m.end])
        if name not in names:
            names.append(name)
    if not names:
        return ""
    said = ", ".join(names[:-1]) + f" and {names[-1]}"
    return (
        f"You're leaving from {said}: I can search from one city at a time. "
        f"Which should I search first ({' or '.join(names)})? I can search the others next."
    )
