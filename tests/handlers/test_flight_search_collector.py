"""A flight search reads a supplier's large response with the cyclic collector paused: no collection
walks the decoded offers, they are freed by reference counts once the kept ones are made, and the
collector runs again afterwards (also when the search fails)."""

import gc
import json

import pytest

from handlers.specialists import SELF_TEST_NOW, self_test_deps
from handlers.specialists.flight_quote_search import FlightQuoteSearch
from handlers.supplier.errors import SupplierError
from handlers.supplier.wire import decode_json

ARGS = {
    "segment_id": "S1",
    "origin": {"code": "EWR"},
    "destination": {"code": "DEN"},
    "depart_date": "2027-01-30",
    "passengers": {"adults": 2},
}


@pytest.fixture
def collections():
    """How many objects each collection that starts has to walk (its generation and the younger)."""
    seen = []

    def count(phase, info):
        if phase == "start":
            seen.append(sum(len(gc.get_objects(g)) for g in range(info["generation"] + 1)))

    gc.callbacks.append(count)
    yield seen
    gc.callbacks.remove(count)


def _deps_answering(offers):
    deps = self_test_deps()
    text = json.dumps(offers)
    deps.supplier.search_flights = lambda **kwargs: decode_json(text)
    return deps


def _many_offers(count=2000):
    deps = self_test_deps()
    own = deps.supplier.search_flights(
        origin="EWR", destination="DEN", depart_date="2027-01-30", passengers={"adults": 2}, now=SELF_TEST_NOW
    )
    many = []
    for i in range(count):
        offer = json.loads(json.dumps(own[i % len(own)]))
        offer["offer_id"] = f"{offer['offer_id']}n{i}"
        offer["slices"][0]["segments"][0]["flight_number"] = f"ZZ{i}"  # a flight of its own
        many.append(offer)
    return many


def _tracked(value):
    """The objects the collector tracks in a decoded JSON value (its dicts and lists)."""
    if isinstance(value, dict):
        return 1 + sum(_tracked(v) for v in value.values())
    if isinstance(value, list):
        return 1 + sum(_tracked(v) for v in value)
    return 0


def test_no_collection_walks_a_large_response_while_it_is_read(collections):
    offers = _many_offers()
    deps = _deps_answering(offers)
    search = FlightQuoteSearch(deps)
    payload = {"args": ARGS, "now": SELF_TEST_NOW.isoformat()}
    gc.collect()
    collections.clear()
    out = search.execute(payload, ARGS, SELF_TEST_NOW)["output"]
    walked = list(collections)
    assert out["found"] == 2000 and out["count"] == 2000
    # At most the collection right after the search, which finds the response freed and walks the
    # kept offers (fewer objects than the response: ~14,000 against 33,000), never the response.
    assert len(walked) <= 1 and all(n < _tracked(offers) / 2 for n in walked), (walked, _tracked(offers))
    assert gc.isenabled()
    assert out == search.run(payload)["output"]  # as the tool answers


def test_the_collector_runs_again_when_the_supplier_fails():
    deps = self_test_deps()

    def failing(**kwargs):
        raise SupplierError("supplier_unavailable", "down", retryable=True)

    deps.supplier.search_flights = failing
    result = FlightQuoteSearch(deps).run({"args": ARGS, "now": SELF_TEST_NOW.isoformat()})
    assert not result["success"]
    assert gc.isenabled()


def test_a_caller_that_paused_the_collector_keeps_it_paused():
    deps = _deps_answering(_many_offers(50))
    gc.disable()
    try:
        FlightQuoteSearch(deps).run({"args": ARGS, "now": SELF_TEST_NOW.isoformat()})
        assert not gc.isenabled()
    finally:
        gc.enable()
