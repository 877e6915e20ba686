"""Offers outside the TripIntent: a search's offers are kept once, in a ``QuoteStore``; the document
keeps of them only what its bundles, selection and holds name.

A search's whole result stays in the working document for the rest of its turn (the ranker usually
runs in the same turn). At the turn's end ``keep_named_offers`` trims each quote entry to the
offers something on screen names (the LLM follow-up reads those in full), so the document stays
the same size however many offers a supplier returns; ``count`` still says how many the search
found, and the trimmed offers go to the store under ``quote_key``. A later turn that ranks again
(a hotel searched again beside the flights found earlier) gets them back from the store
(``with_stored_offers``). The Runner does both. A host may keep offers where it already stores
them (the Django host reads them back from the search's tool run).

In its own turn a flight search's entry keeps its offers as the table the search made of them
(``offers_table``: ``handlers.supplier.columns``), the form its tool run stores: the ranker reads
the table's columns, ``keep_named_offers`` makes documents of the named offers only and hands the
table to the store, and ``items`` (``handlers.supplier.table.output_items``) reads either form.

An offer (rate) a bundle on screen names is kept without its summary: the bundle carries it
(``working_memory.ranked_bundles[].flights[].summary``), so the document holds each summary once.
``items`` (and ``with_bundle_summaries``) give readers the offers with their summaries back; a
document saved before kept them in both places, and is read the same way.
"""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional, Set, Tuple

from .supplier.table import TABLES, held, output_items, table_ids, table_items

ITEMS = {"flight_quotes": ("offers", "segment_id", "offer_id"), "hotel_quotes": ("rates", "stay_id", "rate_id")}
SEARCH_TOOLS = {"flight_quote_search": "flight_quotes", "hotel_quote_search": "hotel_quotes"}


def quote_key(kind: str, entry: Dict[str, Any]) -> str:
    """Where a search's offers are kept: its segment or stay and the fingerprint of its arguments."""
    _, id_key, _ = ITEMS[kind]
    return f"{kind}:{entry.get(id_key)}:{entry.get('args_hash')}"


def found(entry: Dict[str, Any], kind: str) -> int:
    """How many offers (rates) the search behind ``entry`` found, kept in the document or not."""
    return max(int(entry.get("count") or 0), held(entry, ITEMS[kind][0]))


def _named(wm: Dict[str, Any]) -> Set[str]:
    """Offer and rate ids something on screen names: the bundles, the selection, the holds."""
    names: Set[str] = set()
    for bundle in wm.get("ranked_bundles") or []:
        names |= {str(f.get("offer_id")) for f in bundle.get("flights") or []}
        names |= {str(h.get("rate_id")) for h in bundle.get("hotels") or []}
    selected = wm.get("selected") or {}
    names |= {str(selected.get(k)) for k in ("flight_option_id", "hotel_option_id") if selected.get(k)}
    for hold in wm.get("holds") or []:
        names |= {str(hold.get(k)) for k in ("offer_id", "rate_id") if hold.get(k)}
    return names


# A bundle's items by the quote list they come from: (the bundle's key, the quote's id key, the item's id key).
BUNDLE_ITEMS = {
    "flight_quotes": ("flights", "segment_id", "offer_id"),
    "hotel_quotes": ("hotels", "stay_id", "rate_id"),
}


def bundle_summaries(wm: Dict[str, Any]) -> Dict[Tuple[str, str, str], Dict[str, Any]]:
    """The summary of each offer (rate) the bundles on screen carry, by ``(kind, segment or stay, id)``."""
    summaries: Dict[Tuple[str, str, str], Dict[str, Any]] = {}
    for bundle in wm.get("ranked_bundles") or []:
        for kind, (items_key, list_key, id_key) in BUNDLE_ITEMS.items():
            for item in bundle.get(items_key) or []:
                if isinstance(item, dict) and isinstance(item.get("summary"), dict):
                    summaries[(kind, str(item.get(list_key)), str(item.get(id_key)))] = item["summary"]
    return summaries


def _summary_key(kind: str, entry: Dict[str, Any], item: Dict[str, Any]) -> Tuple[str, str, str]:
    _, list_key, id_key = BUNDLE_ITEMS[kind]
    return kind, str(entry.get(list_key)), str(item.get(id_key))


def with_bundle_summaries(
    kind: str, entries: List[Dict[str, Any]], summaries: Dict[Tuple[str, str, str], Dict[str, Any]]
) -> List[Dict[str, Any]]:
    """``entries`` (quotes of ``kind``) with each offer kept without its summary given the summary
    its bundle carries (copies; entries and offers that need nothing are shared as they are)."""
    items_key = ITEMS[kind][0]
    out = []
    for entry in entries:
        items = entry.get(items_key) if isinstance(entry, dict) else None
        if isinstance(items, list) and any(isinstance(i, dict) and "summary" not in i for i in items):
            whole = [
                {**i, "summary": summaries[key]}
                if isinstance(i, dict) and "summary" not in i and (key := _summary_key(kind, entry, i)) in summaries
                else i
                for i in items
            ]
            entry = {**entry, items_key: whole}
        out.append(entry)
    return out


def items(wm: Dict[str, Any], kind: str) -> Iterator[Dict[str, Any]]:
    """Every offer (rate) the document keeps in its quotes of ``kind``, with its summary."""
    for entry in with_bundle_summaries(kind, list(wm.get(kind) or []), bundle_summaries(wm)):
        yield from output_items(entry, ITEMS[kind][0])


def summaries_once(doc: Dict[str, Any]) -> Dict[str, Any]:
    """``doc`` as the core keeps it now (a copy, only where it differs): a document saved before kept a
    bundle's offers' summaries in their trimmed quotes too, and the ranker's ``score_breakdown`` in
    each bundle. What a replay compares a stored document in (``trips.hosting.replay``)."""
    wm = doc.get("working_memory")
    if not isinstance(wm, dict):
        return doc
    summaries = bundle_summaries(wm)
    out = dict(wm)
    for kind, (items_key, _, _) in ITEMS.items():
        entries = []
        for entry in wm.get(kind) or []:
            items = entry.get(items_key) if isinstance(entry, dict) else None
            if isinstance(items, list) and len(items) < found(entry, kind):
                entry = {
                    **entry,
                    items_key: [
                        {k: v for k, v in item.items() if k != "summary"}
                        if isinstance(item, dict) and _summary_key(kind, entry, item) in summaries
                        else item
                        for item in items
                    ],
                }
            entries.append(entry)
        if kind in wm:
            out[kind] = entries
    if isinstance(wm.get("ranked_bundles"), list):
        out["ranked_bundles"] = [
            {k: v for k, v in b.items() if k != "score_breakdown"} if isinstance(b, dict) else b
            for b in wm["ranked_bundles"]
        ]
    return {**doc, "working_memory": out}


def keep_named_offers(doc: Dict[str, Any]) -> List[Tuple[str, Any]]:
    """Trim the document's quotes to the offers something names, each named by a bundle without
    the summary the bundle carries; returns ``(key, offers)`` for each whole entry that lost some
    (what the store must keep: a search's offers as it found them, once). Entries are replaced,
    never edited in place."""
    wm = doc.get("working_memory") or {}
    names = _named(wm)
    summaries = bundle_summaries(wm)
    dropped: List[Tuple[str, Any]] = []
    for kind, (items_key, _, id_key) in ITEMS.items():
        entries = []
        for entry in wm.get(kind) or []:
            if type(entry.get(TABLES[items_key])) is dict:  # a search of this turn, as it made them
                entry = _named_of_table(kind, entry, names, summaries, dropped)
                entries.append(entry)
                continue
            items = entry.get(items_key) or []
            kept = [item for item in items if str(item.get(id_key)) in names]
            if len(kept) < len(items):
                if len(items) >= found(entry, kind):  # trimmed already: the store has them all
                    dropped.append((quote_key(kind, entry), items))
                kept = [
                    {k: v for k, v in item.items() if k != "summary"}
                    if _summary_key(kind, entry, item) in summaries
                    else item
                    for item in kept
                ]
                entry = {**entry, items_key: kept, "count": found(entry, kind)}
            entries.append(entry)
        if kind in wm:
            wm[kind] = entries
    return dropped


def _named_of_table(
    kind: str,
    entry: Dict[str, Any],
    names: Set[str],
    summaries: Dict[Tuple[str, str, str], Dict[str, Any]],
    dropped: List[Tuple[str, Any]],
) -> Dict[str, Any]:
    """``keep_named_offers`` for a quote entry that keeps its search's offers as the search made
    them (a table): only the named ones are made documents, in the list's place (each named by a
    bundle without its summary, as ever); the table goes to the store (``dropped``). An entry
    whose every offer is named keeps them all, whole, as a list would have been kept."""
    items_key, _, id_key = ITEMS[kind]
    table_key = TABLES[items_key]
    table = entry[table_key]
    at = [i for i, item_id in enumerate(table_ids(table, id_key)) if str(item_id) in names]
    whole = len(at) == len(table["rows"])
    kept = table_items(table, at)
    if not whole:
        dropped.append((quote_key(kind, entry), table))
        kept = [
            {k: v for k, v in item.items() if k != "summary"} if _summary_key(kind, entry, item) in summaries else item
            for item in kept
        ]
    count = found(entry, kind)
    entry = {items_key if k == table_key else k: kept if k == table_key else v for k, v in entry.items()}
    if not whole:
        entry["count"] = count
    return entry


def with_stored_offers(arguments: Dict[str, Any], store: Any, trip_id: str) -> Dict[str, Any]:
    """The ranker's arguments with each trimmed quote's offers back from ``store`` (a copy; a quote
    the store does not know stays as the document had it)."""
    if store is None:
        return arguments
    out: Optional[Dict[str, Any]] = None
    for kind, (items_key, _, _) in ITEMS.items():
        quotes = arguments.get(kind)
        if not isinstance(quotes, list):
            continue
        for i, entry in enumerate(quotes):
            if not isinstance(entry, dict) or held(entry, items_key) >= found(entry, kind):
                continue
            items = store.get(trip_id, quote_key(kind, entry))
            if items is None:
                continue
            if out is None:
                out = {**arguments, **{k: list(arguments[k]) for k in ITEMS if isinstance(arguments.get(k), list)}}
            out[kind][i] = {**entry, items_key: items}
    return out if out is not None else arguments
