"""Persistence behind protocols (SPEC §E.2); in-memory versions for tests and the harness.

Saves are versioned: ``save(trip_id, doc, expected_version=n)`` raises ``StaleVersion``
when the stored version is not ``n``; the caller reloads and retries (no lost update).
A successful save stores ``doc["version"] = n + 1`` and returns the new version. ``events``
(the turn's audit events) are appended to the trip's trail by the same save, or not at all:
the trail lives beside the document, never inside it. They come redacted (``Runner.audit``), and
a store keeps them as they are.
"""

from __future__ import annotations

import copy
import threading
from typing import Any, Dict, List, Optional, Protocol

from ..supplier.table import table_items
from .defaults import DEFAULT_DEVELOPER_PROMPT, DEFAULT_SYSTEM_PROMPT, DEFAULT_TOOLS


class StaleVersion(Exception):
    """The document changed since it was loaded."""


class TripIntentStore(Protocol):
    def get(self, trip_id: str) -> Optional[Dict[str, Any]]: ...

    def save(
        self,
        trip_id: str,
        doc: Dict[str, Any],
        expected_version: Optional[int] = None,
        events: Optional[List[Dict[str, Any]]] = None,
    ) -> int: ...


class ToolDefinitionsStore(Protocol):
    def get_tools(self, registry_key: str = "default") -> List[Dict[str, Any]]: ...

    def get_system_prompt(self, registry_key: str = "default") -> str: ...

    def get_developer_prompt(self, registry_key: str = "default") -> str: ...


class KeyValueStore(Protocol):
    """State for the sandbox supplier (offers, holds, orders, inventory, idempotency keys)."""

    def get(self, key: str) -> Optional[Dict[str, Any]]: ...

    def put(self, key: str, value: Dict[str, Any]) -> None: ...

    def put_if_absent(self, key: str, value: Dict[str, Any]) -> bool: ...

    def incr(self, key: str, amount: int, *, floor: Optional[int] = None, initial: int = 0) -> Optional[int]: ...

    # Batch forms (one round trip / transaction in a database-backed store): a search publishes
    # dozens of offers at once. Optional: callers fall back to the single-key methods.
    def put_many(self, values: Dict[str, Dict[str, Any]]) -> None: ...

    def get_many(self, keys: List[str]) -> Dict[str, Optional[Dict[str, Any]]]:
        """``get`` of several keys in one read (None for a missing one)."""
        ...

    def counters_init(self, initials: Dict[str, int]) -> Dict[str, int]:
        """Create the missing counters at their initial value; return every counter's current value."""
        ...

    def counter_read(self, key: str, initial: int, *, marks: tuple[str, ...] = ()) -> int:
        """A counter's current value, created at ``initial`` when missing, with the ``marks``
        (empty values) that must exist once it does created in the same write (a database store
        makes them in its next write's transaction: a hold's, with the hold); reading one that
        exists writes nothing (``incr(key, 0)`` updated the row to read it)."""
        ...


class InMemoryTripStore:
    def __init__(self) -> None:
        self._docs: Dict[str, Dict[str, Any]] = {}
        self._events: Dict[str, List[Dict[str, Any]]] = {}
        self._lock = threading.Lock()

    def events(self, trip_id: str) -> List[Dict[str, Any]]:
        """The trip's audit trail, oldest first."""
        with self._lock:
            return copy.deepcopy(self._events.get(trip_id, []))

    def get(self, trip_id: str) -> Optional[Dict[str, Any]]:
        with self._lock:
            doc = self._docs.get(trip_id)
            return copy.deepcopy(doc) if doc is not None else None

    def save(
        self,
        trip_id: str,
        doc: Dict[str, Any],
        expected_version: Optional[int] = None,
        events: Optional[List[Dict[str, Any]]] = None,
    ) -> int:
        with self._lock:
            current = self._docs.get(trip_id)
            current_version = int(current.get("version", 0)) if current else 0
            if expected_version is not None and expected_version != current_version:
                raise StaleVersion(f"trip {trip_id}: expected version {expected_version}, found {current_version}")
            stored = copy.deepcopy(doc)
            stored["version"] = current_version + 1
            self._docs[trip_id] = stored
            self._events.setdefault(trip_id, []).extend(copy.deepcopy(events or []))
            doc["version"] = stored["version"]
            return stored["version"]


class QuoteStore(Protocol):
    """A search's offers (or rates), kept once, outside the TripIntent (``handlers.quotes``).
    ``put`` is given them as a list or as the table the search made of them
    (``handlers.supplier.table``); ``get`` gives them back as a list."""

    def put(self, trip_id: str, key: str, items: Any) -> None: ...

    def get(self, trip_id: str, key: str) -> Optional[List[Dict[str, Any]]]: ...


class InMemoryQuoteStore:
    """Keeps the lists as given: handlers replace quote lists, never edit an offer in place. A
    table is made a list when first asked for (most searches are never read again)."""

    def __init__(self) -> None:
        self._quotes: Dict[tuple, Any] = {}

    def put(self, trip_id: str, key: str, items: Any) -> None:
        self._quotes[(trip_id, key)] = items

    def get(self, trip_id: str, key: str) -> Optional[List[Dict[str, Any]]]:
        items = self._quotes.get((trip_id, key))
        if isinstance(items, dict):
            items = self._quotes[(trip_id, key)] = table_items(items)
        return items


class InMemoryToolStore:
    def __init__(self, tools: Optional[List[Dict[str, Any]]] = None) -> None:
        self._tools = copy.deepcopy(tools if tools is not None else DEFAULT_TOOLS)

    def get_tools(self, registry_key: str = "default") -> List[Dict[str, Any]]:
        return copy.deepcopy([t for t in self._tools if t.get("enabled", True)])

    def get_system_prompt(self, registry_key: str = "default") -> str:
        return DEFAULT_SYSTEM_PROMPT

    def get_developer_prompt(self, registry_key: str = "default") -> str:
        return DEFAULT_DEVELOPER_PROMPT


class InMemoryKeyValueStore:
    def __init__(self) -> None:
        self._data: Dict[str, Dict[str, Any]] = {}
        self._lock = threading.Lock()

    def get(self, key: str) -> Optional[Dict[str, Any]]:
        with self._lock:
            v = self._data.get(key)
            return copy.deepcopy(v) if v is not None else None

    def put(self, key: str, value: Dict[str, Any]) -> None:
        with self._lock:
            self._data[key] = copy.deepcopy(value)

    def put_if_absent(self, key: str, value: Dict[str, Any]) -> bool:
        with self._lock:
            if key in self._data:
                return False
            self._data[key] = copy.deepcopy(value)
            return True

    def put_many(self, values: Dict[str, Dict[str, Any]]) -> None:
        with self._lock:
            for key, value in values.items():
                self._data[key] = copy.deepcopy(value)

    def get_many(self, keys: List[str]) -> Dict[str, Optional[Dict[str, Any]]]:
        return {key: self.get(key) for key in keys}

    def counters_init(self, initials: Dict[str, int]) -> Dict[str, int]:
        with self._lock:
            for key, initial in initials.items():
                self._data.setdefault(key, {"n": int(initial)})
            return {key: int(self._data[key]["n"]) for key in initials}

    def counter_read(self, key: str, initial: int, *, marks: tuple[str, ...] = ()) -> int:
        with self._lock:
            for mark in marks:
                self._data.setdefault(mark, {})
            return int(self._data.setdefault(key, {"n": int(initial)})["n"])

    def incr(self, key: str, amount: int, *, floor: Optional[int] = None, initial: int = 0) -> Optional[int]:
        """Atomically add ``amount`` to an integer counter; refuse (None) if it would go below ``floor``."""
        with self._lock:
            cur = int(self._data.get(key, {"n": initial})["n"])
            new = cur + amount
            if floor is not None and new < floor:
                return None
            self._data[key] = {"n": new}
            return new
