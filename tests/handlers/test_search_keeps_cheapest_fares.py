"""A search keeps the cheapest few offers of each fare (the same flights on the same terms):
the fare key tells apart everything later read, and the ranked bundles are the same as with
every offer kept, over seeded supplier responses of hundreds of offers."""

import copy
import json
import random
from datetime import datetime

import pytest

from handlers.common.defaults import DEFAULT_POLICY
from handlers.specialists import SELF_TEST_NOW, flight_quote_search, self_test_deps
from handlers.specialists.flight_quote_search import FlightQuoteSearch
from handlers.specialists.hotel_quote_search import HotelQuoteSearch
from handlers.specialists.trip_option_ranker import rank
from handlers.supplier.summary import SAME_FARE_KEPT, cheapest_of_each_fare, compact_offer, fare_key
from handlers.supplier.table import output_items

NOW = SELF_TEST_NOW.isoformat()


def _sandbox_offers(seed=7, origin="EWR", destination="DEN", day="2027-01-30", adults=2):
    deps = self_test_deps()
    deps.supplier.seed = seed
    return deps.supplier.search_flights(
        origin=origin, destination=destination, depart_date=day, passengers={"adults": adults}, now=SELF_TEST_NOW
    )


def _leaves(value, path=()):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _leaves(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _leaves(v, (*path, i))
    else:
        yield path, value


def _changed(offer, path, value):
    out = copy.deepcopy(offer)
    node = out
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    return out


def _other(value):
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        return value + 1
    if value is None:
        return "x"
    return f"{value}x"


def _without_id_and_price(kept):
    return {**kept, "offer_id": None, "summary": {**kept["summary"], "total": None}}


def test_every_field_a_kept_offer_shows_is_in_the_fare_key():
    for offer in _sandbox_offers()[:4]:
        kept = _without_id_and_price(compact_offer(offer))
        for path, value in _leaves(offer):
            changed = _changed(offer, path, _other(value))
            try:
                shown = _without_id_and_price(compact_offer(changed))
            except (ValueError, TypeError, KeyError):
                shown = None  # a value the summary cannot read at all: different, whatever it is
            if shown != kept:
                assert fare_key(changed) != fare_key(offer), f"{path} changes what is kept but not the fare key"


def test_another_id_and_price_is_the_same_fare():
    offer = _sandbox_offers()[0]
    dearer = _changed(_changed(offer, ("offer_id",), "off_other"), ("price", "total_amount"), "9999.00")
    assert fare_key(dearer) == fare_key(offer)
    assert compact_offer(dearer)["summary"]["total"] == "9999.00"


def _padded(offers, rnd, copies, other_terms=0.1):
    """Copies of ``offers`` as a supplier's decoded response: new ids, prices from 15 % below to
    50 % above the original, and a share with other fare terms (refundable), in random order."""
    out = json.loads(json.dumps(offers))
    for i in range(copies):
        twin = json.loads(json.dumps(rnd.choice(offers)))
        twin["offer_id"] = f"{twin['offer_id']}c{i}"
        twin["price"]["total_amount"] = f"{float(twin['price']['total_amount']) * rnd.uniform(0.85, 1.5):.2f}"
        if rnd.random() < other_terms:
            twin["conditions"]["refund_before_departure"] = {
                "allowed": True,
                "penalty_amount": "75.00",
                "penalty_currency": "USD",
            }
        out.append(twin)
    rnd.shuffle(out)
    return out


def test_the_cheapest_of_each_fare_are_kept_in_the_suppliers_order_and_stand_for_the_rest():
    rnd = random.Random(5)
    offers = _padded(_sandbox_offers(), rnd, 600)
    kept = cheapest_of_each_fare(offers)
    assert sum(n for _, n in kept) == len(offers)
    positions = [next(i for i, o in enumerate(offers) if o is offer) for offer, _ in kept]
    assert positions == sorted(positions)
    fares = {}
    for offer in offers:
        fares.setdefault(fare_key(offer), []).append(offer)
    kept_ids = {offer["offer_id"] for offer, _ in kept}
    for members in fares.values():
        cheapest = sorted(members, key=lambda o: (float(o["price"]["total_amount"]), o["offer_id"]))
        assert {o["offer_id"] for o in cheapest[:SAME_FARE_KEPT]} <= kept_ids
        assert not {o["offer_id"] for o in cheapest[SAME_FARE_KEPT:]} & kept_ids
    assert len(kept) < len(offers) / 3


def _reference_kept(offers, keep=SAME_FARE_KEPT):
    """The rule as stated, every offer's fare key made: the ``keep`` cheapest of each (price, id)."""
    fares = {}
    for i, offer in enumerate(offers):
        fares.setdefault(fare_key(offer), []).append(i)
    stands_for = [1] * len(offers)
    for members in fares.values():
        if len(members) > keep:
            members = sorted(members, key=lambda i: (float(offers[i]["price"]["total_amount"]), offers[i]["offer_id"]))
            for i in members[keep:]:
                stands_for[i] = 0
            stands_for[members[0]] += len(members) - keep
    return [(offers[i]["offer_id"], n) for i, n in enumerate(stands_for) if n]


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_fare_keys_made_only_where_a_first_flight_is_shared_keep_what_every_key_would(seed):
    """Offers with a first flight of their own are never grouped by their whole fare key; the
    result is the rule's over every key: near copies (other terms, later legs moved), distinct
    itineraries, equal prices and ties of a few."""
    rnd = random.Random(seed)
    offers = _padded(_sandbox_offers(seed=seed), rnd, rnd.choice([3, 40, 400]), other_terms=0.3)
    for i, offer in enumerate(rnd.sample(offers, len(offers) // 3)):
        offer["slices"][0]["segments"][0]["flight_number"] = f"ZZ{i % 7 if i % 2 else i}"  # own, or a few alike
        if rnd.random() < 0.3:
            offer["price"]["total_amount"] = "100.00"
        if rnd.random() < 0.3 and len(offer["slices"][0]["segments"]) > 1:
            offer["slices"][0]["segments"][-1]["depart_at"] = "2027-01-30T23:59:00-07:00"
    assert [(o["offer_id"], n) for o, n in cheapest_of_each_fare(offers)] == _reference_kept(offers)


LEGS = [
    (7, "EWR", "DEN", "2027-01-30", "2027-02-02", 4),
    (11, "BOS", "ORD", "2027-02-12", "2027-02-15", 1),
    (23, "SFO", "SEA", "2027-03-04", "2027-03-08", 2),
    (31, "JFK", "LAX", "2027-01-18", "2027-01-22", 3),
]


def _searches(monkeypatch, seed, origin, destination, out_day, back_day, adults, prune):
    """Both legs and the hotel, the supplier padded to hundreds of offers per leg; ``prune``
    False runs the search with every offer kept (the rule switched off)."""
    deps = self_test_deps()
    deps.supplier.seed = seed
    rnd = random.Random(seed)
    responses = {}
    real = deps.supplier.search_flights

    def search_flights(**kwargs):
        key = (kwargs["origin"], kwargs["destination"])
        if key not in responses:
            responses[key] = json.dumps(_padded(real(**kwargs), rnd, rnd.randint(300, 600)))
        return json.loads(responses[key])

    monkeypatch.setattr(deps.supplier, "search_flights", search_flights)
    if not prune:
        monkeypatch.setattr(flight_quote_search, "cheapest_of_each_fare", lambda offers: [(o, 1) for o in offers])
    people = {"adults": adults}

    def fly(segment, a, b, day, **wishes):
        args = {"segment_id": segment, "origin": {"code": a}, "destination": {"code": b}, "depart_date": day}
        return FlightQuoteSearch(deps).run({"args": {**args, "passengers": people, **wishes}, "now": NOW})["output"]

    stay = {"stay_id": "H1", "location_code": destination, "check_in": out_day, "check_out": back_day}
    hotel = HotelQuoteSearch(deps).run({"args": {**stay, "rooms": 1, "guests_per_room": adults}, "now": NOW})["output"]
    searches = {
        "out": fly("S1", origin, destination, out_day),
        "back": fly("S2", destination, origin, back_day),
        "out_after_noon": fly(
            "S1", origin, destination, out_day, depart_time_window={"from": "12:00", "to": "23:59"}, max_stops=1
        ),
        "hotel": hotel,
    }
    monkeypatch.undo()
    return searches


WISHES = [
    ({}, {}, {}),
    ({"flight": {"avoid_red_eye": True, "max_stops": 0}}, {"refundable_preference": "all"}, {}),
    ({"weights": {"price": 2.0, "duration": 0.1}}, {"budget_per_person": "650"}, {"refundable_required": True}),
    ({"hotel": {"min_stars": 4}}, {"budget_total": "1800"}, {"red_eye_allowed": False}),
]


@pytest.mark.parametrize("leg", LEGS, ids=lambda leg: f"{leg[1]}-{leg[2]}")
def test_the_ranked_bundles_are_the_same_with_and_without_dropping_dearer_copies(monkeypatch, leg):
    seed, origin, destination, out_day, back_day, adults = leg
    pruned = _searches(monkeypatch, *leg, prune=True)
    every = _searches(monkeypatch, *leg, prune=False)
    for name in ("out", "back", "out_after_noon"):
        assert pruned[name]["found"] == every[name]["found"] > 300
        assert pruned[name]["ruled_out"] == every[name]["ruled_out"]
        assert 0 < pruned[name]["count"] < every[name]["count"] / 3
        kept = {o["offer_id"] for o in output_items(pruned[name], "offers")}
        assert kept <= {o["offer_id"] for o in output_items(every[name], "offers")}
    now = datetime.fromisoformat(NOW)
    party = {"adults": adults}
    for flights in (("out", "back"), ("out_after_noon", "back")):
        for top_k in (3, 5):
            for preferences, constraints, policy in WISHES:
                ranked = [
                    rank(
                        flight_quotes=[searches[f] for f in flights],
                        hotel_quotes=[searches["hotel"]],
                        preferences=preferences,
                        constraints=constraints,
                        party=party,
                        top_k=top_k,
                        policy={**DEFAULT_POLICY, **policy},
                        now=now,
                    )
                    for searches in (pruned, every)
                ]
                assert ranked[0]["bundles"] and ranked[0] == ranked[1], (
                    flights,
                    top_k,
                    preferences,
                    constraints,
                    policy,
                )
