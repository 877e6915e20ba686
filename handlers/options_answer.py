"""Talk about the options on screen: an answer from the bundles themselves for text that changed nothing.

While options are on screen, a message the extractor did not read as a change ("which one can I
cancel?", "hmm, pricey", "what about the hotels?") gets an answer about those options, never
the intake prompt. The answer is built only from what the bundles say (labels, totals, flights,
hotels); the model's follow-up agent, when configured, answers questions instead.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Dict, List

from .common.shape import clock_text, leg_departure
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


def _about_refunds(bundles: List[Bundle]) -> str:
    refundable = [b for b in bundles if b.get("refundable")]
    if not refundable:
        return "None of these options is fully refundable; say 'refundable only' and I'll search for ones that are."
    names = ", ".join(f"{_name(b)} at {_price(b)}" for b in refundable)
    return f"Fully refundable: {names}. The others have at least one non-refundable item."


def _about_price(bundles: List[Bundle]) -> str:
    ordered = sorted(bundles, key=lambda b: float(b.get("total") or "inf"))
    return "From cheapest: " + ", ".join(f"{_name(b)} {_price(b)}" for b in ordered) + "."


def _about_time(bundles: List[Bundle]) -> str:
    flying = [b for b in bundles if b.get("flights")]
    if not flying:
        return "These options have no flights, only the hotel."
    ordered = sorted(flying, key=lambda b: sum(int(s.get("duration_minutes") or 0) for s in _flights(b)))
    return (
        "Flying time, shortest first: "
        + ", ".join(f"{_name(b)} {_hm(sum(int(s.get('duration_minutes') or 0) for s in _flights(b)))}" for b in ordered)
        + "."
    )


def _about_stops(bundles: List[Bundle]) -> str:
    flying = [b for b in bundles if b.get("flights")]
    nonstop = [b for b in flying if all(int(s.get("stops") or 0) == 0 for s in _flights(b))]
    if not flying:
        return "These options have no flights, only the hotel."
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
            f"{s.get('hotel_name')} ({s.get('stars')}★, {money(s.get('nightly_avg'), s.get('currency'))} a night)"
            for s in _hotels(b)
        )
        for b in housed
    ]
    return "; ".join(lines) + "."


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
    return ". ".join(parts) + "."


def _about_airlines(bundles: List[Bundle]) -> str:
    flying = [b for b in bundles if b.get("flights")]
    if not flying:
        return "These options have no flights, only the hotel."
    lines = [
        f"{_name(b)}: " + " / ".join(str(s.get("carrier_name") or s.get("carrier")) for s in _flights(b))
        for b in flying
    ]
    return "; ".join(lines) + "."


def _about_departures(bundles: List[Bundle]) -> str:
    """When each option's flights leave, outbound and return, earliest first."""
    flying = [b for b in bundles if b.get("flights")]
    if not flying:
        return "These options have no flights, only the hotel."
    lines = []
    for leg in ("outbound", "return"):
        timed = sorted((b for b in flying if leg_departure(b, leg)), key=lambda b: leg_departure(b, leg))
        if timed:
            lines.append(
                f"{leg.capitalize()} leaves, earliest first: "
                + ", ".join(f"{_name(b)} {_leaves(b, leg)}" for b in timed)
            )
    return ". ".join(lines) + "."


TOPICS: List[tuple] = [
    (
        r"\b(?:earliest|latest|first|last|early|late)\b.*\b(?:flights?|departures?|leav\w*|depart\w*|back|home|out)\b"
        r"|\bwhat\s+time\b|\bwhen\s+do(?:es)?\b.*\bleave\b",
        _about_departures,
    ),
    (r"\b(?:refund\w*|flexib\w*|flexible|cancel\w*|change fees?)\b", _about_refunds),
    (r"\b(?:non-?stops?|directs?|stops?|connections?|layovers?|connecting)\b", _about_stops),
    (r"\b(?:fast\w*|quick\w*|short\w*|long\w*|duration|hours?|flying time)\b", _about_time),
    (r"\b(?:breakfast|meals?|dinner|board|all[- ]inclusive|food)\b", _about_meals),
    (r"\b(?:hotels?|rooms?|stars?|stay|where .* sleep)\b", _about_hotels),
    (r"\b(?:airlines?|carriers?|united|delta|american|jetblue|southwest|alaska)\b", _about_airlines),
    (r"\b(?:cheap\w*|price\w*|pricey|cost\w*|expensive|total|budget|afford\w*|money)\b", _about_price),
]


def _overview(bundles: List[Bundle]) -> str:
    return "Your options: " + "; ".join(f"{_name(b)} {_price(b)}" for b in bundles) + "."


# "show me the options", "what are my options again", "list them", "remind me what the choices were":
# the whole message asks to see the options again, nothing about them in particular.
_SEE_OPTIONS = re.compile(
    r"^(?:(?:ok(?:ay)?|so|and|hmm+|um+|sorry|wait|hey|pls|please)[,.!]*\s+)*"
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
_QUESTION = re.compile(
    r"\?\s*$|^(?:what|which|how|why|when|where|who|does|do|is|are|can|could|will|would|should|any)\b"
)


def answer_about_options(text: str, bundles: List[Bundle]) -> str:
    """What the options on screen say about the topic of ``text`` (an overview otherwise).

    "Nothing changed." comes first only where it tells the traveller something: the message
    matched no topic, or it asked for a change that was not made ("I want breakfast included");
    a question answered by topic ("is breakfast included?") is answered straight away."""
    low = (text or "").strip().lower()
    answers: List[str] = []
    for pattern, about in TOPICS:
        fn: Callable[[List[Bundle]], str] = about
        if re.search(pattern, low) and len(answers) < 2:
            answers.append(fn(bundles))
    body = " ".join(answers) if answers else _overview(bundles)
    informs = not answers or (not _QUESTION.search(low) and bool(_ASKS_CHANGE.search(low)))
    return f"{'Nothing changed. ' if informs else ''}{body} {HINT}"


def _nightly(b: Bundle) -> str:
    hotels = _hotels(b)
    return money(hotels[0].get("nightly_avg"), hotels[0].get("currency")) if hotels else ""


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
        return f"Chose {name}{instead}: the best option within policy, {_price(chosen)} in all."
    if why in ("earliest_outbound", "latest_outbound", "earliest_return", "latest_return"):
        first, leg = why.split("_")
        if isinstance(before, dict) and before.get("bundle_id") == name:
            return f"{name} already has the {first} {leg} flight on screen ({_leaves(chosen, leg)})."
        return (
            f"Chose {name}{instead}: its {leg} flight leaves at {_leaves(chosen, leg)}, the {first} on screen "
            f"({_price(chosen)} in all)."
        )
    if not isinstance(before, dict):
        return f"Chose {name}, {_price(chosen)} in all."
    if why == "cheaper_hotel":
        return (
            f"Chose {name}{instead}: its hotel is {_nightly(chosen)} a night, not {_nightly(before)} "
            f"({_price(chosen)} in all)."
        )
    if why == "cheaper_flights":
        return (
            f"Chose {name}{instead}: its flights cost {_part_money(chosen, 'flights')}, not "
            f"{_part_money(before, 'flights')} ({_price(chosen)} in all)."
        )
    if why in ("later_outbound", "earlier_outbound", "later_return", "earlier_return"):
        leg = "outbound" if why.endswith("outbound") else "return"
        return (
            f"Chose {name}{instead}: its {leg} flight leaves at {_leaves(chosen, leg)}, not {_leaves(before, leg)} "
            f"({_price(chosen)} in all)."
        )
    return f"Chose {name}{instead}: {_price(chosen)} in all, not {_price(before)}."


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
