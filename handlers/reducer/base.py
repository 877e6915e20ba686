"""The decision's base: one Reducer pass collects tool calls, chat messages, audit events and a follow-up."""

from __future__ import annotations

from typing import Any, Dict, Optional

from ..common.clock import local_time_text
from ..tool_calls import tool_call
from ..wording import message


class DecisionBase:
    """One Reducer pass: the event handlers, collecting calls and messages in ``out``."""

    def __init__(self, doc: Dict[str, Any]):
        self.out: Dict[str, Any] = {
            "tool_calls": [],
            "ui_messages": [],
            "trip_intent": doc,
            "audit": [],
            "followup": None,
        }

    def say(self, text: str, widget: Optional[Dict[str, Any]] = None, kind: str = "message") -> None:
        self.out["ui_messages"].append(message(text, widget, kind))

    def call(self, name: str, arguments: Dict[str, Any]) -> None:
        self.out["tool_calls"].append(tool_call(name, arguments))

    @staticmethod
    def local(doc: Dict[str, Any], value: Optional[str]) -> str:
        """A stored UTC instant as chat text, in the trip's timezone."""
        return local_time_text(value, doc["request"].get("timezone") or "UTC")
