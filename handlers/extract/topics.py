"""What each turn of a conversation is about: the trip (flights, a stay) or another errand
(a rental car, a bus or train ride, an event, sights, a meal, the weather).

A conversation may cover several errands before the trip ("a car in Seattle, then a bus there
from Vancouver, then a flight"). A message about another errand changes nothing in the trip,
but its places say what "there" means later and where the traveller starts from:

- ``message_topic``: "trip", "ground" (bus, train, ride), "other" (car, event, sights, meal,
  weather) for one message, from its words, else the question it answers, else the talk before;
- ``conversation_places``: the place the talk is about (the car's town, the event's city, where
  the bus goes, the flight's destination) and where the traveller travels from (the bus's or the
  flight's origin). The traveller's own words count before another assistant's, whose offers
  name venues and stations ("Amber Run is playing at Warsaw").
"""

from __future__ import annotations

import re
from typing import Any, Dict, List, NamedTuple, Optional

from .cues import BAGS_CHECKED, DEST_CUE, FLIGHT_WORDS, HOTEL_WORDS, ORIGIN_CUE, before
from .landmark_near import venue_placed
from .places import Mention, find_places
from .text import clean

Place = Dict[str, str]

GROUND_WORDS = re.compile(
    r"\b(?:bus|buses|greyhound|train|trains|amtrak|rail|uber|lyft|taxi|cab|ferry|shuttle"
    # a coach bus, not the cabin: "do coach", "fly coach", "in coach", "coach seats", "coach is fine"
    r"|(?<!\bdo\s)(?<!\bfly\s)(?<!\bin\s)(?<!\bjust\s)(?<!\bto\s)(?<!\bflying\s)(?<!\bbook\s)coach"
    r"(?!\s+(?:class|cabin|seats?|fares?|tickets?|(?:is|are|would\s+be)\s+(?:fine|ok|okay|good)|pls|please|instead)))\b",
    re.I,
)
OTHER_WORDS = re.compile(
    r"\b(?:rental\s+cars?|rent(?:al)?\s+(?:a\s+)?(?:car|vehicle)|car\s+rental|cars?|vehicles?|suv|sedan|"
    r"events?|concerts?|games?|music|"
    # "a show", not the verb: "only show me nonstops", "show us hotels", "shows the prices"
    r"shows?(?!\s+(?:me|us|them|him|her|you|everything|all|only|just|what|which|how|the|those|these|some|any|more"
    r"|other|others|something|anything|up|non[\s-]?stops?|direct|flights?|hotels?|options?|prices?|results?)\b)|gigs?|festivals?|match|plays?|theat(?:er|re)|sports?|baseball|football|"
    r"basketball|hockey|soccer|attractions?|museums?|sightseeing|landmarks?|tours?|things\s+to\s+(?:do|see)|"
    # a meal as a time of day is the trip's: "back by lunch", "leave after dinner"
    r"restaurants?|(?=dinner|lunch|brunch|breakfast)(?<!\bby\s)(?<!\bbefore\s)(?<!\bafter\s)(?<!\buntil\s)(?<!\btill\s)(?<!\baround\s)(?<!\bfor\s)"
    r"(?:dinner|lunch|brunch|breakfast)(?!\s*time)|cuisine|movies?|films?|cinema|salon|haircut|doctor|dentist|"
    r"weather|forecast|temperatures?|humidity|rain(?:ing|y)?|snow(?:ing|y)?)\b",
    re.I,
)
# While an errand is under way only plain flight or hotel words turn the talk to the trip:
# "bus tickets", a car "at YVR International Airport", "Where are you departing from?" are the errand's.
_STRONG_TRIP = re.compile(
    r"\b(?:fly|flying|flights?|(?:air|aero)?planes?|airlines?|one[\s-]?way|round[\s-]?trip|layovers?)\b", re.I
)


# "there" that points at a place, not "is there", "there are", "there's"
_THERE = re.compile(r"\bthere\b", re.I)
_EXISTENTIAL_BEFORE = re.compile(r"\b(?:is|are|was|were|be|'s)\s*$", re.I)
_EXISTENTIAL_AFTER = re.compile(r"^\s*(?:is|are|was|were|will|would|'s|'re|s\b|isn'?t|aren'?t|might|may|must)", re.I)


def points_there(msg: str) -> bool:
    """ "a hotel there", "fly there", not "is there a hotel" or "there are 4 of us"."""
    for m in _THERE.finditer(msg):
        if not _EXISTENTIAL_BEFORE.search(msg[max(0, m.start() - 8) : m.start()]) and not _EXISTENTIAL_AFTER.match(
            msg[m.end() : m.end() + 10]
        ):
            return True
    return False


def _own_topic(text: str, under_way: str = "trip") -> Optional[str]:
    """The topic a message's own words give, or None when they give none."""
    ground, other = GROUND_WORDS.search(text), OTHER_WORDS.search(text)
    trip_words = FLIGHT_WORDS.search(text) or HOTEL_WORDS.search(BAGS_CHECKED.sub(" ", text))
    if trip_words and (ground or other or under_way != "trip"):
        trip_words = _STRONG_TRIP.search(text) or HOTEL_WORDS.search(BAGS_CHECKED.sub(" ", text))
    if trip_words:
        return "trip"
    if ground:
        return "ground"
    if other:
        # "trade show in vegas, leaving from orlando jan 19": the show is why, the route is the trip
        # (a car "from LAX to San Diego" is the car's)
        # ("a show at msg from chicago": the venue's town is one end)
        route = names_route(text, homes=False, found=venue_placed(text, find_places(text)))
        return "trip" if not CAR_WORDS.search(text) and route else "other"
    return None


# A car hired for the errand: its pick-up and drop-off places are the car's, not a trip's.
CAR_WORDS = re.compile(
    r"\b(?:rent(?:al|ing)?|hire|cars?|vehicles?|suv|sedan|pick(?:ing)?[\s-]?up|drop(?:ping)?[\s-]?off)\b", re.I
)
# "Boston to Miami", "Portland ME to Chicago" (a state's postal code read with the town, outside its mention)
_ROUTE_GAP = re.compile(r"(?:\s*,?\s*(?-i:[A-Z]{2})\s+)?\s*(?:to|-)\s*", re.I)


def names_route(text: str, homes: bool = True, found: Optional[List[Mention]] = None) -> bool:
    """ "Boston to Miami", "Denver from SLC", "a show in Vegas, leaving from Orlando": two places
    joined by "to", or two with one said as where the traveller leaves from or (``homes``) lives
    ("I'm in Boston", "based in Denver"), are a journey, whatever else the message is about.
    ``found``: the places already read from ``text``."""
    found = find_places(text) if found is None else found
    if len(found) < 2:
        return False
    if any(_ROUTE_GAP.fullmatch(text[a.end : b.start]) for a, b in zip(found, found[1:], strict=False)):
        return True
    if len({m.place["code"] for m in found}) < 2:  # "a hotel in Denver, I'm in Denver already": one place
        return False
    for m in found:
        cue = ORIGIN_CUE.search(before(text, m.start))
        if cue and (homes or not _HOME_CUE.match(cue.group(0))):
            return True
    return False


# Where the traveller is rather than leaves from: "concerts in Denver? I'm in Boulder" asks about Denver
_HOME_CUE = re.compile(r"(?:based|live|currently|i'?m|i\s+am)\b", re.I)


def message_topic(msg: str, pending_question: Any, conversation: Any) -> str:
    """ "trip", "ground" or "other" for the traveller's message.

    A message with no telling words answers the question before it (another assistant's
    "Where will you pick it up?" after a car was asked for) or goes on with the errand the
    traveller was on; the Reducer's questions (with ``slots``) are always about the trip."""
    if isinstance(pending_question, dict) and pending_question.get("slots"):
        return "trip"
    turns = _turns(conversation)
    under_way = _topics(turns)[-1] if turns else "trip"
    own = _own_topic(msg, under_way)
    if own == "trip":
        return own
    if own is None:
        return under_way
    # "LA to Seattle Feb 1-3. Is there a train from there to Vancouver?", "I'll take the bus to
    # Providence, but book me NYC to Boston": a clause that names places with the trip under way,
    # or after a "but", is the trip's; "A bus ticket, please. I'm going to San Diego" is the bus's.
    topic = under_way
    for clause in _CLAUSE.split(msg):
        topic = _own_topic(clause, topic) or ("trip" if _CONTRAST.match(clause) else topic)
        if topic == "trip" and find_places(clause):
            return "trip"
    return own


_CLAUSE = re.compile(r"[.!?;]+(?:\s|$)|,\s*|\s+(?=(?:but|then|however|anyway)\b)", re.I)
_CONTRAST = re.compile(r"\s*(?:but|however|anyway|by\s+the\s+way|btw|also)\b", re.I)


_TURNS = 40  # turns read back: an errand can take a dozen before the trip comes up


class _Turn(NamedTuple):
    role: str
    text: str


def _turns(conversation: Any) -> List[_Turn]:
    if not isinstance(conversation, list):
        return []
    out = []
    for m in conversation[-_TURNS:]:
        if isinstance(m, dict) and isinstance(m.get("content"), str):
            out.append(_Turn("user" if m.get("role") == "user" else "assistant", clean(m["content"])[:1000]))
    return out


def _topics(turns: List[_Turn]) -> List[str]:
    """The topic of each turn: its own words, else the errand under way (a question without
    telling words follows the traveller's last topic; so does an answer)."""
    topics: List[str] = []
    current = "trip"
    for turn in turns:
        current = _own_topic(turn.text, current) or current
        topics.append(current)
    return topics


class Context(NamedTuple):
    area: Optional[Place]  # where the talk is: the car's town, the event's city, the bus's or flight's destination
    start: Optional[Place]  # where the traveller travels from (a bus's or flight's origin)
    from_errand: bool  # the area was named for another errand than the trip


def conversation_places(conversation: Any) -> Context:
    """What "there" points at in the conversation so far, and where the traveller starts from."""
    turns = _turns(conversation)
    found: Dict[str, Context] = {}
    for turn, topic in zip(turns, _topics(turns), strict=True):
        mentions = find_places(turn.text)
        if not mentions:
            continue
        ctx = found.get(turn.role) or Context(None, None, False)
        area, start, errand = ctx
        for m in mentions:
            preceding = before(turn.text, m.start)
            if topic == "other":  # a car picked up "from Philly", weather "in NYC": the traveller is there
                area, errand = m.place, True
            elif ORIGIN_CUE.search(preceding):
                start = m.place
            elif (
                topic == "ground"
                and not DEST_CUE.search(preceding)
                and (points_there(turn.text) or (errand and area is not None))
            ):
                start = m.place  # "a bus there for four ... on Seattle": the bus goes to the errand's town
            else:
                area, errand = m.place, topic != "trip"
        found[turn.role] = Context(area, start, errand)
    user = found.get("user") or Context(None, None, False)
    told = found.get("assistant") or Context(None, None, False)
    if user.area:
        return Context(user.area, user.start or (told.start if told.area is None else None), user.from_errand)
    return Context(told.area, user.start or told.start, told.from_errand)
