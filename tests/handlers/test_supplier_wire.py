"""A supplier's response is decoded with the garbage collector paused, and left as it was found."""

import gc
import json

import pytest

from handlers.supplier.wire import decode_json

RESPONSE = json.dumps(
    {"data": {"offers": [{"offer_id": f"off_{i}", "slices": [{"segments": [{}]}]} for i in range(5000)]}}
)


@pytest.fixture
def collections():
    seen = []

    def count(phase, info):
        if phase == "start":
            seen.append(info["generation"])

    gc.callbacks.append(count)
    yield seen
    gc.callbacks.remove(count)


def test_a_large_response_decodes_as_json_does_without_a_collection(collections):
    assert gc.isenabled()
    expected = json.loads(RESPONSE)
    assert collections, "json.loads of this response runs the collector"
    collections.clear()
    assert decode_json(RESPONSE) == expected
    assert decode_json(RESPONSE.encode()) == expected
    assert not collections
    assert gc.isenabled()


def test_the_collector_stays_paused_for_a_caller_that_paused_it():
    gc.disable()
    try:
        decode_json(RESPONSE)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_bad_response_raises_and_the_collector_runs_again():
    with pytest.raises(ValueError):
        decode_json("{not json")
    assert gc.isenabled()
