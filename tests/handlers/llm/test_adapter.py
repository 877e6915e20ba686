"""The openai adapter's pure parts: error classes, Retry-After, argument repair, body readers."""

from __future__ import annotations

import pytest

from handlers.common.openai_adapter import (
    classify_status_error,
    extract_function_calls,
    extract_output_text,
    extract_refusal,
    extract_tool_calls,
    extract_usage,
    incomplete_reason,
    parse_retry_after,
    parse_tool_arguments,
)
from handlers.llm.scripted import response_body


@pytest.mark.parametrize(
    ("status", "body", "kind", "retryable"),
    [
        (401, {"error": {"code": "invalid_api_key"}}, "auth", False),
        (403, {"error": {"code": "unsupported_country"}}, "auth", False),
        (429, {"error": {"code": "insufficient_quota"}}, "quota", False),
        (429, {"error": {"code": "rate_limit_exceeded"}}, "rate_limit", True),
        (404, {"error": {"code": "model_not_found"}}, "model_unavailable", True),
        (500, "<html>oops</html>", "server", True),
        (503, None, "server", True),
        (400, {"error": {"message": "bad schema"}}, "bad_request", False),
    ],
)
def test_http_errors_are_classified(status, body, kind, retryable):
    error = classify_status_error(status, body, {})
    assert (error.kind, error.retryable, error.status) == (kind, retryable, status)


@pytest.mark.parametrize(
    ("headers", "seconds"),
    [
        ({"retry-after": "3"}, 3.0),
        ({"Retry-After": "1.5"}, 1.5),
        ({"retry-after-ms": "250", "retry-after": "9"}, 0.25),
        ({"retry-after": "Sun, 22 Nov 2026 01:00:30 GMT", "date": "Sun, 22 Nov 2026 01:00:00 GMT"}, 30.0),
        ({"retry-after": "soon"}, None),
        ({}, None),
    ],
)
def test_retry_after_header_forms(headers, seconds):
    assert parse_retry_after(headers) == seconds


@pytest.mark.parametrize(
    ("raw", "value", "repaired"),
    [
        ('{"bundle_id": "B1"}', {"bundle_id": "B1"}, False),
        ("", {}, False),
        ('{"bundle_id": "B1",', {"bundle_id": "B1"}, True),
        ("{'bundle_id': 'B1'}", {"bundle_id": "B1"}, True),
        ('{"bundle_id": B1}', {"bundle_id": "B1"}, True),
        ("not json at all", None, False),
        ("{bad", None, False),
        ("[1, 2]", None, False),
    ],
)
def test_tool_arguments_parse_then_repair(raw, value, repaired):
    parsed = parse_tool_arguments(raw)
    assert (parsed.value, parsed.repaired) == (value, repaired)
    assert (parsed.error is None) == (value is not None)


def test_body_readers():
    body = response_body(
        text="Hello",
        refusal="Not that.",
        calls=[
            {"name": "a", "arguments": {"x": 1}, "call_id": "c1"},
            {"name": "b", "arguments": "oops", "call_id": "c2"},
        ],
        incomplete="max_output_tokens",
        input_tokens=10,
        output_tokens=5,
        cached_tokens=4,
    )
    assert extract_output_text(body) == "Hello"
    assert extract_refusal(body) == "Not that."
    assert incomplete_reason(body) == "max_output_tokens"
    assert (extract_usage(body).input_tokens, extract_usage(body).cached_tokens, extract_usage(body).total_tokens) == (
        10,
        4,
        15,
    )
    assert [(c.name, c.call_id, c.arguments) for c in extract_function_calls(body)] == [
        ("a", "c1", '{"x": 1}'),
        ("b", "c2", "oops"),
    ]
    assert [(c.name, c.arguments) for c in extract_tool_calls(body)] == [("a", {"x": 1})]
    assert incomplete_reason(response_body(text="done")) is None and extract_refusal(response_body(text="done")) is None
