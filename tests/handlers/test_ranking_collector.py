"""Ranking a thousand offers per leg and making a search's table both run with the cyclic
collector paused (what they allocate is a candidate, a tuple or a row per offer, without cycles):
at most the one collection that runs once it is on again (instead of one every 700 objects),
the same result with it off, and the collector on afterwards, also when ranking fails."""

import gc
import json

import pytest

from handlers.specialists import SELF_TEST_NOW, self_test_deps
from handlers.specialists.trip_option_ranker import TripOptionRanker
from handlers.supplier import compact_offer
from handlers.supplier.table import items_table


def _offers(segment_id, origin, destination, day, count=1000):
    deps = self_test_deps()
    own = deps.supplier.search_flights(
        origin=origin, destination=destination, depart_date=day, passengers={"adults": 2}, now=SELF_TEST_NOW
    )
    many = []
    for i in range(count):
        offer = json.loads(json.dumps(own[i % len(own)]))
        offer["offer_id"] = f"{offer['offer_id']}n{i}"
        offer["slices"][0]["segments"][0]["flight_number"] = f"ZZ{i}"  # a flight of its own
        many.append(compact_offer(offer))
    return {"segment_id": segment_id, "offers": many, "count": count, "found": count}


@pytest.fixture(scope="module")
def quotes():
    return [_offers("S1", "EWR", "DEN", "2027-01-30"), _offers("S2", "DEN", "EWR", "2027-02-02")]


def _rank(quotes):
    payload = {"args": {"flight_quotes": quotes, "hotel_quotes": [], "top_k": 5}, "now": SELF_TEST_NOW.isoformat()}
    return TripOptionRanker(self_test_deps()).run(payload)


def test_a_thousand_offers_per_leg_are_ranked_without_collections(quotes, collections_started):
    gc.collect()
    collections_started.clear()
    ranker = TripOptionRanker(self_test_deps())
    args = {"flight_quotes": quotes, "hotel_quotes": [], "top_k": 5}
    out = ranker.execute({"args": args}, args, SELF_TEST_NOW)["output"]
    assert len(collections_started) <= 1 and gc.isenabled(), collections_started
    assert len(out["bundles"]) == 5 and out["considered"] == 1000 * 1000
    gc.disable()  # the collector already off: ranking leaves it off, and ranks the same
    try:
        again = ranker.execute({"args": args}, args, SELF_TEST_NOW)["output"]
        assert not gc.isenabled()
    finally:
        gc.enable()
    assert json.dumps(again) == json.dumps(out)


def test_a_search_is_made_a_table_without_collections(quotes, collections_started):
    gc.collect()
    collections_started.clear()
    table = items_table(quotes[0]["offers"])
    assert len(collections_started) <= 1 and gc.isenabled(), collections_started
    assert len(table["rows"]) == 1000


def test_the_collector_runs_again_when_ranking_fails():
    broken = [{"segment_id": "S1", "offers": [{"offer_id": "x", "summary": {"total": "1.00"}}]}]
    result = _rank(broken)
    assert not result["success"]
    assert gc.isenabled()
