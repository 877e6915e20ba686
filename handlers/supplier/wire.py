"""How a supplier's response is decoded: JSON by ``orjson``, with the cyclic garbage collector paused.

A search's response is one large JSON document (≈ 1.8 MB and ≈ 100,000 objects for 1,000 flight
offers). Decoding it allocates those objects one by one, so the collector runs every 700
allocations: about 140 young collections, a dozen of the middle generation and now and then a
full one that walks every object the process holds (the whole Django host), none of which can
find garbage, because a decoded JSON document is a tree without reference cycles. Paused, the
objects are looked at once, by the next collection after the decode. Measured in the host
benchmark at 1,000 offers per search (``benchmarks/README.md``): two responses' decoding 74–88 →
29–34 ms of CPU per turn.

``orjson`` builds the same values as ``json.loads`` in about half the time (one 1,000-offer
response: 10.8 → 5.9 ms on an idle core; it reuses the key strings it has already made, which
a response of a thousand offers with the same fields repeats a hundred thousand times). What it
refuses and ``json`` accepts (``NaN``, ``Infinity``, lone surrogates) is decoded by ``json``, so a
text decodes to what ``json.loads`` would make of it, or fails as it would, with one difference:
an integer beyond 64 bits becomes a float (``json`` keeps it exact). Suppliers send amounts as
decimal strings and ids as strings, so no field the desk reads is such a number.

A flight search keeps the collector paused for longer (:func:`collector_paused`, in
``handlers.specialists.flight_quote_search``): until the response has been made into the offers it
keeps, after which the response is freed by reference counts, so no collection ever walks it; the
next one walks only the kept offers. At 1,000 offers per search: 27 young and 2 middle collections
per turn, 6–15 ms, → 8 and 1, 2–4 ms.
"""

from __future__ import annotations

import gc
import json
from contextlib import contextmanager
from typing import Any, Iterator

import orjson


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic collector paused for a block that allocates a large tree without cycles (restored
    only if it was on, so a caller that paused it keeps it paused; another thread's pause is at
    worst shortened). What the block drops again is freed by reference counts, never looked at."""
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def decode_json(text: str | bytes) -> Any:
    """``json.loads(text)`` with the collector paused while it runs (as :func:`collector_paused`,
    written out: nothing is allocated between the collector's return and the caller's)."""
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            return json.loads(text)  # what orjson refuses: json decodes it, or raises as it would
    finally:
        if paused:
            gc.enable()
