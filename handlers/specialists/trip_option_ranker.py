"""trip_option_ranker: the k best bundles (one offer per segment, one rate per stay), explained.

A bundle's cost is a sum of per-item costs (price relative to the cheapest bundle, duration,
stops, red-eye, refundability, stars, preference fit, and whether it can be held at all:
TripDesk holds, then asks an approver, then buys), so the best bundles come from each
list's best items: every list is cut to its few best candidates (``heapq.nsmallest``) and a
heap walks the lattice of index tuples in cost order (the classic k-best merge). The cross
product is never built, so 1,000 × 1,000 offers cost about as much as scoring 2,000 items.
"""
from __future__ import annotations

import heapq
from datetime import datetime
from decimal import Decimal
from typing import Any, Dict, List, Optional, Sequence, Tuple

from handlers.common.types import ok
from handlers.supplier import summarize_offer, summarize_rate
from handlers.supplier.money import amount, money

from . import SpecialistTool, require

DEFAULT_WEIGHTS = {
    "price": 1.0,  # per 100 % above the cheapest bundle
    "duration": 0.3,  # per 100 % above the leg's fastest option
    "stops": 0.12,  # per stop
    "red_eye": 0.1,
    "refundability": 0.06,  # per non-refundable item
    "stars": 0.12,  # from 5 stars down to 1
    "preference_fit": 0.25,  # per unmet preference
    "holdability": 1.0,  # per item that must be paid at once: this desk holds before it buys
}
COMPONENTS = tuple(DEFAULT_WEIGHTS)
POOL_PER_RANK = 20  # bundles examined per bundle returned, so budget can reorder them


class Candidate:
    """One offer or rate with its per-component costs (price is filled in once the reference is known)."""

    __slots__ = ("kind", "list_id", "item_id", "summary", "total", "costs", "cost")

    def __init__(self, kind: str, list_id: str, item_id: str, summary: Dict[str, Any], costs: Dict[str, float]):
        self.kind, self.list_id, self.item_id, self.summary = kind, list_id, item_id, summary
        self.total = money(summary["total"])
        self.costs, self.cost = costs, 0.0


def _weights(preferences: Dict[str, Any]) -> Dict[str, float]:
    return {**DEFAULT_WEIGHTS, **{k: float(v) for k, v in (preferences.get("weights") or {}).items() if k in DEFAULT_WEIGHTS}}


def _wants_refundable(kind: str, preferences: Dict[str, Any], constraints: Dict[str, Any]) -> bool:
    wanted = constraints.get("refundable_preference") or "either"
    if kind == "hotel" and (preferences.get("hotel") or {}).get("refundable_only"):
        return True
    return wanted == "all" or wanted == kind


def _flight_candidates(quote: Dict[str, Any], w: Dict[str, float], prefs: Dict[str, Any],
                       constraints: Dict[str, Any]) -> List[Candidate]:
    fp = prefs.get("flight") or {}
    airlines = {a.upper() for a in fp.get("airlines") or []}
    max_stops = fp.get("max_stops")
    refund_w = w["refundability"] * (4 if _wants_refundable("flight", prefs, constraints) else 1)
    red_eye_w = w["red_eye"] * (4 if fp.get("avoid_red_eye") else 1)
    summaries = [(o["offer_id"], o.get("summary") or summarize_offer(o)) for o in quote.get("offers") or []]
    fastest = min((s["duration_minutes"] for _, s in summaries), default=1) or 1
    out = []
    for offer_id, s in summaries:
        misses = sum((
            bool(airlines) and s["carrier"] not in airlines,
            max_stops is not None and s["stops"] > max_stops,
            bool(fp.get("cabin")) and s["cabin"] != fp["cabin"],
        ))
        out.append(Candidate("flight", quote["segment_id"], offer_id, s, {
            "duration": w["duration"] * (s["duration_minutes"] / fastest - 1),
            "stops": w["stops"] * s["stops"],
            "red_eye": red_eye_w if s["red_eye"] else 0.0,
            "refundability": 0.0 if s["refundable"] else refund_w,
            "stars": 0.0,
            "preference_fit": w["preference_fit"] * misses,
            "holdability": 0.0 if s.get("holdable", True) else w["holdability"],
        }))
    return out


def _hotel_candidates(quote: Dict[str, Any], w: Dict[str, float], prefs: Dict[str, Any],
                      constraints: Dict[str, Any]) -> List[Candidate]:
    hp = prefs.get("hotel") or {}
    min_stars = hp.get("min_stars") or 0
    refund_w = w["refundability"] * (4 if _wants_refundable("hotel", prefs, constraints) else 1)
    out = []
    for rate in quote.get("rates") or []:
        s = rate.get("summary") or summarize_rate(rate)
        distance = min(float(s.get("distance_km") or 0), 10.0) / 10.0  # up to one unmet preference when far
        fit = (s["stars"] < min_stars) + distance * (1.0 if hp.get("near") else 0.3)
        out.append(Candidate("hotel", quote["stay_id"], rate["rate_id"], s, {
            "duration": 0.0,
            "stops": 0.0,
            "red_eye": 0.0,
            "refundability": 0.0 if s["refundable"] else refund_w,
            "stars": w["stars"] * (5 - s["stars"]) / 4,
            "preference_fit": w["preference_fit"] * fit,
            "holdability": 0.0 if s.get("holdable", True) else w["holdability"],
        }))
    return out


def k_best(lists: Sequence[Sequence[Candidate]], k: int) -> List[Tuple[float, Tuple[int, ...]]]:
    """The ``k`` cheapest index tuples of lists already sorted by cost, in order (ties by index)."""
    if not lists or any(not lst for lst in lists):
        return []
    start = (0,) * len(lists)
    heap = [(sum(lst[0].cost for lst in lists), start)]
    seen = {start}
    found = []
    while heap and len(found) < k:
        cost, idx = heapq.heappop(heap)
        found.append((cost, idx))
        for pos, i in enumerate(idx):
            if i + 1 < len(lists[pos]):
                nxt = idx[:pos] + (i + 1,) + idx[pos + 1:]
                if nxt not in seen:
                    seen.add(nxt)
                    heapq.heappush(heap, (cost - lists[pos][i].cost + lists[pos][i + 1].cost, nxt))
    return found


def rank(*, flight_quotes: List[Dict[str, Any]], hotel_quotes: List[Dict[str, Any]],
         preferences: Optional[Dict[str, Any]] = None, constraints: Optional[Dict[str, Any]] = None,
         top_k: int = 5) -> Dict[str, Any]:
    prefs, constraints = preferences or {}, constraints or {}
    w = _weights(prefs)
    lists = [_flight_candidates(q, w, prefs, constraints) for q in flight_quotes]
    lists += [_hotel_candidates(q, w, prefs, constraints) for q in hotel_quotes]
    considered = 1
    for lst in lists:
        considered *= len(lst)
    if not lists or considered == 0:
        return {"bundles": [], "considered": 0}
    cheapest = sum(min(c.total for c in lst) for lst in lists) or Decimal(1)
    pool = top_k * POOL_PER_RANK
    trimmed = []
    for lst in lists:
        for c in lst:
            c.costs["price"] = w["price"] * float(c.total / cheapest)
            c.cost = sum(c.costs.values())
        trimmed.append(heapq.nsmallest(pool, lst, key=lambda c: (c.cost, c.item_id)))
    combos = k_best(trimmed, pool)
    budget = money(constraints["budget_total"]) if constraints.get("budget_total") else None
    picked = [[lst[i] for lst, i in zip(trimmed, idx, strict=True)] for _, idx in combos]
    if budget is not None:  # stable: in-budget bundles first, each group still in cost order
        picked.sort(key=lambda items: sum(c.total for c in items) > budget)
    bundles = [_bundle(n + 1, items, cheapest, budget, w) for n, items in enumerate(picked[:top_k])]
    return {"bundles": bundles, "considered": considered}


def _bundle(rank_no: int, items: List[Candidate], cheapest: Decimal, budget: Optional[Decimal],
            w: Dict[str, float]) -> Dict[str, Any]:
    total = sum(c.total for c in items)
    breakdown = {k: round(sum(c.costs[k] for c in items) - (w["price"] if k == "price" else 0.0), 4)
                 for k in COMPONENTS}
    cost = sum(breakdown.values())
    return {
        "bundle_id": f"B{rank_no}",
        "rank": rank_no,
        "score": round(100.0 / (1.0 + max(cost, 0.0)), 1),
        "flights": [{"segment_id": c.list_id, "offer_id": c.item_id, "summary": c.summary}
                    for c in items if c.kind == "flight"],
        "hotels": [{"stay_id": c.list_id, "rate_id": c.item_id, "summary": c.summary}
                   for c in items if c.kind == "hotel"],
        "total": amount(total),
        "currency": items[0].summary["currency"],
        "refundable": all(c.summary["refundable"] for c in items),
        "why": _why(items, total, cheapest, budget),
        "score_breakdown": breakdown,
    }


def _hm(minutes: int) -> str:
    return f"{minutes // 60}h{minutes % 60:02d}m"


def _flight_line(leg: str, s: Dict[str, Any]) -> str:
    route = f"{s['origin']} → {s['destination']}" if s.get("origin") else leg
    connections = [f"connects in {c['airport']} ({_hm(c['minutes'])})" for c in s.get("connections") or []]
    stops = "nonstop" if not s["stops"] else ", ".join(connections) or f"{s['stops']} stop(s)"
    notes = [note for flag, note in ((s["red_eye"], "red-eye"), (not s["refundable"], "non-refundable fare"),
                                     (s.get("holdable") is False, "must be paid at once, cannot be held")) if flag]
    return f"{route}: {s['carrier_name']}, {stops}, {_hm(s['duration_minutes'])}" + (
        f"; {', '.join(notes)}." if notes else ".")


def _hotel_line(s: Dict[str, Any]) -> str:
    refund = "free cancellation" if s["refundable"] else "non-refundable"
    dist = f", {s['distance_km']} km from the centre" if s.get("distance_km") is not None else ""
    hold = "; must be paid at once, cannot be held" if s.get("holdable") is False else ""
    return f"{s['hotel_name']}: {s['stars']}★, {s['board_type'].replace('_', ' ')}, {refund}{dist}{hold}."


def _why(items: List[Candidate], total: Decimal, cheapest: Decimal, budget: Optional[Decimal]) -> List[str]:
    """Plain reasons a traveller can weigh: price against the cheapest, then each item, then budget."""
    currency = items[0].summary["currency"]
    lines = ["The lowest total price of all combinations." if total == cheapest
             else f"{amount(total - cheapest)} {currency} more than the cheapest combination."]
    lines += [_flight_line(c.list_id, c.summary) if c.kind == "flight" else _hotel_line(c.summary) for c in items]
    if budget is not None:
        lines.append(f"Within your budget of {amount(budget)} {currency}." if total <= budget
                     else f"Over your budget by {amount(total - budget)} {currency}.")
    return lines


class TripOptionRanker(SpecialistTool):
    name = "trip_option_ranker"

    def execute(self, payload: Dict[str, Any], args: Dict[str, Any], now: datetime) -> Dict[str, Any]:
        require(args, "flight_quotes")
        result = rank(flight_quotes=args["flight_quotes"], hotel_quotes=args.get("hotel_quotes") or [],
                      preferences=args.get("preferences"), constraints=args.get("constraints"),
                      top_k=max(1, min(20, int(args.get("top_k") or 5))))
        return ok(payload, result)

    @classmethod
    def run_tests(cls) -> None:
        from . import SELF_TEST_NOW, self_test_deps
        from .flight_quote_search import FlightQuoteSearch
        from .hotel_quote_search import HotelQuoteSearch

        deps, now = self_test_deps(), SELF_TEST_NOW.isoformat()
        leg = {"origin": {"code": "EWR"}, "destination": {"code": "DEN"}, "passengers": {"adults": 1}}
        out = FlightQuoteSearch(deps).run({"args": {**leg, "segment_id": "s1", "depart_date": "2027-01-30"},
                                           "now": now})["output"]
        stay = HotelQuoteSearch(deps).run({"args": {"stay_id": "h1", "location_code": "DEN", "check_in": "2027-01-30",
                                                    "check_out": "2027-02-02", "rooms": 1, "guests_per_room": 1},
                                           "now": now})["output"]
        ranked = cls(deps).run({"args": {"flight_quotes": [out], "hotel_quotes": [stay], "top_k": 3},
                                "now": now})["output"]
        bundles = ranked["bundles"]
        assert [b["bundle_id"] for b in bundles] == ["B1", "B2", "B3"], ranked
        assert bundles[0]["score"] >= bundles[1]["score"] >= bundles[2]["score"]
        assert all(len(b["flights"]) == 1 and len(b["hotels"]) == 1 and b["why"] for b in bundles)
        assert ranked["considered"] == out["count"] * stay["count"]
