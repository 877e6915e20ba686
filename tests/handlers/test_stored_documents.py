"""A TripIntent and a bundles widget as a host stores them (``handlers.stored``): bundles and kept
offers as tables, read back exactly as the core made them, and far smaller."""

import copy
import json

import pytest

from handlers.stored import (
    bundles_table,
    intent_loaded,
    intent_stored,
    table_bundles,
    widget_loaded,
    widget_stored,
)
from handlers.testing import Harness

MESSAGES = [
    "4 people going from Newark to Denver for 3 nights on January 30",
    "2 adults and 2 kids aged 5 and 8 from Boston to Orlando, March 14 to March 21, refundable hotel",
    "me and my wife from Chicago to London May 2 to May 9, business class, 4 star hotel",
    "one way from SFO to Seattle on Feb 3, just me, nonstop only",  # flights only
]


def _text(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _stored_and_back(value, stored, loaded):
    text = _text(stored(value))
    back = loaded(json.loads(text))
    return text, back


@pytest.fixture(scope="module", params=MESSAGES)
def searched(request):
    h = Harness()
    h.say(request.param)
    return h


def test_a_tripintent_reads_back_as_the_core_kept_it_and_its_bundles_take_far_less(searched):
    doc = searched.intent()
    assert doc["working_memory"]["ranked_bundles"], "the search showed bundles"
    text, back = _stored_and_back(doc, intent_stored, intent_loaded)
    assert back == doc and _text(back) == _text(doc), "the same document, key order included"
    wm = json.loads(text)["working_memory"]
    assert "ranked_bundles" not in wm and set(wm["ranked_bundles_table"]) >= {"bundles", "flights"}
    before = len(_text(doc["working_memory"]["ranked_bundles"]))
    assert len(_text(wm["ranked_bundles_table"])) < before * 0.65


def test_the_bundles_widget_reads_back_as_it_was_shown(searched):
    (widget,) = searched.widgets("bundles")
    text, back = _stored_and_back(widget, widget_stored, widget_loaded)
    assert back == widget and _text(back) == _text(widget)
    assert json.loads(text)["type"] == "bundles" and len(text) < len(_text(widget)) * 0.8


def test_documents_stored_before_and_other_widgets_read_as_they_are(searched):
    doc = searched.intent()
    assert intent_loaded(doc) is doc, "a TripIntent stored before tables"
    (summary,) = searched.widgets("trip_summary")
    assert widget_stored(summary) is summary and widget_loaded(summary) is summary
    for value in ({}, None, [], "text", {"working_memory": None}, {"type": "bundles"}):
        assert intent_loaded(intent_stored(value)) == value
        assert widget_loaded(widget_stored(value)) == value


def test_bundles_of_any_shape_read_back_whole(searched):
    bundles = copy.deepcopy(searched.intent()["working_memory"]["ranked_bundles"])
    bundles[0]["hotels"] = []  # a bundle without a hotel
    bundles[1].pop("flights")  # nor flights
    bundles[2]["flights"][0]["summary"]["note"] = "other shape"
    bundles[-1]["extra"] = {"a": 1}
    assert table_bundles(json.loads(_text(bundles_table(bundles)))) == bundles
    assert bundles_table(bundles[:1]) is None
    assert bundles_table([*bundles, "not a bundle"]) is None
    assert bundles_table([{**bundles[0], "flights": 2}, bundles[1]]) is None  # items must be lists
