"""AGENT_CONTRACT guarantees, one test each, through the real SDK against the fake server."""

from __future__ import annotations

import json
import logging
import threading
import time

import pytest

from handlers.common.openai_adapter import OpenAIClientWrapper
from handlers.llm.config import ModelTarget
from handlers.llm.loop import AgentLoop
from handlers.llm.toolbox import ToolBox
from tests.fakes.openai_server import Reply


def _tool(name: str, **extra):
    return {
        "name": name,
        "description": f"{name} tool",
        "side_effects": False,
        "enabled": True,
        "schema": {"type": "object", "properties": {"bundle_id": {"type": "string"}}},
        **extra,
    }


def _outputs(body) -> dict:
    """call_id -> function_call_output text in a recorded request."""
    return {i["call_id"]: i["output"] for i in body["input"] if i.get("type") == "function_call_output"}


def _ask(loop, toolbox=None, **kwargs):
    return loop.run(instructions="Be brief.", messages=[{"role": "user", "content": "Hi"}], toolbox=toolbox, **kwargs)


# --- retries, backoff, fatal errors -----------------------------------------------------------


def test_rate_limit_honours_retry_after_then_cycles_to_next_target(server, make_loop, sleeps):
    server.script(Reply.rate_limited(retry_after="7"), Reply.ok(text="Hello"))

    outcome = _ask(make_loop())

    assert outcome.ok and outcome.text == "Hello"
    assert sleeps == [7.0]
    assert [b["model"] for b in server.sent_bodies] == ["gpt-4.1-mini", "gpt-4.1-nano"]
    assert [(e["model"], e["status"], e["error"]) for e in outcome.accounting] == [
        ("gpt-4.1-mini", "failed", "rate_limit"),
        ("gpt-4.1-nano", "ok", None),
    ]


def test_rate_limit_without_retry_after_backs_off_exponentially(server, make_loop, sleeps):
    server.script(Reply.rate_limited(), Reply.rate_limited(), Reply.ok(text="ok"))

    outcome = _ask(make_loop(backoff_base_s=1.5))

    assert outcome.ok
    assert sleeps == [1.5, 3.0]


def test_a_whole_cycle_of_rate_limited_targets_waits_the_maximum(server, make_loop, sleeps):
    server.script(Reply.rate_limited(), Reply.rate_limited(), Reply.ok(text="ok"))

    outcome = _ask(make_loop(targets=[ModelTarget("gpt-4.1-mini"), ModelTarget("gpt-4.1-nano")], backoff_max_s=20.0))

    assert outcome.ok and sleeps == [1.0, 20.0]


def test_a_retry_after_beyond_the_longest_wait_ends_the_turn_at_once(server, make_loop, sleeps):
    server.script(Reply.rate_limited(retry_after="3600"), Reply.ok(text="never reached"))

    outcome = _ask(make_loop(backoff_max_s=60.0))

    assert outcome.error["code"] == "llm_unavailable" and outcome.error["retryable"]
    assert sleeps == [] and len(server.requests) == 1


def test_server_error_then_success_falls_back_without_waiting(server, make_loop, sleeps):
    server.script(Reply.server_error(), Reply.ok(text="Back again", model="gpt-4.1-nano"))

    outcome = _ask(make_loop())

    assert outcome.ok and outcome.text == "Back again"
    assert sleeps == []
    assert [(e["provider"], e["model"], e["status"]) for e in outcome.accounting] == [
        ("openai", "gpt-4.1-mini", "failed"),
        ("openai", "gpt-4.1-nano", "ok"),
    ]


def test_attempts_stop_at_max_retries_cycling_round_robin(server, make_loop):
    server.script(*[Reply.server_error()] * 5)

    outcome = _ask(make_loop(max_retries=4))

    assert not outcome.ok and outcome.error["code"] == "llm_unavailable" and outcome.error["retryable"]
    assert [b["model"] for b in server.sent_bodies] == ["gpt-4.1-mini", "gpt-4.1-nano", "gpt-4o-mini", "gpt-4.1-mini"]
    assert len(outcome.accounting) == 4


def test_auth_error_is_not_retried(server, make_loop, sleeps):
    server.script(Reply.unauthorized(), Reply.ok(text="never reached"))

    outcome = _ask(make_loop())

    assert not outcome.ok
    assert outcome.error["code"] == "llm_auth" and outcome.error["retryable"] is False
    assert "Incorrect API key" in outcome.error["message"]
    assert len(server.requests) == 1 and sleeps == []
    assert [e["error"] for e in outcome.accounting] == ["auth"]


def test_quota_exceeded_is_not_retried(server, make_loop, sleeps):
    server.script(Reply.quota_exceeded(), Reply.ok(text="never reached"))

    outcome = _ask(make_loop())

    assert not outcome.ok and outcome.error["code"] == "llm_quota"
    assert len(server.requests) == 1 and sleeps == []


def test_client_timeout_is_retried_on_next_target(server, make_loop):
    slow_client_loop = make_loop()
    slow_client_loop.client = OpenAIClientWrapper(api_key="sk-test-key", base_url=server.base_url, timeout=0.3)
    server.script(Reply(200, Reply.ok(text="late").body, delay=1.0), Reply.ok(text="on time"))

    outcome = _ask(slow_client_loop)

    assert outcome.ok and outcome.text == "on time"
    assert [e["error"] for e in outcome.accounting] == ["timeout", None]


# --- refusals, truncation, bad output ------------------------------------------------------------


@pytest.mark.parametrize(
    ("reply", "said"),
    [
        (Reply.ok(refusal="I can't help with that."), "I can't help with that."),
        (Reply.ok(incomplete="content_filter"), "content filter"),
    ],
    ids=["refusal", "content-filter"],
)
def test_refusal_is_never_retried(server, make_loop, reply, said):
    server.script(reply, Reply.ok(text="never reached"))

    outcome = _ask(make_loop())

    assert not outcome.ok
    assert outcome.error["code"] == "llm_refused" and outcome.error["retryable"] is False
    assert said in outcome.error["message"]
    assert len(server.requests) == 1
    assert outcome.accounting[0]["error"] == "refused"


def test_an_empty_answer_is_retried_as_bad_output(server, make_loop):
    server.script(Reply.ok(), Reply.ok(text="Now with words."))

    outcome = _ask(make_loop())

    assert outcome.ok and outcome.text == "Now with words."
    assert [e["error"] for e in outcome.accounting] == ["bad_output", None]
    assert "the answer was empty" in server.sent_bodies[1]["input"][-1]["content"]


def test_truncation_is_retried_and_told_apart_from_bad_output(server, make_loop):
    schema_format = {"type": "json_schema", "name": "x", "schema": {"type": "object"}, "strict": False}
    server.script(*[Reply.ok(text='{"origin": ', incomplete="max_output_tokens")] * 3)

    truncated = _ask(make_loop(), text_format=schema_format)

    server.script(*[Reply.ok(text="not json at all")] * 3)
    bad = _ask(make_loop(), text_format=schema_format)

    assert truncated.error["code"] == "llm_truncated" and "max_output_tokens" in truncated.error["message"]
    assert [e["error"] for e in truncated.accounting] == ["truncated"] * 3
    assert {e["stop_reason"] for e in truncated.accounting} == {"max_output_tokens"}
    assert bad.error["code"] == "llm_bad_output"
    assert [e["error"] for e in bad.accounting] == ["bad_output"] * 3


def test_bad_output_retry_carries_a_one_off_notice(server, make_loop):
    schema_format = {"type": "json_schema", "name": "x", "schema": {"type": "object"}, "strict": False}
    server.script(Reply.ok(text="Sure! Here it is"), Reply.json_output({"adults": 2}))

    outcome = _ask(make_loop(), text_format=schema_format)

    assert outcome.ok and outcome.value == {"adults": 2}
    first, second = server.sent_bodies
    assert all("System notice" not in json.dumps(i) for i in first["input"])
    assert "not valid JSON" in second["input"][-1]["content"]
    assert second["text"] == {"format": schema_format}


def test_truncation_then_complete_answer_succeeds(server, make_loop):
    server.script(Reply.ok(text="Half an ans", incomplete="max_output_tokens"), Reply.ok(text="A whole answer."))

    outcome = _ask(make_loop())

    assert outcome.ok and outcome.text == "A whole answer."
    assert [e["status"] for e in outcome.accounting] == ["failed", "ok"]


# --- tools ---------------------------------------------------------------------------------------


def test_malformed_tool_arguments_are_repaired_and_logged(server, make_loop, caplog):
    seen = []
    toolbox = ToolBox([_tool("bundle_times")], {"bundle_times": lambda args: seen.append(args) or {"ok": True}})
    server.script(
        Reply.ok(calls=[{"name": "bundle_times", "arguments": '{"bundle_id": "B1",', "call_id": "c1"}]),
        Reply.ok(text="B1 leaves at 9."),
    )

    with caplog.at_level(logging.WARNING, logger="handlers.llm.toolbox"):
        outcome = _ask(make_loop(), toolbox)

    assert outcome.ok and seen == [{"bundle_id": "B1"}]
    assert outcome.tool_calls[0]["repaired"] is True
    warning = next(r for r in caplog.records if r.getMessage() == "repaired malformed tool arguments")
    assert warning.original == '{"bundle_id": "B1",' and warning.repaired == {"bundle_id": "B1"}


def test_unparseable_tool_arguments_are_dropped_and_the_model_told(server, make_loop, caplog):
    seen = []
    toolbox = ToolBox([_tool("bundle_times")], {"bundle_times": lambda args: seen.append(args) or {"ok": True}})
    server.script(
        Reply.ok(
            calls=[
                {"name": "bundle_times", "arguments": "not json at all", "call_id": "bad"},
                {"name": "bundle_times", "arguments": {"bundle_id": "B2"}, "call_id": "good"},
            ]
        ),
        Reply.ok(text="done"),
    )

    with caplog.at_level(logging.ERROR, logger="handlers.llm.toolbox"):
        outcome = _ask(make_loop(), toolbox)

    outputs = _outputs(server.sent_bodies[1])
    assert outputs["bad"].startswith("(tool failed: invalid arguments")
    assert "valid JSON" in outputs["bad"]
    assert json.loads(outputs["good"]) == {"ok": True}
    assert seen == [{"bundle_id": "B2"}]
    assert any(getattr(r, "raw", None) == "not json at all" for r in caplog.records)
    assert outcome.ok


def test_a_tool_that_hangs_times_out(server, make_loop):
    release = threading.Event()
    toolbox = ToolBox([_tool("bundle_baggage")], {"bundle_baggage": lambda args: release.wait(30)})
    server.script(
        Reply.ok(calls=[{"name": "bundle_baggage", "arguments": {"bundle_id": "B1"}, "call_id": "slow"}]),
        Reply.ok(text="Sorry, I could not look that up."),
    )
    started = time.monotonic()
    try:
        outcome = _ask(make_loop(tool_timeout_s=0.2), toolbox)
    finally:
        release.set()

    assert time.monotonic() - started < 5
    assert _outputs(server.sent_bodies[1]) == {"slow": "(tool failed: timeout)"}
    tool_entry = next(e for e in outcome.accounting if e["type"] == "tool")
    assert tool_entry["status"] == "failed" and tool_entry["error"] == "timeout"
    assert outcome.ok


def test_excess_tool_calls_are_dropped_and_reported(server, make_loop):
    ran = []
    toolbox = ToolBox([_tool("bundle_times")], {"bundle_times": lambda args: ran.append(args["bundle_id"]) or {}})
    calls = [{"name": "bundle_times", "arguments": {"bundle_id": f"B{i}"}, "call_id": f"c{i}"} for i in range(1, 6)]
    server.script(Reply.ok(calls=calls), Reply.ok(text="done"))

    outcome = _ask(make_loop(max_tool_calls_per_turn=2), toolbox)

    assert ran == ["B1", "B2"]
    outputs = _outputs(server.sent_bodies[1])
    assert set(outputs) == {"c1", "c2", "c3", "c4", "c5"}
    for dropped in ("c3", "c4", "c5"):
        assert outputs[dropped].startswith("(tool failed: dropped: at most 2 tool calls per turn")
    assert [c["status"] for c in outcome.tool_calls] == ["ok", "ok", "dropped", "dropped", "dropped"]


def test_tool_response_over_the_cap_is_truncated_with_the_notice(server, make_loop, caplog):
    big = {"text": "x" * 5000}
    toolbox = ToolBox([_tool("bundle_times")], {"bundle_times": lambda args: big})
    server.script(Reply.ok(calls=[{"name": "bundle_times", "arguments": {}, "call_id": "c1"}]), Reply.ok(text="ok"))

    with caplog.at_level(logging.WARNING, logger="handlers.llm.toolbox"):
        _ask(make_loop(tool_response_max_bytes=300), toolbox)

    output = _outputs(server.sent_bodies[1])["c1"]
    size = len(json.dumps(big).encode())
    assert output.startswith(f"[TRUNCATED] Original size {size} bytes; truncated to 300 bytes.\n")
    assert output.endswith("x" * 50) and len(output.split("\n", 1)[1].encode()) == 300
    warning = next(r for r in caplog.records if r.getMessage() == "truncated a tool response")
    assert (warning.tool, warning.bytes, warning.limit_bytes) == ("bundle_times", size, 300)


def test_max_turns_ends_with_a_synthetic_failure_and_a_tool_free_last_turn(server, make_loop):
    toolbox = ToolBox([_tool("bundle_times")], {"bundle_times": lambda args: {}})
    server.respond_with(lambda request: Reply.ok(calls=[{"name": "bundle_times", "arguments": {"bundle_id": "B1"}}]))

    outcome = _ask(make_loop(max_turns=3), toolbox)

    assert not outcome.ok and outcome.error["code"] == "max_turns_exhausted"
    assert outcome.turns == 3 and len(server.requests) == 3
    assert [b["tool_choice"] for b in server.sent_bodies] == ["auto", "auto", "none"]
    assert len([e for e in outcome.accounting if e["type"] == "tool"]) == 2


# --- accounting ----------------------------------------------------------------------------------


def test_every_llm_request_has_an_accounting_entry(server, make_loop, clock):
    toolbox = ToolBox([_tool("bundle_times")], {"bundle_times": lambda args: {"depart": "09:00"}})
    server.script(
        Reply.server_error(),
        Reply.ok(
            calls=[{"name": "bundle_times", "arguments": {"bundle_id": "B1"}}],
            input_tokens=1000,
            output_tokens=50,
            cached_tokens=400,
        ),
        Reply.rate_limited(retry_after="0"),
        Reply.ok(text="Leaves at 09:00.", input_tokens=1200, output_tokens=30),
    )

    outcome = _ask(make_loop(), toolbox)

    llm = [e for e in outcome.accounting if e["type"] == "llm"]
    assert len(llm) == len(server.requests) == 4
    for entry in llm:
        assert set(entry) >= {
            "provider",
            "model",
            "status",
            "latency_ms",
            "input_tokens",
            "output_tokens",
            "cached_tokens",
            "cost_usd",
            "at",
        }
        assert entry["latency_ms"] >= 0 and entry["at"] == clock().isoformat()
    ok_entry = llm[1]
    assert (ok_entry["input_tokens"], ok_entry["output_tokens"], ok_entry["cached_tokens"]) == (1000, 50, 400)
    # gpt-4.1-nano: 600 input at 0.10, 400 cached at 0.025, 50 output at 0.40 per million.
    assert ok_entry["cost_usd"] == "0.000090"
    assert [e["type"] for e in outcome.accounting] == ["llm", "llm", "tool", "llm", "llm"]


def test_an_unexpected_client_exception_still_returns_a_result():
    class Exploding:
        def create(self, **request):
            raise RuntimeError("boom")

    loop = AgentLoop(client=Exploding(), targets=[ModelTarget("gpt-4.1-mini")])

    outcome = _ask(loop)

    assert not outcome.ok and outcome.error == {
        "code": "llm_internal",
        "message": "agent loop failed: RuntimeError",
        "retryable": True,
    }
