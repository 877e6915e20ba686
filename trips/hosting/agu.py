"""The AGU host hook: what the Runner prints becomes a ChatMessage, pushed live after commit.

A turn that is redelivered (its worker died, the broker handed it to another) runs the core
again from the start and prints the same progress lines. Each progress line carries its turn
(the traveller's message id), so the new attempt skips the lines an earlier one already showed:
the traveller reads "Reading your message…" once. Counted per label, so a label the same
attempt shows twice (a search repeated within the turn) still appears twice.
"""

from collections import Counter
from typing import Any, Dict, Optional

from trips.services.chat import chat_message_create, progress_shown_count


class DjangoAGU:
    def __init__(self, *, message_id: Optional[int] = None) -> None:
        self.message_id = message_id
        self.progress_printed: Counter[str] = Counter()

    def print_chat(self, trip_id: str, message: Dict[str, Any]) -> None:
        if self.message_id is not None and message.get("kind") == "progress":
            widget = {"label": message.get("text") or "", **(message.get("widget") or {}), "turn": self.message_id}
            label = str(widget["label"])
            self.progress_printed[label] += 1
            shown = progress_shown_count(trip_id=int(trip_id), turn=self.message_id, label=label)
            if shown >= self.progress_printed[label]:
                return
            message = {**message, "widget": widget}
        chat_message_create(trip_id=int(trip_id), message=message)
