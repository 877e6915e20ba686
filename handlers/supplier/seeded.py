"""Deterministic randomness: every draw is a pure function of the seed and what it is for.

Hashing the purpose (route, date, offer id…) instead of sharing one generator keeps results
stable when unrelated calls happen in between, which is what makes a sandbox replayable.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any


def digest(*parts: Any) -> str:
    text = "\x1f".join(str(p) for p in parts)
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def rng(*parts: Any) -> random.Random:
    """A generator seeded by ``parts`` (the sandbox seed first)."""
    return random.Random(int(digest(*parts), 16))


def unit(*parts: Any) -> float:
    """A number in [0, 1) fixed by ``parts``."""
    return int(digest(*parts), 16) / float(1 << 96)


def short_id(prefix: str, *parts: Any, length: int = 16) -> str:
    return f"{prefix}_{digest(*parts)[:length]}"


def search_ref(*parts: Any) -> str:
    """Eight hex characters naming one search (its seed, kind, place, dates, party and day)."""
    return digest(*parts)[:8]


def item_id(prefix: str, search: str, *parts: Any) -> str:
    """An offer or rate id that names its search first: ``off_<search><item>``, 16 hex characters
    like ``short_id``'s, so the sandbox finds the search an id came from (``search_of``)."""
    return f"{prefix}_{search}{digest(*parts)[:8]}"


def search_of(item_id: str) -> str:
    return item_id.partition("_")[2][:8]


def record_locator(*parts: Any) -> str:
    """Six characters from an alphabet without look-alikes, like an airline PNR."""
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
    n = int(digest(*parts), 16)
    chars = []
    for _ in range(6):
        n, i = divmod(n, len(alphabet))
        chars.append(alphabet[i])
    return "".join(chars)
