"""Scripted model answers without a network: Responses bodies and an in-process client.

``response_body`` builds the JSON a Responses server returns (the fake HTTP server in
``tests/fakes`` serves the same bodies); ``ScriptedClient`` answers ``create`` from a list, for
the ``run_tests`` batteries and for harnesses that want model mode without sockets.
"""

from __future__ import annotations

import itertools
import json
from typing import Any, Dict, List, Optional, Sequence, Union

from handlers.common.openai_adapter import LLMError

_ids = itertools.count(1)


def response_body(
    *,
    text: Optional[str] = None,
    calls: Sequence[Dict[str, Any]] = (),
    refusal: Optional[str] = None,
    incomplete: Optional[str] = None,
    model: str = "gpt-4.1-mini",
    input_tokens: int = 100,
    output_tokens: int = 20,
    cached_tokens: int = 0,
) -> Dict[str, Any]:
    """A Responses API body: a message (text and/or refusal) and function calls.

    ``calls`` items are ``{"name", "arguments", "call_id"?}``; ``arguments`` is a dict (sent as
    JSON) or a raw string (sent as is, to script malformed JSON). ``incomplete`` is the
    ``incomplete_details.reason`` of a response that was cut off.
    """
    output: List[Dict[str, Any]] = []
    content: List[Dict[str, Any]] = []
    if text is not None:
        content.append({"type": "output_text", "text": text, "annotations": []})
    if refusal is not None:
        content.append({"type": "refusal", "refusal": refusal})
    if content:
        output.append(
            {
                "type": "message",
                "id": f"msg_{next(_ids)}",
                "role": "assistant",
                "status": "completed",
                "content": content,
            }
        )
    for call in calls:
        arguments = call.get("arguments", {})
        output.append(
            {
                "type": "function_call",
                "id": f"fc_{next(_ids)}",
                "call_id": call.get("call_id") or f"call_{next(_ids)}",
                "name": call["name"],
                "arguments": arguments if isinstance(arguments, str) else json.dumps(arguments),
                "status": "completed",
            }
        )
    return {
        "id": f"resp_{next(_ids)}",
        "object": "response",
        "created_at": 1790000000,
        "model": model,
        "status": "incomplete" if incomplete else "completed",
        "incomplete_details": {"reason": incomplete} if incomplete else None,
        "error": None,
        "output": output,
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "usage": {
            "input_tokens": input_tokens,
            "input_tokens_details": {"cached_tokens": cached_tokens},
            "output_tokens": output_tokens,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": input_tokens + output_tokens,
        },
    }


class ScriptedClient:
    """An ``OpenAIResponsesClient`` that returns (or raises) scripted items in order and keeps the requests."""

    def __init__(self, script: Sequence[Union[Dict[str, Any], LLMError]]):
        self.script = list(script)
        self.requests: List[Dict[str, Any]] = []

    def create(self, **request: Any) -> Dict[str, Any]:
        self.requests.append(request)
        if not self.script:
            raise LLMError("server", "scripted client: nothing left to answer")
        item = self.script.pop(0)
        if isinstance(item, LLMError):
            raise item
        return item
