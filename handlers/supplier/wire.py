"""How a supplier's response is decoded: JSON, with the cyclic garbage collector paused.

A search's response is one large JSON document (≈ 2 MB and ≈ 100,000 objects for 1,000 flight
offers). Decoding it allocates those objects one by one, so the collector runs every 700
allocations: about 140 young collections, a dozen of the middle generation and now and then a
full one that walks every object the process holds (the whole Django host), none of which can
find garbage, because a decoded JSON document is a tree without reference cycles. Paused, the
objects are looked at once, by the next collection after the decode. Measured in the host
benchmark at 1,000 offers per search (``benchmarks/README.md``): two responses' decoding 74–88 →
29–34 ms of CPU per turn.
"""

from __future__ import annotations

import gc
import json
from typing import Any


def decode_json(text: str | bytes) -> Any:
    """``json.loads(text)`` with the collector paused while it runs (restored only if it was on,
    so a caller that paused it keeps it paused; another thread's pause is at worst shortened)."""
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        return json.loads(text)
    finally:
        if paused:
            gc.enable()
