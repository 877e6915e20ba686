"""Trips of several flights said without a date beside each leg: a chain of places ("NYC → London →
Paris → home", "boston > denver > vegas > boston") and a different way home ("fly into Rome, out of
Venice", "into Lisbon and home from Porto"). Each gives the legs, dated in the order the dates are
said; with fewer dates than flights the message is read as usual (its dates asked)."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .dates import DateMention
from .places import Mention, served_town

# Between two places of a chain ("to" is what the arrows become): "A to B to C", "A > B then C"
_LINK = re.compile(
    r"\s*(?:to|>|then(?:\s+(?:on\s+)?to)?|,?\s*and\s+then(?:\s+(?:on\s+)?to)?|,\s*then(?:\s+to)?)\s*", re.I
)
# After the last place: the way home ("→ home", "then back", "and back home")
_HOME_AFTER = re.compile(
    r"\s*(?:(?:to|>|then(?:\s+to)?|,?\s*and\s+then(?:\s+to)?)\s+(?:back\s+)?home\b|(?:,?\s*(?:and|then)\s+)?back(?:\s+home)?\b(?!\s+(?:on|the)\b))",
    re.I,
)
# A different way home: "fly into Rome", "landing in Lisbon"; "out of Venice", "home from Porto"
_INTO = re.compile(r"\b(?:(?:fly(?:ing)?|land(?:ing)?|arriv(?:e|ing))\s+in(?:to)?|into)\s+$", re.I)
_OUT_OF = re.compile(r"\b(?:out\s+of|(?:home|back)\s+from|return(?:ing)?\s+from)\s+$", re.I)
_FROM = re.compile(r"\b(?:from|leaving|departing)\s+$", re.I)
_TO = re.compile(r"\s*to\s*", re.I)


def read_journey(
    msg: str,
    places: Sequence[Mention],
    dates: Sequence[DateMention],
    assumptions: Optional[List[str]] = None,
    nights: Optional[int] = None,
) -> Optional[List[Dict[str, Any]]]:
    """The legs of a chain of places or of a trip home from elsewhere, or None when neither is said;
    a chain without a date for each flight is read as usual, and ``assumptions`` says how to say it.
    ``nights``: the trip's length when said ("10 days starting march 5"), which gives its last day."""
    tour = _tour_home_from_the_last(msg, places, dates, nights)
    if tour is not None:
        home, first, last, span = tour
        if assumptions is not None:
            assumptions.append(
                f"Flying home from {_name(last)}, the last town; getting from {_name(first)} to {_name(last)} "
                "is not in this search (say the day to add a flight)"
            )
        return [
            {"origin": home, "destination": first, "depart_date": span[0].isoformat()},
            {"origin": last, "destination": home, "depart_date": span[1].isoformat()},
        ]
    stops = _chain(msg, places)
    pairs = list(zip(stops, stops[1:], strict=False)) if stops else _open_jaw(msg, places)
    if not pairs:
        return None
    legs: List[Dict[str, Any]] = [{"origin": a, "destination": b, "depart_date": None} for a, b in pairs]
    if (
        len(legs) == 2
        and _code(legs[1]["destination"]) == _code(legs[0]["origin"])
        and _code(legs[1]["origin"]) == _code(legs[0]["destination"])
    ):
        return None  # an out-and-back is a round trip, read by the ordinary path
    days = [d.value.isoformat() for d in dates]
    if len(days) < len(legs) or days != sorted(days):
        # a flight without its day could not be asked for alone: read as usual, and said how to
        if assumptions is not None and stops:
            names = [str(p.get("name") or p.get("code")) for p in stops]
            assumptions.append(
                f"To fly {' → '.join(names)}, give each flight its date "
                f'("{names[0]} to {names[1]} Feb 10, {names[1]} to {names[2]} Feb 14, …")'
            )
        return None
    for leg, day in zip(legs, days[: len(legs)], strict=True):
        leg["depart_date"] = day
    return legs


def _code(place: Any) -> Any:
    return place.get("code") if isinstance(place, dict) else None


def _name(place: Dict[str, Any]) -> str:
    return str(place.get("name") or place.get("code"))


# Between a trip's first and last day: "march 3-12", "may 2 to may 14", "jun 1, back jun 14"
# ("mar 3 - 15": the range's dash is read with its first day)
_TRIP_SPAN = re.compile(
    r"\s*(?:(?:-|–|to|through|thru|until|till)\s*)?|.*\b(?:back|return(?:ing)?|home)\b.*", re.I | re.S
)


def _tour_home_from_the_last(
    msg: str, places: Sequence[Mention], dates: Sequence[DateMention], nights: Optional[int] = None
) -> Optional[Tuple[Dict[str, Any], Dict[str, Any], Dict[str, Any], Tuple[date, date]]]:
    """(home, first town, last town, (first day, last day)) for towns toured one after another between a
    trip's first and last day: "nyc to london then paris march 3-12", "rome then florence then venice
    from dc may 2-14", "dublin then galway then cork, 10 days from march 5, flying from boston". The
    flight home leaves from the last town on the last day; None when the days are each a flight's or
    the tour is no tour."""
    if len(dates) == 1 and nights:
        days = (dates[0].value, dates[0].value + timedelta(days=nights))
    elif (
        len(dates) == 2 and dates[0].value < dates[1].value and _TRIP_SPAN.fullmatch(msg[dates[0].end : dates[1].start])
    ):
        days = (dates[0].value, dates[1].value)
    else:
        return None
    run: List[Mention] = []
    for m in places:
        if _FROM.search(msg[max(0, m.start - 15) : m.start]) and len(run) < 2:
            run = []  # "from dallas, vegas and then la": the home named first is not the tour's
            continue
        if run and not (_LINK.fullmatch(msg[run[-1].end : m.start]) or _LIST.fullmatch(msg[run[-1].end : m.start])):
            if len(run) >= 3 or (len(run) >= 2 and _tour_from_home(msg, places, run)):
                break
            run = []
        run.append(m)
    if len(run) >= 2 and _tour_from_home(msg, places, run):
        home_at = next(p for p in places if p not in run and _FROM.search(msg[max(0, p.start - 15) : p.start]))
        home, towns = home_at.place, [m.place for m in run]
        links = [msg[a.end : b.start] for a, b in zip(run, run[1:], strict=False)]
    elif len(run) >= 3:
        home, towns = run[0].place, [m.place for m in run[1:]]
        links = [msg[a.end : b.start] for a, b in zip(run[1:], run[2:], strict=False)]
        if not _TO.fullmatch(msg[run[0].end : run[1].start]):
            return None  # "nyc then london then paris": no home said
    else:
        return None
    if towns and _code(towns[-1]) == _code(home) and _HOME_LINK.fullmatch(links[-1]):
        towns, links = towns[:-1], links[:-1]  # "... then back to miami"
    codes = [_code(t) for t in towns]
    if len(towns) < 2 or not all(_TOUR_LINK.fullmatch(link) for link in links) or len(set(codes)) < len(codes):
        return None
    if _code(home) in codes:
        return None
    return home, towns[0], towns[-1], days


_HOME_LINK = re.compile(r"\s*(?:,?\s*(?:and\s+)?then\s+)?(?:fly\s+)?back\s+(?:home\s+)?to\s*", re.I)


def _chain(msg: str, places: Sequence[Mention]) -> Optional[List[Dict[str, Any]]]:
    """The places of the longest chain ("A to B to C", "A to B to home"), the first again at the end
    for the way home; None for fewer than two legs."""
    best: List[Mention] = []
    run: List[Mention] = list(places[:1])
    for prev, nxt in zip(places, places[1:], strict=False):
        if _LINK.fullmatch(msg[prev.end : nxt.start]):
            run.append(nxt)
        else:
            best, run = max(best, run, key=len), [nxt]
    best = max(best, run, key=len)
    if len(best) < 2 or _tour_from_home(msg, places, best):
        return None
    stops = [m.place for m in best]
    # "ord to sea and then sea to anc": a leg's end said again as the next leg's start is one stop
    stops = [p for k, p in enumerate(stops) if k == 0 or _code(p) != _code(stops[k - 1])]
    if _HOME_AFTER.match(msg, best[-1].end) and _code(stops[-1]) != _code(stops[0]):
        stops.append(stops[0])
    return stops if len(stops) >= 3 else None


_TOUR_LINK = re.compile(r"\s*(?:,?\s*and\s+)?,?\s*then\s*|\s*(?:,|&|,?\s*and)\s*", re.I)
# Towns listed one after another: "lisbon, madrid, barcelona", "vegas and la"
_LIST = re.compile(r"\s*(?:,|&|,?\s*and)\s*", re.I)


def _tour_from_home(msg: str, places: Sequence[Mention], chain: Sequence[Mention]) -> bool:
    """ "rome then florence then venice from dc": towns toured one after another (by land) from a home
    named apart, not flights between them; the trip flies home to the first ("A to B to C" stays flights)."""
    links = [msg[a.end : b.start] for a, b in zip(chain, chain[1:], strict=False)]
    home = [p for p in places if p not in chain and _FROM.search(msg[max(0, p.start - 15) : p.start])]
    return bool(home) and all(_TOUR_LINK.fullmatch(link) for link in links)


def _open_jaw(msg: str, places: Sequence[Mention]) -> Optional[List[Tuple[Dict[str, Any], Dict[str, Any]]]]:
    """[(home, into), (out of, home)] for "from NYC, fly into Rome, out of Venice", "nyc to rome march 5,
    then florence, home from milan march 15" (the towns between are by land); None otherwise."""
    into = next((p for p in places if _INTO.search(msg[max(0, p.start - 20) : p.start])), None)
    out = next((p for p in places if _OUT_OF.search(msg[max(0, p.start - 25) : p.start])), None)
    home = next((p for p in places if _FROM.search(msg[max(0, p.start - 15) : p.start]) and p is not out), None)
    if into is None and home is None and out is not None:  # "A to B ..., home from C": A and B are the way out
        route = next(
            (pair for pair in zip(places, places[1:], strict=False) if _TO.fullmatch(msg[pair[0].end : pair[1].start])),
            None,
        )
        if route is not None and out not in route:
            home, into = route
    if into is None and home is not None and out is not None:
        # "a few days in lisbon then porto, flying home from porto, from nyc": the first town between is the way in
        into = next(
            (p for p in places if p.start < out.start and _code(p.place) not in (_code(home.place), _code(out.place))),
            None,
        )
    if not (into and out and home) or len({_code(into.place), _code(out.place), _code(home.place)}) < 3:
        return None
    return [(home.place, into.place), (out.place, home.place)]


# A town visited after another: "lisbon then porto", "rome and then florence", "a few days in X, then Y"
THEN = re.compile(
    r"\b(?:then|and\s+then|after\s+that|followed\s+by|on\s+to|onward\s+to)\s+"
    r"(?:(?:train|drive|driving|bus|ferry|head(?:ing)?|go(?:ing)?|take\s+the\s+train|by\s+(?:train|car|bus))\s+)?(?:(?:on\s+)?to\s+)?"
    r"(?:(?:a\s+)?(?:few|couple(?:\s+of)?|\d+|two|three|four|five)\s+(?:more\s+)?(?:days|nights)\s+in\s+)?$",
    re.I,
)


def towns_left_out(msg: str, places: Sequence[Mention], used: set, stays: Sequence[Any], first: Any) -> List[str]:
    """What to tell of towns the traveller goes on to ("lisbon then porto") that the trip does not hold
    as a place to sleep: the first stay (at ``first``, a place) takes every night until the way home."""
    stay_codes = {_code(s.get("location")) for s in stays if isinstance(s, dict)}
    out: List[str] = []
    for p in places:
        code = _code(p.place)
        if code in stay_codes or not THEN.search(msg[max(0, p.start - 45) : p.start]):
            continue
        name = served_town(msg[p.start : p.end]) or p.place.get("name") or code  # "then kyoto": Kyoto, not Osaka
        if code in used and isinstance(first, dict) and _code(first) != code:
            where = first.get("name") or _code(first)
            out.append(f"The hotel is in {where} for every night; say how many nights in {name} to add a hotel there")
        elif code not in used:
            out.append(f"{name} is not in this search yet; say the day you go there to add it")
    return out
