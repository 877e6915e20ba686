"""Which place is the origin, the destination or a stay, and which date starts or ends the trip.

Each value gets a role from the cue next to it; values without one take the pending question's
slot, then whatever the trip still lacks. A message naming several flights becomes legs.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date, timedelta
from typing import Any, Dict, List, Optional, Sequence, Tuple

from handlers.common import geo

from .cues import (
    AFTER_CHECK_IN,
    AFTER_CHECK_OUT,
    AFTER_DEPART,
    AFTER_RETURN,
    CHECK_IN_CUE,
    CHECK_IN_WORDS,
    CHECK_OUT_CUE,
    CHECK_OUT_WORDS,
    DEPART_CUE,
    DEPART_WORDS,
    DEST_CUE,
    HOTEL_WORDS,
    ORIGIN_CUE,
    RANGE_CUE,
    RETURN_CUE,
    RETURN_WORDS,
    STAY_CUE,
    WEAK_DEST_CUE,
    before,
)
from .dates import DateMention, Doubt
from .journeys import THEN
from .places import Mention

_LEG_SPLIT = re.compile(r"[;,]|\bthen\b|\band\s+then\b|\bafter\s+that\b|\band\s+(?=(?:back|home)\b)", re.I)
# Between the two places of a leg: "boston to miami", "nyc > london", "out of chicago: denver jan 10"
_LEG_LINK = re.compile(r"\bto\b|->|→|-|>|:")
# Before the one place of a later leg: "miami to new orleans jan 11 and back to boston", ", phoenix jan 13"
_NEXT_STOP = re.compile(r"(?:\b(?:to|back\s+to)|^)\s*$", re.I)
# A later leg that goes home ("..., home jan 16", "and back home the 20th"): to where the first leg left
_HOME_LEG = re.compile(r"^\s*(?:(?:fly(?:ing)?|head(?:ing)?|go(?:ing)?)\s+)?(?:back\s+)?home\b|^\s*back\s*$", re.I)


def assign_places(
    msg: str,
    places: List[Mention],
    slots: Sequence[str],
    current: Dict[str, Any],
    stay_mode: bool,
    fields: Dict[str, Any],
) -> None:
    preceding = [before(msg, m.start, places[i - 1].end if i else 0) for i, m in enumerate(places)]
    roles = [_role(p, stay_mode, msg) for p in preceding]
    # "Boston to Denver", "go San Francisco to Las Vegas": a place right before a destination is the origin.
    for i in range(len(places) - 1):
        between = msg[places[i].end : places[i + 1].start]
        if (
            re.fullmatch(r"\s*(?:to|-|–|->|→)\s*", between, re.I)
            and (roles[i] is None or not roles[i][1] or (roles[i][0] == "destination" and not _TO.search(preceding[i])))
            and (roles[i + 1] is None or roles[i + 1][0] == "destination")
            and not stay_mode
        ):
            roles[i], roles[i + 1] = ("origin", True), ("destination", True)
    for i, m in enumerate(places):
        # "chicago to door county", "houston to south padre": the route's far end is a name not known, so
        # the place before it is where the trip starts (and where it goes is asked), not the destination
        far = _TO_UNKNOWN.match(msg, m.end)
        if (
            not stay_mode
            and roles[i] is None
            and far
            and far.group("w").lower() not in _NOT_A_PLACE
            and not (i + 1 < len(places) and places[i + 1].start <= far.start("w"))
        ):
            roles[i] = ("origin", True)
    pairs = [
        i for i in range(len(places) - 1) if roles[i] == ("origin", True) and roles[i + 1] == ("destination", True)
    ]
    for i in pairs:
        # "BOS-ORD 12/14, ORD-BOS 12/16": the second flight is the first one's way back, not a new route
        for k in (k for k in pairs if k > i + 1):
            if (places[k].place["code"], places[k + 1].place["code"]) == (
                places[i + 1].place["code"],
                places[i].place["code"],
            ) and not _CORRECTION.search(msg[places[i + 1].end : places[k].start]):
                roles[k], roles[k + 1] = ("skip", True), ("skip", True)
    for i in range(len(places) - 2):
        # "sfo-jfk-sfo", "bos to den to bos": there and back, the third place the first again
        gaps = [msg[places[j].end : places[j + 1].start] for j in (i, i + 1)]
        if (
            not stay_mode
            and all(re.fullmatch(r"\s*(?:to|-|–|->|→)\s*", g, re.I) for g in gaps)
            and places[i].place["code"] == places[i + 2].place["code"] != places[i + 1].place["code"]
        ):
            roles[i], roles[i + 1], roles[i + 2] = ("origin", True), ("destination", True), ("skip", True)
    for i in range(1, len(places)):
        # "nyc to barcelona april 2-12, a few days in barcelona then madrid": the destination named again is
        # still the destination, not the other end
        same = [j for j in range(i) if places[j].place["code"] == places[i].place["code"]]
        if not stay_mode and not _strong(roles[i]) and any(roles[j] == ("destination", True) for j in same):
            roles[i] = ("skip", True)
    for i in range(1, len(places)):
        # "boston to rome mar 3-12, a few days in rome then florence": a town gone on to from the destination
        # (by land) is no new destination; the traveller is told it is not in the search (``towns_left_out``)
        # "athens then santorini, from nyc": the first town of the tour is where the flight goes, though
        # no cue says so; a town named first with no cue is the destination unless the trip starts there
        # ("nyc then boston" after a question about the origin stays as it was: both cued or asked)
        if (
            not stay_mode
            and THEN.search(msg[max(0, places[i].start - 45) : places[i].start])
            and any(
                r == ("destination", True) or (r is None and _goes_on_from(msg, places, roles, j))
                for j, r in enumerate(roles[:i])
            )
            and places[i].place["code"] not in {p.place["code"] for p in places[:i]}
        ):
            roles[i] = ("skip", True)
    segments = [s for s in ((current.get("itinerary") or {}).get("segments") or []) if isinstance(s, dict)]
    first = segments[0] if segments else {}
    home = {p.place["code"] for p, r in zip(places, roles, strict=True) if r == ("origin", True)}
    for i in range(1, len(places)):
        if not stay_mode and home and _BACK_TO.search(preceding[i]) and places[i].place["code"] in home:
            roles[i] = ("skip", True)  # "I'm in Houston ... Austin wed then back to Houston fri": the way home
    if not stay_mode and not first.get("origin") and not home:
        # "home to austin dec 19, back to nyc jan 3": after the way there, "back to" names where the trip starts
        for i in range(1, len(places)):
            if (
                _BACK_TO.search(preceding[i])
                and any(r == ("destination", True) for r in roles[:i])
                and places[i].place["code"] not in {p.place["code"] for p in places[:i]}
            ):
                roles[i] = ("origin", True)
    if (
        not stay_mode
        and len(places) == 2
        and all(r is None or (not r[1] and r[0] == "destination") for r in roles)
        and not first.get("origin")
        and not first.get("destination")
        and (roles == [None, None] or not _pending_place_role(slots, set()))
    ):
        # "boston. denver. jan 12", "atlanta march 1st portland" (asked where to): named in travel order
        roles = [("origin", True), ("destination", True)]
    for i, m in enumerate(places):
        if not _strong(roles[i]) and not stay_mode:
            # "i meant portland maine" on a trip from Portland, Oregon: the other town of that name
            roles[i] = _same_name_end(m, first) or roles[i]
    if not stay_mode:
        _airports_of_ends(places, roles)
    taken = {r[0] for r in roles if r and r[1]}
    final: List[str] = []
    for role in roles:
        if role is None or not role[1]:
            # a bare or loosely cued place ("in new york") answers the question, else fills the end
            # of the flight the trip lacks
            chosen = _pending_place_role(slots, taken) or (
                role[0] if role and stay_mode else _fallback_role(current, stay_mode, taken)
            )
        else:
            chosen = role[0]
        taken.add(chosen)
        final.append(chosen)
    going = first.get("destination") if isinstance(first.get("destination"), dict) else None
    if (
        not stay_mode
        and going
        and not first.get("origin")
        and "origin" not in final
        and "destination" in final
        and places[final.index("destination")].place["code"] != going.get("code")
        and ("destination" in slots or (_strong(roles[final.index("destination")]) and not _CORRECTION.search(msg)))
    ):
        # asked where to although a place was named, or "las vegas ..." then "the 10th to portland":
        # the place named first is where the trip starts
        fields["origin"] = going
    for m, role in zip(places, final, strict=True):
        if role == "skip":
            continue
        if role == "stay":
            stays = [s for s in fields["stays"] or [] if (s.get("location") or {}).get("code") != m.place["code"]]
            stays.append({"location": m.place, "check_in": None, "check_out": None})
            fields["stays"] = stays[-1:] if stay_mode else stays  # a stay named again is a correction
        else:
            fields[role] = m.place  # a later mention corrects an earlier one


def _goes_on_from(msg: str, places: List[Mention], roles: List[Optional[Tuple[str, bool]]], j: int) -> bool:
    """The uncued town ``j`` is the first of a tour ("athens then santorini") while another place named
    is where the trip starts ("from nyc"): the tour's towns after it are by land."""
    follows = j + 1 < len(places) and THEN.search(msg[places[j].end : places[j + 1].start])
    return bool(follows) and any(r == ("origin", True) for r in roles)


_NIGHT_OF = re.compile(r"\s*nights?\b", re.I)
_NOT_UNTIL = re.compile(
    r"\b(?:check(?:ing)?[\s-]?in|leav(?:e|ing)|depart(?:ing)?|fly(?:ing)?\s+out|arriv(?:e|ing))\s+(?:\w+\s+)?"
    r"(?:until|till|before)\s*(?:the\s*)?$",
    re.I,
)
_CORRECTION = re.compile(r"\b(?:actually|instead|rather|change|switch|make\s+it|not|no|wrong|sorry|oops)\b", re.I)
_TO = re.compile(r"\b(?:to|too|into|towards?|back\s+to|trip\s+to)\s*$", re.I)
_TO_UNKNOWN = re.compile(r"\s*(?:to|->|→|>)\s+(?:the\s+)?(?P<w>[a-z][\w'-]*)", re.I)
# what follows "<place> to" when it is no place: "nyc to see my mom", "boston to spend christmas with family"
_NOT_A_PLACE = frozenset(
    """see visit meet attend spend celebrate watch catch relax ski surf hike party work help be go get do have take
    bring pick drop stay check play shop eat enjoy explore join surprise move start finish run speak present
    interview sign close look find try tour study train compete perform hang chill fly travel head come return
    make buy book my our his her their your a an me us you him them it this that there here and or but then for
    with from in on at by back home""".split()
)
_BACK_TO = re.compile(r"\b(?:back|return(?:ing)?)\s+(?:home\s+)?to\s*$", re.I)


def _airports_of_ends(places: List[Mention], roles: List[Optional[Tuple[str, bool]]]) -> None:
    """ "…to Washington DC. Reagan airport if possible", "NYC to Chicago, prefer Midway": an airport
    named without a cue of its own is the airport of the trip's end it serves (a town or metro area
    named with a cue, within ``_SAME_TOWN_KM``), which it then stands for; the town's mention is
    skipped. One that serves neither end of a route already said ("Boston to Denver, ideally
    Gatwick") changes nothing. ``roles`` is changed in place."""
    for i, m in enumerate(places):
        if _strong(roles[i]) or m.place.get("type") != "airport":
            continue
        ends = {
            j: role[0]
            for j, role in enumerate(roles)
            if j != i and role and role[1] and role[0] in ("origin", "destination")
        }
        for j, end in ends.items():
            if places[j].place.get("code") == m.place.get("code"):
                break  # (the very airport, named twice)
            apart = geo.distance_km(str(places[j].place.get("code")), str(m.place.get("code")))
            if apart is not None and apart <= _SAME_TOWN_KM:
                roles[i], roles[j] = (end, True), ("skip", True)
                break
        else:
            if set(ends.values()) == {"origin", "destination"}:
                roles[i] = ("skip", True)


def _town_name(place: Any) -> str:
    name = place.get("name") if isinstance(place, dict) else None
    return str(name or "").split(",")[0].strip().lower()


def _same_name_end(mention: Mention, first: Dict[str, Any]) -> Optional[Tuple[str, bool]]:
    """The end of the trip's flight that holds another town of this place's name, as a strong role."""
    name = _town_name(mention.place)
    for end in ("origin", "destination"):
        held = first.get(end)
        if not (name and isinstance(held, dict) and _town_name(held) == name):
            continue
        apart = geo.distance_km(str(held.get("code")), str(mention.place.get("code")))
        if apart is not None and apart > _SAME_TOWN_KM:  # not an airport of the same town ("ord" for Chicago)
            return (end, True)
    return None


_SAME_TOWN_KM = 100


def _strong(role: Optional[Tuple[str, bool]]) -> bool:
    return bool(role and role[1])


def _role(preceding: str, stay_mode: bool, msg: str) -> Optional[Tuple[str, bool]]:
    """(role, strong) from the words before a place; weak cues yield to the pending question."""
    if stay_mode:
        if ORIGIN_CUE.search(preceding) and not STAY_CUE.search(preceding[-12:]):
            return ("skip", True)  # "driving from Phoenix", "I live in Chicago": not where the hotel is
        if STAY_CUE.search(preceding) or DEST_CUE.search(preceding) or WEAK_DEST_CUE.search(preceding):
            return ("stay", True)
        return None
    if ORIGIN_CUE.search(preceding):
        return ("origin", True)
    if DEST_CUE.search(preceding):
        return ("destination", True)
    if STAY_CUE.search(preceding) and HOTEL_WORDS.search(msg):
        return ("stay", True)
    if WEAK_DEST_CUE.search(preceding) or STAY_CUE.search(preceding):
        return ("destination", False)  # "flights for Denver", "how about in Denver"
    return None


def _pending_place_role(slots: Sequence[str], taken: set) -> Optional[str]:
    for slot in slots:
        role = {"origin": "origin", "destination": "destination", "hotel_location": "stay"}.get(slot)
        if role and role not in taken:
            return role
    return None


def _fallback_role(current: Dict[str, Any], stay_mode: bool, taken: set) -> str:
    """A place with no cue and no question: a stay, else whichever end of the flight is missing."""
    if stay_mode:
        return "stay"
    segments = ((current.get("itinerary") or {}).get("segments")) or []
    first = segments[0] if segments and isinstance(segments[0], dict) else {}
    if "destination" in taken or (first.get("destination") and not first.get("origin")):
        return "origin"
    return "destination"


def hotels_named(msg: str, places: List[Mention], fields: Dict[str, Any]) -> None:
    """'hotels in London and Paris' after a multi-city list names the stays."""
    m = re.search(r"\b(?:hotels?|stay(?:ing)?|rooms?)\s+in\b", msg, re.I)
    if not m:
        return
    stays = [{"location": p.place, "check_in": None, "check_out": None} for p in places if p.start > m.end()]
    if stays:
        fields["stays"] = stays
        fields["hotel_needed"] = True


def read_legs(msg: str, places: List[Mention], dates: List[DateMention]) -> Optional[List[Dict[str, Any]]]:
    """Three or more flights in one message ("A to B Feb 10, B to C Feb 14, C back to A Feb 18")."""
    if len(places) < 3 or len(dates) < 2:
        return None
    bounds = [0] + [m.end() for m in _LEG_SPLIT.finditer(msg)] + [len(msg) + 1]
    legs = []
    for lo, hi in zip(bounds, bounds[1:], strict=False):
        ps = [p for p in places if lo <= p.start < hi]
        ds = [d for d in dates if lo <= d.start < hi]
        if len(ds) != 1:
            continue
        day = ds[0].value.isoformat()
        if len(ps) == 2 and _LEG_LINK.search(msg[ps[0].end : ps[1].start]):
            legs.append({"origin": ps[0].place, "destination": ps[1].place, "depart_date": day})
        elif len(ps) == 1 and legs and _NEXT_STOP.search(msg[lo : ps[0].start]):
            legs.append({"origin": legs[-1]["destination"], "destination": ps[0].place, "depart_date": day})
        elif not ps and legs and _HOME_LEG.search(msg[lo : ds[0].start]):
            legs.append({"origin": legs[-1]["destination"], "destination": legs[0]["origin"], "depart_date": day})
    if len(legs) < 2:
        return None
    if (
        len(legs) == 2
        and legs[1]["destination"]["code"] == legs[0]["origin"]["code"]
        and legs[1]["origin"]["code"] == legs[0]["destination"]["code"]
    ):
        return None  # an out-and-back is a round trip, read by the ordinary path
    return legs


# "arriving the 3rd, leaving the 6th", "in on the 30th, out jan 2": the days at the destination
_ARRIVING = re.compile(
    r"\b(?:arriv(?:e|ing|al)|in\s+on|(?:fly(?:ing)?|get(?:ting)?)\s+in|(?:get(?:ting)?|be)\s+there)\b[^.!?;]*$", re.I
)
# "fly out the 8th and leave the 12th": a second "leave" after the way out is leaving the destination
_LEAVE = re.compile(r"\bleav(?:e|ing)\s+(?:on\s+)?(?:the\s+)?$", re.I)
_LEAVING = re.compile(r"\b(?:leav(?:e|ing)|depart(?:ing|ure)?|out)\b[^.!?;]*$", re.I)


_CUE_TO_NEXT = re.compile(r"[\s:]*(?:(?:date|day|flight|on|is|the)\s*)*$", re.I)


def _cue_after(cue: re.Pattern[str], msg: str, d: DateMention, rest: List[DateMention]) -> bool:
    """ "March 11th check-out": the word after a date says what it is, unless it is the cue of the next
    date ("dec 17 return dec 21": the 21st is the return, the 17th the way out)."""
    m = cue.match(msg, d.end)
    return m is not None and not (rest and _CUE_TO_NEXT.match(msg[m.end() : rest[0].start]))


def assign_dates(
    msg: str,
    dates: List[DateMention],
    slots: Sequence[str],
    stay_mode: bool,
    known: Tuple[Optional[date], Optional[date], bool],
    fields: Dict[str, Any],
    doubts: Optional[List[Doubt]] = None,
) -> None:
    """Departure and return (or check-in and check-out) from the words before each date.

    A date in ``doubts`` ("03/04": two readings) holds its place without being read: in
    "02/03 - 02/15" the 15th is the return and the doubt the departure, not the other way
    round; each such doubt is told the date it stands for."""
    holders = [DateMention(d.start, d.end, d.readings[0], d.text) for d in doubts or [] if len(d.readings) == 2]
    read = dates
    dates = sorted(dates + holders, key=lambda d: d.start)
    start_cue, end_cue = (CHECK_IN_CUE, CHECK_OUT_CUE) if stay_mode else (DEPART_CUE, RETURN_CUE)
    start_words, end_words = (CHECK_IN_WORDS, CHECK_OUT_WORDS) if stay_mode else (DEPART_WORDS, RETURN_WORDS)
    after_start, after_end = (AFTER_CHECK_IN, AFTER_CHECK_OUT) if stay_mode else (AFTER_DEPART, AFTER_RETURN)
    start: Optional[date] = None
    end: Optional[date] = None
    uncued: List[DateMention] = []
    ends: List[DateMention] = []
    arrived = False  # the start was said as arriving ("arriving Feb 3"): a later "leaving" is the way back
    for i, d in enumerate(dates):
        gap = msg[dates[i - 1].end : d.start] if i else ""
        preceding = before(msg, d.start, dates[i - 1].end if i else 0)
        if i and len(gap) <= 14 and RANGE_CUE.search(gap):
            # "March 11 to 16", "from the 2nd until the 5th"
            start = dates[i - 1].value
            if dates[i - 1] in uncued:
                uncued.remove(dates[i - 1])
            end, ends = d.value, [d]
        elif _cue_after(after_end, msg, d, dates[i + 1 :]):  # "March 11th check-out"
            end, ends = d.value, [d]
        elif _cue_after(after_start, msg, d, dates[i + 1 :]):
            start = d.value
        elif _NOT_UNTIL.search(preceding):  # "not checking in until the 10th", "not leaving till Friday"
            start = d.value
        elif end_cue.search(preceding):
            if end is not None and start is None and not known[0] and ends and d.after(end) > end:
                start = end  # "flying home on christmas day, back monday": two ends said, the first is the way out
            end, ends = d.value, [d]
        elif start_cue.search(preceding):
            if (
                not stay_mode
                and start is not None
                and (arrived and _LEAVING.search(preceding) or end is None and _LEAVE.search(preceding))
            ):
                end, ends = d.value, [d]  # "arriving the 3rd, leaving the 6th": leaving the destination
            else:
                start = d.value
                arrived = bool(_ARRIVING.search(preceding))
        else:
            # no cue right before: the last telling word earlier in the clause
            # ("check out of your hotel in Los Angeles on March 10th")
            clause = re.split(r"[.!?;]", msg[dates[i - 1].end if i else 0 : d.start])[-1]
            words = [
                (m.start(), kind)
                for kind, rx in (("start", start_words), ("end", end_words))
                for m in rx.finditer(clause)
            ]
            kind = max(words)[1] if words else None
            if kind == "end" and _only_the_way_home(msg, d.start - len(clause) + max(words)[0], dates, known):
                kind = "start"
                if not stay_mode and fields.get("one_way") is None:
                    fields["one_way"] = True  # the flight home is the trip: no way back to ask about
            if kind == "end":
                end, ends = d.value, [d]
            elif kind == "start":
                start = d.value
            else:
                uncued.append(d)
    start_slot, end_slot = ("check_in", "check_out") if stay_mode else ("depart_date", "return_date")
    known_start, known_end, can_end = known
    if (end_slot in slots) != (start_slot in slots):
        wants_end = can_end and end_slot in slots  # the question says which
    else:
        wants_end = can_end and bool(known_start) and not known_end  # the trip says which is missing
    for mention in uncued:
        if wants_end and end is None and not (known_start and mention.after(known_start) < known_start):
            end, ends = mention.value, [mention]
        elif start is None:
            start = mention.value
        elif end is None and mention.after(start) > start:
            end, ends = mention.value, [mention]
    first_day = start or known_start
    if end is not None and ends and first_day:
        end = ends[0].after(first_day)  # "back the 2nd" after January 30 is February 2
    if stay_mode and end is not None and ends and _NIGHT_OF.match(msg, ends[0].end):
        end += timedelta(days=1)  # "tonight and tomorrow night", "friday and saturday nights": out the morning after
    if end is not None and start is not None and end < start:
        end = None  # a return before the departure in the same breath is not one
    if start is None and end is None:
        return
    if start is not None and end is None and not stay_mode and _going_home(msg, dates, known):
        fields["one_way"] = True if fields.get("one_way") is None else fields["one_way"]
    if stay_mode:
        stays = fields["stays"] or [{"location": None, "check_in": None, "check_out": None}]
        stays[0]["check_in"] = start.isoformat() if start else None
        stays[0]["check_out"] = end.isoformat() if end else None
        fields["stays"] = stays
    else:
        fields["depart_date"] = start.isoformat() if start else None
        fields["return_date"] = end.isoformat() if end else None
    if holders:
        _doubts_placed(read, stay_mode, fields, doubts or [])


# "flying back to boston from la on the 14th", "getting back to chicago from denver friday": the way home as
# the trip's one flight, its day the day out
_HOME_BOUND = re.compile(
    r"(?:returning|com(?:e|ing)\s+back|get(?:ting)?\s+back|fly(?:ing)?\s+back|head(?:ing)?\s+back)\s+(?:home\s+)?(?:to|from)\b",
    re.I,
)
# a way out said before: "<place> to", "to <place>" (not "need to get back to ...")
_ROUTE_SAID = re.compile(
    r"\b(?:to|into)\s+(?!(?:get|go|fly|be|head|come|return|travel|book|make|find|see|visit)\b)\w|->|→|>", re.I
)


# "heading back home to boston from la", "flying home to seattle from austin", "going home from denver to chicago":
# a flight that names the home it goes to or the place it leaves
_GOING_HOME = re.compile(
    r"\b(?:head(?:ing)?|go(?:ing)?|fly(?:ing)?|get(?:ting)?|com(?:e|ing)|return(?:ing)?|back)\s+(?:back\s+)?home"
    r"\s+(?:to|from)\b",
    re.I,
)


def _going_home(msg: str, dates: List[DateMention], known: Tuple[Optional[date], Optional[date], bool]) -> bool:
    """A first message whose one day is the flight home: no way back to ask about."""
    return len(dates) == 1 and not known[0] and _GOING_HOME.search(msg) is not None


def _only_the_way_home(
    msg: str, at: int, dates: List[DateMention], known: Tuple[Optional[date], Optional[date], bool]
) -> bool:
    """The one day said follows words of coming back that name where to, with no way out said or known before."""
    return (
        len(dates) == 1 and not known[0] and _HOME_BOUND.match(msg, at) is not None and not _ROUTE_SAID.search(msg[:at])
    )


def _doubts_placed(dates: List[DateMention], stay_mode: bool, fields: Dict[str, Any], doubts: List[Doubt]) -> None:
    """Take back the dates the doubts' stand-ins were given, and tell each doubt its date."""
    stay = (fields["stays"] or [{}])[0] if stay_mode else fields
    names = ("check_in", "check_out") if stay_mode else ("depart_date", "return_date")
    taken = {d.value.isoformat() for d in dates}
    for i, doubt in enumerate(doubts):
        name = next(
            (n for n in names if len(doubt.readings) == 2 and stay.get(n) == doubt.readings[0].isoformat()), None
        )
        if name and stay.get(name) not in taken:
            stay[name] = None
            doubts[i] = replace(doubt, slot=name)


def complete_stay(fields: Dict[str, Any]) -> None:
    """A stay with a check-in and a length gets its check-out."""
    stays = fields["stays"]
    nights = fields["nights"]
    if not stays or not nights:
        return
    first = stays[0]
    if first.get("check_in") and not first.get("check_out"):
        first["check_out"] = (date.fromisoformat(first["check_in"]) + timedelta(days=nights)).isoformat()
