"""A tool run's arguments and result go to their columns as the JSON text redaction encoded: once,
as they read back, secrets masked, and queries on the columns still work."""

import json

import pytest

from trips.models import ToolRun
from trips.models.json_text import JSONText, JSONTextEncoder
from trips.services.toolruns import toolrun_kept, toolrun_record

pytestmark = pytest.mark.django_db

OFFERS = [
    {"offer_id": f"off_{i}", "price": {"total_amount": f"{100 + i}.00", "currency": "USD"}, "name": "Café Ünïcode"}
    for i in range(3)
]


def _record(trip, arguments, result):
    return toolrun_record(
        trip_id=trip.pk,
        message_id=None,
        call_id="call_1",
        tool="flight_quote_search",
        arguments=arguments,
        result=result,
        success=True,
        error=None,
        latency_ms=3,
        attempt=1,
        accounting=[],
    )


def test_a_run_is_stored_as_the_text_it_was_redacted_as_and_reads_back_the_same(trip):
    result = {"success": True, "output": {"offers": OFFERS}, "input": {"dropped": True}}
    run = _record(trip, {"segment_id": "seg_1", "origin": "EWR"}, result)
    stored = ToolRun.objects.get(pk=run.pk)
    assert stored.arguments == {"segment_id": "seg_1", "origin": "EWR"}
    assert stored.result == {"success": True, "output": {"offers": OFFERS}}  # no input: stored_result
    assert ToolRun.objects.filter(trip=trip, arguments__segment_id="seg_1").count() == 1


def test_secrets_in_a_run_are_masked_in_the_stored_text(trip):
    card, token = "4111 1111 1111 1111", "tdk_apv_" + "C" * 43
    result = {"success": True, "output": {"note": f"card {card}", "passengers": [{"born_on": "1980-01-02"}]}}
    run = _record(trip, {"approval_token": token, "payment_method_id": "3"}, result)
    row = ToolRun.objects.filter(pk=run.pk).values("arguments", "result").get()
    text = json.dumps(row)
    assert card not in text and token not in text and "1980-01-02" not in text
    assert row["arguments"]["approval_token"] == "[REDACTED]" and row["arguments"]["payment_method_id"] == "3"


def test_a_missing_result_stays_null_and_other_values_encode_as_usual(trip):
    arguments, result = toolrun_kept(arguments={"a": 1}, result=None)
    assert isinstance(arguments, JSONText) and result is None
    assert json.dumps({"a": [1, "é"]}, cls=JSONTextEncoder) == json.dumps({"a": [1, "é"]})
    assert json.dumps(JSONText('{"a":1}'), cls=JSONTextEncoder) == '{"a":1}'
