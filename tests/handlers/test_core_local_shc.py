"""The in-core SHC: registry lookup, schema checks, handler resolution and the time limit."""

from __future__ import annotations

import copy
import threading
import time
from datetime import UTC, datetime

from handlers.common.defaults import DEFAULT_TOOLS
from handlers.common.host import ToolDeps
from handlers.local_shc import LocalShc
from handlers.tools import tool_outcome

ARGS = {
    "segment_id": "seg_1",
    "origin": {"code": "EWR"},
    "destination": {"code": "DEN"},
    "depart_date": "2027-01-30",
    "passengers": {"adults": 1},
}
HANDLER = "handlers.tools:FlightQuoteSearch"
NOW = datetime(2026, 12, 1, 14, tzinfo=UTC)


class SlowSupplier:
    def search_flights(self, **kwargs):
        time.sleep(0.5)
        return []


class CountingSupplier:
    def __init__(self):
        self.calls = []

    def search_flights(self, **kwargs):
        self.calls.append(kwargs)
        return []


def tools_with(timeout_s=None, enabled=True):
    tools = copy.deepcopy(DEFAULT_TOOLS)
    for tool in tools:
        if tool["name"] == "flight_quote_search":
            tool["enabled"] = enabled
            if timeout_s is not None:
                tool["timeout_s"] = timeout_s
    return tools


def test_a_valid_call_reaches_the_specialist_with_the_injected_clock():
    supplier = CountingSupplier()
    shc = LocalShc(ToolDeps(supplier=supplier), trip_id="t1", clock=lambda: NOW)
    result = shc.handler_call("default", {"id": "acme"}, "flight_quote_search", HANDLER, ARGS)
    assert result["output"]["tool_name"] == "flight_quote_search"
    success, output = tool_outcome(result)
    assert success and output == {"segment_id": "seg_1", "offers": [], "count": 0, "found": 0, "ruled_out": {}}
    assert supplier.calls[0]["origin"] == "EWR" and supplier.calls[0]["now"].isoformat() == "2026-12-01T14:00:00+00:00"


def test_arguments_are_checked_against_the_registry_schema():
    shc = LocalShc(ToolDeps(supplier=CountingSupplier()))
    bad = shc.handler_call(
        "default",
        {},
        "flight_quote_search",
        HANDLER,
        {**ARGS, "depart_date": "30/01/2027", "passengers": {"adults": 0}},
    )
    error = bad["output"]["error"]
    assert error["code"] == "invalid_arguments" and not error["retryable"]
    assert "depart_date" in error["message"] and "passengers.adults" in error["message"]


def test_unknown_disabled_and_foreign_handlers_are_refused():
    shc = LocalShc(ToolDeps(), tools=tools_with(enabled=False))
    assert (
        shc.handler_call("default", {}, "flight_quote_search", HANDLER, ARGS)["output"]["error"]["code"] == "not_found"
    )
    assert shc.handler_call("default", {}, "teleport", HANDLER, {})["output"]["error"]["code"] == "not_found"
    foreign = LocalShc(ToolDeps()).handler_call("default", {}, "flight_quote_search", "subprocess:run", ARGS)
    assert foreign["output"]["error"]["code"] == "forbidden"
    missing = LocalShc(ToolDeps()).handler_call("default", {}, "flight_quote_search", "handlers.tools:Nope", ARGS)
    assert missing["output"]["error"]["code"] == "not_available"


def test_the_tool_timeout_is_enforced_and_retryable():
    shc = LocalShc(ToolDeps(supplier=SlowSupplier()), tools=tools_with(timeout_s=0.05), clock=lambda: NOW)
    started = time.monotonic()
    result = shc.handler_call("default", {}, "flight_quote_search", HANDLER, ARGS)
    assert time.monotonic() - started < 0.4
    assert result["output"]["error"]["code"] == "timeout" and result["output"]["error"]["retryable"] is True


class ThreadNotingSupplier:
    def __init__(self, pause_s=0.0):
        self.threads, self.pause_s = [], pause_s

    def search_flights(self, **kwargs):
        self.threads.append(threading.get_ident())
        time.sleep(self.pause_s)
        return []


def test_an_inline_tool_runs_on_the_callers_thread_others_on_a_worker_thread():
    supplier = ThreadNotingSupplier()
    inline = LocalShc(ToolDeps(supplier=supplier), clock=lambda: NOW, inline={"flight_quote_search"})
    threaded = LocalShc(ToolDeps(supplier=supplier), clock=lambda: NOW)
    assert tool_outcome(inline.handler_call("default", {}, "flight_quote_search", HANDLER, ARGS))[0]
    assert tool_outcome(threaded.handler_call("default", {}, "flight_quote_search", HANDLER, ARGS))[0]
    assert supplier.threads[0] == threading.get_ident() != supplier.threads[1]


def test_an_inline_tool_that_overran_its_limit_is_reported_as_a_timeout():
    shc = LocalShc(
        ToolDeps(supplier=ThreadNotingSupplier(pause_s=0.1)),
        tools=tools_with(timeout_s=0.05),
        clock=lambda: NOW,
        inline={"flight_quote_search"},
    )
    result = shc.handler_call("default", {}, "flight_quote_search", HANDLER, ARGS)
    assert result["output"]["error"]["code"] == "timeout" and result["output"]["error"]["retryable"] is True
