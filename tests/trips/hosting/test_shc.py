from decimal import Decimal

import pytest

from handlers.common.types import fail, ok
from trips.hosting.shc import DjangoSHC
from trips.models import AuditEvent, ToolRun, Trip
from trips.services.batch import TurnWrites, atomic_with

TOKEN = "tdk_apv_" + "B" * 43


class Inner:
    def __init__(self, result=None, raises=None):
        self.result, self.raises, self.calls = result, raises, []

    def handler_call(self, portfolio, org, tool, handler, args):
        self.calls.append((tool, args))
        if self.raises:
            raise self.raises
        return self.result


def _wrapped(output, success=True):
    inner = ok({}, output) if success else fail({}, "timeout", "slow", retryable=True)
    return ok({}, {"tool_name": "x", "result": inner})


def test_a_successful_call_leaves_a_run_and_two_events(trip):
    shc = DjangoSHC(inner=Inner(_wrapped({"offers": []})), trip_id=trip.pk)
    result = shc.handler_call("default", {}, "flight_quote_search", "handlers.tools:FlightQuoteSearch", {"a": 1})
    assert result["success"]
    run = ToolRun.objects.get(trip=trip)
    assert (run.tool, run.status, run.attempt, run.arguments) == ("flight_quote_search", "succeeded", 1, {"a": 1})
    types = list(AuditEvent.objects.filter(trip=trip).order_by("seq").values_list("type", flat=True))
    assert types == ["trip.created", "tool.called", "tool.returned"]


@pytest.mark.django_db(transaction=True)
def test_a_quick_tools_start_names_the_call_and_its_run_keeps_the_arguments(trip):
    """Queued with its run (one transaction), a quick tool's ``tool.called`` does not repeat the
    arguments; a tool whose start commits alone keeps them there (a crash mid-call leaves them)."""
    writes = TurnWrites()
    shc = DjangoSHC(inner=Inner(_wrapped({"bundles": []})), trip_id=trip.pk, writes=writes)
    shc.handler_call("default", {}, "trip_option_ranker", "h", {"flight_quotes": [], "top_k": 5})
    shc.handler_call("default", {}, "reservation_hold_create", "h", {"bundle_id": "B1"})  # not quick
    with atomic_with(writes):
        pass
    called = {e.payload["tool"]: e for e in AuditEvent.objects.filter(trip=trip, type="tool.called")}
    runs = {r.tool: r for r in ToolRun.objects.filter(trip=trip)}
    assert set(called) == set(runs) == {"trip_option_ranker", "reservation_hold_create"}
    assert called["trip_option_ranker"].payload == {"tool": "trip_option_ranker", "attempt": 1}
    assert runs["trip_option_ranker"].arguments == {"flight_quotes": [], "top_k": 5}
    assert runs["trip_option_ranker"].call_id == called["trip_option_ranker"].causation_id
    assert called["reservation_hold_create"].payload["arguments"] == {"bundle_id": "B1"}


def test_tokens_never_reach_the_rows(trip):
    shc = DjangoSHC(inner=Inner(_wrapped({"booking": {}})), trip_id=trip.pk)
    args = {"approval_token": TOKEN, "payment_method_id": "3", "note": f"use {TOKEN}"}
    shc.handler_call("default", {}, "booking_confirm_and_purchase", "handlers.tools:X", args)
    run = ToolRun.objects.get(trip=trip)
    stored = str(run.arguments) + str(run.result) + str(list(AuditEvent.objects.values_list("payload", flat=True)))
    assert TOKEN not in stored and "[REDACTED]" in str(run.arguments)


def test_a_failure_is_recorded_with_its_error_and_attempts_count(trip):
    shc = DjangoSHC(inner=Inner(_wrapped({}, success=False)), trip_id=trip.pk)
    shc.handler_call("default", {}, "flight_quote_search", "h", {})
    shc.handler_call("default", {}, "flight_quote_search", "h", {})
    runs = list(ToolRun.objects.filter(trip=trip).order_by("pk"))
    assert [(r.status, r.attempt, r.error["code"]) for r in runs] == [
        ("failed", 1, "timeout"),
        ("failed", 2, "timeout"),
    ]
    assert AuditEvent.objects.filter(trip=trip, type="tool.failed").count() == 2


def test_an_exception_in_the_host_is_a_failed_result_not_a_crash(trip):
    shc = DjangoSHC(inner=Inner(raises=RuntimeError("boom")), trip_id=trip.pk)
    result = shc.handler_call("default", {}, "hotel_quote_search", "h", {})
    assert result["success"] is False and result["output"]["error"]["code"] == "internal_error"
    assert ToolRun.objects.get(trip=trip).status == "failed"


def test_llm_accounting_becomes_usage_events_and_trip_cost(trip):
    accounting = [
        {"type": "llm", "model": "gpt-4.1-mini", "total_tokens": 900, "cost_usd": "0.001200"},
        {"type": "llm", "model": "gpt-4.1-mini", "total_tokens": 300, "cost_usd": "0.000300"},
        {"type": "tool", "tool": "x"},
    ]
    shc = DjangoSHC(inner=Inner(_wrapped({"fields": {}, "accounting": accounting})), trip_id=trip.pk)
    shc.handler_call("default", {}, "trip_requirements_extract", "h", {"text": "hi"})
    usage = AuditEvent.objects.filter(trip=trip, type="llm.usage")
    assert usage.count() == 2 and usage.first().payload["model"] == "gpt-4.1-mini"
    assert Trip.objects.get(pk=trip.pk).llm_cost == Decimal("0.0015")


@pytest.mark.parametrize("cost", [None, "n/a"])
def test_unpriced_usage_costs_nothing(trip, cost):
    output = {"accounting": [{"type": "llm", "model": "local", "cost_usd": cost}]}
    DjangoSHC(inner=Inner(_wrapped(output)), trip_id=trip.pk).handler_call("default", {}, "t", "h", {})
    assert Trip.objects.get(pk=trip.pk).llm_cost == 0


def test_another_legs_search_is_a_first_attempt_not_a_retry(trip):
    shc = DjangoSHC(inner=Inner(_wrapped({}, success=False)), trip_id=trip.pk)
    shc.handler_call("default", {}, "flight_quote_search", "h", {"segment_id": "seg_1"})
    shc.handler_call("default", {}, "flight_quote_search", "h", {"segment_id": "seg_2"})
    shc.handler_call("default", {}, "flight_quote_search", "h", {"segment_id": "seg_1"})
    assert [r.attempt for r in ToolRun.objects.filter(trip=trip).order_by("pk")] == [1, 1, 2]
