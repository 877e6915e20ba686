"""The AGU host hook: what the Runner prints becomes a ChatMessage, pushed live after commit.

A turn that is redelivered (its worker died, the broker handed it to another) runs the core
again from the start and prints the same progress lines. Each progress line carries its turn
(the traveller's message id), so the new attempt skips the lines an earlier one already showed:
the traveller reads "Reading your message…" once. Counted per label, so a label the same
attempt shows twice (a search repeated within the turn) still appears twice.
"""

from collections import Counter
from typing import Any, Dict, Optional

from handlers.common.redact import redact_text
from trips.services.batch import TurnWrites
from trips.services.chat import chat_message_add, chat_message_create, progress_shown_counts


class DjangoAGU:
    """With ``writes`` (a running turn) a message is stored by the turn's next transaction: a
    progress line with its tool's start, the answer with the turn's end. Without, at once."""

    def __init__(
        self, *, message_id: Optional[int] = None, writes: Optional[TurnWrites] = None, first_attempt: bool = False
    ) -> None:
        self.message_id, self.writes = message_id, writes
        self.progress_printed: Counter[str] = Counter()
        # An earlier attempt's lines, read once; none when the turn is known to be its first attempt.
        self.progress_shown: Optional[Counter[str]] = Counter() if first_attempt else None

    def print_chat(self, trip_id: str, message: Dict[str, Any]) -> None:
        if self.message_id is not None and message.get("kind") == "progress":
            widget = {"label": message.get("text") or "", **(message.get("widget") or {}), "turn": self.message_id}
            label = str(widget["label"])
            self.progress_printed[label] += 1
            if self.progress_shown is None:
                self.progress_shown = progress_shown_counts(trip_id=int(trip_id), turn=self.message_id)
            if self.progress_shown[redact_text(label)] >= self.progress_printed[label]:
                return
            message = {**message, "widget": widget}
        if self.writes is None:
            chat_message_create(trip_id=int(trip_id), message=message)
            return
        self.writes.add(
            lambda: chat_message_add(
                trip_id=int(trip_id),
                role=message.get("role") or "assistant",
                kind=message.get("kind") or "message",
                text=message.get("text") or "",
                widget=message.get("widget"),
            )
        )
