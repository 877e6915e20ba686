"""Talk about the options on screen: an answer from the bundles themselves for text that changed nothing.

While options are on screen, a message the extractor did not read as a change ("which one can I
cancel?", "hmm, pricey", "what about the hotels?") gets an answer about those options, never
the intake prompt. The answer is built only from what the bundles say (labels, totals, flights,
hotels); the model's follow-up agent, when configured, answers questions instead.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Dict, List

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


TOPICS: List[tuple] = [
    (r"\b(?:refund\w*|flexib\w*|flexible|cancel\w*|change fees?)\b", _about_refunds),
    (r"\b(?:nonstop|non-stop|direct|stops?|connections?|layovers?|connecting)\b", _about_stops),
    (r"\b(?:fast\w*|quick\w*|short\w*|long\w*|duration|hours?|flying time)\b", _about_time),
    (r"\b(?:breakfast|meals?|dinner|board|all[- ]inclusive|food)\b", _about_meals),
    (r"\b(?:hotels?|rooms?|stars?|stay|where .* sleep)\b", _about_hotels),
    (r"\b(?:airlines?|carriers?|united|delta|american|jetblue|southwest|alaska)\b", _about_airlines),
    (r"\b(?:cheap\w*|price\w*|pricey|cost\w*|expensive|total|budget|afford\w*|money)\b", _about_price),
]


def _overview(bundles: List[Bundle]) -> str:
    return "Your options: " + "; ".join(f"{_name(b)} {_price(b)}" for b in bundles) + "."


def answer_about_options(text: str, bundles: List[Bundle]) -> str:
    """Nothing changed; what the options on screen say about the topic of ``text`` (an overview otherwise)."""
    low = (text or "").lower()
    answers: List[str] = []
    for pattern, about in TOPICS:
        fn: Callable[[List[Bundle]], str] = about
        if re.search(pattern, low) and len(answers) < 2:
            answers.append(fn(bundles))
    body = " ".join(answers) if answers else _overview(bundles)
    return f"Nothing changed. {body} {HINT}"
