"""The one schema for what a traveller may send, over the websocket (docs/websocket.md) and the API.

``traveller_action_parse`` is the single validation of a traveller action — a message, or one
of the buttons (select, hold, release the holds, purchase, retry, cancel a booking, auto-approve) — for both
doors: the websocket's ``frame_parse`` and the API's ``MessageCreateSerializer`` call it, so
the limits are the same on both. Text is normalised (NFC, trimmed) and checked once: no lone
surrogates (SQLite cannot store them), no NUL or other control characters (PostgreSQL refuses
NUL), at most ``MAX_TEXT_CHARS``. Raw JSON is bounded in bytes and nesting depth before it is
parsed (``json_parse_bounded``), so a depth-10,000 document is an error, not a recursion crash.

It is pure — no database, no Channels — so every rule is tested directly and the consumer
and the API view stay routers. A refusal is a ``FrameError`` with a stable code.
"""

import json
import re
import unicodedata
from dataclasses import dataclass
from typing import Any, Optional

MAX_FRAME_BYTES = 16 * 1024
MAX_TEXT_CHARS = 4000  # a message's text, on the websocket and the API alike
MAX_JSON_DEPTH = 8  # a traveller action nests 2 deep; anything far deeper is refused unparsed
# Control characters a message may not carry (tab, newline and carriage return are text).
CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
SURROGATE_RE = re.compile(r"[\ud800-\udfff]")
CLIENT_ID_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")
FRAME_TYPES = ("message", "action", "resume", "ping")

# Each action's fields: name -> (required, max length). Values arrive as strings (ids may be numbers).
ACTION_FIELDS: dict[str, dict[str, tuple[bool, int]]] = {
    "select": {"bundle_id": (True, 32)},
    "hold": {"bundle_id": (False, 32)},  # the option the card named: a stale card cannot hold another
    "retry": {},
    # The chat's pay button names the granted approval; API clients may still send an approver's token.
    "purchase": {"approval_token": (False, 512), "approval_id": (False, 32), "payment_method_id": (True, 64)},
    "cancel_booking": {"booking_id": (True, 64), "quote_id": (False, 64)},
    "auto_approve": {},  # the traveller's explicit "approve it myself" (policy permitting); no fields
    # The hold card's "Release…": it names one of its holds, so a card whose holds are gone releases nothing.
    "release_holds": {"hold_id": (True, 64)},
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


def json_depth_exceeds(raw: str, limit: int) -> bool:
    """Whether ``raw`` nests arrays/objects deeper than ``limit`` (strings skipped; a linear scan)."""
    depth, in_string, escaped = 0, False, False
    for char in raw:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


def json_parse_bounded(raw: str, *, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """``json.loads``, refusing documents nested deeper than ``max_depth`` (``bad_json``)."""
    if json_depth_exceeds(raw, max_depth):
        raise FrameError("bad_json", f"That JSON nests deeper than {max_depth} levels.")
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        raise FrameError("bad_json", "That is not valid JSON.") from None


def text_clean(value: Any, *, name: str, max_chars: int, client_id: Optional[str] = None) -> str:
    """A string as it will be stored: NFC, trimmed, no lone surrogates or control characters.

    Raises ``FrameError``: ``bad_frame`` for a non-string, an empty string or a bad
    character, ``text_too_long`` when it is longer than ``max_chars``.
    """
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise FrameError("bad_frame", f"{name} must be a string.", client_id=client_id)
    value = str(value)
    if SURROGATE_RE.search(value):
        raise FrameError("bad_frame", f"{name} contains an invalid character (a lone surrogate).", client_id=client_id)
    if len(value) > max_chars * 4:  # far too long: not worth normalising
        raise FrameError("text_too_long", f"{name} may be at most {max_chars} characters.", client_id=client_id)
    value = unicodedata.normalize("NFC", value).strip()
    if CONTROL_RE.search(value):
        raise FrameError("bad_frame", f"{name} contains a control character.", client_id=client_id)
    if not value:
        raise FrameError("bad_frame", f"{name} must be a non-empty string.", client_id=client_id)
    if len(value) > max_chars:
        code = "text_too_long" if name == "text" else "bad_frame"
        raise FrameError(code, _too_long(name, max_chars), client_id=client_id)
    return value


def _too_long(name: str, max_chars: int) -> str:
    if name == "text":
        return f"A message may be at most {max_chars} characters."
    return f"{name} must be a string of at most {max_chars} characters."


@dataclass(frozen=True)
class TravellerAction:
    """One validated traveller action: ``text`` for a message, else ``action`` (a button)."""

    client_id: Optional[str]
    text: Optional[str] = None
    action: Optional[dict[str, str]] = None

    @property
    def kind(self) -> str:
        return self.action["type"] if self.action else "message"


def traveller_action_parse(data: Any, *, client_id_required: bool) -> TravellerAction:
    """The one schema: ``{"client_id", "text"}`` or ``{"client_id", "action": {"type", …}}``.

    The websocket requires a ``client_id`` (its ``ack`` names it); the API may leave it out.
    """
    if not isinstance(data, dict):
        raise FrameError("bad_frame", "Send a JSON object.")
    raw_id = data.get("client_id")
    client_id = _client_id(raw_id) if (client_id_required or raw_id not in (None, "")) else None
    has_text, has_action = data.get("text") is not None, data.get("action") is not None
    if has_text == has_action:
        raise FrameError("bad_frame", "Send either text or an action.", client_id=client_id)
    if has_text:
        if not isinstance(data["text"], str):
            raise FrameError("bad_frame", "text must be a non-empty string.", client_id=client_id)
        return TravellerAction(
            client_id, text=text_clean(data["text"], name="text", max_chars=MAX_TEXT_CHARS, client_id=client_id)
        )
    return TravellerAction(client_id, action=_action(data["action"], client_id))


def frame_parse(raw: Optional[str]) -> ClientFrame:
    """Validate one text frame from the browser; raise ``FrameError`` for anything else."""
    if raw is None:
        raise FrameError("binary_not_supported", "Frames must be JSON text, not binary.")
    if len(raw.encode("utf-8", "surrogatepass")) > MAX_FRAME_BYTES:
        raise FrameError("frame_too_large", f"A frame may be at most {MAX_FRAME_BYTES // 1024} KB.")
    data = json_parse_bounded(raw)
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
    if kind == "message" and data.get("text") is None:
        raise FrameError("bad_frame", "text must be a non-empty string.", client_id=client_id)
    if kind == "action" and not isinstance(data.get("action"), dict):
        raise FrameError("bad_frame", "action must be an object.", client_id=client_id)
    field = "text" if kind == "message" else "action"
    parsed = traveller_action_parse({"client_id": client_id, field: data[field]}, client_id_required=True)
    return ClientFrame(type=kind, client_id=client_id, text=parsed.text, action=parsed.action)


def _after_seq(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise FrameError("bad_frame", "after_seq must be a whole number, 0 or more.")
    return value


def _client_id(value: Any) -> str:
    if not isinstance(value, str) or not CLIENT_ID_RE.fullmatch(value):
        raise FrameError("bad_frame", "client_id must be 1-64 letters, digits, '-' or '_'.")
    return value


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
        if isinstance(field, bool) or not isinstance(field, (str, int)):
            raise FrameError(
                "bad_frame", f"{name} must be a string of at most {max_len} characters.", client_id=client_id
            )
        action[name] = text_clean(field, name=name, max_chars=max_len, client_id=client_id)
    return action
