"""A seeded generator of hostile websocket frames for the trip chat (docs/websocket.md).

Each frame is one of: bytes, text that is not JSON, JSON that is not an object, an object of an
unknown type, or a known type whose fields are wrong, missing, oversized, mistyped, full of
control characters and odd unicode, or well-formed (a real message, a resume, a purchase with a
token nobody granted). Seeded, so a failure replays exactly; cheap, so 10,000 take moments.
"""

from __future__ import annotations

import json
import random
import string
from typing import Any, Iterator, Optional, Tuple

ODD_TEXT = [
    "",
    " ",
    "\x00",
    "\x1b[2J",
    "\u202e",
    "\ufeff",
    "🙂" * 50,
    "来週東京",
    "<script>alert(1)</script>",
    "'; DROP TABLE trips; --",
    "{{7*7}}",
    "${jndi:ldap://x}",
    "\\u0000",
    "\ud7ff",
    "a" * 5000,
    "NaN",
]
ACTIONS = ["select", "hold", "retry", "purchase", "cancel_booking", "buy", "", None, 7, "SELECT"]
TYPES = ["message", "action", "resume", "ping", "pong", "MESSAGE", "", None, 1, [], {}, "ack", "status"]

Frame = Tuple[Optional[str], Optional[bytes]]  # (text_data, bytes_data): exactly one is set


def _junk(rng: random.Random, depth: int = 0) -> Any:
    """An arbitrary JSON value: what a broken or malicious client puts in a field."""
    pick = rng.randrange(9 if depth < 2 else 6)
    if pick == 0:
        return None
    if pick == 1:
        return rng.choice([True, False])
    if pick == 2:
        return rng.choice([0, -1, 2**63, -(2**70), 10**400 if rng.random() < 0.1 else 3, 17])
    if pick == 3:
        return rng.choice([0.5, -0.0, 1e308, float("inf") if rng.random() < 0.5 else 1.5])
    if pick in (4, 5):
        return _text(rng)
    if pick == 6:
        return [_junk(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {_text(rng, 12): _junk(rng, depth + 1) for _ in range(rng.randrange(4))}


def _text(rng: random.Random, limit: int = 200) -> str:
    if rng.random() < 0.3:
        return rng.choice(ODD_TEXT)[:limit] if limit < 5000 else rng.choice(ODD_TEXT)
    alphabet = rng.choice([string.printable, "".join(map(chr, range(32))), "ÄÖÜßéñ中文عربى🙂\u200b\u202e"])
    return "".join(rng.choice(alphabet) for _ in range(rng.randrange(limit)))


def _client_id(rng: random.Random, n: int) -> Any:
    return rng.choice([f"fz{n}", f"fz{n}", f"fz{n}", "x" * 65, "", "bad id!", None, 42, "fz-dup"])


def _action(rng: random.Random) -> Any:
    action: dict = {"type": rng.choice(ACTIONS)}
    for name in rng.sample(
        ["bundle_id", "approval_token", "payment_method_id", "booking_id", "quote_id", "x"], rng.randrange(4)
    ):
        action[name] = rng.choice([_junk(rng), "B1", "tdk_apv_" + "A" * 43, "1", "x" * 600])
    return action if rng.random() < 0.9 else _junk(rng)


def _object(rng: random.Random, n: int) -> dict:
    kind = rng.choice(TYPES)
    frame: dict = {"type": kind}
    if rng.random() < 0.8:
        frame["client_id"] = _client_id(rng, n)
    if kind in ("message", "MESSAGE") or rng.random() < 0.2:
        frame["text"] = rng.choice([_text(rng), _junk(rng), "I'm going to San Francisco", "purchase now"])
    if kind == "action" or rng.random() < 0.2:
        frame["action"] = _action(rng)
    if kind == "resume" or rng.random() < 0.1:
        frame["after_seq"] = rng.choice([0, -1, 3, 2**62, "5", 1.5, None, True])
    for _ in range(rng.randrange(3)):
        frame[_text(rng, 10)] = _junk(rng)
    return frame


def hostile_frames(seed: int, count: int) -> Iterator[Frame]:
    """``count`` frames, the same ones for the same seed."""
    rng = random.Random(seed)
    for n in range(count):
        pick = rng.random()
        if pick < 0.04:
            yield None, bytes(rng.randrange(256) for _ in range(rng.randrange(64)))
        elif pick < 0.12:
            yield _text(rng), None  # mostly not JSON
        elif pick < 0.17:
            yield json.dumps(_junk(rng)), None  # JSON, rarely an object
        elif pick < 0.19:
            yield json.dumps({"type": "message", "text": "x" * 17_000, "client_id": f"big{n}"}), None
        else:
            yield json.dumps(_object(rng, n)), None
