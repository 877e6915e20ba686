"""A supplier's response is decoded with the garbage collector paused, and left as it was found."""

import gc
import json

import pytest

from handlers.supplier.wire import decode_json

RESPONSE = json.dumps(
    {"data": {"offers": [{"offer_id": f"off_{i}", "slices": [{"segments": [{}]}]} for i in range(5000)]}}
)


def test_a_large_response_decodes_as_json_does_without_a_collection(collections_started):
    assert gc.isenabled()
    expected = json.loads(RESPONSE)
    assert collections_started, "json.loads of this response runs the collector"
    gc.collect()  # the count starts from nothing, so what the decoding leaves behind cannot tip it
    collections_started.clear()
    assert decode_json(RESPONSE) == expected
    assert decode_json(RESPONSE.encode()) == expected
    assert not collections_started
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


@pytest.mark.parametrize(
    "text",
    [
        '{"price": NaN, "seats": Infinity}',  # json accepts these; orjson does not
        '{"id": 18446744073709551615, "n": -9223372036854775808}',  # the 64-bit limits
        '{"name": "\\ud800"}',  # a lone surrogate
        '{"a": 1, "a": 2}',  # the last one wins, as in json
        '{"total_amount": "1234.50", "f": 0.1, "e": 1e400, "u": "Zürich \\u00e9"}',
    ],
)
def test_every_text_decodes_to_what_json_makes_of_it(text):
    expected = json.loads(text)
    assert repr(decode_json(text)) == repr(expected)
    assert repr(decode_json(text.encode())) == repr(expected)


def test_an_integer_beyond_64_bits_becomes_a_float():
    assert decode_json('{"n": 123456789012345678901234567890}') == {"n": 1.2345678901234568e29}
