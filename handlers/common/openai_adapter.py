"""The one module in ``handlers/`` that imports ``openai`` (an import-linter contract says so).

Everything else speaks plain dicts: ``OpenAIClientWrapper.create(**request)`` returns the
Responses body as a dict and turns SDK exceptions into ``LLMError`` with a ``kind`` the agent
loop decides on (retry, back off, or fail at once). The ``extract_*`` helpers read a Responses
body, as a dict or as an SDK object, so tests can feed either.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Any, Dict, List, Mapping, Optional, Protocol

import json_repair
import openai

from .types import ToolCall

# LLMError.kind values. Only these are worth another attempt (on the next model target).
RETRYABLE_KINDS = frozenset({"rate_limit", "server", "network", "timeout", "model_unavailable"})


class LLMError(Exception):
    """A failed Responses request, classified.

    kind: ``auth`` (401/403) and ``quota`` (429 insufficient_quota) are fatal; ``rate_limit``
    (429, ``retry_after`` seconds when the server said), ``server`` (5xx, 408, 409),
    ``network``, ``timeout`` and ``model_unavailable`` (404) are retried; ``bad_request``
    (other 4xx) is not: the same request would fail again.
    """

    def __init__(self, kind: str, message: str, *, status: Optional[int] = None, retry_after: Optional[float] = None):
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.status = status
        self.retry_after = retry_after

    @property
    def retryable(self) -> bool:
        return self.kind in RETRYABLE_KINDS


class OpenAIResponsesClient(Protocol):
    """What the LLM code needs from a client: one Responses request, as a dict body."""

    def create(self, **request: Any) -> Dict[str, Any]:
        """Send ``request`` to ``POST /responses``; return the body or raise ``LLMError``."""


class OpenAIClientWrapper:
    """The official SDK behind ``OpenAIResponsesClient``.

    SDK retries are off (``max_retries=0``): the agent loop owns retries, so it can cycle
    model targets, honour Retry-After through an injected sleeper and account every attempt.
    """

    def __init__(self, *, api_key: Optional[str], base_url: Optional[str] = None, timeout: float = 30.0):
        # An OpenAI-compatible server without auth still needs some key for the SDK to start.
        self._client = openai.OpenAI(api_key=api_key or "no-key", base_url=base_url, max_retries=0, timeout=timeout)

    def create(self, **request: Any) -> Dict[str, Any]:
        try:
            response = self._client.responses.create(**request)
        except openai.APITimeoutError as exc:
            raise LLMError("timeout", "the model did not answer in time") from exc
        except openai.APIConnectionError as exc:
            raise LLMError("network", f"could not reach the model server: {exc.message}") from exc
        except openai.APIStatusError as exc:
            raise classify_status_error(exc.status_code, exc.body, exc.response.headers) from exc
        except openai.OpenAIError as exc:
            raise LLMError("bad_request", str(exc)) from exc
        return response.model_dump(mode="json")


def classify_status_error(status: int, body: Any, headers: Mapping[str, str]) -> LLMError:
    """An HTTP error from the server as an ``LLMError`` (quota is a 429 that must not be retried)."""
    error = body.get("error", body) if isinstance(body, dict) else {}
    error = error if isinstance(error, dict) else {}
    code = str(error.get("code") or error.get("type") or "")
    message = str(error.get("message") or f"HTTP {status}")
    if status in (401, 403):
        return LLMError("auth", message, status=status)
    if status == 429 and code == "insufficient_quota":
        return LLMError("quota", message, status=status)
    if status == 429:
        return LLMError("rate_limit", message, status=status, retry_after=parse_retry_after(headers))
    if status == 404:
        return LLMError("model_unavailable", message, status=status)
    if status >= 500 or status in (408, 409):
        return LLMError("server", message, status=status)
    return LLMError("bad_request", message, status=status)


def parse_retry_after(headers: Mapping[str, str]) -> Optional[float]:
    """Seconds to wait from ``retry-after-ms`` or ``retry-after`` (seconds or an HTTP date)."""
    lowered = {k.lower(): v for k, v in dict(headers).items()}
    if "retry-after-ms" in lowered:
        try:
            return max(float(lowered["retry-after-ms"]) / 1000.0, 0.0)
        except ValueError:
            pass
    value = lowered.get("retry-after")
    if not value:
        return None
    try:
        return max(float(value), 0.0)
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    date_header = lowered.get("date")
    sent = parsedate_to_datetime(date_header) if date_header else None
    return max((when - sent).total_seconds(), 0.0) if sent else None


# --- reading a Responses body --------------------------------------------------------------


def _body(resp: Any) -> Dict[str, Any]:
    if isinstance(resp, dict):
        return resp
    if hasattr(resp, "model_dump"):
        return resp.model_dump(mode="json")
    return {}


def _message_parts(resp: Any) -> List[Dict[str, Any]]:
    parts: List[Dict[str, Any]] = []
    for item in _body(resp).get("output") or []:
        if item.get("type") == "message":
            parts.extend(c for c in item.get("content") or [] if isinstance(c, dict))
    return parts


def extract_output_text(resp: Any) -> str:
    """All ``output_text`` parts joined (empty string when the model said nothing)."""
    return "".join(p.get("text") or "" for p in _message_parts(resp) if p.get("type") == "output_text")


def extract_refusal(resp: Any) -> Optional[str]:
    """The model's refusal text, if it refused."""
    refusals = [p.get("refusal") or "" for p in _message_parts(resp) if p.get("type") == "refusal"]
    return " ".join(r for r in refusals if r) or ("refused" if refusals else None)


def incomplete_reason(resp: Any) -> Optional[str]:
    """Why a response stopped early (``max_output_tokens``, ``content_filter``), else None."""
    body = _body(resp)
    if body.get("status") != "incomplete":
        return None
    details = body.get("incomplete_details") or {}
    return str(details.get("reason") or "unknown")


@dataclass(frozen=True)
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0
    cached_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.input_tokens + self.output_tokens


def extract_usage(resp: Any) -> Usage:
    usage = _body(resp).get("usage") or {}
    details = usage.get("input_tokens_details") or {}
    return Usage(
        input_tokens=int(usage.get("input_tokens") or 0),
        output_tokens=int(usage.get("output_tokens") or 0),
        cached_tokens=int(details.get("cached_tokens") or 0),
    )


@dataclass(frozen=True)
class FunctionCall:
    """A ``function_call`` output item with its arguments still as the raw JSON string."""

    name: str
    call_id: str
    arguments: str


def extract_function_calls(resp: Any) -> List[FunctionCall]:
    calls = []
    for item in _body(resp).get("output") or []:
        if item.get("type") == "function_call":
            raw = item.get("arguments")
            raw = raw if isinstance(raw, str) else json.dumps(raw or {})
            calls.append(
                FunctionCall(str(item.get("name") or ""), str(item.get("call_id") or item.get("id") or ""), raw)
            )
    return calls


@dataclass(frozen=True)
class ParsedArguments:
    """Tool arguments after the contract's parse-then-repair pipeline.

    ``value`` is None when even repair failed; ``repaired`` says the raw text was not valid
    JSON and ``value`` came from json-repair.
    """

    value: Optional[Dict[str, Any]]
    repaired: bool = False
    error: Optional[str] = None


def parse_tool_arguments(raw: str) -> ParsedArguments:
    """``json.loads``, then ``json_repair`` and a re-parse; the result must be a JSON object."""
    text = (raw or "").strip() or "{}"
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        first_error = f"{exc.msg} at position {exc.pos}"
        repaired_text = json_repair.repair_json(text)
        try:
            value = json.loads(repaired_text) if repaired_text else None
        except json.JSONDecodeError:
            value = None
        if not isinstance(value, dict) or (not value and text not in ("{}", "")):
            return ParsedArguments(None, error=f"arguments are not valid JSON ({first_error})")
        return ParsedArguments(value, repaired=True)
    if not isinstance(value, dict):
        return ParsedArguments(None, error="arguments must be a JSON object")
    return ParsedArguments(value)


def extract_tool_calls(resp: Any) -> List[ToolCall]:
    """The response's function calls whose arguments parse (after repair) as a JSON object."""
    calls = []
    for fc in extract_function_calls(resp):
        parsed = parse_tool_arguments(fc.arguments)
        if parsed.value is not None:
            calls.append(ToolCall(name=fc.name, arguments=parsed.value, call_id=fc.call_id))
    return calls
