"""trip_option_ranker: k bundles worth comparing (one offer per segment, one rate per stay), explained.

A bundle's cost is a sum of per-item costs (price relative to the cheapest bundle, duration,
stops, red-eye, refundability, stars, preference fit, and whether it can be held at all:
TripDesk holds, then asks an approver, then buys), so the best bundles come from each
list's best items: every list is cut to its few best candidates (``heapq.nsmallest``) and a
heap walks the lattice of index tuples in cost order (the classic k-best merge). The cross
product is never built, so 1,000 × 1,000 offers cost about as much as scoring 2,000 items.

The k lowest-cost bundles are near copies of each other (one hotel, one leg swapped), so the
list is composed the way a travel agent would: the best overall, then the cheapest, the
fastest, a refundable and a better-hotel option where they differ from what is already on
the list (each picked per list in one pass, as costs add up), then alternatives from the
k-best pool chosen greedily with a cost penalty for every item they share with bundles
already chosen. Each bundle carries a ``label`` and a first ``why`` line saying what sets
it apart; the final order (and so ``B1..Bk``) is by cost, in-budget bundles first.

Of one leg's offers whose summaries differ only in price, the five cheapest are ranked
(``handlers.supplier.summary.ranked_offers``): a dearer copy of a fare is the same choice for
more money. The search keeps those same offers (``cheapest_of_each_fare``), so ranking what a
search kept gives exactly the bundles ranking every offer the supplier returned would.
"""

from __future__ import annotations

import heapq
from datetime import date, datetime
from decimal import Decimal, getcontext
from itertools import compress, repeat
from operator import add, gt, itemgetter, le, mul, ne, sub, truediv
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple

from handlers.common.beds import beds_fit
from handlers.common.clock import day_text, first_night
from handlers.common.defaults import DEFAULT_POLICY
from handlers.common.formats import duration_text, flight_zones, money_text, stops_text
from handlers.common.intent import WORK_STARS
from handlers.common.shape import budget_limit, carrier_allowed, carrier_rules, party_size
from handlers.common.types import ok
from handlers.supplier import summarize_offer, summarize_rate
from handlers.supplier.columns import TableSummaries
from handlers.supplier.money import amount, from_cents, in_cents, money, moneys
from handlers.supplier.summary import ranked_offers, ranked_positions
from handlers.supplier.table import output_items
from handlers.supplier.wire import collector_paused

from . import SpecialistTool, require
from .policy_and_risk_check import blocked_flags, flight_blocking_views
from .policy_and_risk_check import check as policy_check

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
POOL_PER_RANK = 20  # bundles examined per bundle returned, so budget and diversity can reorder them
DIVERSITY = 0.6  # cost added for each chosen bundle an alternative duplicates entirely (shares all items)
ALTERNATIVES_POOL = 100  # best bundles alternatives are chosen from: beyond them, price and comfort drift off
# Added to an out-of-policy item's cost (not to its breakdown): any in-policy bundle ranks before it.
OUT_OF_POLICY = 100.0
# A hotel under the stars wished without a filter (WORK_STARS on a work trip, ``quality`` for "a nice
# hotel") counts as this many unmet preferences (at ``preference_fit`` each, a whole cheapest bundle's
# price) for each star it lacks: a 1★ inn is further from "somewhere fancy" (4★) than from "somewhere
# decent" (2★), so it loses even to rooms for a group of five. It is the best overall only when no better
# hotel is found, and still the cheapest option when it is.
UNDER_WISHED_STARS = 4.0
# A hotel this much nearer the place wished than the best overall's is shown as its own option.
NEARER_KM = 1.0


class Candidate:
    """One offer or rate with its per-component costs (price is filled in once the reference is known).

    Its summary is read from ``summaries`` (at ``at``) when first asked for: a leg's pool has a
    hundred candidates, of which the bundles read the summaries of a few (a search's table makes
    each one when read: ``TableSummaries``)."""

    __slots__ = ("kind", "list_id", "item_id", "_summary", "_summaries", "_at", "total", "costs", "cost", "blocked")

    def __init__(
        self,
        kind: str,
        list_id: str,
        item_id: str,
        summary: Optional[Dict[str, Any]],
        costs: Dict[str, float],
        *,
        total: Optional[Decimal] = None,
        summaries: Sequence[Dict[str, Any]] = (),
        at: int = 0,
    ):
        """``summary``, or None to read it from ``summaries[at]`` when asked; ``total``: its total as
        money, when read already."""
        self.kind, self.list_id, self.item_id = kind, list_id, item_id
        self._summary, self._summaries, self._at = summary, summaries, at
        self.total = total if total is not None else money(self.summary["total"])
        self.costs, self.cost = costs, 0.0
        self.blocked = False  # whether the organisation's policy refuses this item on its own

    @property
    def summary(self) -> Dict[str, Any]:
        if self._summary is None:
            self._summary = self._summaries[self._at]
        return self._summary


# A candidate's costs but price, in the order they add up to its cost (price last).
PARTS = ("duration", "stops", "red_eye", "refundability", "stars", "preference_fit", "holdability")
_LAST = itemgetter(-1)  # (of an item's parts: holdability)


class Leg:
    """One list (a leg's offers, a stay's rates) as the columns ranking reads of every item, read
    once: ids, summaries, totals, each item's costs but price (``parts``, in ``PARTS``' order)
    and, once priced (:meth:`price`), its cost; whether policy blocks it (``blocked``).

    What ranking takes of a whole list (its pool, its cheapest, fastest and refundable items) is
    read off these columns a column at a time; a :class:`Candidate` is made only for an item one
    of those picks (:meth:`candidate`, once per item, so one item is one object), not for each
    of a large supplier's thousand offers.
    """

    __slots__ = (
        "kind",
        "list_id",
        "ids",
        "summaries",
        "parts",
        "totals",
        "in_cents",
        "views",
        "blocked",
        "prices",
        "costs",
        "_made",
    )

    def __init__(
        self,
        kind: str,
        list_id: str,
        ids: List[str],
        summaries: Sequence[Dict[str, Any]],
        parts: List[Tuple[float, ...]],
        *,
        totals: Optional[List[Decimal]] = None,
        cents: Optional[List[int]] = None,
        views: Optional[List[Any]] = None,
    ) -> None:
        """``totals``: the items' totals as money, when read already, or ``cents``: in cents
        (``in_cents``), compared and divided as whole numbers, made money only for a candidate
        (``totals`` then holds them); ``views``: what policy's rules read of each item
        (``blocked_flags``), when read a column at a time."""
        self.kind, self.list_id, self.ids, self.summaries, self.parts = kind, list_id, ids, summaries, parts
        self.in_cents = cents is not None
        self.totals: List[Any] = (
            cents if cents is not None else totals if totals is not None else [money(s["total"]) for s in summaries]
        )
        self.views = views
        self.blocked = [False] * len(ids)
        self.prices: List[float] = []
        self.costs: List[float] = []
        self._made: Dict[int, Candidate] = {}

    @classmethod
    def of(cls, kind: str, list_id: str, candidates: Sequence[Candidate]) -> Leg:
        """The leg of candidates made one by one (their ``costs`` but price)."""
        return cls(
            kind,
            list_id,
            [c.item_id for c in candidates],
            [c.summary for c in candidates],
            [tuple(c.costs[k] for k in PARTS) for c in candidates],
        )

    def __len__(self) -> int:
        return len(self.ids)

    def price(self, weight: float, cheapest: Decimal) -> None:
        """Each item's price cost (``weight`` per 100 % of the cheapest bundle) and so its cost: its
        parts, then price, added in that order, and ``OUT_OF_POLICY`` if policy blocks it."""
        # A column at a time (``map`` over C functions): the very sums, in the same order, per item.
        shares = _shares(self.totals, cheapest) if self.in_cents else None
        if shares is None:
            totals = list(map(from_cents, self.totals)) if self.in_cents else self.totals
            shares = list(map(float, map(truediv, totals, repeat(cheapest))))
        self.prices = list(map(mul, repeat(weight), shares))
        self.costs = list(map(add, map(sum, self.parts), self.prices))
        for i in compress(range(len(self.costs)), self.blocked):
            self.costs[i] += OUT_OF_POLICY

    def total(self, i: int) -> Decimal:
        """The ``i``-th item's total, as money."""
        return from_cents(self.totals[i]) if self.in_cents else self.totals[i]

    def least_total(self) -> Decimal:
        return from_cents(min(self.totals)) if self.in_cents else min(self.totals)

    def unholdable(self) -> List[bool]:
        return list(map(gt, map(_LAST, self.parts), repeat(0)))

    def column(self, field: str) -> List[Any]:
        if isinstance(self.summaries, TableSummaries):
            return self.summaries.column(field)
        return [s[field] for s in self.summaries]

    def first_of(self, *columns: Sequence[Any]) -> int:
        """The position of the first item that is least by ``columns`` (compared in that order, as a
        key function's tuple would be): ``min`` over the columns zipped, in C."""
        return min(zip(*columns, range(len(self.ids)), strict=True))[-1]

    def candidate(self, i: int) -> Candidate:
        made = self._made.get(i)
        if made is None:
            made = Candidate(
                self.kind,
                self.list_id,
                self.ids[i],
                None,
                dict(zip(PARTS, self.parts[i], strict=True)),
                total=self.total(i),
                summaries=self.summaries,
                at=i,
            )
            made.costs["price"] = self.prices[i]
            made.cost, made.blocked = self.costs[i], self.blocked[i]
            self._made[i] = made
        return made

    def best(self, pool: int) -> List[Candidate]:
        """The ``pool`` least costly items, by cost then id, ties in list order (``heapq.nsmallest``).

        Of a thousand offers, only those costing no more than the ``pool``-th lowest cost can be
        among them: found by sorting the costs alone (floats, in C), the others never compared."""
        costs, ids = self.costs, self.ids
        at: Sequence[int] = range(len(costs))
        if len(costs) > pool > 0 and (total := sum(costs)) == total:  # (no cost is NaN: floats then order)
            bound = sorted(costs)[pool - 1]
            at = list(compress(at, map(le, costs, repeat(bound))))
        ranked = zip(map(costs.__getitem__, at), map(ids.__getitem__, at), at, strict=True)
        return [self.candidate(i) for _, _, i in heapq.nsmallest(pool, ranked)]


def _shares(cents: List[int], cheapest: Decimal) -> Optional[List[float]]:
    """``float(total / cheapest)`` of each total given in cents (``in_cents``: below 10**14), the very
    floats, as quotients of whole numbers (``int / int`` rounds correctly, as ``float`` of a Decimal
    does). The Decimal quotient has 28 digits (the context's precision, at least): within 1e-27 of
    the exact quotient, relatively. A quotient of cents below 2**47 by cents below 2**33 is never
    a float's midpoint (that would take 2**53 cents) and lies more than 6e-27 (relatively) from any,
    so the Decimal quotient and the exact one round to the same float. None when ``cheapest`` is not
    such an amount (a fraction of a cent, too large, not above zero) or the context less precise."""
    if not cheapest.is_finite() or getcontext().prec < 28:
        return None
    numerator, denominator = cheapest.as_integer_ratio()
    whole, rest = divmod(numerator * 100, denominator)
    if rest or not 0 < whole < 2**33:
        return None
    return list(map(truediv, cents, repeat(whole)))


def _weights(preferences: Dict[str, Any]) -> Dict[str, float]:
    return {
        **DEFAULT_WEIGHTS,
        **{k: float(v) for k, v in (preferences.get("weights") or {}).items() if k in DEFAULT_WEIGHTS},
    }


def _wants_refundable(kind: str, preferences: Dict[str, Any], constraints: Dict[str, Any]) -> bool:
    wanted = constraints.get("refundable_preference") or "either"
    if kind == "hotel" and (preferences.get("hotel") or {}).get("refundable_only"):
        return True
    return wanted == "all" or wanted == kind


def _stay_nights(hotel_quotes: Sequence[Dict[str, Any]]) -> List[Tuple[str, str]]:
    """Each stay's (check-in, check-out) days, as its rates say them."""
    out = []
    for quote in hotel_quotes:
        rate = next(iter(quote.get("rates") or []), None)
        said = (rate.get("summary") or rate) if isinstance(rate, dict) else {}
        if said.get("check_in"):
            out.append((str(said["check_in"]), str(said.get("check_out") or "9999")))
    return out


def _unslept(depart_at: Any, arrive_at: Any, stays: Sequence[Tuple[str, str]]) -> bool:
    """Whether a flight leaving by a stay's check-in day lands too late for that night (``first_night``),
    so the bundle pays a night its traveller spends in the air (``_nights_unslept`` says it on the card)."""
    night = first_night([arrive_at]) if isinstance(arrive_at, str) else None
    if not night or not isinstance(depart_at, str):
        return False
    return any(depart_at[:10] <= check_in < night < check_out for check_in, check_out in stays)


_DAY, _DAY_AND_HOUR = itemgetter(slice(0, 10)), itemgetter(slice(0, 13))


def _unslept_each(departs: Sequence[Any], arrives: Sequence[Any], stays: Sequence[Tuple[str, str]]) -> List[Any]:
    """``_unslept`` of each offer (leaving at ``departs``, landing at ``arrives``). It reads only the
    day a flight leaves and the day and hour it lands, so when every time is text it is asked once
    per distinct pair of those: a leg's thousand offers leave on a day or two and land in a few
    dozen hours."""
    if not set(map(type, departs)) | set(map(type, arrives)) <= {str}:
        return list(map(_unslept, departs, arrives, repeat(stays)))
    pairs = list(zip(map(_DAY, departs), map(_DAY_AND_HOUR, arrives), strict=True))
    verdicts = {pair: _unslept(*pair, stays) for pair in set(pairs)}
    return list(map(verdicts.__getitem__, pairs))


def _flight_leg(
    quote: Dict[str, Any],
    w: Dict[str, float],
    prefs: Dict[str, Any],
    constraints: Dict[str, Any],
    stays: Sequence[Tuple[str, str]] = (),
) -> Leg:
    """A leg's offers ranked (a thousand from a large supplier), each item's costs but price: the
    wishes read once, then each field the costs read a column at a time; with no carrier required
    or avoided, every carrier is allowed. A search's offers in its own turn come as the table it
    made (``handlers.supplier.columns``): read from its columns, a summary made only for an offer
    a bundle may use (``TableSummaries``)."""
    fp = prefs.get("flight") or {}
    carriers = carrier_rules(fp)
    preferred = set(carriers["preferred"])
    any_carrier = not carriers["avoid"] and not carriers["required"]
    max_stops = fp.get("max_stops")
    prefer_nonstop = bool(fp.get("prefer_nonstop"))  # "ideally nonstop": a connection is an unmet wish, not out
    cabin, avoid_red_eye = fp.get("cabin"), fp.get("avoid_red_eye")
    refund_w = w["refundability"] * (4 if _wants_refundable("flight", prefs, constraints) else 1)
    red_eye_w = w["red_eye"] * (4 if avoid_red_eye else 1)
    duration_w, stops_w, fit_w, hold_w = w["duration"], w["stops"], w["preference_fit"], w["holdability"]
    leg = _flight_items(quote)
    ids, summaries, column = leg.ids, leg.summaries, leg.column
    carrier_of, stops, red_eyes = column("carrier"), column("stops"), column("red_eye")
    # each wish's misses, a column at a time, for the wishes the traveller has (what ``sum`` of all
    # six per offer gave: the others miss nothing)
    wishes: List[Sequence[Any]] = []
    if preferred:
        wishes.append([carrier not in preferred for carrier in carrier_of])
    if not any_carrier:  # dropped by the search
        wishes.append([4 * (not carrier_allowed(carrier, carriers)) for carrier in carrier_of])
    if max_stops is not None:
        wishes.append(list(map(gt, stops, repeat(max_stops))))
    if prefer_nonstop:
        wishes.append(list(map(gt, stops, repeat(0))))
    if cabin:
        wishes.append(list(map(ne, column("cabin"), repeat(cabin))))
    if avoid_red_eye:
        wishes.append(red_eyes)
    if stays:  # a night paid at the hotel while still flying: an unmet wish, so one landing in time comes first
        wishes.append(_unslept_each(column("depart_at"), column("arrive_at"), stays))
    misses: Sequence[Any] = [0] * len(ids)  # no flight wish: none missed
    for wish in wishes:
        misses = list(map(add, misses, wish))
    minutes = column("duration_minutes")
    fastest = min(minutes, default=1) or 1
    # each item's costs but price, a column at a time (``PARTS``' order)
    parts = list(
        zip(
            list(map(mul, repeat(duration_w), map(sub, map(truediv, minutes, repeat(fastest)), repeat(1)))),
            list(map(mul, repeat(stops_w), stops)),
            [red_eye_w if red_eye else 0.0 for red_eye in red_eyes],
            [0.0 if refundable else refund_w for refundable in column("refundable")],
            [0.0] * len(ids),
            list(map(mul, repeat(fit_w), misses)),
            [0.0 if holdable else hold_w for holdable in leg.holdable()],
            strict=True,
        )
    )
    list_id = quote["segment_id"] if ids else quote.get("segment_id") or ""
    cents = leg.cents()
    totals = leg.totals() if cents is None else None
    return Leg("flight", list_id, ids, summaries, parts, totals=totals, cents=cents, views=leg.views())


class _FlightItems(NamedTuple):
    """A leg's offers the ranker ranks (``ranked_offers``): their ids and summaries, and each field
    a column at a time (``column``), read from a list of offers or a search's table."""

    ids: List[str]
    summaries: Sequence[Dict[str, Any]]
    column: Callable[[str], List[Any]]
    holdable: Callable[[], List[Any]]
    totals: Callable[[], Optional[List[Decimal]]]
    cents: Callable[[], Optional[List[int]]]  # the totals in cents, when all are plain amounts (``in_cents``)
    views: Callable[[], Optional[List[Any]]]


def _flight_items(quote: Dict[str, Any]) -> _FlightItems:
    """A leg's offers the ranker ranks, from the search's table when it made one, else one by one."""
    table = quote.get("offers_table")
    read = TableSummaries.of(table) if type(table) is dict else None
    if read is not None:
        total = read.column("total")
        carriers, departs, arrives = read.column("carrier"), read.column("depart_at"), read.column("arrive_at")
        # each offer's carrier and times, as ranked_offers joins them
        firsts = list(zip(carriers, departs, arrives, strict=True))
        kept = read.keep(ranked_positions(read.ids, firsts, read.__getitem__, lambda i: money(total[i])))
        return _FlightItems(
            kept.ids,
            kept,
            kept.column,
            lambda: kept.column("holdable"),
            lambda: moneys(kept.column("total")),
            lambda: in_cents(kept.column("total")),
            lambda: flight_blocking_views(kept.column, kept.connection_minutes()),
        )
    offers = output_items(quote, "offers")  # (a table of another make: read whole)
    pairs = ranked_offers([(o["offer_id"], o.get("summary") or summarize_offer(o)) for o in offers])
    summaries = [s for _, s in pairs]
    return _FlightItems(
        [offer_id for offer_id, _ in pairs],
        summaries,
        lambda field: [s[field] for s in summaries],
        lambda: [s.get("holdable", True) for s in summaries],
        lambda: None,
        lambda: None,
        lambda: None,
    )


def _hotel_leg(quote: Dict[str, Any], w: Dict[str, float], prefs: Dict[str, Any], constraints: Dict[str, Any]) -> Leg:
    hp = prefs.get("hotel") or {}
    min_stars = hp.get("min_stars") or 0
    wished_stars = max(WORK_STARS if hp.get("for_work") else 0, hp.get("quality") or 0)  # ranked, not filtered
    beds = hp.get("beds")  # "2 queens": a room without them is an unmet wish (no search filters beds)
    refund_w = w["refundability"] * (4 if _wants_refundable("hotel", prefs, constraints) else 1)
    ids, kept, parts = [], [], []
    rates = [(rate, rate.get("summary") or summarize_rate(rate)) for rate in quote.get("rates") or []]
    # "near the convention center": measured from there (the search's ``near_km``), the nearest
    # hotel found counting as near, so a landmark far from every hotel still orders them
    landmark = quote.get("near") if any(s.get("near_km") is not None for _, s in rates) else None
    nearest = min((float(s["near_km"]) for _, s in rates if s.get("near_km") is not None), default=0.0)
    for rate, s in rates:
        far = float(s["near_km"]) - nearest if landmark and s.get("near_km") is not None else s.get("distance_km")
        # up to one unmet preference when far; a place wished "near" up to three (28 km from Walt
        # Disney World when hotels beside it exist is no hotel "near disney", however cheap)
        distance = min(float(far or 0), 30.0 if hp.get("near") else 10.0) / 10.0
        fit = (
            (s["stars"] < min_stars)
            + distance * (1.0 if hp.get("near") else 0.3)
            + (not beds_fit(beds, s.get("beds")))
            + UNDER_WISHED_STARS * max(0, wished_stars - s["stars"])
        )
        ids.append(rate["rate_id"])
        kept.append({**s, "near": landmark} if landmark and s.get("near_km") is not None else s)
        parts.append(
            (
                0.0,
                0.0,
                0.0,
                0.0 if s["refundable"] else refund_w,
                w["stars"] * (5 - s["stars"]) / 4,
                w["preference_fit"] * fit,
                0.0 if s.get("holdable", True) else w["holdability"],
            )
        )
    return Leg("hotel", quote["stay_id"] if ids else quote.get("stay_id") or "", ids, kept, parts)


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
                nxt = idx[:pos] + (i + 1,) + idx[pos + 1 :]
                if nxt not in seen:
                    seen.add(nxt)
                    heapq.heappush(heap, (cost - lists[pos][i].cost + lists[pos][i + 1].cost, nxt))
    return found


Combo = Tuple[Candidate, ...]


class Pick(NamedTuple):
    """A bundle chosen for the list, with the label and the line that say why it is there."""

    combo: Combo
    label: str
    reason: str


class Featured(NamedTuple):
    """An option worth a slot of its own unless a bundle already chosen ``achieves`` the same."""

    pick: Pick
    achieves: Callable[[Combo], bool]


def rank(
    *,
    flight_quotes: List[Dict[str, Any]],
    hotel_quotes: List[Dict[str, Any]],
    preferences: Optional[Dict[str, Any]] = None,
    constraints: Optional[Dict[str, Any]] = None,
    party: Optional[Dict[str, Any]] = None,
    top_k: int = 5,
    policy: Optional[Dict[str, Any]] = None,
    now: Optional[datetime] = None,
    timezone: str = "UTC",
) -> Dict[str, Any]:
    """The ``top_k`` bundles; with ``policy`` (and ``now``), in-policy ones first, the rest marked.

    Each bundle then carries ``policy``: the policy check's own verdict on it (``ok`` and its
    blocking findings), so a card says why it is out of policy before anyone selects it, in
    the words the check would refuse it with.
    """
    prefs, constraints = preferences or {}, constraints or {}
    w = _weights(prefs)
    nights = _stay_nights(hotel_quotes)
    legs = [_flight_leg(q, w, prefs, constraints, nights) for q in flight_quotes]
    legs += [_hotel_leg(q, w, prefs, constraints) for q in hotel_quotes]
    if policy is not None and now is not None:
        for leg in legs:
            if len(leg):
                leg.blocked = blocked_flags(leg.kind, leg.summaries, policy, now, views=leg.views)
    considered = 1
    for leg in legs:
        considered *= len(leg)
    if not legs or considered == 0:
        return {"bundles": [], "considered": 0}
    cheapest = sum(leg.least_total() for leg in legs) or Decimal(1)
    pool = top_k * POOL_PER_RANK
    for leg in legs:
        leg.price(w["price"], cheapest)
    trimmed = [leg.best(pool) for leg in legs]
    limit, basis = budget_limit(constraints, party_size(party or {}))
    budget = money(limit) if limit is not None else None
    budget_text = (
        f"{money_text(constraints['budget_per_person'], legs[0].summaries[0]['currency'])} per person"
        if basis == "per_person" and budget
        else None
    )

    def over_budget(combo: Combo) -> bool:
        return budget is not None and _total(combo) > budget

    policy_budget = money(policy["budget_per_trip"]) if (policy or {}).get("budget_per_trip") is not None else None

    def out_of_policy(combo: Combo) -> bool:
        return any(c.blocked for c in combo) or (policy_budget is not None and _total(combo) > policy_budget)

    candidates = [tuple(lst[i] for lst, i in zip(trimmed, idx, strict=True)) for _, idx in k_best(trimmed, pool)]
    # Stable: in-policy, then in-budget bundles first, each group still in cost order.
    candidates.sort(key=lambda combo: (out_of_policy(combo), over_budget(combo)))
    low = _cheapest_holdable(legs)  # the "Cheapest" pick, and what "cheapest" can honestly mean on a card
    beds = (prefs.get("hotel") or {}).get("beds")
    picks = _compose(candidates, _featured(legs, candidates[0], cheapest, low, beds), top_k, over_budget)
    best = picks[0]  # the cheapest pick may lie outside the pool, within a budget the best overall misses
    verdicts = {
        _key(p.combo): _verdict(p.combo, policy, constraints, now, timezone) if policy is not None and now else None
        for p in picks
    }

    def blocked(p: Pick) -> bool:
        verdict = verdicts[_key(p.combo)]
        return bool(verdict and not verdict["ok"])

    ranked = sorted(
        picks, key=lambda p: (blocked(p), over_budget(p.combo), p is not best, _cost(p.combo), _key(p.combo))
    )
    # what "the options you can hold" start at: none, when even the cheapest pick cannot be held
    floor = None if any(c.blocked or _unholdable(c) for c in low) else _total(low)
    bundles = [_bundle(n + 1, p, cheapest, budget, w, budget_text, floor) for n, p in enumerate(ranked)]
    for bundle, pick in zip(bundles, ranked, strict=True):
        if verdicts[_key(pick.combo)] is not None:
            bundle["policy"] = verdicts[_key(pick.combo)]
    return {"bundles": bundles, "considered": considered}


def _verdict(
    combo: Combo, policy: Dict[str, Any], constraints: Dict[str, Any], now: datetime, timezone: str
) -> Dict[str, Any]:
    """The policy check's verdict on a bundle, exactly as selecting it would get it."""
    bundle = {
        "flights": [{"segment_id": c.list_id, "summary": c.summary} for c in combo if c.kind == "flight"],
        "hotels": [{"stay_id": c.list_id, "summary": c.summary} for c in combo if c.kind == "hotel"],
        "total": amount(_total(combo)),
        "currency": combo[0].summary["currency"],
    }
    report = policy_check(bundle=bundle, policy=policy, constraints=constraints, now=now, timezone=timezone)
    return {"ok": report["ok"], "blocking": report["blocking"]}


def _total(combo: Combo) -> Decimal:
    return sum((c.total for c in combo), Decimal(0))


def _cost(combo: Combo) -> float:
    return sum(c.cost for c in combo)


def _key(combo: Combo) -> Tuple[str, ...]:
    return tuple(c.item_id for c in combo)


def _minutes(combo: Combo) -> Tuple[int, int]:
    """Time in the air, then stops: what "fastest" compares."""
    flights = [c.summary for c in combo if c.kind == "flight"]
    return sum(s["duration_minutes"] for s in flights), sum(s["stops"] for s in flights)


def _stars(combo: Combo) -> int:
    return sum(c.summary["stars"] for c in combo if c.kind == "hotel")


def _refundable(combo: Combo) -> bool:
    return all(c.summary["refundable"] for c in combo)


def _unholdable(c: Candidate) -> bool:
    return c.costs["holdability"] > 0


def _cheapest_holdable(legs: Sequence[Leg]) -> Combo:
    """The cheapest combination policy allows and the supplier lets us hold (one item per list)."""
    return tuple(
        leg.candidate(leg.first_of(leg.blocked, leg.unholdable(), leg.totals, leg.costs, leg.ids)) for leg in legs
    )


def _why_not_holdable(legs: Sequence[Leg]) -> str:
    """Why the cheapest combination of all is not on offer, in words ("are outside your policy")."""
    overall = [leg.candidate(leg.first_of(leg.totals, leg.costs, leg.ids)) for leg in legs]
    reasons = [
        reason
        for flag, reason in (
            (any(c.blocked for c in overall), "are outside your company's policy"),
            (any(_unholdable(c) for c in overall), "must be paid at once and cannot be held"),
        )
        if flag
    ]
    return " or ".join(reasons) or "cannot be held"


def _featured(legs: Sequence[Leg], best: Combo, cheapest: Decimal, low: Combo, beds: Any = None) -> List[Featured]:
    """The cheapest, fastest, refundable and better-hotel bundles, each one item per list, and (first)
    those with the hotel nearest the place wished or with the ``beds`` wished.

    Costs add up per list, so each is the per-list best under its own key; items that cannot be
    held lose to any that can, keeping the desk's hold-first rule for every slot. ``low`` is
    :func:`_cheapest_holdable`'s combination (made once per ranking: it reads every item).
    """
    if _total(low) == cheapest:
        pick_low = Pick(low, "Cheapest", "Cheapest: the lowest total price of all combinations.")
    else:
        pick_low = Pick(
            low,
            "Cheapest",  # the label the router's "the cheapest" finds; the reason says which cheapest
            f"Cheapest: the lowest total price you can hold; cheaper combinations {_why_not_holdable(legs)}.",
        )
    featured = [Featured(pick_low, lambda x: _total(x) <= _total(low))]
    if any(c.kind == "flight" for c in best):
        fast = tuple(
            leg.candidate(
                leg.first_of(
                    leg.blocked,
                    leg.unholdable(),
                    leg.column("duration_minutes"),
                    leg.column("stops"),
                    leg.costs,
                    leg.ids,
                )
            )
            if b.kind == "flight"
            else b
            for leg, b in zip(legs, best, strict=True)
        )
        (minutes, stops), saved = _minutes(fast), _minutes(best)[0] - _minutes(fast)[0]
        featured.append(
            Featured(
                Pick(
                    fast,
                    "Fastest",
                    f"Fastest: {duration_text(minutes)} of flying in all, {stops_text(stops, every='all nonstop')}"
                    + (f", {duration_text(saved)} less than the best overall." if saved > 0 else "."),
                ),
                lambda x: _minutes(x) <= _minutes(fast),
            )
        )
    refundable = [leg.column("refundable") for leg in legs]
    if all(any(column) for column in refundable):
        flex = tuple(
            leg.candidate(min(compress(zip(leg.blocked, leg.costs, leg.ids, range(len(leg)), strict=True), column))[-1])
            for leg, column in zip(legs, refundable, strict=True)
        )
        why_flex = "Refundable: every flight and room in it can be cancelled for a refund."
        featured.append(Featured(Pick(flex, "Refundable", why_flex), _refundable))
    nicer = tuple(_nicer_hotel(leg, b) if b.kind == "hotel" else b for leg, b in zip(legs, best, strict=True))
    if _stars(nicer) > _stars(best):
        names = " and ".join(
            f"{c.summary['hotel_name']} ({c.summary['stars']}★ instead of {b.summary['stars']}★)"
            for c, b in zip(nicer, best, strict=True)
            if c is not b
        )
        featured.append(
            Featured(Pick(nicer, "Better hotel", f"Better hotel: {names}."), lambda x: _stars(x) >= _stars(nicer))
        )
    bedded = tuple(_bedded_hotel(leg, b, beds) if b.kind == "hotel" else b for leg, b in zip(legs, best, strict=True))
    if bedded != best and _beds_fit(bedded, beds):
        rooms = " and ".join(
            f"{c.summary['hotel_name']}, {c.summary['beds']}" for c, b in zip(bedded, best, strict=True) if c is not b
        )
        featured.insert(  # first: the wish the traveller named
            0, Featured(Pick(bedded, "Your beds", f"Your beds: {rooms}."), lambda x: _beds_fit(x, beds))
        )
    nearer = tuple(_nearer_hotel(leg, b) if b.kind == "hotel" else b for leg, b in zip(legs, best, strict=True))
    if _near_km(nearer) < _near_km(best) - NEARER_KM:
        closest = [c.summary for c, b in zip(nearer, best, strict=True) if c is not b]
        names = " and ".join(f"{s['hotel_name']}, {s['near_km']} km from {s['near']}" for s in closest)
        featured.insert(  # first: the wish the traveller named, before the desk's own angles
            0,
            Featured(
                Pick(nearer, "Nearest hotel", f"Nearest hotel: {names}."), lambda x: _near_km(x) <= _near_km(nearer)
            ),
        )
    return featured


def _near_km(combo: Combo) -> float:
    """How far the hotels lie from the place wished near ("near disney"); 0 when none is measured."""
    return sum(float(c.summary.get("near_km") or 0) for c in combo if c.kind == "hotel" and c.summary.get("near"))


def _nearer_hotel(leg: Leg, b: Candidate) -> Candidate:
    """The least costly rate of the hotel nearest the place wished (the search's ``near_km``) that
    policy blocks no more than ``b``; else ``b``."""
    measured = [
        (float(s["near_km"]), cost, item_id, i)
        for i, (s, blocked, cost, item_id) in enumerate(
            zip(leg.summaries, leg.blocked, leg.costs, leg.ids, strict=True)
        )
        if s.get("near") and s.get("near_km") is not None and blocked <= b.blocked
    ]
    return leg.candidate(min(measured)[-1]) if measured else b


def _beds_fit(combo: Combo, beds: Any) -> bool:
    """Whether every room in ``combo`` has the beds wished."""
    return all(beds_fit(beds, c.summary.get("beds")) for c in combo if c.kind == "hotel")


def _bedded_hotel(leg: Leg, b: Candidate, beds: Any) -> Candidate:
    """``b`` when its room has the beds wished, else the least costly rate whose room has them that
    policy blocks no more than ``b`` (or ``b`` when none has)."""
    if beds_fit(beds, b.summary.get("beds")):
        return b
    fitting = [
        (cost, item_id, i)
        for i, (s, blocked, cost, item_id) in enumerate(
            zip(leg.summaries, leg.blocked, leg.costs, leg.ids, strict=True)
        )
        if beds_fit(beds, s.get("beds")) and blocked <= b.blocked
    ]
    return leg.candidate(min(fitting)[-1]) if fitting else b


def _nicer_hotel(leg: Leg, b: Candidate) -> Candidate:
    """The least costly rate of a better hotel than ``b``'s that policy blocks no more than ``b``; else ``b``."""
    better = [
        (cost, item_id, i)
        for i, (s, blocked, cost, item_id) in enumerate(
            zip(leg.summaries, leg.blocked, leg.costs, leg.ids, strict=True)
        )
        if s["stars"] > b.summary["stars"] and blocked <= b.blocked
    ]
    return leg.candidate(min(better)[-1]) if better else b


def _compose(
    candidates: List[Combo], featured: List[Featured], top_k: int, over_budget: Callable[[Combo], bool]
) -> List[Pick]:
    """Best overall, then each featured option nothing chosen matches, then diverse alternatives.

    An alternative's cost grows by ``DIVERSITY`` times its overlap with every bundle already
    chosen, so the pool's near copies of one bundle give way to other hotels and flights.
    Ties fall to pool order, which is cost order: the same quotes always give the same list.
    """
    picks = [
        Pick(candidates[0], "Best overall", "Best overall: the best balance of price, time and comfort for your trip.")
    ]
    for option in featured:
        if len(picks) < top_k and not any(option.achieves(p.combo) for p in picks):
            picks.append(option.pick)
    chosen, taken = [_signature(p.combo) for p in picks], {_key(p.combo) for p in picks}
    rest = [
        (c, _signature(c), (over_budget(c), _cost(c)))
        for c in candidates[: max(ALTERNATIVES_POOL, top_k)]
        if _key(c) not in taken
    ]
    penalty = [sum(_overlap(sig, other) for other in chosen) for _, sig, _ in rest]
    while len(picks) < top_k and rest:
        i = min(range(len(rest)), key=lambda j: (rest[j][2][0], rest[j][2][1] + DIVERSITY * penalty[j], j))
        combo, sig, _ = rest.pop(i)
        del penalty[i]
        picks.append(_alternative(combo, picks))
        penalty = [p + _overlap(other, sig) for p, (_, other, _) in zip(penalty, rest, strict=True)]
    return picks


def _sameness(c: Candidate) -> Tuple[Any, ...]:
    """What makes two items the same choice for a traveller: one hotel, or one set of flights."""
    s = c.summary
    return (s.get("hotel_id") or s["hotel_name"],) if c.kind == "hotel" else (s["carrier"], *s["flight_numbers"])


def _signature(combo: Combo) -> Tuple[Tuple[str, Tuple[Any, ...]], ...]:
    return tuple((c.item_id, _sameness(c)) for c in combo)


def _overlap(a: Sequence[Tuple[str, Tuple[Any, ...]]], b: Sequence[Tuple[str, Tuple[Any, ...]]]) -> float:
    """Share of positions where two bundles hold the same item (1) or the same hotel/flight at another rate (½)."""
    same = sum(1.0 if x == y else 0.5 if x[1] == y[1] else 0.0 for x, y in zip(a, b, strict=True))
    return same / len(a)


def _alternative(combo: Combo, picks: List[Pick]) -> Pick:
    shown = {_sameness(c) for p in picks for c in p.combo}
    hotels = [c.summary for c in combo if c.kind == "hotel" and _sameness(c) not in shown]
    if hotels:
        names = " and ".join(f"{s['hotel_name']} ({s['stars']}★)" for s in hotels)
        return Pick(combo, "Another hotel", f"Another hotel: {names}.")
    flights = [c.summary for c in combo if c.kind == "flight" and _sameness(c) not in shown]
    if flights:
        names = " and ".join(f"{s['carrier_name']} {'/'.join(s['flight_numbers'])}" for s in flights)
        return Pick(combo, "Other flights", f"Other flights: {names}.")
    return Pick(
        combo,
        "Another mix",
        "Another mix: flights and hotels from the options above, at other fares or combined differently.",
    )


def _bundle(
    rank_no: int,
    pick: Pick,
    cheapest: Decimal,
    budget: Optional[Decimal],
    w: Dict[str, float],
    budget_text: Optional[str] = None,
    floor: Optional[Decimal] = None,
) -> Dict[str, Any]:
    items = pick.combo
    total = _total(items)
    breakdown = {
        k: round(sum(c.costs[k] for c in items) - (w["price"] if k == "price" else 0.0), 4) for k in COMPONENTS
    }
    cost = sum(breakdown.values())
    return {
        "bundle_id": f"B{rank_no}",
        "rank": rank_no,
        "label": pick.label,
        "score": round(100.0 / (1.0 + max(cost, 0.0)), 1),
        "flights": [
            {"segment_id": c.list_id, "offer_id": c.item_id, "summary": c.summary, "zones": flight_zones(c.summary)}
            for c in items
            if c.kind == "flight"
        ],
        "hotels": [
            {"stay_id": c.list_id, "rate_id": c.item_id, "summary": c.summary} for c in items if c.kind == "hotel"
        ],
        "total": amount(total),
        "currency": items[0].summary["currency"],
        "refundable": _refundable(items),
        "why": [pick.reason, *_why(items, total, cheapest, budget, budget_text, floor)],
        "score_breakdown": breakdown,
    }


def _flight_line(leg: str, s: Dict[str, Any]) -> str:
    route = f"{s['origin']} → {s['destination']}" if s.get("origin") else leg
    connections = [f"connects in {c['airport']} ({duration_text(c['minutes'])})" for c in s.get("connections") or []]
    stops = ", ".join(connections) or stops_text(s["stops"])
    notes = [
        note
        for flag, note in (
            (s["red_eye"], "red-eye"),
            (not s["refundable"], "non-refundable fare"),
            (s.get("holdable") is False, "must be paid at once, cannot be held"),
        )
        if flag
    ]
    return f"{route}: {s['carrier_name']}, {stops}, {duration_text(s['duration_minutes'])}" + (
        f"; {', '.join(notes)}." if notes else "."
    )


def _hotel_line(s: Dict[str, Any]) -> str:
    refund = "free cancellation" if s["refundable"] else "non-refundable"
    dist = f", {s['distance_km']} km from the centre" if s.get("distance_km") is not None else ""
    if s.get("near") and s.get("near_km") is not None:  # "near the convention center": from there
        dist = f", {s['near_km']} km from {s['near']}"
    hold = "; must be paid at once, cannot be held" if s.get("holdable") is False else ""
    rooms = int(s.get("rooms") or 1)
    # "2 queen beds" / "2 rooms, each 1 king bed": what "two queen beds" and "2 rooms" are checked against
    beds = (
        f"{rooms} rooms, each {s['beds']}, "
        if s.get("beds") and rooms > 1
        else f"{s['beds']}, "
        if s.get("beds")
        else ""
    )
    beds = beds or (f"{rooms} rooms, " if rooms > 1 else "")
    return f"{s['hotel_name']}: {s['stars']}★, {beds}{s['board_type'].replace('_', ' ')}, {refund}{dist}{hold}."


def _why(
    items: Combo,
    total: Decimal,
    cheapest: Decimal,
    budget: Optional[Decimal],
    budget_text: Optional[str] = None,
    floor: Optional[Decimal] = None,
) -> List[str]:
    """Plain reasons a traveller can weigh: price against the cheapest, then each item, then budget."""
    currency = items[0].summary["currency"]
    floor = cheapest if floor is None else floor
    if total == cheapest:
        lines = ["The lowest total price of all combinations."]
    elif total == floor:
        lines = ["The lowest total price of the options you can hold."]
    elif floor > cheapest:
        lines = [f"{money_text(total - floor, currency)} more than the cheapest option you can hold."]
    else:
        lines = [f"{money_text(total - cheapest, currency)} more than the cheapest combination."]
    lines += [_flight_line(c.list_id, c.summary) if c.kind == "flight" else _hotel_line(c.summary) for c in items]
    lines += _nights_unslept(items)
    if budget is not None:
        in_all = money_text(budget, currency)
        of = f"{budget_text} ({in_all} in all)" if budget_text else in_all
        lines.append(
            f"Within your budget of {of}."
            if total <= budget
            else f"Over your budget of {of} by {money_text(total - budget, currency)}."
        )
    return lines


def _nights_unslept(items: Combo) -> List[str]:
    """Hotel nights a bundle pays for while its traveller is still in the air: a flight that leaves
    by the check-in day but lands too late for that night (``first_night``). A stay whose every
    flight out lands so starts later already (``handlers.trip_read.stays_of``); this says it of the
    overnight flights among others that arrive in time."""
    lines = []
    for hotel in (c.summary for c in items if c.kind == "hotel" and c.summary.get("check_in")):
        check_in = str(hotel["check_in"])
        for flight in (c.summary for c in items if c.kind == "flight"):
            night = first_night([flight["arrive_at"]])
            if (
                flight["depart_at"][:10] <= check_in
                and night
                and check_in < night < str(hotel.get("check_out") or "9999")
            ):
                nights = (date.fromisoformat(night) - date.fromisoformat(check_in)).days
                paid = f"night of {day_text(check_in)} is" if nights == 1 else f"first {nights} nights are"
                lines.append(
                    f"The flight lands {day_text(flight['arrive_at'][:10])}: {hotel['hotel_name']}'s {paid} paid but not slept in."
                )
    return lines


class TripOptionRanker(SpecialistTool):
    name = "trip_option_ranker"

    def execute(self, payload: Dict[str, Any], args: Dict[str, Any], now: datetime) -> Dict[str, Any]:
        if not args.get("flight_quotes") and not args.get("hotel_quotes"):
            require(args, "flight_quotes")  # one list may be empty (a hotel-only or flight-only trip), not both
        org = payload.get("org") or {}
        # A candidate (and its costs) per offer, tuples per bundle examined, no cycles: with the
        # collector paused (handlers.supplier.wire), 2 × 1,000 offers start one young collection
        # afterwards instead of some thirty while ranking, each walking the offers again.
        with collector_paused():
            result = rank(
                flight_quotes=args.get("flight_quotes") or [],
                hotel_quotes=args.get("hotel_quotes") or [],
                preferences=args.get("preferences"),
                constraints=args.get("constraints"),
                party=args.get("party"),
                top_k=max(1, min(20, int(args.get("top_k") or 5))),
                # The policy the check will apply on selection (the host's record over the defaults).
                policy={**DEFAULT_POLICY, **(args.get("policy") or {}), **(org.get("policy") or {})},
                now=now,
                timezone=org.get("timezone") or "UTC",
            )
        return ok(payload, result)

    @classmethod
    def run_tests(cls) -> None:
        from . import SELF_TEST_NOW, self_test_deps
        from .flight_quote_search import FlightQuoteSearch
        from .hotel_quote_search import HotelQuoteSearch

        deps, now = self_test_deps(), SELF_TEST_NOW.isoformat()
        leg = {"origin": {"code": "EWR"}, "destination": {"code": "DEN"}, "passengers": {"adults": 1}}
        out = FlightQuoteSearch(deps).run(
            {"args": {**leg, "segment_id": "s1", "depart_date": "2027-01-30"}, "now": now}
        )["output"]
        stay = HotelQuoteSearch(deps).run(
            {
                "args": {
                    "stay_id": "h1",
                    "location_code": "DEN",
                    "check_in": "2027-01-30",
                    "check_out": "2027-02-02",
                    "rooms": 1,
                    "guests_per_room": 1,
                },
                "now": now,
            }
        )["output"]
        ranked = cls(deps).run({"args": {"flight_quotes": [out], "hotel_quotes": [stay], "top_k": 3}, "now": now})[
            "output"
        ]
        bundles = ranked["bundles"]
        assert [b["bundle_id"] for b in bundles] == ["B1", "B2", "B3"], ranked
        assert bundles[0]["score"] >= bundles[1]["score"] >= bundles[2]["score"]
        assert all(len(b["flights"]) == 1 and len(b["hotels"]) == 1 and b["why"] for b in bundles)
        assert bundles[0]["label"] == "Best overall" and all(b["why"][0].startswith(b["label"]) for b in bundles)
        assert ranked["considered"] == out["count"] * stay["count"]
