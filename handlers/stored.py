"""The core's documents as a host stores them: a TripIntent's bundles and kept offers, and the
bundles chat widget, as tables (``handlers.supplier.table``).

A search turn's TripIntent holds five bundles of two flights and a hotel each, every item with
its offer's summary (some twenty fields), and the few offers they name; the bundles widget holds
the same bundles as the card shows them. As documents, each item repeats every field name, every
value the items share (currency, cabin, hold policy) and, where two bundles share a flight, the
whole summary. Stored, the bundles are three tables — the bundles without their items, then all
their flights and all their hotels, in order, each bundle saying how many of each are its own —
and each quote's kept offers one table (the search's tool run keeps its offers the same way, and
the ranker's its bundles: ``handlers.tools.stored_result``).

Only the stored text differs: ``intent_loaded`` (``widget_loaded``) gives back exactly the
document ``intent_stored`` (``widget_stored``) was given, key order included, and a document
stored before (or too small for a table) is read as it is. The Django host applies them in the
columns' JSON encoder and decoder (``trips.models.json_text``), so whatever reads a trip or a
chat message — the core, the replay, the admin, the API, the chat history — reads documents.
"""

from __future__ import annotations

from itertools import islice
from typing import Any, Dict, List, Optional

from .supplier.table import items_table, table_items, with_tables, without_tables

BUNDLE_ITEMS = ("flights", "hotels")
QUOTES = ("flight_quotes", "hotel_quotes")
INTENT_BUNDLES, WIDGET_BUNDLES = "ranked_bundles", "bundles"  # where each keeps its bundles


def _rows(stored: Any) -> List[Any]:
    return table_items(stored) if type(stored) is dict else list(stored)


def bundles_table(bundles: Any) -> Optional[Dict[str, Any]]:
    """A list of bundles as ``{"bundles": …, "flights": …, "hotels": …}``: the bundles with the
    number of their flights (hotels) in place of the list, then every bundle's flights (hotels)
    in order; each a table (``items_table``), or the list itself when a table cannot say it. None
    when there is nothing to share (fewer than two bundles) or a bundle is not a document whose
    items are lists."""
    if type(bundles) is not list or len(bundles) < 2:
        return None
    heads: List[Dict[str, Any]] = []
    items: Dict[str, List[Any]] = {key: [] for key in BUNDLE_ITEMS}
    for bundle in bundles:
        if type(bundle) is not dict:
            return None
        head = dict(bundle)
        for key in BUNDLE_ITEMS:
            if key in bundle:
                if type(bundle[key]) is not list:
                    return None
                head[key] = len(bundle[key])
                items[key] += bundle[key]
        heads.append(head)
    table: Dict[str, Any] = {"bundles": items_table(heads) or heads}
    for key, found in items.items():
        if found:
            table[key] = items_table(found) or found
    return table


def table_bundles(table: Dict[str, Any]) -> List[Dict[str, Any]]:
    """The bundles ``bundles_table`` made ``table`` of, as they were."""
    items = {key: iter(_rows(table.get(key) or [])) for key in BUNDLE_ITEMS}
    bundles = []
    for head in _rows(table["bundles"]):
        bundle = dict(head)
        for key in BUNDLE_ITEMS:
            if type(bundle.get(key)) is int:
                bundle[key] = list(islice(items[key], bundle[key]))
        bundles.append(bundle)
    return bundles


def with_bundles_table(doc: Dict[str, Any], key: str) -> Dict[str, Any]:
    """``doc`` with its bundles (under ``key``) as tables, in their place under ``<key>_table``
    (a copy); ``doc`` itself when a table cannot say them."""
    table_key = f"{key}_table"
    table = bundles_table(doc.get(key)) if table_key not in doc else None
    if table is None:
        return doc
    return {table_key if k == key else k: table if k == key else v for k, v in doc.items()}


def without_bundles_table(doc: Dict[str, Any], key: str) -> Dict[str, Any]:
    """``with_bundles_table`` undone; ``doc`` itself when it keeps no table there."""
    table_key = f"{key}_table"
    if type(doc.get(table_key)) is not dict:
        return doc
    return {key if k == table_key else k: table_bundles(v) if k == table_key else v for k, v in doc.items()}


def intent_stored(doc: Any) -> Any:
    """A TripIntent as it is stored: its bundles and each quote's kept offers as tables (a copy
    where it differs; anything that is not a TripIntent as it is)."""
    wm = doc.get("working_memory") if type(doc) is dict else None
    if type(wm) is not dict:
        return doc
    wm = with_bundles_table(wm, INTENT_BUNDLES)
    for kind in QUOTES:
        if type(wm.get(kind)) is list:
            wm = {**wm, kind: [with_tables(e) if type(e) is dict else e for e in wm[kind]]}
    return {**doc, "working_memory": wm}


def intent_loaded(doc: Any) -> Any:
    """A stored TripIntent as the core keeps it (``intent_stored`` undone); one stored before, or
    anything else, as it is."""
    wm = doc.get("working_memory") if type(doc) is dict else None
    if type(wm) is not dict:
        return doc
    loaded = without_bundles_table(wm, INTENT_BUNDLES)
    for kind in QUOTES:
        entries = loaded.get(kind)
        if type(entries) is list:
            read = [without_tables(e) if type(e) is dict else e for e in entries]
            if any(a is not b for a, b in zip(read, entries, strict=True)):
                loaded = {**loaded, kind: read}
    return doc if loaded is wm else {**doc, "working_memory": loaded}


def widget_stored(widget: Any) -> Any:
    """A chat widget as it is stored: a bundles widget's bundles as tables; any other as it is."""
    if type(widget) is not dict or widget.get("type") != "bundles":
        return widget
    return with_bundles_table(widget, WIDGET_BUNDLES)


def widget_loaded(widget: Any) -> Any:
    """A stored chat widget as it was shown (``widget_stored`` undone)."""
    if type(widget) is not dict or widget.get("type") != "bundles":
        return widget
    return without_bundles_table(widget, WIDGET_BUNDLES)
