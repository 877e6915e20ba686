"""JSON a service already encoded (to redact it in one pass) goes into its column as that text."""

import json
from dataclasses import dataclass
from typing import Any


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
