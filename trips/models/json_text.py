"""How the JSON columns are written: JSON a service already encoded (to redact it in one pass) goes
into its column as that text; a TripIntent and a bundles widget go as their stored forms
(``handlers.stored``: bundles and offers as tables) and read back as the documents they were."""

import json
from dataclasses import dataclass
from typing import Any

from handlers.stored import intent_loaded, intent_stored, widget_loaded, widget_stored


@dataclass(frozen=True)
class JSONText:
    """A JSON column's value given as its JSON text (``handlers.common.redact.redact_json_text``)."""

    text: str


class JSONTextEncoder(json.JSONEncoder):
    """A JSON column's encoder that stores a ``JSONText`` as it is instead of encoding the value a
    second time (for a search of 1,000 offers, megabytes); any other value is encoded as usual."""

    def encode(self, o: Any) -> str:
        if isinstance(o, JSONText):
            return o.text
        return super().encode(o)


class TripIntentEncoder(json.JSONEncoder):
    """``Trip.intent``'s encoder: a TripIntent is stored with its bundles and kept offers as tables
    (``handlers.stored.intent_stored``); ``TripIntentDecoder`` reads it back as the document."""

    def encode(self, o: Any) -> str:
        return super().encode(intent_stored(o))


class TripIntentDecoder(json.JSONDecoder):
    def decode(self, s: str, *args: Any, **kwargs: Any) -> Any:
        return intent_loaded(super().decode(s, *args, **kwargs))


class ChatWidgetEncoder(json.JSONEncoder):
    """``ChatMessage.widget``'s encoder: a bundles widget is stored with its bundles as tables
    (``handlers.stored.widget_stored``); ``ChatWidgetDecoder`` reads it back as it was shown."""

    def encode(self, o: Any) -> str:
        return super().encode(widget_stored(o))


class ChatWidgetDecoder(json.JSONDecoder):
    def decode(self, s: str, *args: Any, **kwargs: Any) -> Any:
        return widget_loaded(super().decode(s, *args, **kwargs))
