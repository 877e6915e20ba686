"""An offer's summary and what a search keeps of it (``summarize_offer``, ``compact_offer``) are
exactly what the plain versions below make, over seeded supplier responses of hundreds of offers
(one to three flights, red-eyes, several passengers, missing names) and over offers broken one
field at a time: the same values in the same key order, or the same error."""

import copy
import json
import random
from datetime import datetime

import pytest

from handlers.specialists import SELF_TEST_NOW, self_test_deps
from handlers.supplier.carriers import BY_CODE
from handlers.supplier.summary import compact_offer, summarize_offer


def _plain_red_eye(dep, arr):
    late = dep.hour >= 21 or dep.hour < 5
    return late and (arr.date() > dep.date() or arr.hour < 7)


def plain_summary(offer):
    """``summarize_offer`` as it was first written: every time parsed, every list made."""
    slice_ = offer["slices"][0]
    segments = slice_["segments"]
    carrier = offer["owner"]["iata_code"]
    refund = offer.get("conditions", {}).get("refund_before_departure") or {}
    times = [(datetime.fromisoformat(s["depart_at"]), datetime.fromisoformat(s["arrive_at"])) for s in segments]
    return {
        "carrier": carrier,
        "carrier_name": offer["owner"].get("name") or getattr(BY_CODE.get(carrier), "name", carrier),
        "flight_numbers": [s["flight_number"] for s in segments],
        "origin": segments[0]["origin"],
        "destination": segments[-1]["destination"],
        "depart_at": segments[0]["depart_at"],
        "arrive_at": segments[-1]["arrive_at"],
        "stops": len(segments) - 1,
        "connections": [
            {"airport": a["destination"], "minutes": int((next_dep - arr).total_seconds() // 60)}
            for a, (_, arr), (next_dep, _) in zip(segments, times, times[1:], strict=False)
        ],
        "duration_minutes": slice_["duration_minutes"],
        "total": offer["price"]["total_amount"],
        "currency": offer["price"]["currency"],
        "refundable": bool(refund.get("allowed")),
        "red_eye": any(_plain_red_eye(dep, arr) for dep, arr in times),
        "cabin": offer.get("cabin") or offer["passengers"][0]["cabin"],
        "expires_at": offer["expires_at"],
        "holdable": bool(offer["hold_policy"]["holdable"]) and not offer.get("requires_instant_payment"),
        "max_hold_minutes": offer["hold_policy"].get("max_hold_minutes"),
        "price_guarantee_minutes": offer["hold_policy"].get("price_guarantee_minutes"),
        "seats_remaining": offer.get("seats_remaining"),
    }


def plain_compact(offer, summary=None):
    """``compact_offer`` as it was first written."""
    if "slices" not in offer:
        return offer
    conditions = offer.get("conditions") or {}
    baggage = {}
    for passenger in offer.get("passengers") or []:
        baggage.setdefault(passenger.get("type") or "adult", passenger.get("baggage"))
    legs = ("flight_number", "origin", "destination", "depart_at", "arrive_at", "duration_minutes")
    return {
        "offer_id": offer["offer_id"],
        "summary": summary or offer.get("summary") or plain_summary(offer),
        "conditions": {k: conditions.get(k) for k in ("refund_before_departure", "change_before_departure")},
        "baggage": baggage,
        "legs": [{k: s.get(k) for k in legs} for slice_ in offer["slices"] for s in slice_.get("segments") or []],
    }


def _sandbox_offers(seed, origin, destination, day, passengers):
    deps = self_test_deps()
    deps.supplier.seed = seed
    return deps.supplier.search_flights(
        origin=origin, destination=destination, depart_date=day, passengers=passengers, now=SELF_TEST_NOW
    )


def _response(seed):
    """A supplier's decoded response of hundreds of offers: the sandbox's, copied with other
    flights (times moved, late-night departures, a third flight added or one taken away), other
    terms and parties, some without the carrier's name or the offer's cabin."""
    rnd = random.Random(seed)
    origin, destination, day = rnd.choice([("EWR", "DEN", "2027-01-30"), ("JFK", "LAX", "2027-01-18")])
    passengers = rnd.choice([{"adults": 1}, {"adults": 2, "children": 1}, {"adults": 4}])
    models = _sandbox_offers(seed, origin, destination, day, passengers)
    out = []
    for i in range(rnd.randint(200, 500)):
        offer = json.loads(json.dumps(rnd.choice(models)))
        offer["offer_id"] = f"{offer['offer_id']}x{i}"
        segments = offer["slices"][0]["segments"]
        if rnd.random() < 0.2:
            hour = rnd.choice([21, 22, 23, 0, 3, 4, 5, 6])
            segments[0]["depart_at"] = f"{day}T{hour:02d}:{rnd.choice(['05', '40'])}:00-05:00"
        if rnd.random() < 0.15:
            segments[-1]["arrive_at"] = f"2027-02-0{rnd.randint(1, 3)}T0{rnd.randint(0, 9)}:15:00-07:00"
        if rnd.random() < 0.15:
            segments.append({**segments[-1], "flight_number": f"ZZ{i}", "origin": segments[-1]["destination"]})
        elif rnd.random() < 0.1 and len(segments) > 1:
            segments.pop()
        if rnd.random() < 0.1:
            offer["owner"].pop("name", None)
        if rnd.random() < 0.1:
            offer.pop("cabin", None)
        if rnd.random() < 0.1:
            offer["requires_instant_payment"] = True
        if rnd.random() < 0.1:
            offer["conditions"]["refund_before_departure"] = {"allowed": True, "penalty_amount": "50.00"}
        out.append(offer)
    return out


def _same(made, expected):
    assert made == expected
    assert json.dumps(made) == json.dumps(expected)  # key order too, at every depth


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_summaries_and_kept_offers_are_the_plain_versions(seed):
    offers = _response(seed)
    assert {len(o["slices"][0]["segments"]) for o in offers} >= {1, 2}
    assert any(plain_summary(o)["red_eye"] for o in offers)
    for offer in offers:
        summary = summarize_offer(offer)
        _same(summary, plain_summary(offer))
        _same(compact_offer(offer), plain_compact(offer))
        _same(compact_offer(offer, summary), plain_compact(offer, summary))
        kept = compact_offer(offer)
        assert compact_offer(kept) is kept


def _leaves(value, path=()):
    if isinstance(value, dict):
        yield path, value
        for k, v in value.items():
            yield from _leaves(v, (*path, k))
    elif isinstance(value, list):
        yield path, value
        for i, v in enumerate(value):
            yield from _leaves(v, (*path, i))
    else:
        yield path, value


def _outcome(make, offer):
    try:
        return json.dumps(make(offer))
    except Exception as error:  # noqa: BLE001 - which error, and its words, is what is compared
        return (type(error), error.args)


def _broken(offer, changes):
    """``offer`` with each ``(path, change)`` made: the value dropped, or None, [] or "x" instead."""
    broken = copy.deepcopy(offer)
    for path, change in changes:
        node = broken
        try:
            for step in path[:-1]:
                node = node[step]
            if change == "drop" and isinstance(node, dict):
                node.pop(path[-1], None)
            else:
                node[path[-1]] = {"none": None, "empty": [], "text": "x", "drop": None}[change]
        except (KeyError, IndexError, TypeError):
            pass  # under a value another change already removed
    return broken


def _same_outcome(broken):
    assert _outcome(summarize_offer, broken) == _outcome(plain_summary, broken)
    assert _outcome(compact_offer, broken) == _outcome(plain_compact, broken)


@pytest.mark.parametrize("stops", [0, 1])
def test_an_offer_missing_any_two_fields_fails_on_the_same_one(stops):
    """Every pair of values removed (or made None): the same summary, or the same error on the
    same field, so fields are still read in the same order."""
    offer = next(o for o in _response(stops + 1) if len(o["slices"][0]["segments"]) == stops + 1)
    paths = [path for path, _ in _leaves(offer) if path]
    for i, first in enumerate(paths):
        for second in paths[i:]:
            for change in ("drop", "none"):
                _same_outcome(_broken(offer, [(first, change), (second, change)]))


@pytest.mark.parametrize("seed", [6, 7])
def test_an_offer_broken_anywhere_gives_what_the_plain_versions_give(seed):
    """Values of a few offers removed, emptied or replaced by another kind, three at a time."""
    rnd = random.Random(seed)
    for offer in rnd.sample(_response(seed), 6):
        paths = [path for path, _ in _leaves(offer) if path]
        for _ in range(60):
            changes = [(path, rnd.choice(["drop", "none", "empty", "text"])) for path in rnd.sample(paths, 3)]
            _same_outcome(_broken(offer, changes))
