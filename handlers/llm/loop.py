"""The bounded agent loop of ``shared/spec/AGENT_CONTRACT.md``, as it applies to TripDesk.

One ``run`` is a conversation of at most ``max_turns`` turns; a turn is one model answer
(after up to ``max_retries`` attempts, cycling the model targets round-robin) plus the tool
calls it asked for (at most ``max_tool_calls_per_turn``; the excess is dropped and the model
is told). Every attempt leaves an accounting entry. Whatever happens, ``run`` returns a
``LoopOutcome``; it never raises.

Attempt outcomes:
- auth or quota error: stop at once, no retry;
- rate limit: wait Retry-After (else exponential backoff, the maximum once a whole cycle of
  targets was rate-limited) through the injected ``sleep``, next target;
- server, network, timeout: next target at once;
- refusal (or a content-filter stop): stop, never retried;
- truncation (``status: incomplete``, ``max_output_tokens``): retried; reported as ``llm_truncated``;
- bad output (empty, or not JSON for the requested schema): retried with a one-off notice to
  the model; reported as ``llm_bad_output``.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence

from handlers.common.clock import Clock
from handlers.common.openai_adapter import (
    FunctionCall,
    LLMError,
    OpenAIResponsesClient,
    extract_function_calls,
    extract_output_text,
    extract_refusal,
    extract_usage,
    incomplete_reason,
)
from handlers.common.redact import redact

from .accounting import llm_entry, tool_entry
from .config import LLMLimits, ModelTarget
from .toolbox import ToolBox, failed

Sleep = Callable[[float], None]
Timer = Callable[[], float]
# Checks a structured answer; returns a problem in plain words, or None when it is acceptable.
Validator = Callable[[Any], Optional[str]]

UNAVAILABLE = ("llm_unavailable", "The language model service is not answering right now.")
FATAL_ERRORS = {
    "auth": ("llm_auth", "The language model service rejected our credentials."),
    "quota": ("llm_quota", "The language model service quota is used up."),
    "bad_request": ("llm_bad_request", "The language model service could not handle the request."),
}


@dataclass
class LoopOutcome:
    ok: bool
    text: str = ""
    value: Any = None  # the parsed JSON answer when a text format was requested
    error: Optional[Dict[str, Any]] = None  # {"code", "message", "retryable"}
    accounting: List[Dict[str, Any]] = field(default_factory=list)
    tool_calls: List[Dict[str, Any]] = field(default_factory=list)  # what the model called, redacted
    turns: int = 0


@dataclass
class _Answer:
    """One accepted model answer within a turn."""

    body: Dict[str, Any]
    text: str
    calls: List[FunctionCall]
    value: Any = None


class _TurnFailed(Exception):
    def __init__(self, code: str, message: str, retryable: bool):
        super().__init__(message)
        self.error = {"code": code, "message": message, "retryable": retryable}


class AgentLoop:
    def __init__(
        self,
        *,
        client: OpenAIResponsesClient,
        targets: Sequence[ModelTarget],
        limits: LLMLimits = LLMLimits(),
        purpose: str = "llm",
        sleep: Sleep = time.sleep,
        timer: Timer = time.perf_counter,
        clock: Optional[Clock] = None,
    ):
        if not targets:
            raise ValueError("at least one model target is needed")
        self.client = client
        self.targets = list(targets)
        self.limits = limits
        self.purpose = purpose
        self.sleep = sleep
        self.timer = timer
        self.clock = clock

    def run(
        self,
        *,
        instructions: str,
        messages: List[Dict[str, Any]],
        toolbox: Optional[ToolBox] = None,
        text_format: Optional[Dict[str, Any]] = None,
        validate: Optional[Validator] = None,
    ) -> LoopOutcome:
        """Converse until the model answers without tool calls, or a limit or fatal error stops it."""
        outcome = LoopOutcome(ok=False)
        conversation = list(messages)
        try:
            for turn in range(1, self.limits.max_turns + 1):
                outcome.turns = turn
                last_turn = turn == self.limits.max_turns
                answer = self._answer(instructions, conversation, toolbox, text_format, validate, last_turn, outcome)
                if not answer.calls:
                    outcome.ok, outcome.text, outcome.value = True, answer.text, answer.value
                    return outcome
                if last_turn or toolbox is None:
                    break
                conversation.extend(self._run_tools(answer, toolbox, outcome))
        except _TurnFailed as exc:
            outcome.error = exc.error
            return outcome
        except Exception as exc:  # noqa: BLE001 - the contract: never an exception without a result
            outcome.error = {
                "code": "llm_internal",
                "message": f"agent loop failed: {type(exc).__name__}",
                "retryable": True,
            }
            return outcome
        outcome.error = {
            "code": "max_turns_exhausted",
            "message": f"The assistant did not finish within {self.limits.max_turns} turns.",
            "retryable": False,
        }
        return outcome

    # --- one turn: attempts until an acceptable answer ------------------------------------

    def _answer(self, instructions, conversation, toolbox, text_format, validate, last_turn, outcome) -> _Answer:
        notice: Optional[Dict[str, Any]] = None
        problem = UNAVAILABLE
        limited = 0  # rate-limited attempts in a row
        for attempt in range(1, self.limits.max_retries + 1):
            target = self.targets[(attempt - 1) % len(self.targets)]
            items = conversation + ([notice] if notice else [])
            request = redact(self._request(target, instructions, items, toolbox, text_format, last_turn))
            started = self.timer()
            try:
                body = self.client.create(**request)
            except LLMError as exc:
                outcome.accounting.append(self._entry(target, started, error=exc.kind))
                if not exc.retryable:
                    code, message = FATAL_ERRORS.get(exc.kind, FATAL_ERRORS["bad_request"])
                    raise _TurnFailed(code, f"{message} ({exc.message})", retryable=False) from exc
                problem = UNAVAILABLE
                limited = limited + 1 if exc.kind == "rate_limit" else 0
                if limited and attempt < self.limits.max_retries:
                    wait = self._rate_limit_wait(exc.retry_after, attempt, limited)
                    if wait is None:
                        break
                    self.sleep(wait)
                continue

            usage, reason = extract_usage(body), incomplete_reason(body)
            refusal = extract_refusal(body) or ("content filter" if reason == "content_filter" else None)
            if refusal is not None:
                outcome.accounting.append(self._entry(target, started, usage, error="refused", stop_reason=reason))
                raise _TurnFailed("llm_refused", f"The assistant declined to answer: {refusal}", retryable=False)
            if reason is not None:
                outcome.accounting.append(self._entry(target, started, usage, error="truncated", stop_reason=reason))
                problem = ("llm_truncated", f"The assistant's answer was cut off ({reason}).")
                continue
            answer = _Answer(body, extract_output_text(body), extract_function_calls(body))
            bad = self._check(answer, toolbox, text_format, validate)
            if bad is not None:
                outcome.accounting.append(
                    self._entry(target, started, usage, error="bad_output", stop_reason="completed")
                )
                problem = ("llm_bad_output", f"The assistant's answer could not be used: {bad}")
                notice = {
                    "role": "developer",
                    "content": f"System notice: your previous answer could not be used ({bad}). Answer again.",
                }
                continue
            outcome.accounting.append(self._entry(target, started, usage, stop_reason="completed"))
            return answer
        raise _TurnFailed(problem[0], problem[1], retryable=True)

    def _rate_limit_wait(self, retry_after: Optional[float], attempt: int, limited: int) -> Optional[float]:
        """Seconds to wait before the next attempt, or None to give up now.

        Retry-After wins when the server sends it; one longer than ``backoff_max_s`` ends the
        turn (the traveller would rather get the offline answer than wait). Otherwise the wait
        doubles per attempt, and is the maximum once every target of a cycle was rate-limited.
        """
        if retry_after is not None:
            return retry_after if retry_after <= self.limits.backoff_max_s else None
        if len(self.targets) > 1 and limited >= len(self.targets):
            return self.limits.backoff_max_s
        return self.limits.backoff(attempt)

    def _request(self, target, instructions, items, toolbox, text_format, last_turn) -> Dict[str, Any]:
        request: Dict[str, Any] = {
            "model": target.model,
            "instructions": instructions,
            "input": items,
            "max_output_tokens": self.limits.max_output_tokens,
            "store": False,
        }
        if target.temperature is not None:
            request["temperature"] = target.temperature
        if text_format is not None:
            request["text"] = {"format": text_format}
        specs = toolbox.specs() if toolbox is not None else []
        if specs:
            request["tools"] = specs
            # The last turn must be an answer: tools stay visible but cannot be called.
            request["tool_choice"] = "none" if last_turn else "auto"
        return request

    @staticmethod
    def _check(answer: _Answer, toolbox, text_format, validate) -> Optional[str]:
        """A problem with an answer that a retry may fix, or None; sets ``answer.value``."""
        if answer.calls:
            return None if toolbox is not None else "tool calls were made but no tools are available"
        if not answer.text.strip():
            return "the answer was empty"
        if text_format is None:
            return None
        try:
            answer.value = json.loads(answer.text)
        except json.JSONDecodeError as exc:
            return f"the answer is not valid JSON ({exc.msg})"
        return validate(answer.value) if validate is not None else None

    def _entry(self, target, started, usage=None, *, error=None, stop_reason=None) -> Dict[str, Any]:
        kwargs = {"usage": usage} if usage is not None else {}
        return llm_entry(
            purpose=self.purpose,
            target=target,
            latency_ms=int((self.timer() - started) * 1000),
            error=error,
            stop_reason=stop_reason,
            clock=self.clock,
            **kwargs,
        )

    # --- the tool phase of a turn ---------------------------------------------------------

    def _run_tools(self, answer: _Answer, toolbox: ToolBox, outcome: LoopOutcome) -> List[Dict[str, Any]]:
        """Conversation items for this turn: the model's calls and one output for each."""
        items: List[Dict[str, Any]] = []
        if answer.text:
            items.append({"role": "assistant", "content": answer.text})
        cap = self.limits.max_tool_calls_per_turn
        for index, fc in enumerate(answer.calls):
            items.append({"type": "function_call", "call_id": fc.call_id, "name": fc.name, "arguments": fc.arguments})
            if index < cap:
                result = toolbox.call(fc, limits=self.limits, purpose=self.purpose, timer=self.timer, clock=self.clock)
                output, record, entry = result.output, result.record, result.entry
            else:
                output = failed(
                    f"dropped: at most {cap} tool calls per turn, this one was not run; "
                    "call it again next turn if you still need it"
                )
                record = {
                    "name": fc.name,
                    "arguments": {},
                    "call_id": fc.call_id,
                    "status": "dropped",
                    "error": "too_many_tool_calls",
                }
                entry = tool_entry(
                    purpose=self.purpose,
                    tool=fc.name,
                    call_id=fc.call_id,
                    latency_ms=0,
                    chars_in=len(fc.arguments),
                    chars_out=len(output),
                    error="too_many_tool_calls",
                    clock=self.clock,
                )
            outcome.tool_calls.append(record)
            outcome.accounting.append(entry)
            items.append({"type": "function_call_output", "call_id": fc.call_id, "output": output})
        return items

    @classmethod
    def run_tests(cls) -> None:
        from .scripted import ScriptedClient, response_body

        targets = [ModelTarget("gpt-4.1-mini"), ModelTarget("gpt-4.1-nano")]
        waits: List[float] = []
        client = ScriptedClient(
            [LLMError("rate_limit", "slow down", status=429, retry_after=2.0), response_body(text="hi")]
        )
        outcome = cls(client=client, targets=targets, sleep=waits.append).run(instructions="", messages=[])
        assert outcome.ok and outcome.text == "hi" and waits == [2.0], outcome
        assert [r["model"] for r in client.requests] == ["gpt-4.1-mini", "gpt-4.1-nano"]
        assert [e["status"] for e in outcome.accounting] == ["failed", "ok"]

        client = ScriptedClient([LLMError("quota", "no credit", status=429), response_body(text="never")])
        outcome = cls(client=client, targets=targets, sleep=waits.append).run(instructions="", messages=[])
        assert outcome.error["code"] == "llm_quota" and len(client.requests) == 1

        client = ScriptedClient([response_body(refusal="no"), response_body(text="never")])
        outcome = cls(client=client, targets=targets).run(instructions="", messages=[])
        assert outcome.error["code"] == "llm_refused" and len(client.requests) == 1

        calls = [{"name": "t", "arguments": {"n": n}} for n in range(3)]
        client = ScriptedClient([response_body(calls=calls), response_body(text="done")])
        ran: List[Any] = []
        toolbox = ToolBox([{"name": "t", "side_effects": False}], {"t": lambda args: ran.append(args["n"])})
        limits = LLMLimits(max_tool_calls_per_turn=2)
        outcome = cls(client=client, targets=targets, limits=limits).run(instructions="", messages=[], toolbox=toolbox)
        assert outcome.ok and ran == [0, 1] and [c["status"] for c in outcome.tool_calls] == ["ok", "ok", "dropped"]
