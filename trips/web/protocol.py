"""The client half of the chat websocket protocol (docs/websocket.md): what a browser may send.

``frame_parse`` turns raw text into a ``ClientFrame`` or raises ``FrameError`` with a code the
browser can act on. It is pure — no database, no Channels — so every rule is tested directly
and the consumer stays a router.
"""

import json
import re
from dataclasses import dataclass
from typing import Any, Optional

MAX_FRAME_BYTES = 16 * 1024
MAX_TEXT_CHARS = 4000
CLIENT_ID_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")
FRAME_TYPES = ("message", "action", "resume", "ping")

# Each action's fields: name -> (required, max length). Values arrive as strings (ids may be numbers).
ACTION_FIELDS: dict[str, dict[str, tuple[bool, int]]] = {
    "select": {"bundle_id": (True, 32)},
    "hold": {},
    "retry": {},
    "purchase": {"approval_token": (True, 512), "payment_method_id": (True, 64)},
    "cancel_booking": {"booking_id": (True, 64), "quote_id": (False, 64)},
    "auto_approve": {},  # the traveller's explicit "approve it myself" (policy permitting); no fields
}


class FrameError(Exception):
    """A frame the server refuses; ``code`` is stable, ``message`` is plain words."""

    def __init__(self, code: str, message: str, *, client_id: Optional[str] = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.client_id = client_id

    def frame(self) -> dict[str, Any]:
        """The server's ``error`` frame for this refusal."""
        out: dict[str, Any] = {"type": "error", "code": self.code, "message": self.message}
        if self.client_id:
            out["client_id"] = self.client_id
        return out


@dataclass(frozen=True)
class ClientFrame:
    type: str
    client_id: Optional[str] = None
    text: Optional[str] = None
    action: Optional[dict[str, str]] = None
    after_seq: Optional[int] = None


def frame_parse(raw: Optional[str]) -> ClientFrame:
    """Validate one text frame from the browser; raise ``FrameError`` for anything else."""
    if raw is None:
        raise FrameError("binary_not_supported", "Frames must be JSON text, not binary.")
    if len(raw.encode("utf-8")) > MAX_FRAME_BYTES:
        raise FrameError("frame_too_large", f"A frame may be at most {MAX_FRAME_BYTES // 1024} KB.")
    try:
        data = json.loads(raw)
    except ValueError:
        raise FrameError("bad_json", "That frame is not valid JSON.") from None
    if not isinstance(data, dict):
        raise FrameError("bad_frame", "A frame must be a JSON object.")
    kind = data.get("type")
    if kind not in FRAME_TYPES:
        raise FrameError("unknown_type", f"Unknown frame type; expected one of {', '.join(FRAME_TYPES)}.")
    if kind == "ping":
        return ClientFrame(type="ping")
    if kind == "resume":
        return ClientFrame(type="resume", after_seq=_after_seq(data.get("after_seq")))
    client_id = _client_id(data.get("client_id"))
    if kind == "message":
        return ClientFrame(type="message", client_id=client_id, text=_text(data.get("text"), client_id))
    return ClientFrame(type="action", client_id=client_id, action=_action(data.get("action"), client_id))


def _after_seq(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise FrameError("bad_frame", "after_seq must be a whole number, 0 or more.")
    return value


def _client_id(value: Any) -> str:
    if not isinstance(value, str) or not CLIENT_ID_RE.fullmatch(value):
        raise FrameError("bad_frame", "client_id must be 1-64 letters, digits, '-' or '_'.")
    return value


def _text(value: Any, client_id: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise FrameError("bad_frame", "text must be a non-empty string.", client_id=client_id)
    if len(value) > MAX_TEXT_CHARS:
        raise FrameError("text_too_long", f"A message may be at most {MAX_TEXT_CHARS} characters.", client_id=client_id)
    return value.strip()


def _action(value: Any, client_id: str) -> dict[str, str]:
    """The action with only its known fields, each a bounded string."""
    if not isinstance(value, dict):
        raise FrameError("bad_frame", "action must be an object.", client_id=client_id)
    kind = value.get("type")
    fields = ACTION_FIELDS.get(kind) if isinstance(kind, str) else None
    if fields is None:
        raise FrameError(
            "unknown_action", f"Unknown action; expected one of {', '.join(ACTION_FIELDS)}.", client_id=client_id
        )
    action = {"type": kind}
    for name, (required, max_len) in fields.items():
        field = value.get(name)
        if field is None or field == "":
            if required:
                raise FrameError("bad_frame", f"{kind} needs {name}.", client_id=client_id)
            continue
        if isinstance(field, bool) or not isinstance(field, (str, int)) or len(str(field)) > max_len:
            raise FrameError(
                "bad_frame", f"{name} must be a string of at most {max_len} characters.", client_id=client_id
            )
        action[name] = str(field)
    return action
