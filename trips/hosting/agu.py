"""The AGU host hook: what the Runner prints becomes a ChatMessage, pushed live after commit."""

from typing import Any, Dict

from trips.services.chat import chat_message_create


class DjangoAGU:
    def print_chat(self, trip_id: str, message: Dict[str, Any]) -> None:
        chat_message_create(trip_id=int(trip_id), message=message)
