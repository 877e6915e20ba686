"""The sandbox's records in a KeyValueStore, under one prefix, with an append-only charge ledger.

Every value is a JSON-serialisable dict so a Django host can persist the store in a table.
"""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any, ContextManager, Dict, List, Optional, Set

from .seeded import search_of


class SupplierState:
    def __init__(self, store: Any, prefix: str) -> None:
        self.store, self.prefix = store, prefix

    def atomic(self) -> ContextManager[Any]:
        """One all-or-nothing unit of writes where the store has transactions (a database); else nothing."""
        atomic = getattr(self.store, "atomic", None)
        return atomic() if atomic is not None else nullcontext()

    def get(self, kind: str, key: str) -> Optional[Dict[str, Any]]:
        return self.store.get(f"{self.prefix}{kind}:{key}")

    def get_many(self, pairs: List[tuple[str, str]]) -> Dict[tuple[str, str], Optional[Dict[str, Any]]]:
        """``get`` of several (kind, key) pairs, in one read where the store has ``get_many``."""
        keyed = {f"{self.prefix}{kind}:{key}": (kind, key) for kind, key in pairs}
        if hasattr(self.store, "get_many"):
            found = self.store.get_many(list(keyed))
            return {pair: found.get(full) for full, pair in keyed.items()}
        return {pair: self.store.get(full) for full, pair in keyed.items()}

    def put(self, kind: str, key: str, value: Dict[str, Any]) -> None:
        self.store.put(f"{self.prefix}{kind}:{key}", value)

    def put_if_absent(self, kind: str, key: str, value: Dict[str, Any]) -> bool:
        return self.store.put_if_absent(f"{self.prefix}{kind}:{key}", value)

    def put_many(self, kind: str, values: Dict[str, Dict[str, Any]]) -> None:
        keyed = {f"{self.prefix}{kind}:{key}": value for key, value in values.items()}
        if hasattr(self.store, "put_many"):
            self.store.put_many(keyed)
        else:
            for key, value in keyed.items():
                self.store.put(key, value)

    def stock_many(self, initials: Dict[str, int], refs: Optional[Set[str]] = None) -> Dict[str, int]:
        """Units left of many items in one go (a search publishes all its offers together). Only
        items someone held or bought have counters (``stock`` creates them and marks their search):
        a search nobody held from shows its items' initial stock, with one read per search instead
        of a counter read and created for every offer. ``refs``: the items' searches, when the
        caller has read them already (``search_of`` of every id: a thousand calls)."""
        if refs is None:
            refs = set(map(search_of, initials))
        if not any(self.get("stocked", ref) is not None for ref in refs):
            return dict(initials)
        keyed = {f"{self.prefix}stock:{item_id}": n for item_id, n in initials.items()}
        if hasattr(self.store, "counters_init"):
            current = self.store.counters_init(keyed)
        else:
            current = {key: self.store.incr(key, 0, initial=n) for key, n in keyed.items()}
        return {item_id: int(current[f"{self.prefix}stock:{item_id}"]) for item_id in initials}

    def stock(self, item_id: str, initial: int) -> int:
        """Units left of an offer or rate (created at ``initial``, its stock as offered, on first
        sight). Its search is marked first (or in the same write), so from then on publishing it
        reads the counters. A store with ``counter_read`` does it in one read once both exist."""
        ref = search_of(item_id)
        counter = f"{self.prefix}stock:{item_id}"
        if hasattr(self.store, "counter_read"):
            return int(self.store.counter_read(counter, initial, marks=(f"{self.prefix}stocked:{ref}",)))
        if self.get("stocked", ref) is None:
            self.put_if_absent("stocked", ref, {})
        return int(self.store.incr(counter, 0, initial=initial))

    def take_stock(self, item_id: str, quantity: int) -> bool:
        """Atomically take ``quantity`` units; False (and nothing taken) when too few are left."""
        return self.store.incr(f"{self.prefix}stock:{item_id}", -quantity, floor=0) is not None

    def return_stock(self, item_id: str, quantity: int) -> None:
        self.store.incr(f"{self.prefix}stock:{item_id}", quantity)

    def record_money(self, entry: Dict[str, Any]) -> Dict[str, Any]:
        """Append a charge or refund to the ledger (refunds carry negative amounts)."""
        n = self.store.incr(f"{self.prefix}ledger:count", 1)
        entry = {**entry, "entry_id": f"led_{n}"}
        self.put("ledger", str(n), entry)
        return entry

    def ledger(self) -> List[Dict[str, Any]]:
        n = int(self.store.incr(f"{self.prefix}ledger:count", 0))
        return [e for i in range(1, n + 1) if (e := self.get("ledger", str(i))) is not None]
