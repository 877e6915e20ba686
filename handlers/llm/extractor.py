"""Trip requirements from free text through the Responses API with structured output.

One request per traveller message: the recent conversation, the pending question, today's
date in the trip's timezone and what the trip already holds go to the model, which must
answer with the requirements fields of ``handlers/extract/schema.py``. The answer goes through
the offline extractor's own ``clean_fields`` (known keys, real dates, places that exist), so
the rest of the core cannot tell which one ran. Everything sent passes through ``redact``
first (inside ``AgentLoop``).
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Mapping, Optional, Sequence

from handlers.common.defaults import DEFAULT_DEVELOPER_PROMPT, DEFAULT_SYSTEM_PROMPT
from handlers.extract import clean_fields
from handlers.extract.schema import schema as requirements_schema

from .config import LLMLimits
from .loop import AgentLoop

_ONE_ATTEMPT = LLMLimits(max_retries=1)
MAX_CONVERSATION_MESSAGES = 12
MAX_CONTEXT_CHARS = 4000
# TripIntent parts that say nothing about what the traveller wants (and may be large).
_CONTEXT_OMITS = ("working_memory", "audit", "policy", "schema", "version", "created_at", "updated_at")


def is_strict_compatible(schema: Mapping[str, Any]) -> bool:
    """OpenAI strict mode needs every object closed and every property required."""
    if not isinstance(schema, Mapping):
        return True
    if schema.get("type") == "object" or "properties" in schema:
        props = schema.get("properties") or {}
        if schema.get("additionalProperties") is not False or set(schema.get("required") or []) != set(props):
            return False
    children: List[Any] = list((schema.get("properties") or {}).values())
    children += [schema[k] for k in ("items", "additionalProperties") if isinstance(schema.get(k), Mapping)]
    children += [s for k in ("anyOf", "oneOf", "allOf") for s in schema.get(k) or []]
    children += list((schema.get("$defs") or {}).values())
    return all(is_strict_compatible(c) for c in children)


def text_format() -> Dict[str, Any]:
    """The Responses ``text.format`` asking for the requirements fields as structured output."""
    schema = requirements_schema()
    return {
        "type": "json_schema",
        "name": "trip_requirements",
        "schema": schema,
        "strict": is_strict_compatible(schema),
    }


def _problem(value: Any) -> Optional[str]:
    return None if isinstance(value, dict) else "the answer must be a JSON object of trip requirements"


def _context(current: Any) -> str:
    if isinstance(current, Mapping):
        current = {k: v for k, v in current.items() if k not in _CONTEXT_OMITS}
    text = json.dumps(current or {}, default=str, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= MAX_CONTEXT_CHARS else text[:MAX_CONTEXT_CHARS] + "…"


def _history(conversation: Optional[Sequence[Mapping[str, Any]]]) -> List[Dict[str, str]]:
    """Earlier chat as Responses messages: the traveller's words and our replies, most recent last."""
    items = []
    for message in list(conversation or [])[-MAX_CONVERSATION_MESSAGES:]:
        role = "assistant" if message.get("role") == "assistant" else "user"
        text = message.get("text") or message.get("content")
        if isinstance(text, str) and text.strip():
            items.append({"role": role, "content": text})
    return items


def build_messages(*, text, pending_question, today, timezone, current, conversation) -> List[Dict[str, str]]:
    question = (pending_question or {}).get("text") if isinstance(pending_question, Mapping) else pending_question
    slots = (pending_question or {}).get("slots") if isinstance(pending_question, Mapping) else None
    latest = "\n".join(
        [
            f"Today is {today} in {timezone or 'UTC'}.",
            f"We just asked: {question} (slots: {', '.join(slots or []) or 'any'})"
            if question
            else "No question is pending.",
            f"The trip so far: {_context(current)}",
            f"The traveller's latest message: {text}",
        ]
    )
    return _history(conversation) + [{"role": "user", "content": latest}]


class LLMExtractor:
    """``ToolDeps.llm_extractor``: ``extract(...) -> {"ok", "fields", "accounting", "error"}``."""

    def __init__(
        self, *, loop: AgentLoop, instructions: str = f"{DEFAULT_SYSTEM_PROMPT}\n\n{DEFAULT_DEVELOPER_PROMPT}"
    ):
        self.loop = loop
        self.instructions = instructions

    def extract(
        self,
        *,
        text: str,
        pending_question: Any = None,
        today: str,
        timezone: str = "UTC",
        current: Any = None,
        conversation: Optional[Sequence[Mapping[str, Any]]] = None,
    ) -> Dict[str, Any]:
        """Never raises; ``ok: false`` with an error lets the caller fall back to the offline extractor."""
        outcome = None
        try:
            messages = build_messages(
                text=text,
                pending_question=pending_question,
                today=today,
                timezone=timezone,
                current=current,
                conversation=conversation,
            )
            outcome = self.loop.run(
                instructions=self.instructions, messages=messages, text_format=text_format(), validate=_problem
            )
            if outcome.ok:
                return {
                    "ok": True,
                    "fields": clean_fields(outcome.value),
                    "accounting": outcome.accounting,
                    "error": None,
                }
            error = outcome.error
        except Exception as exc:  # noqa: BLE001 - a result, never an exception
            error = {"code": "llm_internal", "message": f"extraction failed: {type(exc).__name__}", "retryable": True}
        accounting = outcome.accounting if outcome is not None else []
        return {"ok": False, "fields": None, "accounting": accounting, "error": error}

    @classmethod
    def run_tests(cls) -> None:
        from .config import ModelTarget
        from .scripted import ScriptedClient, response_body

        answer = {"adults": 2, "destination": {"type": "city", "code": "den", "name": "Denver"}, "extra": 1}
        client = ScriptedClient([response_body(text=json.dumps(answer))])
        extractor = cls(loop=AgentLoop(client=client, targets=[ModelTarget("gpt-4.1-mini")]))
        result = extractor.extract(text="2 of us to Denver, token=tdk_apv_abcdefghijkl", today="2026-12-01")
        assert result["ok"] and result["fields"]["adults"] == 2, result
        assert result["fields"]["destination"]["code"] == "DEN" and "extra" not in result["fields"]
        (request,) = client.requests
        assert request["text"]["format"]["name"] == "trip_requirements" and request["text"]["format"]["strict"]
        assert "tdk_apv_" not in json.dumps(request)

        failing = cls(loop=AgentLoop(client=ScriptedClient([]), targets=[ModelTarget("m")], limits=_ONE_ATTEMPT))
        result = failing.extract(text="hi", today="2026-12-01")
        assert not result["ok"] and result["error"]["code"] == "llm_unavailable" and len(result["accounting"]) == 1
