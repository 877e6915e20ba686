"""Talk about the options on screen: an answer from the bundles themselves for text that changed nothing.

While options are on screen, a message the extractor did not read as a change ("which one can I
cancel?", "hmm, pricey", "what about the hotels?") gets an answer about those options, never
the intake prompt. The answer is built only from what the bundles say (labels, totals, flights,
hotels); the model's follow-up agent, when configured, answers questions instead.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from .common.carriers import AIRLINE_NAMES
from .common.clock import day_text
from .common.landmarks import means_centre
from .common.question_form import is_question
from .common.shape import clock_text, leg_departure
from .extract.text import NUMBER_WORDS
from .router import (
    COMBINED_RE,
    ORDINALS,
    bundle_by_quality,
    bundle_items,
    combined_options,
    discussed,
    kind_cheaper,
)
from .wording import money

Bundle = Dict[str, Any]

HINT = 'Pick one by its name ("B2"), its place ("the second one") or what sets it apart ("the fastest"), or tell me what to change.'


def _flights(b: Bundle) -> List[Dict[str, Any]]:
    return [f.get("summary") or {} for f in b.get("flights") or []]


def _hotels(b: Bundle) -> List[Dict[str, Any]]:
    return [h.get("summary") or {} for h in b.get("hotels") or []]


def _name(b: Bundle) -> str:
    label = f" ({b['label']})" if b.get("label") else ""
    return f"{b.get('bundle_id')}{label}"


def _price(b: Bundle) -> str:
    return money(b.get("total"), b.get("currency"))


def _hm(minutes: int) -> str:
    return f"{minutes // 60}h{minutes % 60:02d}m"


def _refund_word(summary: Dict[str, Any]) -> str:
    return "refundable" if summary.get("refundable") else "non-refundable"


def _refund_parts(b: Bundle) -> str:
    """ "flights non-refundable; hotel Miami Inn refundable": each part of one option."""
    flights = _flights(b)
    words = {_refund_word(s) for s in flights}
    parts = [f"flights {words.pop()}"] if len(words) == 1 else []
    parts = parts or [f"{s.get('origin')}→{s.get('destination')} {_refund_word(s)}" for s in flights]
    parts += [f"hotel {s.get('hotel_name')} {_refund_word(s)}" for s in _hotels(b)]
    return f"{_name(b)}: {'; '.join(parts)}"


def _about_refunds(bundles: List[Bundle], focused: bool = False) -> str:
    if focused:  # "is the hotel in B1 refundable?": each part of the options named
        return ". ".join(map(_refund_parts, bundles)) + "."
    refundable = [b for b in bundles if b.get("refundable")]
    if not refundable:
        return "None of these options is fully refundable; say 'refundable only' and I'll search for ones that are."
    names = ", ".join(f"{_name(b)} at {_price(b)}" for b in refundable)
    return f"Fully refundable: {names}. The others have at least one non-refundable item."


def _about_time(bundles: List[Bundle], focused: bool = False) -> str:
    flying = [b for b in bundles if b.get("flights")]
    if not flying:
        return "These options have no flights, only the hotel."
    if focused:  # "how long is the flight on b2": each flight's time, then the sum
        return (
            "; ".join(
                f"{_name(b)}: "
                + ", ".join(
                    f"{s.get('origin')}→{s.get('destination')} {_hm(int(s.get('duration_minutes') or 0))}"
                    for s in _flights(b)
                )
                + (
                    f" ({_hm(sum(int(s.get('duration_minutes') or 0) for s in _flights(b)))} in all)"
                    if len(_flights(b)) > 1
                    else ""
                )
                for b in flying
            )
            + "."
        )
    ordered = sorted(flying, key=lambda b: sum(int(s.get("duration_minutes") or 0) for s in _flights(b)))
    return (
        "Flying time, shortest first: "
        + ", ".join(f"{_name(b)} {_hm(sum(int(s.get('duration_minutes') or 0) for s in _flights(b)))}" for b in ordered)
        + "."
    )


def _stops_text(s: Dict[str, Any]) -> str:
    n = int(s.get("stops") or 0)
    via = ", ".join(
        f"{c['airport']}" + (f", {_hm(int(c['minutes']))} layover" if c.get("minutes") else "")
        for c in s.get("connections") or []
        if isinstance(c, dict) and c.get("airport")
    )
    return "nonstop" if n == 0 else f"{n} stop{'s' if n > 1 else ''}{f' ({via})' if via else ''}"


def _about_stops(bundles: List[Bundle], focused: bool = False) -> str:
    flying = [b for b in bundles if b.get("flights")]
    nonstop = [b for b in flying if all(int(s.get("stops") or 0) == 0 for s in _flights(b))]
    if not flying:
        return "These options have no flights, only the hotel."
    if focused:
        return (
            "; ".join(
                f"{_name(b)}: "
                + ", ".join(f"{s.get('origin')}→{s.get('destination')} {_stops_text(s)}" for s in _flights(b))
                for b in flying
            )
            + "."
        )
    if not nonstop:
        return "Every option here has at least one connection; say 'nonstop only' and I'll search again."
    return "Nonstop all the way: " + ", ".join(f"{_name(b)} {_price(b)}" for b in nonstop) + "."


def _about_hotels(bundles: List[Bundle]) -> str:
    housed = [b for b in bundles if b.get("hotels")]
    if not housed:
        return "These options have no hotel: the trip is flights only."
    lines = [
        f"{_name(b)}: "
        + " and ".join(
            f"{s.get('hotel_name')} ({s.get('stars')}★, {money(s.get('nightly_avg'), s.get('currency'))} a night"
            + (f" for {s['nights']} night{'s' if s['nights'] != 1 else ''}" if s.get("nights") else "")
            + (f", {s['distance_km']} km from the centre)" if s.get("distance_km") is not None else ")")
            for s in _hotels(b)
        )
        for b in housed
    ]
    return "; ".join(lines) + "."


def _about_distance(bundles: List[Bundle], low: str = "") -> str:
    """How far each option's hotel is from the place the hotel was wished near ("the Las Vegas
    Convention Center"), when the search measured that, else from the centre."""
    near = [(b, s) for b in bundles for s in _hotels(b) if s.get("near") and s.get("near_km") is not None]
    if near:
        ordered = sorted(near, key=lambda pair: float(pair[1]["near_km"]))
        where = ordered[0][1]["near"]
        return (
            f"Closest to {where} first: "
            + ", ".join(f"{_name(b)} {s.get('hotel_name')} {s['near_km']} km" for b, s in ordered)
            + "."
        )
    housed = [(b, s) for b in bundles for s in _hotels(b) if s.get("distance_km") is not None]
    if not housed:
        return "These options don't say how far their hotels are from anything."
    ordered = sorted(housed, key=lambda pair: float(pair[1]["distance_km"]))
    line = "Closest to the centre first: " + ", ".join(
        f"{_name(b)} {s.get('hotel_name')} {s['distance_km']} km from the centre" for b, s in ordered
    )
    elsewhere = _ELSEWHERE.search(low.rstrip("?.! "))
    if elsewhere:
        line += f". I only know each hotel's distance from the centre, not from {elsewhere.group(1)}"
    return line + "."


_CENTRE = r"(?:the\s+)?(?:city\s+)?(?:cent(?:er|re)|downtown|midtown|middle\s+of\s+(?:the\s+)?(?:city|town)|town|city)"
_ELSEWHERE = re.compile(rf"\b(?:from|to|of)\s+(?!{_CENTRE}\b)((?:the\s+)?[a-z][\w' -]{{2,40}}?)\s*[?.!]*$")


MEALS = {
    "room_only": "room only, no meals",
    "breakfast": "breakfast included",
    "half_board": "breakfast and dinner included",
    "full_board": "all meals included",
    "all_inclusive": "all inclusive",
}


def _about_meals(bundles: List[Bundle]) -> str:
    """What each option's hotel serves, from its rate's board type, options with the same board together."""
    housed = [b for b in bundles if b.get("hotels")]
    if not housed:
        return "These options have no hotel: the trip is flights only."
    by_board: Dict[str, List[str]] = {}
    for b in housed:
        boards = {str(s.get("board_type") or "") for s in _hotels(b)}
        board = boards.pop() if len(boards) == 1 else "mixed"
        by_board.setdefault(board, []).append(f"{_name(b)} {_hotels(b)[0].get('hotel_name')}")
    parts = [
        f"{MEALS.get(board, 'meals vary by stay' if board == 'mixed' else 'meals not stated').capitalize()}: {', '.join(names)}"
        for board, names in by_board.items()
    ]
    search = (
        " Say 'with breakfast' and I'll search for rooms that include it." if set(by_board) == {"room_only"} else ""
    )
    return ". ".join(parts) + "." + search


def _about_airlines(bundles: List[Bundle]) -> str:
    flying = [b for b in bundles if b.get("flights")]
    if not flying:
        return "These options have no flights, only the hotel."
    lines = [
        f"{_name(b)}: " + " / ".join(str(s.get("carrier_name") or s.get("carrier")) for s in _flights(b))
        for b in flying
    ]
    return "; ".join(lines) + "."


def _about_arrivals(bundles: List[Bundle]) -> str:
    """When each option's flights land, local time, outbound and return."""
    flying = [b for b in bundles if b.get("flights")]
    if not flying:
        return "These options have no flights, only the hotel."
    lines = []
    for i, leg in enumerate(("outbound", "return")):
        timed = [(b, _flights(b)[i if i == 0 else -1]) for b in flying if len(_flights(b)) > i]
        timed = [(b, s) for b, s in timed if len(str(s.get("arrive_at") or "")) >= 16]
        if timed:
            lines.append(
                f"{leg.capitalize()} lands: "
                + ", ".join(
                    f"{_name(b)} {clock_text(str(s['arrive_at'])[11:16])} in {s.get('destination')}"
                    + (
                        f" on {day_text(str(s['arrive_at'])[:10])}"
                        if str(s["arrive_at"])[:10] != str(s.get("depart_at"))[:10]
                        else ""
                    )
                    for b, s in sorted(timed, key=lambda t: str(t[1]["arrive_at"]))
                )
            )
    return ". ".join(lines) + "."


def _bags(offer: Optional[Dict[str, Any]]) -> str:
    """What a fare lets one adult bring, from its offer's ``baggage`` ("a carry-on, no checked bag")."""
    bags = (offer or {}).get("baggage") or {}
    each = bags.get("adult") or next(iter(bags.values()), None) if isinstance(bags, dict) else None
    if not isinstance(each, dict):
        return "bags not stated"
    carry, checked = int(each.get("carry_on") or 0), int(each.get("checked") or 0)
    cabin = "a carry-on" if carry == 1 else f"{carry} carry-ons" if carry else "no carry-on"
    hold = "no checked bag" if not checked else "1 checked bag" if checked == 1 else f"{checked} checked bags"
    return f"{cabin} and {hold}" if checked else f"{cabin}, {hold}"


def _about_bags(bundles: List[Bundle], offers: Dict[str, Dict[str, Any]]) -> str:
    """What each option's fares include in bags per adult, options with the same allowance together."""
    flying = [b for b in bundles if b.get("flights")]
    if not flying:
        return "These options have no flights, only the hotel."
    by_bags: Dict[str, List[str]] = {}
    for b in flying:
        each = [(f.get("summary") or {}, _bags(offers.get(str(f.get("offer_id"))))) for f in b.get("flights") or []]
        kinds = {what for _, what in each}
        if len(kinds) == 1:
            by_bags.setdefault(f"{kinds.pop()} on each flight", []).append(_name(b))
        else:  # said flight by flight ("BOS→ORD a carry-on, no checked bag; ORD→BOS ..."), never "bags differ"
            route = "; then ".join(f"{s.get('origin')}→{s.get('destination')} {what}" for s, what in each)
            by_bags.setdefault(route, []).append(_name(b))
    return "Bags per adult: " + "; ".join(f"{', '.join(names)}: {what}" for what, names in by_bags.items()) + "."


def _babies(infants: int) -> Tuple[str, str, str]:
    """(who flies, on whose lap, whose fare): one baby is "the baby"; twins are each on a different lap."""
    if infants < 2:
        return "the baby flies", "on a grown-up's lap", "the baby's lap fare"
    return f"each of your {infants} babies flies", "on a different grown-up's lap", "the babies' lap fares"


def _about_infants(bundles: List[Bundle], offers: Dict[str, Dict[str, Any]], infants: int = 1) -> str:
    """Whether a baby needs a seat and what it pays, from whom each option's fares are for (their bags per
    passenger type); ``infants``: how many babies travel (two are never "the baby")."""
    flying = [b for b in bundles if b.get("flights")]
    if not flying:
        return "These options have no flights, only the hotel."
    fares = [(offers.get(str(f.get("offer_id"))) or {}).get("baggage") for b in flying for f in b.get("flights") or []]
    kinds = [fare for fare in fares if isinstance(fare, dict) and fare]
    if not kinds:
        return "The fares on screen don't say how a baby travels; the airline will, when you book."
    laps = [fare["infant"] for fare in kinds if isinstance(fare.get("infant"), dict)]
    if not laps:
        return (
            "No lap infant is on these fares: everyone travelling has a seat of their own. A child under 2 may fly on "
            "a grown-up's lap instead; say their age and I'll search again."
        )
    bags = "" if any(int(lap.get("carry_on") or 0) for lap in laps) else ", with no carry-on of their own"
    who, lap, fare = _babies(infants)
    return (
        f"On every option {who} as a lap infant: {lap}, without a seat of their own (from 2 a "
        f"child needs a seat){bags}. Each option's total already includes {fare}: it is what you pay for all of you."
    )


# "any flights after 5pm on the way back?", "anything before 9am going out": a clock bound on one leg
_CLOCK_BOUND = re.compile(
    r"\b(?P<bound>after|before|by)\s+(?P<h>[01]?\d|2[0-3])(?::(?P<m>[0-5]\d))?\s*(?P<ap>[ap])?\.?m?\.?(?![\w:])"
)
_LEG_BACK = re.compile(r"\bon\s+the\s+way\s+(?:back|home)\b|\b(?:back|home|return\w*|inbound)\b")
_LEG_OUT = re.compile(r"\bon\s+the\s+way\s+(?:out|there)\b|\b(?:outbound|going\s+(?:out|there)|fly(?:ing)?\s+out)\b")


def _about_departures(bundles: List[Bundle], low: str = "") -> str:
    """When each option's flights leave, earliest first: on the leg asked about (both when none is), and
    with a clock bound asked ("any flights after 5pm on the way back?") the options that leave then and
    the search that finds more."""
    flying = [b for b in bundles if b.get("flights")]
    if not flying:
        return "These options have no flights, only the hotel."
    back, out = bool(_LEG_BACK.search(low)), bool(_LEG_OUT.search(low))
    legs = ["return"] if back and not out else ["outbound"] if out and not back else ["outbound", "return"]
    bound = _CLOCK_BOUND.search(low)
    if bound:
        return " ".join(
            _departures_bound(flying, leg, bound) for leg in legs if any(leg_departure(b, leg) for b in flying)
        )
    lines = []
    for leg in legs:
        timed = sorted((b for b in flying if leg_departure(b, leg)), key=lambda b: leg_departure(b, leg))
        if timed:
            lines.append(
                f"{leg.capitalize()} leaves, earliest first: "
                + ", ".join(f"{_name(b)} {_leaves(b, leg)}" for b in timed)
            )
    return ". ".join(lines) + "."


def _departures_bound(flying: List[Bundle], leg: str, bound: re.Match[str]) -> str:
    """The options whose ``leg`` leaves after (before) the clock said, and how to search for more."""
    hours = (
        int(bound.group("h")) % 12 + (12 if bound.group("ap") == "p" else 0)
        if bound.group("ap")
        else int(bound.group("h"))
    )
    if not bound.group("ap") and hours < 7:
        hours += 12  # "after 5" is 5 PM for a flight
    hhmm = f"{hours:02d}:{bound.group('m') or '00'}"
    after = bound.group("bound") == "after"
    timed = sorted((b for b in flying if leg_departure(b, leg)), key=lambda b: leg_departure(b, leg))
    fits = [b for b in timed if (leg_departure(b, leg)[11:16] > hhmm if after else leg_departure(b, leg)[11:16] < hhmm)]
    name, way = ("Return", "back") if leg == "return" else ("Outbound", "out")
    when = f"{'after' if after else 'before'} {clock_text(hhmm)}"
    search = f" Say 'fly {way} {when}' and I'll search for {'more' if fits else 'them'}."
    if fits:
        return (
            f"{name} leaves {when} on screen: "
            + ", ".join(f"{_name(b)} {_leaves(b, leg)}" for b in fits)
            + "."
            + search
        )
    edge = timed[-1] if after else timed[0]
    return f"No {name.lower()} on screen leaves {when} ({'latest' if after else 'earliest'}: {_name(edge)} {_leaves(edge, leg)}).{search}"


def _each(b: Bundle, people: int) -> str:
    return money(f"{float(b.get('total') or 0) / people:.2f}", b.get("currency"))


# "is this for 3 people?", "is the price for all of us", "is that the total for everyone": whom the totals are for
_FOR_WHOM = re.compile(
    r"\bfor\s+(?:all\s+|both\s+|the\s+)?(?:(?P<n>\d{1,2}|two|three|four|five|six|seven|eight|nine|ten)\s+(?:of\s+(?:us|you|them)|people"
    r"|persons?|ppl|adults|travell?ers|passengers|pax)|(?:of\s+)?(?:us|everyone|everybody|all\s+of\s+us|us\s+all|both\s+of\s+us"
    r"|the\s+(?:whole\s+)?(?:group|family))|all|both)\b"
)
_PRICE_WORDS = re.compile(
    r"\b(?:price[sd]?|totals?|costs?|amounts?|fares?)\b|\$"
    r"|\b(?:is|are)\s+(?:this|that|it|these|those|they)\s+(?:just\s+|only\s+|really\s+)?for\b"
)


def covers_answer(low: str, bundles: List[Bundle], people: int, focus: Sequence[Bundle] = ()) -> Optional[str]:
    """Whom the totals are for, asked ("is this for 3 people?"): yes (with what one of them is each), or
    no and the number they cover; None when the text asks no such thing."""
    whom = _FOR_WHOM.search(low)
    if not (people and bundles and whom and is_question(low) and _PRICE_WORDS.search(low)):
        return None
    said = whom.group("n")
    asked = NUMBER_WORDS.get(said, 0) if said and not said.isdigit() else int(said or 0)
    if asked and asked != people:
        return f"No: each total is for the {people} travelling, not {asked}. Say '{asked} of us' and I'll search again."
    one = (list(focus) or sorted(bundles, key=lambda b: float(b.get("total") or "inf")))[0]
    each = f" ({_each(one, people)} per person)" if people > 1 else ""
    everyone = f"all {people} of you" if people > 1 else "you, travelling alone"
    return f"Yes: each total is for {everyone}. {_name(one)} is {_price(one)} in all{each}."


def _about_price(bundles: List[Bundle], people: int = 0, focused: bool = False) -> str:
    """Totals, cheapest first; per person when asked ("what's B2 per person": the total over everyone travelling)."""
    ordered = sorted(bundles, key=lambda b: float(b.get("total") or "inf"))
    if people > 1:
        each = ", ".join(f"{_name(b)} {_each(b, people)} per person ({_price(b)} in all)" for b in ordered)
        return f"For the {people} of you: {each}."
    if people == 1:
        return (
            "For one traveller the total is the price per person: "
            + ", ".join(f"{_name(b)} {_price(b)}" for b in ordered)
            + "."
        )
    if focused:
        return "; ".join(f"{_name(b)} {_price(b)} in all" for b in ordered) + "."
    return "From cheapest: " + ", ".join(f"{_name(b)} {_price(b)}" for b in ordered) + "."


# What the traveller may ask about the options on screen, each answered from the bundles (and, for
# bags, from the offers they name). A topic answers for the options the message names, else for all.
_PER_PERSON = re.compile(
    r"\b(?:per|a|each|for\s+each)\s+(?:person|head|travell?er|passenger|adult|pax)\b|\bpp\b|\beach\b"
)
_BAGS = r"\b(?:bags?|baggage|luggage|suitcases?|carry[- ]?ons?|checked)\b"
_ARRIVE = r"\b(?:land(?:s|ing)?|arriv\w*|get(?:s)?\s+in|gets?\s+(?:(?:us|me|you|them)\s+)?there|touch\s+down)\b"
_WHY_PRICE = (
    r"\b(?:why|how\s+come|what\s+makes|whats?\s+(?:so\s+)?(?:special|different)\s+about)\b.*"
    r"\b(?:expensive|pricier|pricey|costs?|costing|cheaper|cheap|more|less|price\w*|dearer)\b"
)
TOPICS: List[tuple] = [
    (  # "is the baby free?", "does my 1 year old need a seat?", "can she sit on my lap?"
        r"\b(?:bab(?:y|ies)|infants?|toddlers?|newborn|lap|\d{1,2}[- ]?(?:months?|mos?)[- ]?old"
        r"|(?:1|one)[- ]?(?:years?|yrs?|yr)[- ]?old|1\s*y/?o)\b",
        "infants",
    ),
    (_WHY_PRICE, "why_price"),
    (_BAGS, "bags"),
    (_ARRIVE, "arrivals"),
    (
        r"\b(?:earliest|latest|first|last|early|late)\b.*\b(?:flights?|departures?|leav\w*|depart\w*|back|home|out)\b"
        r"|\bwhat\s+time\b(?!.*\bcheck[\s-]?(?:in|out)\b)|\bwhen\s+do(?:es)?\b.*\bleave\b"
        r"|\b(?:morning|afternoon|evening|night)\s+(?:ones?|options?|flights?|departures?)\b"
        r"|\b(?:leav\w*|depart\w*|go(?:es)?\s+out|fly(?:ing)?\s+out)\b.*\b(?:morning|afternoon|evening|night)\b"
        r"|\b(?:other|different)\s+(?:times?|departures?)\b|\bwhat\s+times\b"
        r"|\b(?:flights?|anything|departures?|ones?)\b.*\b(?:after|before)\s+(?:[01]?\d|2[0-3])(?::[0-5]\d)?\s*(?:[ap]\.?m\b|o'?clock\b|\b)",
        "departures",
    ),
    (
        r"\b(?:holdable|be\s+held|(?:can|could)\s+(?:i|we|you|u)\s+(?:hold|reserve)|(?:i|we|you)\s+can\s+(?:hold|reserve))\b"
        r"|\bpa(?:y|id)\s+(?:now|at\s+once|up\s*front|right\s+away|immediately)\b",
        "holds",
    ),
    (r"\b(?:refund\w*|flexib\w*|flexible|cancel\w*|change fees?)\b", "refunds"),
    (r"\b(?:non-?stops?|directs?|stops?|connect\w*|layovers?)\b", "stops"),
    (r"\b(?:fast\w*|quick\w*|short\w*|long\w*|duration|hours?|(?:flying|flight|travel|journey)\s+times?)\b", "time"),
    (
        r"\b(?:breakfast|meals?|dinner|board|all[- ]inclusive)\b|\bfood\b.*\b(?:includ\w*|hotels?|rooms?|serv\w*)\b"
        r"|\b(?:includ\w*|hotels?|rooms?|serv\w*)\b.*\bfood\b",
        "meals",
    ),
    (
        # "miles" as a length ("2 miles from downtown", "how many miles"), not air miles ("earn miles on B2")
        r"\b(?:how\s+(?:far|close)|distance|walk(?:ing|able)?\s+(?:distance|to)|km|(?:\d+(?:\.\d+)?\s*|how\s+many\s+)miles?"
        r"|(?:close|near|far)\s+(?:to|from))\b",
        "distance",
    ),
    (r"\b(?:hotels?|rooms?|stars?|stay|where .* sleep|a night|per night|nightly)\b", "hotels"),
    (r"\b(?:airlines?|carriers?|united|delta|american|jetblue|southwest|alaska)\b", "airlines"),
    (
        r"\b(?:cheap\w*|price\w*|pricey|cost\w*|expensive|total|budget|afford\w*|money|how\s+much)\b|"
        + _PER_PERSON.pattern,
        "price",
    ),
    (r"\b(?:cabin|class|economy|business|first\s+class|premium)\b", "cabin"),
    (r"\b(?:red[- ]?eyes?|overnight\s+flights?)\b", "red_eyes"),
    (r"\b(?:tax(?:es)?|fees?|surcharges?|resort\s+fees?)\b", "taxes"),
]
_TOPICS_SAID = (
    "prices, times, stops, red-eyes, airlines, cabin, bags, refundability, whether they can be held, hotel stars,"
    " meals and how far each hotel is from the centre or from the place you named"
)


def paid_at_once(b: Bundle) -> List[str]:
    """The parts of an option that cannot be held (the fare or room must be paid at once)."""
    parts = [f"the {s.get('origin')}→{s.get('destination')} flight" for s in _flights(b) if s.get("holdable") is False]
    return parts + [f"the {s.get('hotel_name') or 'hotel'} room" for s in _hotels(b) if s.get("holdable") is False]


def _about_holds(bundles: List[Bundle]) -> str:
    """ "Which ones can I hold?": the options that can be held whole, and what the others must pay at once."""
    whole = [_name(b) for b in bundles if not paid_at_once(b)]
    partly = [f"{b.get('bundle_id')} ({', '.join(paid_at_once(b))})" for b in bundles if paid_at_once(b)]
    if not partly:
        return "Every option on screen can be held while your approver decides."
    lead = f"Can be held: {', '.join(whole)}. " if whole else "None of the options on screen can be held in full. "
    return (
        f"{lead}Must be paid at once in part: {'; '.join(partly)}; that part is kept for your approver "
        "and bought when you pay."
    )


def _about_red_eyes(bundles: List[Bundle]) -> str:
    flying = [b for b in bundles if b.get("flights")]
    if not flying:
        return "These options have no flights, only the hotel."
    late = [b for b in flying if any(s.get("red_eye") for s in _flights(b))]
    if not late:
        return "No red-eye flights in these options."
    return "With a red-eye flight: " + ", ".join(map(_name, late)) + "; the others fly by day."


def _about_taxes(bundles: List[Bundle]) -> str:
    """Totals include taxes and fees; each hotel's rate says how much of it they are."""
    parts = [
        f"{_name(b)} {s.get('hotel_name')}: {money(s.get('room_charges'), s.get('currency'))} for the room"
        f" + {money(s.get('taxes_and_fees'), s.get('currency'))} taxes and fees"
        for b in bundles
        for s in _hotels(b)
        if s.get("room_charges") is not None and s.get("taxes_and_fees") is not None
    ]
    return "Every total here includes taxes and fees." + (f" Hotels: {'; '.join(parts)}." if parts else "")


def _total(b: Bundle) -> float:
    return float(b.get("total") or 0)


def _part_total(b: Bundle, part: str) -> float:
    return sum(float(s.get("total") or 0) for s in (_flights(b) if part == "flights" else _hotels(b)))


def _flight_reasons(dear: Bundle, cheap: Bundle) -> List[str]:
    """What the dearer option's flights have that the cheaper one's lack."""
    out = []
    if all(s.get("refundable") for s in _flights(dear)) and not all(s.get("refundable") for s in _flights(cheap)):
        out.append("refundable fares")
    stops = [sum(int(s.get("stops") or 0) for s in _flights(b)) for b in (dear, cheap)]
    if stops[0] < stops[1]:
        out.append("nonstop" if stops[0] == 0 else f"{stops[0]} stop{'s' if stops[0] > 1 else ''}, not {stops[1]}")
    minutes = [sum(int(s.get("duration_minutes") or 0) for s in _flights(b)) for b in (dear, cheap)]
    if minutes[0] < minutes[1]:
        out.append(f"{_hm(minutes[0])} travel time, not {_hm(minutes[1])}")
    if not any(s.get("red_eye") for s in _flights(dear)) and any(s.get("red_eye") for s in _flights(cheap)):
        out.append("no red-eye")
    return out


def _hotel_reasons(dear: Bundle, cheap: Bundle) -> List[str]:
    """What the dearer option's hotel has that the cheaper one's lacks."""
    mine, theirs = (_hotels(dear) or [{}])[0], (_hotels(cheap) or [{}])[0]
    out = []
    if int(mine.get("stars") or 0) > int(theirs.get("stars") or 0):
        out.append(f"{_stars_text(dear)}, not {_stars_text(cheap)}")
    if mine.get("refundable") and not theirs.get("refundable"):
        out.append("free cancellation")
    if mine.get("board_type") not in (None, "room_only") and theirs.get("board_type") in (None, "room_only"):
        out.append(MEALS.get(str(mine.get("board_type")), "meals included"))
    near, far = mine.get("distance_km"), theirs.get("distance_km")
    if near is not None and far is not None and float(near) < float(far):
        out.append(f"{near} km from the centre, not {far} km")
    return out


def _part_gap(dear: Bundle, cheap: Bundle, part: str) -> str:
    """ "B5's flights cost $675.08 more (refundable fares; nonstop)"; "" when that part costs the same."""
    gap = _part_total(dear, part) - _part_total(cheap, part)
    if abs(gap) < 0.005:
        return ""
    reasons = (_flight_reasons if part == "flights" else _hotel_reasons)(dear, cheap) if gap > 0 else []
    noun = "flights cost" if part == "flights" else "hotel costs"
    amount = money(f"{abs(gap):.2f}", dear.get("currency"))
    line = f"{dear.get('bundle_id')}'s {noun} {amount} {'more' if gap > 0 else 'less'}"
    return line + (f" ({'; '.join(reasons)})" if reasons else "")


def _mentioned(low: str, bundles: Sequence[Bundle]) -> List[Bundle]:
    """The options a message names by id, in the order it names them ("why is B3 pricier than B1")."""
    by_id = {str(b.get("bundle_id")): b for b in bundles}
    ids = [f"B{int(n)}" for n in _NAMED_ID.findall(low)]
    return [by_id[i] for i in dict.fromkeys(ids) if i in by_id]


_CHEAPER_WORDS = re.compile(r"\b(?:cheaper|cheap|less|lower)\b")


def _why_price(low: str, named: List[Bundle], every: Sequence[Bundle]) -> str:
    """Why one option costs more (or less) than another, from what their parts cost and have.

    The option asked about is the first named; it is compared with the second one named, else with
    the cheapest on screen (the best-ranked other one when it is the cheapest itself). A premise the
    totals contradict ("why is B1 more expensive than B3" when B1 costs less) is said so first."""
    every = list(every) or named
    order = _mentioned(low, every) or named
    subject = order[0]
    others = [b for b in order[1:] if b is not subject]
    if others:
        other = others[0]
    else:
        cheapest = min(every, key=_total)
        other = cheapest if cheapest is not subject else next((b for b in every if b is not subject), subject)
    if other is subject:
        return f"{_name(subject)} is {_price(subject)} in all."
    asked_cheaper = bool(_CHEAPER_WORDS.search(low)) and not re.search(r"\bmore\b|expensive|pricier|dearer", low)
    dear, cheap = (subject, other) if _total(subject) >= _total(other) else (other, subject)
    gap = money(f"{_total(dear) - _total(cheap):.2f}", dear.get("currency"))
    if abs(_total(dear) - _total(cheap)) < 0.005:
        return f"{_name(subject)} and {_name(other)} cost the same, {_price(subject)} in all."
    premise = ""
    if (dear is subject) == asked_cheaper:
        premise = f"{subject.get('bundle_id')} is not {'cheaper' if asked_cheaper else 'more expensive'}: "
    parts = [_part_gap(dear, cheap, "flights")] if _flights(dear) and _flights(cheap) else []
    parts += [_part_gap(dear, cheap, "hotels")] if _hotels(dear) and _hotels(cheap) else []
    why = "; ".join(p for p in parts if p)
    if dear is subject:
        head = f"{_name(dear)} is {gap} more than {_name(cheap)} ({_price(dear)} against {_price(cheap)})"
    else:
        head = f"{_name(cheap)} is {gap} less than {_name(dear)} ({_price(cheap)} against {_price(dear)})"
    return f"{premise}{head}{f': {why}' if why else ''}."


def _about_named(bundles: List[Bundle]) -> str:
    """What sets each named option apart, as its card says ("what's the difference between B1 and B2?")."""
    return " ".join(
        f"{_name(b)}, {_price(b)} in all: " + " ".join(str(w) for w in (b.get("why") or [])[:5]) for b in bundles
    )


def _flight_words(s: Dict[str, Any]) -> str:
    """One flight as a comparison says it: "JetBlue 3:00 PM BOS→ORD, nonstop, 2h20m, non-refundable fare"."""
    at = str(s.get("depart_at") or "")
    when = f" {clock_text(at[11:16])}" if len(at) >= 16 else ""
    return (
        f"{s.get('carrier_name') or s.get('carrier') or 'a flight'}{when} {s.get('origin')}→{s.get('destination')}, "
        f"{_stops_text(s)}, {_hm(int(s.get('duration_minutes') or 0))}, {_refund_word(s)} fare"
    )


def _hotel_words(s: Dict[str, Any]) -> str:
    far = f", {s['distance_km']} km from the centre" if s.get("distance_km") is not None else ""
    cancel = "free cancellation" if s.get("refundable") else "non-refundable"
    return f"{s.get('hotel_name')} ({s.get('stars')}★, {cancel}{far})"


def compare_two(a: Bundle, b: Bundle, offers: Dict[str, Dict[str, Any]]) -> str:
    """What differs between two options ("b1 vs b2", "whats better b1 or b3"): the price gap, then each flight
    and the hotel where they differ, and the bags where those differ; what they share is said in a word."""
    cheap, dear = sorted((a, b), key=lambda x: float(x.get("total") or "inf"))
    gap = float(dear.get("total") or 0) - float(cheap.get("total") or 0)
    ida, idb = a.get("bundle_id"), b.get("bundle_id")
    lines = [
        f"{dear.get('bundle_id')} is {money(f'{gap:.2f}', dear.get('currency'))} more than {cheap.get('bundle_id')} "
        f"({_price(dear)} vs {_price(cheap)} in all)."
        if gap >= 0.005
        else f"{ida} and {idb} cost the same ({_price(a)} in all)."
    ]
    same: List[str] = []
    fa, fb = a.get("flights") or [], b.get("flights") or []
    for i, (x, y) in enumerate(zip(fa, fb, strict=False)):
        leg = "Out" if i == 0 else "Back" if i == len(fa) - 1 else f"Flight {i + 1}"
        if x.get("offer_id") == y.get("offer_id"):
            same.append(f"{leg.lower()} flight")
        else:
            lines.append(
                f"{leg}: {ida} {_flight_words(x.get('summary') or {})}; {idb} {_flight_words(y.get('summary') or {})}."
            )
    ha, hb = _hotels(a), _hotels(b)
    if ha and hb and [h.get("hotel_name") for h in ha] == [h.get("hotel_name") for h in hb]:
        same.append("hotel")
    elif ha or hb:
        words = {
            ida: " and ".join(map(_hotel_words, ha)) or "no hotel",
            idb: " and ".join(map(_hotel_words, hb)) or "no hotel",
        }
        lines.append(f"Hotel: {ida} {words[ida]}; {idb} {words[idb]}.")
    bags = {
        x.get("bundle_id"): {_bags(offers.get(str(f.get("offer_id")))) for f in x.get("flights") or []} for x in (a, b)
    }
    if offers and fa and fb and bags[ida] != bags[idb]:
        lines.append(f"Bags per adult: {ida} {' / '.join(sorted(bags[ida]))}; {idb} {' / '.join(sorted(bags[idb]))}.")
    if same:
        lines.append(f"Same {' and '.join(same)}.")
    return " ".join(lines)


# "b1 vs b2", "b1 or b3?", "whats better b1 or b3", "how much more is b2 than b1", "what do i get with b4 that i
# dont with b1": two options set side by side
_SIDE_BY_SIDE = re.compile(
    r"\b(?:diff\w*|compar\w*|vs\.?|versus|between|better|or|more\s+than|less\s+than|than|catch|instead\s+of"
    r"|that\s+i\s+(?:don'?t|dont|do\s+not)|over)\b"
)


def _about_cabin(bundles: List[Bundle]) -> str:
    flying = [b for b in bundles if b.get("flights")]
    if not flying:
        return "These options have no flights, only the hotel."
    by_cabin: Dict[str, List[str]] = {}
    for b in flying:
        cabins = {str(s.get("cabin") or "not stated").replace("_", " ") for s in _flights(b)}
        by_cabin.setdefault(" / ".join(sorted(cabins)), []).append(_name(b))
    return "Cabin: " + "; ".join(f"{c} on {', '.join(names)}" for c, names in by_cabin.items()) + "."


def _answer(
    topic: str,
    bundles: List[Bundle],
    low: str,
    people: int,
    offers: Dict[str, Any],
    focused: bool,
    every: Sequence[Bundle] = (),
    infants: int = 1,
) -> str:
    if topic == "bags":
        return _about_bags(bundles, offers)
    if topic == "infants":
        return _about_infants(bundles, offers, infants)
    if topic == "why_price":
        return _why_price(low, bundles, every) if focused else _about_price(bundles)
    if topic == "price":
        return _about_price(bundles, people if _PER_PERSON.search(low) else 0, focused)
    if topic == "distance":
        return _about_distance(bundles, low)
    if topic == "departures":
        return _about_departures(bundles, low)
    if topic in ("refunds", "stops", "time"):
        return {"refunds": _about_refunds, "stops": _about_stops, "time": _about_time}[topic](bundles, focused)
    about: Dict[str, Callable[[List[Bundle]], str]] = {
        "arrivals": _about_arrivals,
        "meals": _about_meals,
        "hotels": _about_hotels,
        "airlines": _about_airlines,
        "cabin": _about_cabin,
        "red_eyes": _about_red_eyes,
        "holds": _about_holds,
        "taxes": _about_taxes,
    }
    return about[topic](bundles)


# Options named in a question: "B2", "option 2", "#3", "the second one", "the cheapest".
_NAMED_ID = re.compile(r"\b(?:b|option\s*|bundle\s*|number\s+|#)(\d{1,2})\b")
_NAMED_PLACE = re.compile(rf"\b({'|'.join(ORDINALS)}|last)\s+(?:one|option|bundle|choice)\b")
_COMPARED = re.compile(r"\b(?:diff\w*|compar\w*|vs\.?|versus|between|better|or)\b")
_BARE_PAIR = re.compile(
    r"(?<![\d$.,:/])\b(\d)\s*(?:and|&|vs\.?|versus|or|to|with)\s*(\d)\b(?![\d.,:/]|\s*(?:am|pm|stars?|nights?|people|adults))"
)
_FIRST_FEW = re.compile(
    r"\b(?:the\s+)?(?:first|top)\s+(two|three|2|3)\b(?!\s+(?:days?|nights?|weeks?|people|adults|stops?))"
)
_NAMED_QUALITY = re.compile(r"\bthe\s+(cheapest|fastest|quickest|refundable|flexible)(?:\s+(?:one|option|bundle))?\b")


def named_options(text: str, bundles: List[Bundle]) -> List[Bundle]:
    """The options on screen a message names, in the order shown; [] when it names none (or asks which)."""
    low = (text or "").lower()
    ids = {f"B{int(n)}" for n in _NAMED_ID.findall(low)}
    if _COMPARED.search(low):  # "what's the difference between 1 and 3", "2 vs 4"
        ids |= {f"B{int(n)}" for pair in _BARE_PAIR.findall(low) for n in pair}
    top = _FIRST_FEW.search(low)  # "compare the first two", "the top 3"
    if top:
        ids |= {f"B{i}" for i in range(1, {"two": 2, "2": 2, "three": 3, "3": 3}[top.group(1)] + 1)}
    for word in _NAMED_PLACE.findall(low):
        ids.add(f"B{len(bundles) if word == 'last' else ORDINALS[word]}")
    quality = _NAMED_QUALITY.search(low)
    if quality and not re.search(r"\bwhich\b", low):
        q = {"quickest": "fastest", "flexible": "refundable"}.get(quality.group(1), quality.group(1))
        found = bundle_by_quality(q, bundles)
        if found:
            ids.add(str(found.get("bundle_id")))
    return [b for b in bundles if b.get("bundle_id") in ids]


def remember_discussed(wm: Dict[str, Any], focus: List[Bundle]) -> None:
    """Keep the one option a question was about ("what's in the fourth one?"), so "is that refundable?"
    and "ok, that one" next point at it; a question about several keeps them as the ones compared (no one
    option "that one" points at), one about none keeps what was kept."""
    if focus:
        one = focus[0] if len(focus) == 1 else None
        # several: kept as the ones compared, so "ok the cheaper one" next chooses among them (``router.compared``)
        among = [{"bundle_id": b.get("bundle_id"), "items": bundle_items(b)} for b in focus]
        wm["discussed"] = (
            {"bundle_id": one.get("bundle_id"), "items": bundle_items(one)}
            if one
            else {"bundle_id": None, "items": None, "among": among}
        )


# "is that refundable?", "does it include breakfast?", "how much is this one per person": a question
# about the option just discussed (or the one chosen), not about every option ("one that has…" is not).
_POINTS_BACK = re.compile(
    r"(?:^|[,.!?]\s*|\b(?:is|does|do|was|will|would|can|could|has|about|for|with|on|in|of|and|so|but|ok(?:ay)?|hmm+|and)\s+)"
    r"(?:that|this)(?:\s+one)?\b(?!\s*(?:'s|is)\s+(?:it|all|fine|ok|okay|great|good|perfect))|\b(?:it|its|it'?s)\b"
    r"|\bthe\s+(?:hotel|room|stay|flights?|fare|tickets?|outbound|return|layover)\b(?!\s+(?:in|on|of|for)\b)"
)


# "what time do we leave", "when does our flight land", "how long is my layover": once an option is
# chosen, a question about the traveller's own trip is about that option (not one about the options:
# "which ones leave after 5", "do any of them have breakfast")
_OURS = re.compile(r"\b(?:we|us|our|my|i|me)\b")
_AMONG = re.compile(r"\b(?:which|any|options?|ones|others?|cheap\w*|compar\w*|all|each|every\w*|b\d{1,2})\b")


def referent(text: str, bundles: List[Bundle], wm: Dict[str, Any]) -> List[Bundle]:
    """The option "it" / "that" points at in a question: the one last discussed, else the one chosen; and
    the one chosen for a question about the traveller's own trip ("what time do we leave")."""
    low = (text or "").strip().lower()
    chosen = (wm.get("selected") or {}).get("bundle_id")
    mine = next((b for b in bundles if b.get("bundle_id") == chosen), None)
    if not is_question(low):
        return []
    if _POINTS_BACK.search(low):
        one = discussed(wm, bundles) or mine
    else:  # "what time do we leave", and once one is chosen "is breakfast included" (none named, none compared)
        one = mine if not _AMONG.search(low) else None
    return [one] if one is not None else []


def _overview(bundles: List[Bundle]) -> str:
    return "Your options: " + "; ".join(f"{_name(b)} {_price(b)}" for b in bundles) + "."


# "show me the options", "what are my options again", "list them", "remind me what the choices were":
# the whole message asks to see the options again, nothing about them in particular.
_SEE_OPTIONS = re.compile(
    r"^(?:(?:ok(?:ay)?|so|and|hmm+|um+|sorry|wait|hey|pls|please|actually|hold\s+on|oh)[,.!]*\s+)*"
    r"(?:(?:can|could|would)\s+(?:i|we|you)\s+(?:please\s+)?|please\s+|pls\s+|let\s+me\s+|remind\s+me\s+)?"
    r"(?:(?:see|show|list|view|have\s+a\s+look\s+at|look\s+at|go\s+over|repeat|give)(?:\s+(?:me|us))?"
    r"(?:\s+(?:all|again|once\s+more))?\s+(?:the\s+|my\s+|our\s+|those\s+|these\s+|all\s+(?:the\s+)?|them|it)?"
    r"|(?:what|which)\s+(?:are|were)\s+(?:the\s+|my\s+|our\s+)?|what\s+(?:the\s+)?)"
    r"(?:options?|choices?|bundles?|results?|trips?\s+options?|them)?(?:\s+(?:are|were|again|on\s+screen|you\s+found|once\s+more|"
    r"again|please|pls|thanks|one\s+more\s+time|for\s+me))*\s*[?.!]*$"
)


def asks_to_see_options(text: str) -> bool:
    """The message asks only to see the options again ("show me the options", "list them")."""
    low = re.sub(r"\s+", " ", (text or "").strip().lower())
    if not re.search(r"\b(?:options?|choices?|bundles?|results?|them)\b", low):
        return False
    bare = re.fullmatch(r"(?:the\s+|my\s+)?(?:options|choices|bundles)(?:\s+(?:again|pls|please))?\s*[?.!]*", low)
    return bare is not None or _SEE_OPTIONS.match(low) is not None


def options_again(bundles: List[Bundle]) -> str:
    """The options on screen, named and priced, for a traveller who asked to see them again."""
    return f"{_overview(bundles)} {HINT}"


# Words that ask for a change rather than about the options ("make it refundable", "I want breakfast").
_ASKS_CHANGE = re.compile(
    r"\b(?:make|change|switch|only|want|wanna|need|prefer|instead|add|remove|drop|without|rather|set|move)\b"
)


_CANCEL_PART = re.compile(r"\bcancel\s+(?:the|our|my)\s+(?P<part>hotels?|rooms?|stays?|flights?|tickets?|fares?)\b")


def cancel_note(text: str) -> str:
    """ "Can we cancel the hotel?" before anything is booked: how to leave that part out instead."""
    m = _CANCEL_PART.search((text or "").lower())
    if not m:
        return ""
    part = "flights" if m.group("part").startswith(("flight", "ticket", "fare")) else "hotel"
    return f'Nothing is booked yet; to leave the {part} out of the trip, say "no {part}".'


def combined_answer(low: str, bundles: List[Bundle]) -> Optional[str]:
    """The answer to "the cheapest nonstop" from the options on screen, else None (no such words)."""
    found = combined_options(low, bundles)
    if found is None:
        return None
    most, kind, fitting = found
    if not fitting:
        again = "'nonstop only'" if kind == "nonstop" else "'refundable only'"
        return f"None of the options on screen is {kind}. Say {again} and I'll search again."
    best, others = fitting[0], [str(b.get("bundle_id")) for b in fitting[1:]]
    also = f" ({', '.join(others)} {'are' if len(others) > 1 else 'is'} {kind} too)" if others else ""
    return f"The {most} {kind} option on screen is {_name(best)}, {_price(best)} in all{also}. Say '{best.get('bundle_id')}' to choose it."


def kind_cheaper_answer(low: str, bundles: List[Bundle]) -> Optional[str]:
    """The answer to "is there a nonstop cheaper than B1" from the options on screen, else None."""
    found = kind_cheaper(low, bundles)
    if found is None:
        return None
    kind, ref, fitting = found
    if fitting:
        names = ", ".join(f"{_name(b)} {_price(b)}" for b in fitting)
        best = fitting[0].get("bundle_id")
        return f"Yes: {names} in all, {kind} and cheaper than {ref.get('bundle_id')} ({_price(ref)}). Say '{best}' to choose it."
    itself = f" {ref.get('bundle_id')} is {kind} itself." if _is_kind(ref, kind) else ""
    again = "'nonstop only'" if kind == "nonstop" else "'refundable only'"
    return (
        f"No: no {kind} option on screen is cheaper than {_name(ref)} at {_price(ref)}.{itself}"
        f" Say {again} and I'll search for others."
    )


def _is_kind(b: Bundle, kind: str) -> bool:
    if kind == "nonstop":
        return bool(_flights(b)) and all(int(s.get("stops") or 0) == 0 for s in _flights(b))
    return bool(b.get("refundable"))


# "which one would you pick", "what do you recommend", "which is best for us", "what would u choose":
# the desk's own pick, with why
RECOMMEND_RE = re.compile(
    r"\b(?:recommend\w*|suggest(?:ion)?s?|(?:would|do|should|will)\s+(?:you|u|ya)\s+(?:pick|choose|go\s+(?:with|for)|take|book|do|get)"
    r"|(?:your|ur)\s+(?:pick|choice|recommendation|advice|vote)"
    r"|(?:which|what)\s+(?:one\s+|option\s+)?(?:should|would|do)\s+(?:i|we)\s+(?:pick|choose|go\s+(?:with|for)|take|book|get)"
    r"|which\s+(?:one\s+|option\s+)?(?:is|'?s)\s+(?:the\s+)?(?:best|better)(?:\s+(?:one|option|deal|value|choice|pick))?"
    r"(?:\s+for\s+(?:me|us|(?:all|both)\s+of\s+us|(?:my|our)\s+\w+))?\s*\??$"
    r"|which\s+(?:one\s+|option\s+)?(?:do|would)\s+(?:you|u)\s+(?:think|say|like|prefer)"
    r"|what\s+(?:would|do)\s+(?:you|u)\s+(?:do|pick|choose|think))(?:\b|$)"
)
# "which one is cheapest", "which is the fastest?": one option asked for by what sets it apart
_WHICH_MOST = re.compile(
    r"^(?:(?:so|ok(?:ay)?|and|hmm+)[,.!]*\s+)*(?:which|what)(?:\s+(?:one|option|bundle|hotel))?\s*(?:(?:'?s|has)\s+got|is|'?s|has|got)\s+(?:the\s+)?"
    r"(?P<q>cheapest|least\s+expensive|lowest[- ]priced|lowest\s+price|fastest|quickest|shortest|fewest\s+stops|least\s+stops"
    r"|(?:best|nicest|better|fanciest)\s+hotel|earliest|latest"
    # "which one is closest to the strip", "which hotel is nearest the convention center"
    r"|(?:closest|nearest)(?:\s+(?:hotel|one|option))?(?:\s+(?:to\s+)?(?:the\s+)?(?P<to>[\w'&.\- ]{2,40}?))?)"
    # "which has the shortest flights", "which one is the cheapest option", "which has the lowest price overall",
    # "which option has the earliest flight out"
    r"(?P<tail>(?:\s+(?:one|option|bundle|deal|flights?|flight\s+times?|flying\s+time|travel\s+time|trip|journey|total|price|fare"
    r"|departures?))?(?:\s+(?:out|there|back|home|going\s+out|coming\s+back|on\s+the\s+way\s+(?:out|there|back|home)))?)"
    r"(?:\s+(?:overall|in\s+all|of\s+(?:them|these|those|all)|here|on\s+screen))?\s*\??$"
)
_MOST = {
    "closest": "nearest",
    "nearest": "nearest",
    "fastest": "fastest",
    "quickest": "fastest",
    "shortest": "fastest",
    "lowest price": "cheapest",
    "fewest stops": "fewest_stops",
    "least stops": "fewest_stops",
}


# "which one gets in earliest", "which flight leaves first", "what lands last on the way back": one option
# asked for by when its flights leave or land
_WHICH_WHEN = re.compile(
    r"^(?:(?:so|ok(?:ay)?|and|hmm+)[,.!]*\s+)*(?:which|what)(?:\s+(?:one|option|bundle|flight))?\s+"
    r"(?P<verb>gets?\s+(?:in|there|(?:us|me)\s+there)|lands?|arrives?|leaves?|departs?|goes\s+out|gets?\s+(?:us|me)\s+(?:home|back))"
    r"\s+(?P<w>earliest|first|soonest|latest|last)(?P<tail>(?:\s+(?:on\s+the\s+way\s+)?(?:out|there|back|home|going\s+out|coming\s+back))?)"
    r"\s*\??$"
)
_FIRST_WORDS = ("earliest", "first", "soonest")


def _quality_asked(low: str) -> Optional[str]:
    """The quality a "which one is / has the …" question asks for ("hotel", "fastest", "earliest_return",
    "lands_first_outbound"), else None."""
    most = _WHICH_MOST.match(low)
    if most:
        said, tail = re.sub(r"\s+", " ", most.group("q")), most.group("tail") or ""
        if said in ("earliest", "latest"):
            back = _LEG_BACK.search(tail) or said == "latest" and not _LEG_OUT.search(tail)
            return f"{said}_{'return' if back else 'outbound'}"
        quality = "hotel" if said.endswith("hotel") else _MOST.get(said, _MOST.get(said.split()[0], "cheapest"))
        return "cheapest_flights" if quality == "cheapest" and re.search(r"\bflights?\b", tail) else quality
    when = _WHICH_WHEN.match(low)
    if when is None:
        return None
    first = when.group("w") in _FIRST_WORDS
    leaves = re.match(r"(?:leave|depart|goes)", when.group("verb")) is not None
    back = (
        _LEG_BACK.search(when.group("verb") + when.group("tail"))
        or not first
        and leaves
        and not _LEG_OUT.search(when.group("tail"))
    )
    leg = "return" if back else "outbound"
    if leaves:
        return f"{'earliest' if first else 'latest'}_{leg}"
    return f"lands_{'first' if first else 'last'}_{leg}"


def _most_asked(low: str, bundles: List[Bundle]) -> Optional[tuple]:
    """ "which one has the best hotel?", "which is the fastest?", "which one gets in earliest": the quality
    asked for and the option on screen that has it most (the one a pick by those words would choose);
    None when no such question."""
    quality = _quality_asked(low)
    if quality is None or not bundles:
        return None
    if quality == "nearest":  # "which one is closest to the strip": where the options are measured from
        housed = [b for b in bundles if _hotels(b)]
        to = _WHICH_MOST.match(low)
        if not housed or not _measured_from(to.group("to") if to else None, _hotels(housed[0])[0]):
            return None
        return ("nearest", min(housed, key=_hotel_km))
    if quality in ("cheapest", "fastest", "hotel", "fewest_stops"):
        best = bundle_by_quality(quality, bundles)
    else:
        flying = [b for b in bundles if b.get("flights")]
        best = min(flying, key=_MOST_SAID[quality][1]) if flying else None
    return (quality, best) if best else None


def _timed(at: str, latest: bool) -> str:
    """A key that sorts the soonest time first (the latest with ``latest``), an unknown time last."""
    if len(at) < 16:
        return "\U0010ffff"
    return "".join(chr(0x10FFFE - ord(c)) for c in at) if latest else at


def _lands(b: Bundle, leg: str) -> str:
    flights = _flights(b)
    at = str((flights[0] if leg == "outbound" else flights[-1]).get("arrive_at") or "") if flights else ""
    return at if leg == "outbound" or len(flights) > 1 else ""


def _lands_text(b: Bundle, leg: str) -> str:
    """ "10:55 AM in DEN", "1:15 AM in BOS on Sat Jan 16" (a day after the flight left)."""
    at = _lands(b, leg)
    if len(at) < 16:
        return "an unknown time"
    flight = (_flights(b) or [{}])[0 if leg == "outbound" else -1]
    day = f" on {day_text(at[:10])}" if at[:10] != str(flight.get("depart_at") or "")[:10] else ""
    return f"{clock_text(at[11:16])} in {flight.get('destination')}{day}"


def _flying_minutes(b: Bundle) -> int:
    return sum(int(s.get("duration_minutes") or 0) for s in _flights(b))


def _stop_count(b: Bundle) -> int:
    return sum(int(s.get("stops") or 0) for s in _flights(b))


# For each quality a "which one is …" question asks about: what the answer says the option is, how an
# option measures on it (lower first) and what it shows of that option.
_MOST_SAID: Dict[str, tuple] = {
    "cheapest": ("is the cheapest", lambda b: float(b.get("total") or "inf"), lambda b: f"{_price(b)} in all"),
    "cheapest_flights": (
        "has the cheapest flights",
        lambda b: _part_total(b, "flights"),
        lambda b: f"flights {_part_money(b, 'flights')}",
    ),
    "fastest": ("is the fastest", _flying_minutes, lambda b: f"{_hm(_flying_minutes(b))} of flying"),
    "fewest_stops": (
        "has the fewest stops",
        _stop_count,
        lambda b: "; ".join(f"{s.get('origin')}→{s.get('destination')} {_stops_text(s)}" for s in _flights(b)),
    ),
    "hotel": (
        "has the best hotel",
        lambda b: -max((int(s.get("stars") or 0) for s in _hotels(b)), default=0),
        lambda b: f"{_stars_text(b)}, {_nightly(b)} a night",
    ),
    "nearest": ("has the nearest hotel", lambda b: _hotel_km(b), lambda b: f"{_stars_text(b)}, {_how_far(b)}"),
    **{
        f"{first}_{leg}": (
            f"has the {first} flight {'out' if leg == 'outbound' else 'back'}",
            lambda b, leg=leg, latest=first == "latest": _timed(leg_departure(b, leg), latest),
            lambda b, leg=leg: f"leaves {_leaves(b, leg)}",
        )
        for first in ("earliest", "latest")
        for leg in ("outbound", "return")
    },
    **{
        f"lands_{first}_{leg}": (
            f"{'lands' if leg == 'outbound' else 'gets home'} {first}",
            lambda b, leg=leg, latest=first == "last": _timed(_lands(b, leg), latest),
            lambda b, leg=leg: _lands_text(b, leg),
        )
        for first in ("first", "last")
        for leg in ("outbound", "return")
    },
}


def _measured_from(to: Optional[str], hotel: Dict[str, Any]) -> bool:
    """Whether "closest to ``to``" is what the options measure: the place the hotel was wished near
    ("the strip" for the Las Vegas Strip), or the centre; any place when none is named."""
    if not to:
        return True
    words = set(re.findall(r"[a-z]+", to.lower())) - {"the", "to", "of"}
    if hotel.get("near"):
        return bool(words) and words <= set(re.findall(r"[a-z]+", str(hotel["near"]).lower()))
    return means_centre(to)


def _hotel_km(b: Bundle) -> float:
    """How far the first hotel of a bundle is from the place wished, else from the centre (unknown: last)."""
    hotel = (_hotels(b) or [{}])[0]
    km = hotel.get("near_km") if hotel.get("near") else hotel.get("distance_km")
    return float(km) if km is not None else float("inf")


def _how_far(b: Bundle) -> str:
    """ "0.4 km from the Las Vegas Strip", "2.1 km from the centre" (the first hotel of a bundle)."""
    hotel = (_hotels(b) or [{}])[0]
    if hotel.get("near") and hotel.get("near_km") is not None:
        return f"{hotel['near_km']} km from {hotel['near']}"
    return (
        f"{hotel.get('distance_km')} km from the centre" if hotel.get("distance_km") is not None else "distance unknown"
    )


def most_answer(low: str, bundles: List[Bundle]) -> Optional[str]:
    """ "which one has the best hotel?": the option that has it most and why, then the next best and what it
    costs against it; never every option again. None when the text asks no such thing."""
    asked = _most_asked(low, bundles)
    if asked is None:
        return None
    quality, best = asked
    if quality == "fewest_stops" and not _stop_count(best):
        return None  # "which has the fewest stops" when some fly nonstop: every nonstop one (``_about_stops``)
    phrase, measure, shows = _MOST_SAID[quality]
    total = "" if quality == "cheapest" else f", {_price(best)} in all"
    line = f"{_name(best)} {phrase}: {shows(best)}{total}."
    others = [b for b in bundles if b is not best and (b.get("hotels") if quality == "hotel" else b.get("flights"))]
    if others:
        runner = min(others, key=lambda b: (measure(b), float(b.get("total") or "inf")))
        next_to = "As good" if measure(runner) == measure(best) else "Next best"
        line += f" {next_to}: {_name(runner)}, {shows(runner)} ({_price_gap(runner, best)})."
    return f"{line} Say '{best.get('bundle_id')}' to choose it."


def _price_gap(b: Bundle, against: Bundle) -> str:
    """ "$93.33 more", "$2.41 less", "the same price": ``b``'s total against another's."""
    gap = float(b.get("total") or 0) - float(against.get("total") or 0)
    if abs(gap) < 0.005:
        return "the same price"
    return f"{money(f'{abs(gap):.2f}', b.get('currency'))} {'more' if gap > 0 else 'less'}"


_ABOUT_TOWN = re.compile(
    r"\b(?:restaurants?|food|eat|bars?|sights?|things\s+to\s+do|activit\w+|tours?|museums?|neighbou?rhoods?|area\s+to"
    r"|shows?|clubs?|beach(?:es)?|cafes?|coffee)\b"
)


def recommended(low: str, bundles: List[Bundle]) -> Optional[Bundle]:
    """The desk's pick when asked for one ("which would you book?"): the best-ranked option on screen."""
    if not RECOMMEND_RE.search(low) or not bundles or _ABOUT_TOWN.search(low):
        return None
    return next((b for b in bundles if b.get("label") == "Best overall"), bundles[0])


def recommendation(low: str, bundles: List[Bundle]) -> Optional[str]:
    """The desk's pick when asked for one and why, and the cheapest as the alternative when price
    matters most; None when the text asks no such thing."""
    best = recommended(low, bundles)
    if best is None:
        return None
    why = " ".join(str(w) for w in (best.get("why") or [])[:2]) or "the best balance of price, time and comfort."
    cheapest = min(bundles, key=lambda b: float(b.get("total") or "inf"))
    alt = f" If price matters most, {_name(cheapest)} is {_price(cheapest)} in all." if cheapest is not best else ""
    return f"I'd pick {_name(best)}, {_price(best)} in all: {why}{alt} Say '{best.get('bundle_id')}' to choose it."


def answered_pick(text: str, bundles: List[Bundle]) -> Optional[Bundle]:
    """The one option an answer puts forward ("I'd pick B1", "the cheapest nonstop option on screen is
    B3"), so that "ok go with that one" next chooses it; None when the answer names none."""
    low = (text or "").strip().lower()
    cheaper_kind = kind_cheaper(low, bundles)
    if cheaper_kind is not None:  # "is there a nonstop cheaper than B1": the cheapest such, if any
        return next(iter(cheaper_kind[2]), None)
    if COMBINED_RE.search(low):
        return next(iter((combined_options(low, bundles) or ("", "", []))[2]), None)
    most = _most_asked(low, bundles)
    if most:
        return most[1]
    return recommended(low, bundles)


def answer_about_options(
    text: str,
    bundles: List[Bundle],
    *,
    people: int = 0,
    offers: Optional[Dict[str, Dict[str, Any]]] = None,
    focus: Sequence[Bundle] = (),
    chosen: bool = False,
    infants: int = 1,
) -> str:
    """What the options on screen say about the topic of ``text`` (an overview otherwise).

    A question that names options ("what airline is option 2", "B2 per person") is answered for
    those. ``people`` (everyone travelling) turns totals per person; ``offers`` (by id, as the quotes
    keep them) say what each fare includes in bags. "Nothing changed." comes first only where it
    tells the traveller something: the message asked for a change that was not made ("I want
    breakfast included") or is no question and matched no topic; a question none of the options'
    facts answers ("can I bring my dog?") is said so, never met with "Nothing changed.". ``focus``:
    the options the question is about when it names none ("is that refundable?": ``referent``). How
    to pick (``HINT``) closes an answer only while nothing is chosen and the question was about them all.
    ``infants``: the babies travelling, so that twins are not "the baby"."""
    low = (text or "").strip().lower()
    named = named_options(low, bundles)
    topics = [topic for pattern, topic in TOPICS if re.search(pattern, low)]
    if len(named) == 2 and _SIDE_BY_SIDE.search(low) and set(topics) <= {"price"}:
        return compare_two(named[0], named[1], offers or {})  # "b1 vs b2", "how much more is b2 than b1"
    combined = (
        covers_answer(low, bundles, people, focus)
        or kind_cheaper_answer(low, bundles)
        or combined_answer(low, bundles)
        or most_answer(low, bundles)
        or recommendation(low, bundles)
    )
    if combined:
        return combined
    focus = named or list(focus)
    shown = focus or bundles
    answers: List[str] = []
    said: List[str] = []
    for pattern, topic in TOPICS:
        if topic == "hotels" and "distance" in said or "why_price" in said:
            continue  # "how far is the hotel": the distances are the answer, not every hotel again
        if re.search(pattern, low) and len(answers) < 2:
            said.append(topic)
            answers.append(_answer(topic, shown, low, people, offers or {}, bool(focus), bundles, infants))
    asked = is_question(low)
    hint = "" if focus or chosen else f" {HINT}"
    if not answers and focus and any(b.get("why") for b in focus):
        return _about_named(focus)  # "is B3 worth it?", "compare B1 and B2": what sets them apart
    if not answers and asked:
        return f"I can't tell that from the options: they show {_TOPICS_SAID} only. {_overview(bundles)}{hint}"
    body = " ".join(answers) if answers else _overview(bundles)
    informs = not answers or (not asked and bool(_ASKS_CHANGE.search(low)))
    return f"{'Nothing changed. ' if informs else ''}{body}{hint}"


def _nightly(b: Bundle) -> str:
    hotels = _hotels(b)
    return money(hotels[0].get("nightly_avg"), hotels[0].get("currency")) if hotels else ""


def _stars_text(b: Bundle) -> str:
    """ "the 3★ Denver Grand" (the first hotel of a bundle)."""
    hotel = (_hotels(b) or [{}])[0]
    return f"the {hotel.get('stars') or '?'}★ {hotel.get('hotel_name') or 'hotel'}"


def _part_money(b: Bundle, part: str) -> str:
    items = _flights(b) if part == "flights" else _hotels(b)
    total = sum(float(s.get("total") or 0) for s in items)
    return money(f"{total:.2f}", (items[0] if items else {}).get("currency") or b.get("currency"))


def choice_line(because: Dict[str, Any], chosen: Bundle, before: Any) -> str:
    """The one line that says why words chose an option ("a cheaper hotel", "only in-policy options")."""
    why = because.get("why")
    instead = f" instead of {before.get('bundle_id')}" if isinstance(before, dict) else ""
    name = chosen.get("bundle_id")
    if why == "in_policy":
        return (
            f"Chose {name}{instead}: the best option within policy, {_price(chosen)} in all{_gap_note(chosen, before)}."
        )
    if why in ("earliest_outbound", "latest_outbound", "earliest_return", "latest_return"):
        first, leg = why.split("_")
        if isinstance(before, dict) and before.get("bundle_id") == name:
            return f"{name} already has the {first} {leg} flight on screen ({_leaves(chosen, leg)})."
        return (
            f"Chose {name}{instead}: its {leg} flight leaves at {_leaves(chosen, leg)}, the {first} on screen "
            f"({_price(chosen)} in all{_gap_note(chosen, before)})."
        )
    if why == "mixed":  # "B1's flights with B2's hotel" and an option on screen is that pair
        hotel = (_hotels(chosen) or [{}])[0].get("hotel_name") or "hotel"
        flights_from, hotel_from = because.get("flights_from"), because.get("hotel_from")
        if chosen.get("bundle_id") == flights_from:
            has = f"already has {hotel_from}'s hotel ({hotel}) with its own flights"
        elif chosen.get("bundle_id") == hotel_from:
            has = f"already has {flights_from}'s flights with its own hotel ({hotel})"
        else:
            has = f"has {flights_from}'s flights and {hotel_from}'s hotel ({hotel})"
        return f"{name} {has}, so I chose it: {_price(chosen)} in all."
    if not isinstance(before, dict):
        return f"Chose {name}, {_price(chosen)} in all."
    if why == "cheaper_hotel":
        return (
            f"Chose {name}{instead}: its hotel is {_nightly(chosen)} a night, not {_nightly(before)} "
            f"({_price(chosen)} in all{_gap_note(chosen, before)})."
        )
    if why == "other_hotel":
        return (
            f"Chose {name}{instead}: its hotel is {_stars_text(chosen)}, not {_stars_text(before)} "
            f"({_price(chosen)} in all{_gap_note(chosen, before)}, {_nightly(chosen)} a night)."
        )
    if why == "nicer_hotel":
        return (
            f"Chose {name}{instead}: its hotel is {_stars_text(chosen)}, not {_stars_text(before)} "
            f"({_price(chosen)} in all{_gap_note(chosen, before)}, {_nightly(chosen)} a night)."
        )
    if why == "cheaper_flights":
        return (
            f"Chose {name}{instead}: its flights cost {_part_money(chosen, 'flights')}, not "
            f"{_part_money(before, 'flights')} ({_price(chosen)} in all{_gap_note(chosen, before)})."
        )
    if why in ("later_outbound", "earlier_outbound", "later_return", "earlier_return"):
        leg = "outbound" if why.endswith("outbound") else "return"
        return (
            f"Chose {name}{instead}: its {leg} flight leaves at {_leaves(chosen, leg)}, not {_leaves(before, leg)} "
            f"({_price(chosen)} in all{_gap_note(chosen, before)})."
        )
    return f"Chose {name}{instead}: {_price(chosen)} in all, not {_price(before)}."


def _gap_note(chosen: Bundle, before: Any) -> str:
    """ ", $644.16 more than B1": what a choice made for another reason costs against the option it replaced."""
    if not isinstance(before, dict) or before.get("bundle_id") == chosen.get("bundle_id"):
        return ""
    gap = _price_gap(chosen, before)
    return f", {gap} {'as' if gap == 'the same price' else 'than'} {before.get('bundle_id')}"


def _leaves(b: Bundle, leg: str) -> str:
    """The local departure time of a bundle's outbound or return flight (``shape.leg_of``): "6:15 PM"."""
    at = leg_departure(b, leg)
    return clock_text(at[11:16]) if len(at) >= 16 else "an unknown time"


def nothing_cheaper(part: str, bundle: Bundle) -> str:
    """No option on screen is cheaper in the part asked about: say which is, and what would help."""
    if part == "hotel":
        hotel = (_hotels(bundle) or [{}])[0]
        return (
            f"{_name(bundle)} already has the cheapest hotel I found for these dates ({hotel.get('hotel_name')}, "
            f"{_nightly(bundle)} a night). Try other dates and I'll search again."
        )
    if part == "flights":
        return (
            f"{_name(bundle)} already has the cheapest flights on screen ({_part_money(bundle, 'flights')}). "
            "Say what you can give up ('stops are fine', 'any airline', other dates) and I'll search again."
        )
    return (
        f"{_name(bundle)} is already the cheapest option on screen ({_price(bundle)} in all). "
        "Say what you can give up ('stops are fine', 'any airline', a lower hotel cap) and I'll search again."
    )


# "thanks!", "great", "sounds good", "go ahead": an acknowledgement, answered with the next step
# (``Intake.next_step``), not the options again under "Nothing changed.".
# "perfect, go ahead", "yes please proceed", "great do it 👍", "sgtm lets go": a go-ahead is an
# acknowledgement too; it never buys (what it moves toward is the hold, said by ``next_step``).
_THANKS = r"thanks?(?:\s+you)?(?:\s+so\s+much|\s+a\s+lot|\s+again)?|thankyou|thnx|thnks|thanx|thx|tx|ty|tysm|cheers|much\s+appreciated|appreciate\s+it"
_ACKNOWLEDGED = re.compile(
    r"^(?:(?:ok(?:ay|ie)?|k|kk|great|perfect|awesome|cool|nice|good|lovely|super|excellent|fine|alright|alrighty|all\s+right"
    r"|sure|yes|yep|yup|yeah|ya|yess+|absolutely|definitely|deal|done|wonderful|brilliant|amazing|fab|fantastic|sweet"
    r"|(?:sounds|looks|seems)\s+(?:good|great|perfect|fine|right|ok(?:ay)?)(?:\s+to\s+me)?|sgtm|lgtm"
    r"|(?:that\s+|this\s+)?works(?:\s+for\s+(?:me|us))?|that'?s\s+(?:fine|great|perfect|good|it)"
    r"|(?:(?:please|pls)\s+)?(?:go\s+ahead|proceed|go\s+for\s+it|do\s+(?:it|that|this)|carry\s+on|make\s+it\s+happen|confirm(?:ed)?)"
    r"|let'?s\s+(?:do\s+(?:it|that|this)|go(?:\s+(?:with\s+it|for\s+it))?)|yes\s+please|please|pls"
    rf"|{_THANKS})[\s,.!]*)+(?::\)|:-\)|[^\w\s]|\s)*$",
    re.I,
)
_THANKED = re.compile(rf"\b(?:{_THANKS})\b", re.I)


def acknowledged(text: str) -> bool:
    """The whole message only acknowledges ("thanks!", "great, thank you", "go ahead", "sounds good")."""
    return _ACKNOWLEDGED.match((text or "").strip()) is not None


def thanked(text: str) -> bool:
    """The message thanks ("ok thx", "great, thank you"): only then is it answered "You're welcome"."""
    return _THANKED.search(text or "") is not None


# "nah none of these work", "i dont like any of these": the options are turned down as a whole, so
# the answer asks what to change (the options again under "Nothing changed." would only repeat them).
_REJECTS = re.compile(
    r"\b(?:none of (?:these|them|those|the (?:options|choices|above))|(?:don'?t|do not) (?:like|love|want|care for)"
    r" (?:any|these|them|those|either|the options)|not (?:feeling|loving|liking|keen on) (?:any|these|them|those)"
    r"|nothing (?:here |there )?(?:works|fits|appeals)|(?:these|they|those) (?:all )?(?:suck|stink"
    r"|are (?:all )?(?:bad|terrible|awful|no good|not (?:great|good|it))|(?:don'?t|won'?t) (?:work|do))|neither (?:works|one)"
    r"|(?:(?:these|they|those|them|it)\s+(?:are|'?re|is|'?s)\s+)?(?:all\s+)?(?:way\s+|much\s+|a\s+bit\s+|far\s+)?too\s+"
    r"(?:expensive|pricey|much|steep|dear)|out\s+of\s+(?:my|our)\s+(?:price\s+range|budget)"
    r"|(?:can'?t|cannot)\s+afford\s+(?:any|these|those|them|that)"
    r"|(?:these\s+|the\s+|those\s+)?prices?\s+(?:are|is|'re|'s)\s+(?:just\s+|so\s+)?(?:crazy|insane|ridiculous|nuts|outrageous|too\s+high)"
    r"|(?:these|they|those)\s+(?:are|'re)\s+(?:so\s+|way\s+)?(?:overpriced|crazy\s+expensive))\b"
)
REJECTED = (
    "Let's change something, then. What matters most: a lower price, other flight times, fewer stops, another "
    "airline, a nicer or closer hotel, or other dates? Say it your way ('under $900 each', 'nonstop only', "
    "'leave after 5pm', 'a 4-star hotel') and I'll search again."
)


# "youre not very helpful", "this is useless", "thats not what i asked for": a complaint about the desk,
# answered with an apology and what can change (never "Nothing changed." and the same options again)
_COMPLAINT = re.compile(
    r"\b(?:(?:you'?re|youre|ur|you\s+are)\s+(?:not\s+(?:very\s+|really\s+|being\s+)?(?:helpful|listening|getting\s+it|understanding)"
    r"|(?:so\s+|really\s+|pretty\s+)?(?:useless|unhelpful|terrible|awful|hopeless|no\s+help|a\s+joke|stupid|dumb))"
    r"|(?:this|that|it)(?:'?s|\s+is)\s+(?:so\s+|really\s+|pretty\s+)?(?:useless|unhelpful|frustrating|annoying|a\s+joke|not\s+helpful|not\s+working|hopeless)"
    r"|(?:that'?s|thats|this\s+is|that\s+is)\s+not\s+what\s+(?:i|we)\s+(?:asked|said|wanted|meant)"
    r"|not\s+what\s+(?:i|we)\s+(?:asked\s+for|wanted)|(?:you|u)\s+(?:didn'?t|did\s+not|don'?t|do\s+not)\s+(?:listen|understand|get\s+it)"
    r"|(?:waste\s+of\s+(?:my\s+|our\s+)?time))\b"
)
COMPLAINED = (
    "Sorry about that. Tell me what isn't right and I'll fix it: the price, flight times, stops, airline, "
    "the hotel or the dates. Or pick an option ('B2') and say 'hold'; nothing is bought from a chat message."
)


# "hold on, the dates are wrong", "wait that's not right", "thats the wrong airport", "these arent the dates i
# wanted": the traveller sees a mistake in what was understood. Answered with what the trip holds and a
# question about what to fix (the part named, when one is), never "Nothing changed." and the options again.
# The part of the trip a "that's wrong" names, and what the answer asks and offers for it.
_WRONG_PARTS: List[tuple] = [
    (
        r"\b(?:dates?|days?|months?|weeks?|weekends?)\b",
        "dates",
        "Which dates should it be?",
        "'jan 13-16', 'back on the 16th'",
    ),
    (
        r"\b(?:airports?|cit(?:y|ies)|destination|origin|route)\b",
        "places",
        "Where should it be from or to?",
        "'from Providence', 'into Newark'",
    ),
    (
        r"\b(?:hotels?|rooms?|stay)\b",
        "hotel",
        "What should the hotel be?",
        "'a 4-star hotel', 'near downtown', 'no hotel'",
    ),
    (
        r"\b(?:people|travell?ers|passengers|adults|kids|children)\b",
        "party",
        "How many of you are going?",
        "'3 adults', 'me and 2 kids'",
    ),
    (
        r"\b(?:flights?|times?)\b",
        "flights",
        "What should change about the flights?",
        "'leave after 5pm', 'nonstop only'",
    ),
]
_WRONG_ANY = ("What isn't right?", "'back on the 16th', 'from Providence', '3 of us', 'no hotel'")
# what the trip holds that each part shows (``wording.known_so_far``'s words)
_SHOWS = {
    "dates": re.compile(r"^(?:leaving|back|last flight|hotel)\b"),
    "places": re.compile(r"→|^(?:to|from)\s"),
    "hotel": re.compile(r"★"),
    "party": re.compile(r"\b(?:adults?|child(?:ren)?|infants?|travell?ers?)\b"),
}


def hotels_in(bundles: Sequence[Bundle]) -> List[str]:
    """ "B2's hotel: the 3★ Denver Garden Hotel": what a "the hotel is wrong" is about (the options meant)."""
    return [f"{b.get('bundle_id')}'s hotel: {_stars_text(b)}" for b in bundles if _hotels(b)]


def what_is_wrong(text: str, known: Sequence[str]) -> str:
    """What to fix, asked about the part named ("Which dates should it be?"), with what the trip holds of it
    (``known``: ``wording.known_so_far``) and how to say the fix."""
    low = (text or "").lower()
    part = next((p for p in _WRONG_PARTS if re.search(p[0], low)), None)
    ask, say = (part[2], part[3]) if part else _WRONG_ANY
    shows = _SHOWS.get(part[1]) if part else None
    held = [k for k in known if (shows.search(k) if shows else "★" not in k)]  # an option's hotel: only if asked
    now = f" I have: {', '.join(held)}." if held else ""
    return f"Sorry about that. {ask}{now} Say it your way ({say}) and I'll search again."


def complains(text: str) -> bool:
    """The message complains about the desk ("youre not very helpful", "thats not what i asked for")."""
    return _COMPLAINT.search((text or "").lower()) is not None


def rejects_options(text: str) -> bool:
    """The message turns the options down as a whole ("none of these work")."""
    low = (text or "").strip().lower()
    return _REJECTS.search(low) is not None and not low.endswith("?")


# Whole messages about the options as a whole: "ok cool, what now?", "how do I book this?" (where the
# trip stands and the next step); "can you show me more options", "any other options?" (more of what
# was found).
_WHOLE_MESSAGE = {
    "next_step": re.compile(
        r"^(?:(?:ok(?:ay)?|k|so|and|cool|great|alright|right|hmm+|um+|perfect|nice)[,.!]*\s+)*"
        r"(?:what(?:'?s|\s+is|\s+happens|\s+do\s+(?:i|we)\s+do|\s+should\s+(?:i|we)\s+do)?\s+(?:now|next)"
        r"|now\s+what|what(?:'?s|\s+is|\s+are)\s+the\s+next\s+steps?|next\s+steps?"
        r"|how\s+(?:do|can|should)\s+(?:i|we)\s+(?:book|proceed|continue|go\s+on|get\s+(?:it|this)\s+booked|pay|buy|purchase|check\s*out)"
        r"(?:\s+(?:for\s+)?(?:this|it|that|one|them))?"
        r"|how\s+does\s+(?:this|it)\s+work)(?:\s+(?:then|now))?\s*[?.!]*$"
    ),
    "more": re.compile(
        # "neither, show me something else", "none of those, anything else?": turned down, more asked for
        r"^(?:(?:ok(?:ay)?|so|and|hmm+|um+|well|hey|neither|nah|no|none\s+of\s+(?:those|these|them)(?:\s+work)?)[,.!]*\s+)*(?:(?:can|could)\s+(?:you|i|we)\s+(?:please\s+)?"
        r"(?:show|see|get|have|give)(?:\s+(?:me|us))?\s+|(?:show|give)(?:\s+(?:me|us))?\s+|(?:are\s+there|do\s+you\s+have|got)\s+)?"
        r"(?:any(?:thing)?\s*|some(?:thing)?\s+|a\s+few\s+|a\s+couple\s+(?:of\s+)?|few\s+)?"
        r"(?:more|other|others|else|additional|different)"
        r"(?:\s+(?:options?|choices?|ones|bundles?|results?))?"
        r"(?:\s+(?:please|pls|plz|than\s+these|besides\s+these|on\s+offer))*\s*[?.!]*$"
        r"|^what\s+else\s+(?:do\s+you\s+have|is\s+there|did\s+you\s+find|have\s+you\s+got)\s*[?.!]*$"
        r"|^anything\s+else\s*[?.!]*$"
    ),
}


# "hold on a sec", "let me check with my wife", "give me a minute": the traveller needs time; nothing
# is asked of them and nothing happens until they come back.
_PAUSE = (
    r"(?:(?:hold\s+on|wait|hang\s+on)(?:\s+(?:a|one)\s+(?:sec(?:ond)?|min(?:ute)?|moment|bit))?"
    r"|(?:one|a|just\s+a)\s+(?:sec(?:ond)?|min(?:ute)?|moment)|brb|be\s+right\s+back"
    r"|give\s+(?:me|us)\s+(?:a\s+)?(?:sec(?:ond)?|min(?:ute)?|moment|bit|day|few\s+(?:minutes|mins))"
    r"|let\s+me\s+(?:think(?:\s+about\s+it)?|check|ask|talk|run\s+it\s+by|sleep\s+on\s+it)"
    r"(?:\s+(?:with|to|by))?(?:\s+(?:my|our|the)\s+[a-z]+)?(?:\s+(?:first|and\s+get\s+back(?:\s+to\s+you)?))?"
    r"|i'?ll\s+(?:think\s+about\s+it|get\s+back\s+to\s+you|come\s+back\s+later|check\s+with\s+(?:my\s+)?[a-z]+)"
    r"|(?:i|we)\s+(?:need|have|want)\s+to\s+(?:talk|speak|check)\s+(?:to|with)\s+(?:my\s+|our\s+|the\s+)?[a-z]+(?:\s+first)?)"
)
_WHOLE_MESSAGE["pause"] = re.compile(
    r"^(?:(?:ok(?:ay)?|k|cool|hmm+|um+|sure|alright|right|thanks?|thank\s+you|thx|ty|cheers)[,.!]*\s+)*"
    rf"{_PAUSE}(?:[,.!…-]*\s+{_PAUSE})*(?:[,.!]*\s+(?:please|pls|thanks|first|ok\??))*\s*[.!?…]*$"
)
PAUSED = "Take your time: nothing is held or bought until you say so, and the options stay here."
# "who are you?", "am i talking to a bot", "are you a real person": what answers, said plainly.
_ABOUT_ME = re.compile(
    r"\b(?:who\s+(?:are\s+you|is\s+this|am\s+i\s+(?:talking|speaking|chatting)\s+(?:to|with))"
    r"|are\s+you\s+(?:a\s+)?(?:real|human|person|bot|robot|an?\s+ai|ai|machine|computer|automated)"
    r"|(?:is\s+this|am\s+i\s+(?:talking|speaking|chatting)\s+(?:to|with))\s+(?:a\s+)?(?:real|human|person|bot|robot|an?\s+ai|machine))\b"
)
ABOUT_ME = (
    "I'm TripDesk's automated travel assistant, not a person: I search flights and hotels, compare them and "
    "hold what you choose; an approver in your organisation says yes before anything is bought. "
    "Your support staff can see this trip if you need a person."
)


def asks_about_me(text: str) -> bool:
    """The message asks who (or what) is answering ("who are you?", "are you a real person")."""
    return _ABOUT_ME.search((text or "").lower()) is not None


def whole_message(kind: str, text: str) -> bool:
    """The whole message is one of ``_WHOLE_MESSAGE``'s kinds ("next_step", "more")."""
    return _WHOLE_MESSAGE[kind].match((text or "").strip().lower()) is not None


def mix_answer(parts: Dict[str, str], bundles: List[Bundle]) -> str:
    """No option on screen has one option's flights with another's hotel: said, with what is closest
    (the options with those flights, with that hotel) and what the traveller can do."""
    by_id = {b.get("bundle_id"): b for b in bundles}
    flights_from, hotel_from = parts.get("flights"), parts.get("hotel")
    missing = [b for b in (flights_from, hotel_from) if b not in by_id]
    on_screen = ", ".join(str(b.get("bundle_id")) for b in bundles)
    if missing:
        return (
            f"{' and '.join(map(str, missing))} isn't one of the options on screen ({on_screen}), so nothing changed."
        )
    if not by_id[hotel_from].get("hotels") or not by_id[flights_from].get("flights"):
        return f"{hotel_from if not by_id[hotel_from].get('hotels') else flights_from} has no {'hotel' if not by_id[hotel_from].get('hotels') else 'flights'} to take, so nothing changed. {HINT}"

    def same(part: str, ref: Bundle) -> List[str]:
        key = "flights" if part == "flights" else "hotels"
        items = [i.get("offer_id") or i.get("rate_id") for i in ref.get(key) or []]
        return [
            str(b.get("bundle_id"))
            for b in bundles
            if b is not ref and [i.get("offer_id") or i.get("rate_id") for i in b.get(key) or []] == items
        ]

    hotel = (_hotels(by_id[hotel_from]) or [{}])[0].get("hotel_name") or "its hotel"
    closest = [
        f"{' and '.join(ids)} {'have' if len(ids) > 1 else 'has'} {what}"
        for ids, what in (
            (same("flights", by_id[flights_from]), f"{flights_from}'s flights"),
            (same("hotel", by_id[hotel_from]), f"{hotel_from}'s hotel"),
        )
        if ids
    ]
    return (
        f"No option on screen has {flights_from}'s flights with {hotel_from}'s hotel ({hotel}), and I can't put parts "
        "of two options together myself: each option is priced, checked and held as a whole, so nothing changed. "
        + (f"Closest: {'; '.join(closest)}. " if closest else "")
        + f"Pick {flights_from} or {hotel_from}, or tell me what to change (a nicer hotel, other flight times) and I'll "
        "search again."
    )


def unseen_answer(what: str, bundles: List[Bundle]) -> str:
    """ "the one with the marriott" and no option shows it: which hotels the options have, and what helps."""
    hotels: Dict[str, List[str]] = {}
    for b in bundles:
        for h in _hotels(b):
            hotels.setdefault(str(h.get("hotel_name") or "a hotel"), []).append(str(b.get("bundle_id")))
    listed = "; ".join(f"{name} ({', '.join(ids)})" for name, ids in hotels.items())
    there = f" The hotels on screen: {listed}." if listed else ""
    return (
        f'No option on screen has "{what}", so nothing is chosen.{there} I can\'t search for a hotel by its name or '
        "brand; tell me what you like about it (stars, area, price) and I'll search again, or pick one of these."
    )


def no_flight_at_answer(said: str, bundles: List[Bundle]) -> str:
    """ "the 10:55 one" and no flight on screen leaves at 10:55: said, with when they do leave."""
    return f"No option on screen has a flight leaving at {said}, so nothing is chosen. {_about_departures(bundles)}"


def no_airline_answer(code: str, bundles: List[Bundle]) -> str:
    """ "the delta one" and no option on screen flies Delta: said, with the airlines they fly."""
    name = AIRLINE_NAMES.get(code, code)
    return (
        f"No option on screen flies {name}, so nothing is chosen. {_about_airlines(bundles)} "
        f'Say "{name} only" and I\'ll search for {name} flights.'
    )
