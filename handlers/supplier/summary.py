"""The short views of offers and rates that bundles, widgets and policy checks read.

Everything a ranker or a policy check needs is here, so they never re-read the full offer; the
fields beyond handlers/README.md's list (origin, connections, expires_at, hold policy…) are
additive.

A search keeps each offer (rate) as :func:`compact_offer` (:func:`compact_rate`) makes it: its id,
its summary, and the few details the bundle tools answer from (fare conditions, bags per
passenger type, the flights' legs; a rate's cancellation timeline and conditions). Nothing later
reads more: holds and purchases go to the supplier by id, and it finds the offer again itself.

A search keeps of the offers that are the same fare (:func:`fare_key`: the same flights on the same
terms, everything :func:`summarize_offer` and :func:`compact_offer` read but the id and the price)
only the cheapest few (:func:`cheapest_of_each_fare`); see that function for why nothing that
reads offers later can tell.
"""

from __future__ import annotations

import marshal
from collections import Counter
from datetime import datetime
from decimal import Decimal
from operator import itemgetter
from typing import Any, Callable, Dict, List, Optional, Tuple

from .carriers import BY_CODE
from .money import amount, money


def _red_eye(dep: datetime, arr: datetime) -> bool:
    """Leaves late at night (21:00–04:59 local) and lands the next day or before 07:00."""
    late = dep.hour >= 21 or dep.hour < 5
    return late and (arr.date() > dep.date() or arr.hour < 7)


_at = datetime.fromisoformat


def _connections(segments: List[Dict[str, Any]], times: List[Tuple[datetime, datetime]]) -> List[Dict[str, Any]]:
    """Each change of plane: where, and the minutes between landing and the next departure."""
    return [
        {"airport": a["destination"], "minutes": int((next_dep - arr).total_seconds() // 60)}
        for a, (_, arr), (next_dep, _) in zip(segments, times, times[1:], strict=False)
    ]


def summarize_offer(offer: Dict[str, Any]) -> Dict[str, Any]:
    """What bundles, filters and policy checks read of an offer (its first slice).

    Made for every offer a search keeps (a thousand per search from a large supplier), so a
    nonstop flight (most of a long answer's flights have one or two segments) skips the
    connections and the red-eye loop; fields are read in the same order as ever, so an offer
    missing several fails on the same one. ``tests/handlers/test_offer_summaries.py`` holds this
    to the plain version over seeded responses, field by field and in key order."""
    slice_ = offer["slices"][0]
    segments = slice_["segments"]
    owner = offer["owner"]
    carrier = owner["iata_code"]
    refund = offer.get("conditions", {}).get("refund_before_departure") or {}
    times = [(_at(s["depart_at"]), _at(s["arrive_at"])) for s in segments]
    nonstop = len(times) == 1
    return {
        "carrier": carrier,
        "carrier_name": owner.get("name") or getattr(BY_CODE.get(carrier), "name", carrier),
        "flight_numbers": [s["flight_number"] for s in segments],
        "origin": segments[0]["origin"],
        "destination": segments[-1]["destination"],
        "depart_at": segments[0]["depart_at"],
        "arrive_at": segments[-1]["arrive_at"],
        "stops": len(segments) - 1,
        "connections": [] if nonstop else _connections(segments, times),
        "duration_minutes": slice_["duration_minutes"],
        "total": (price := offer["price"])["total_amount"],
        "currency": price["currency"],
        "refundable": bool(refund.get("allowed")),
        "red_eye": _red_eye(*times[0]) if nonstop else any(_red_eye(dep, arr) for dep, arr in times),
        "cabin": offer.get("cabin") or offer["passengers"][0]["cabin"],
        "expires_at": offer["expires_at"],
        "holdable": bool((hold := offer["hold_policy"])["holdable"]) and not offer.get("requires_instant_payment"),
        "max_hold_minutes": hold.get("max_hold_minutes"),
        "price_guarantee_minutes": hold.get("price_guarantee_minutes"),
        "seats_remaining": offer.get("seats_remaining"),
    }


def compact_offer(offer: Dict[str, Any], summary: Dict[str, Any] | None = None) -> Dict[str, Any]:
    """What is kept of a supplier's offer (``summary``: its :func:`summarize_offer`, when made
    already). An offer kept so already (no ``slices``) comes back as it is, so a stored search
    result read again is never compacted twice. Its documents are written out field by field (a
    comprehension over a tuple of names costs twice as much, a thousand times per search)."""
    if "slices" not in offer:
        return offer
    conditions = offer.get("conditions") or {}
    baggage: Dict[str, Any] = {}
    for passenger in offer.get("passengers") or []:
        baggage.setdefault(passenger.get("type") or "adult", passenger.get("baggage"))
    return {
        "offer_id": offer["offer_id"],
        "summary": summary or offer.get("summary") or summarize_offer(offer),
        "conditions": {
            "refund_before_departure": conditions.get("refund_before_departure"),
            "change_before_departure": conditions.get("change_before_departure"),
        },
        "baggage": baggage,
        "legs": _legs(offer["slices"]),
    }


def _legs(slices: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """Every flight of every slice, in order: a kept offer's ``legs``."""
    legs = []
    for slice_ in slices:
        for s in slice_.get("segments") or []:
            get = s.get
            legs.append(
                {
                    "flight_number": get("flight_number"),
                    "origin": get("origin"),
                    "destination": get("destination"),
                    "depart_at": get("depart_at"),
                    "arrive_at": get("arrive_at"),
                    "duration_minutes": get("duration_minutes"),
                }
            )
    return legs


def fare_key(offer: Dict[str, Any]) -> bytes:
    """What an offer is apart from its id and price: the fields :func:`summarize_offer` and
    :func:`compact_offer` read, whole (carrier, every slice and flight, cabin, fare conditions,
    each passenger's type, cabin and bags, expiry, hold policy, seats left, currency), except
    ``offer_id`` and ``price.total_amount``. Two offers with the same key make the same summary
    and details at another price under another id (``tests/handlers/test_supplier_search.py``
    checks this field by field, so a field read later must be added here).

    As bytes (``marshal``, which writes values, not shared objects, at version 2), because it is
    made for every offer a supplier returns and a tuple of the same fields costs three times as
    much. Values that are equal but written differently (another key order) only make two keys
    of one fare: fewer offers dropped, never a wrong one.
    """
    passengers = [(p.get("type"), p.get("cabin"), p.get("baggage")) for p in offer.get("passengers") or []]
    return marshal.dumps(
        (
            offer.get("owner"),
            offer["slices"],
            passengers,
            offer.get("cabin"),
            offer.get("conditions"),
            offer.get("expires_at"),
            offer.get("hold_policy"),
            offer.get("requires_instant_payment"),
            offer.get("seats_remaining"),
            offer["price"].get("currency"),
        ),
        2,
    )


SAME_FARE_KEPT = 5  # the most bundles a search turn shows (handlers.applier.MAX_BUNDLES_ON_SCREEN)


def _stands_for(
    firsts: List[Any],
    key: Callable[[int], Any],
    price: Callable[[int], Decimal],
    ids: List[str],
    keep: int,
) -> List[int]:
    """For each item, how many it stands for: 0 if dropped (``keep`` cheaper of its ``key`` come
    first, by ``price(i)`` then id), the number dropped plus one for its key's cheapest, else 1.

    ``firsts[i]`` is a cheap key that items of one ``key`` share (their first flight and its time):
    only where more than ``keep`` items share it is ``key`` made, since fewer cannot lose any. A
    supplier's distinct itineraries then cost a count each (``Counter``, in C) instead of a key of
    every field; the groups, and so what is dropped, are the same.
    """
    stands_for = [1] * len(firsts)
    crowded = {first for first, n in Counter(firsts).items() if n > keep}
    by_first: Dict[Any, List[int]] = {}
    for i in [i for i, first in enumerate(firsts) if first in crowded] if crowded else ():
        by_first.setdefault(firsts[i], []).append(i)
    for group in by_first.values():
        by_key: Dict[Any, List[int]] = {}
        for i in group:
            by_key.setdefault(key(i), []).append(i)
        for members in by_key.values():
            if len(members) > keep:
                members = sorted(members, key=lambda i: (price(i), ids[i]))
                for i in members[keep:]:
                    stands_for[i] = 0
                stands_for[members[0]] += len(members) - keep
    return stands_for


def _first_flight(offer: Dict[str, Any]) -> str | None:
    """The first flight's number and time: the same for offers of one fare (:func:`fare_key` holds
    every slice whole); None for an offer without one (grouped together, then by their keys)."""
    try:
        first = offer["slices"][0]["segments"][0]
        return f"{first['flight_number']}|{first['depart_at']}"
    except (KeyError, IndexError, TypeError):
        return None


_OFFER_ID = itemgetter("offer_id")
_SLICES, _SEGMENTS, _FIRST = itemgetter("slices"), itemgetter("segments"), itemgetter(0)
_NUMBER_AND_TIME = itemgetter("flight_number", "depart_at")


def _first_flights(offers: List[Dict[str, Any]]) -> List[Any]:
    """Each offer's first flight, as its number and time: read a column at a time in C; where an
    offer has none, or a value that cannot be a key, offer by offer (:func:`_first_flight`)."""
    try:
        firsts = list(map(_NUMBER_AND_TIME, map(_FIRST, map(_SEGMENTS, map(_FIRST, map(_SLICES, offers))))))
        set(firsts)  # each can key a group (a supplier's odd value goes the slow way)
        return firsts
    except (KeyError, IndexError, TypeError):
        return [_first_flight(offer) for offer in offers]


def cheapest_of_each_fare(offers: List[Dict[str, Any]], keep: int = SAME_FARE_KEPT) -> List[Tuple[Dict[str, Any], int]]:
    """The supplier's offers worth keeping, in its order, each with how many it stands for.

    The rule: of the offers that are the same fare (:func:`fare_key`: the same flights on the same
    terms), only the ``keep`` cheapest (by price, then id) are kept; each fare's cheapest stands
    for the ones dropped (its count includes them), the others for themselves. A supplier returns
    the same flights on the same terms at several prices (fare classes, sales channels); a dearer copy differs from a kept one only in price and id, so:

    - every wish a traveller can state (times, cabin, carriers, stops, red-eyes, refundable) and
      every filter a search applies picks the same flights on the same terms, and the cheapest of
      each: the "earlier / later flight" and "cheaper" follow-ups, compare and the bundle tools
      read the kept offers' summaries and details, which the dropped ones repeat at a higher price;
    - the ranker ranks at most ``keep`` offers of one fare per leg anyway (:func:`ranked_offers`,
      by its summary, a coarser key than this one, the same order), so its bundles are exactly
      those it would make of every offer. ``tests/handlers/test_search_keeps_cheapest_fares.py``
      checks that, over seeded supplier responses of hundreds of offers and several wishes.

    Fare keys are made only for offers that share their first flight with more than ``keep``
    others (see :func:`_stands_for`).
    """

    def key(i: int) -> Any:
        try:
            return fare_key(offers[i])
        except ValueError:  # a value marshal cannot write: the offer is a fare of its own
            return ("own", i)

    firsts = _first_flights(offers)
    ids = list(map(_OFFER_ID, offers))
    price = lambda i: money(offers[i]["price"]["total_amount"])  # noqa: E731
    stands_for = _stands_for(firsts, key, price, ids, keep)
    return [(offer, n) for offer, n in zip(offers, stands_for, strict=True) if n]


def ranked_offers(
    summaries: List[Tuple[str, Dict[str, Any]]], keep: int = SAME_FARE_KEPT
) -> List[Tuple[str, Dict[str, Any]]]:
    """The ``(offer_id, summary)`` pairs of one leg the ranker ranks: of those whose summaries are
    the same but for ``total`` (what the ranker reads of an offer), the ``keep`` cheapest, by
    total then id; the rest never make a bundle the traveller would see (a kept one is the same
    choice for less; see :func:`cheapest_of_each_fare`). In the order given."""
    # equal summaries have equal carriers and times (strings: cheap to join)
    firsts = [f"{s.get('carrier')}|{s.get('depart_at')}|{s.get('arrive_at')}" for _, s in summaries]
    kept = ranked_positions(
        [offer_id for offer_id, _ in summaries],
        firsts,
        lambda i: summaries[i][1],
        lambda i: money(summaries[i][1]["total"]),
        keep,
    )
    return [summaries[i] for i in kept]


def ranked_positions(
    ids: List[str],
    firsts: List[Any],
    summary: Callable[[int], Dict[str, Any]],
    price: Callable[[int], Decimal],
    keep: int = SAME_FARE_KEPT,
) -> List[int]:
    """:func:`ranked_offers` of a leg read a column at a time: the positions of the offers it keeps,
    in order. ``firsts``: each offer's carrier and times (as ``ranked_offers`` joins them, or as a
    tuple: any key that offers of one summary share);
    ``summary(i)`` and ``price(i)``: an offer's summary and its total, asked for only where more
    than ``keep`` offers share their first (a leg of a search's table makes few summaries)."""

    def key(i: int) -> Any:
        try:
            return marshal.dumps({**summary(i), "total": None}, 2)
        except ValueError:
            return ("own", i)

    stands_for = _stands_for(firsts, key, price, ids, keep)
    return [i for i, n in enumerate(stands_for) if n]


def compact_rate(rate: Dict[str, Any], summary: Dict[str, Any] | None = None) -> Dict[str, Any]:
    """What is kept of a supplier's rate (as :func:`compact_offer` for offers); a kept one as it is."""
    if "hotel" not in rate:
        return rate
    return {
        "rate_id": rate["rate_id"],
        "summary": summary or rate.get("summary") or summarize_rate(rate),
        "cancellation_timeline": rate.get("cancellation_timeline") or [],
        "conditions": rate.get("conditions") or [],
    }


_BED_NAMES = {"single": "single", "twin": "twin", "double": "double", "queen": "queen", "king": "king", "sofa": "sofa"}


def beds_text(room: Dict[str, Any]) -> Optional[str]:
    """The beds of one room in words ("1 king bed", "2 queen beds", "2 twin beds"), as the card says
    them, since "two queen beds" and "a king bed" are what travellers ask for; None when the rate does
    not say."""
    parts = []
    for bed in room.get("beds") or []:
        if not isinstance(bed, dict) or not bed.get("type"):
            continue
        count = int(bed.get("count") or 1)
        kind = _BED_NAMES.get(str(bed["type"]).lower(), str(bed["type"]).lower())
        parts.append(f"{count} {kind} bed{'s' if count != 1 else ''}")
    return " and ".join(parts) or None


def summarize_rate(rate: Dict[str, Any]) -> Dict[str, Any]:
    """``nightly_avg`` and ``nightly_max`` are per room and night before tax (what travel policies cap).

    ``room_charges`` (every room, every night, before tax) plus ``taxes_and_fees`` is ``total``:
    what a card shows adds up to what is held.
    """
    price = rate["price"]
    per_room = max(1, int(rate.get("rooms") or 1))
    nightly = [money(n) / per_room for n in price["nightly"]] or [money(0)]
    timeline = rate.get("cancellation_timeline") or []
    return {
        "hotel_id": rate["hotel"]["id"],
        "hotel_name": rate["hotel"]["name"],
        "stars": rate["hotel"]["star_rating"],
        "distance_km": rate["hotel"].get("distance_to_center", {}).get("value"),
        "board_type": rate["board_type"],
        "beds": beds_text(rate.get("room") or {}),
        "refundable": bool(timeline),
        "refundable_until": timeline[0]["before"] if timeline else None,
        "total": price["total_amount"],
        "currency": price["currency"],
        "nightly_avg": amount(sum(nightly) / len(nightly)),
        "nightly_max": amount(max(nightly)),
        "rooms": per_room,
        "room_charges": amount(sum(money(n) for n in price["nightly"])),
        "taxes_and_fees": amount(money(price["total_amount"]) - sum(money(n) for n in price["nightly"])),
        "nights": rate.get("nights") or len(price["nightly"]),
        "check_in": rate["check_in"],
        "check_out": rate["check_out"],
        "expires_at": rate["expires_at"],
        "holdable": bool(rate["hold_policy"]["holdable"]),
        "max_hold_minutes": rate["hold_policy"].get("max_hold_minutes"),
        "price_guarantee_minutes": rate["hold_policy"].get("price_guarantee_minutes"),
    }
