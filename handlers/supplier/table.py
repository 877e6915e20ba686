"""A search's kept offers (rates) as a tool run stores them: one table, not one document each.

A search keeps each offer as :func:`handlers.supplier.summary.compact_offer` makes it (each rate as
``compact_rate``): some thirty fields, most of them the same in every offer of one search
(currency, cabin, hold policy, fare conditions, bags) and the rest short. Stored as a list of
documents, every offer repeats every field's name and every common value: about 1 KB each,
≈ 1 MB for a search of 1,000 offers. Stored as a table (about a quarter of that)::

    {"fields": ["offer_id", "summary.carrier", …],   every field of an offer, in its order
     "same": {"summary.currency": "USD", …},          the fields equal in every row, once
     "records": {"legs": ["flight_number", …], …},    list fields whose items are all alike: each
                                                      item as the list of its values, in this order
     "derived": ["summary.origin", …],                fields read from others (``DERIVED``)
     "rows": [[the other fields' values, in order], …]}

``rows`` are in the search's order. An offer not of the table's shape (other fields, or a
document where the first offer has none) is a row of its own: the offer itself, whole. Nothing
is rounded or renamed: :func:`table_items` gives back exactly the offers :func:`items_table` was
given, key order included (``tests/handlers/test_offers_table.py``), so whatever reads a stored
search (a replay, a later ranking, the admin's tool-run page) reads what the search returned.
A field whose name redaction masks (``handlers.common.redact.SENSITIVE_KEYS``) is never made a
column: redaction masks by key, and in a table the keys are values.

Both directions work a column at a time (a search of 1,000 offers takes a few milliseconds,
less than encoding its offers one by one would).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import chain
from operator import itemgetter
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from handlers.common.redact import SENSITIVE_KEYS
from handlers.supplier.wire import collector_paused

TABLES = {"offers": "offers_table", "rates": "rates_table"}  # a search output's list, and its key as a table

Column = Sequence[Any]


_FLIGHT_NUMBER = itemgetter("flight_number")


_FIRST, _LAST = itemgetter(0), itemgetter(-1)


def _legs_firsts(key: str) -> Callable[[Column], List[Any]]:
    get = itemgetter(key)
    return lambda column: list(map(get, map(_FIRST, column)))  # legs[0][key] for each, in C


def _legs_lasts(key: str) -> Callable[[Column], List[Any]]:
    get = itemgetter(key)
    return lambda column: list(map(get, map(_LAST, column)))


# What an offer's (rate's) summary repeats of its other fields (``summarize_offer`` reads the legs'
# segments, ``summarize_rate`` the cancellation timeline): each field, the field it is read from,
# and how, a whole column at a time. A field is derived in a table only when every row's value is
# exactly what this gives; tables already stored name what they derived, so an entry is never
# changed, only added.
DERIVED: Dict[str, Tuple[str, Callable[[Column], List[Any]]]] = {
    "summary.flight_numbers": ("legs", lambda column: [list(map(_FLIGHT_NUMBER, legs)) for legs in column]),
    "summary.origin": ("legs", _legs_firsts("origin")),
    "summary.destination": ("legs", _legs_lasts("destination")),
    "summary.depart_at": ("legs", _legs_firsts("depart_at")),
    "summary.arrive_at": ("legs", _legs_lasts("arrive_at")),
    "summary.stops": ("legs", lambda column: [len(legs) - 1 for legs in column]),
    "summary.refundable": ("cancellation_timeline", lambda column: [bool(t) for t in column]),
    "summary.refundable_until": (
        "cancellation_timeline",
        lambda column: [t[0]["before"] if t else None for t in column],
    ),
}
DERIVED_SOURCES = frozenset(source for source, _ in DERIVED.values())
SCALARS = (str, int, bool, type(None))  # (floats: ``1.0 == 1``; their columns are never ``same``)

# A document's shape: its keys in order and, for each, the shape of the non-empty document under
# it (None: a leaf, whatever its value); None instead of that tuple when every value is a leaf.
Shape = Tuple[Tuple[str, ...], Optional[Tuple[Any, ...]]]


def shape_of(item: Dict[str, Any]) -> Shape:
    keys = tuple(item)
    subs = tuple(shape_of(v) if type(v) is dict and v else None for v in item.values())
    return keys, None if not any(subs) else subs


def leaf_columns(items: Sequence[Any], shape: Shape) -> Tuple[List[Column], List[int]]:
    """The leaves of ``items`` as columns, in :func:`_paths`' order, if every item is of ``shape``
    (the same keys in the same order at every depth; a value where ``shape`` has a leaf is taken
    whole); otherwise no columns and the positions of some items that are not (those to set apart
    first: the rest may fit, or misfit deeper down).

    A column at a time: a dictionary's values for all items at once (``zip`` over their
    ``dict.values``), each key's shape checked over its whole column (``_all_of``), so no Python
    step runs per item and field (a 1,000-offer search's table: 7.4 → 5.6 ms of CPU, busy machine)."""
    keys, subs = shape
    if not _all_of(items, keys):
        return [], [n for n, item in enumerate(items) if type(item) is not dict or tuple(item) != keys]
    by_key: List[Column] = list(zip(*map(dict.values, items), strict=True)) if keys else []
    if subs is None:
        return by_key, []
    return sub_columns(by_key, subs)


def sub_columns(columns: Sequence[Column], subs: Sequence[Optional[Shape]]) -> Tuple[List[Column], List[int]]:
    """Each of ``columns`` as the columns of its leaves (:func:`leaf_columns`; ``subs``: each
    one's shape, None for a column of leaves), in order; or no columns and where some item misfits."""
    out: List[Column] = []
    for column, sub in zip(columns, subs, strict=True):
        if sub is None:
            out.append(column)
            continue
        inner, misfits = leaf_columns(column, sub)
        if misfits:
            return [], misfits
        out += inner
    return out, []


def _all_of(items: Sequence[Any], keys: Tuple[str, ...]) -> bool:
    """Whether every item is a dictionary with exactly ``keys``, in that order (``map`` and
    ``count`` run without a Python step per item)."""
    return set(map(type, items)) == {dict} and list(map(tuple, items)).count(keys) == len(items)


def _regular(items: List[Any], template: Shape) -> Tuple[List[Column], int, Dict[int, Any]]:
    """``items`` split: the columns of those of ``template``'s shape, how many they are, and the
    others by position (kept whole). Items that fit are usually all of them: found in one pass."""
    at = list(range(len(items)))
    fitting = items
    while True:
        columns, misfits = leaf_columns(fitting, template)
        if not misfits:
            break
        set_apart = set(misfits)
        at = [n for i, n in enumerate(at) if i not in set_apart]
        fitting = [item for i, item in enumerate(fitting) if i not in set_apart]
    kept = set(at)
    return columns, len(at), {n: item for n, item in enumerate(items) if n not in kept}


def _paths(shape: Shape, prefix: str = "") -> List[str]:
    keys, subs = shape
    out: List[str] = []
    for key, sub in zip(keys, subs or (None,) * len(keys), strict=True):
        out += _paths(sub, f"{prefix}{key}.") if sub else [f"{prefix}{key}"]
    return out


def _keys(shape: Shape) -> List[Any]:
    keys, subs = shape
    return [*keys, *(k for sub in subs or () if sub for k in _keys(sub))]


@lru_cache(maxsize=256)
def fields_of(shape: Shape) -> Optional[List[str]]:
    """The paths of a shape's leaves, if a table can name them (``_plain``); a few shapes recur."""
    return _paths(shape) if _plain(_keys(shape)) else None


def _plain(keys: Sequence[Any]) -> bool:
    """Names a table can keep as values: strings without a dot that redaction does not mask."""
    return all(type(k) is str and "." not in k and k.lower() not in SENSITIVE_KEYS for k in keys)


def _record_keys(column: Column) -> Optional[Tuple[str, ...]]:
    """The keys every item of every list in ``column`` has, in the same order; None if not all
    alike (or there are no items)."""
    if not column or type(column[0]) is not list or set(map(type, column)) != {list}:
        return None
    entries = list(chain.from_iterable(column))
    if not entries or set(map(type, entries)) != {dict}:
        return None
    keys = tuple(entries[0])
    if not keys or not _plain(keys) or not _all_of(entries, keys):
        return None
    return keys


def _same(column: Column) -> bool:
    """Whether every value is the first, of its kind (a scalar). The last is looked at first: most
    columns that differ (ids, prices, times) differ there, and are never scanned."""
    first = column[0]
    kind = type(first)
    return (
        kind in SCALARS
        and column[-1] == first
        and column.count(first) == len(column)
        and set(map(type, column)) == {kind}
    )


def _exactly(a: Any, b: Any) -> bool:
    """Equal as JSON writes them: ``True == 1`` and ``1 == 1.0`` in Python, not in a column."""
    if type(a) is not type(b) or a != b:
        return False
    if type(a) is dict:
        return list(a) == list(b) and all(_exactly(a[k], b[k]) for k in a)
    if type(a) is not list:
        return True
    kinds = list(map(type, a))
    if kinds != list(map(type, b)):
        return False
    if dict not in kinds and list not in kinds:
        return True
    if kinds.count(list) == len(kinds):  # a column of lists (flight numbers): their items' kinds at once
        inner = [list(map(type, x)) for x in a]
        if inner != [list(map(type, y)) for y in b]:
            return False
        if not {list, dict} & set(chain.from_iterable(inner)):
            return True
    return all(_exactly(x, y) for x, y in zip(a, b, strict=True) if type(x) is list or type(x) is dict)


def items_table(items: List[Any]) -> Optional[Dict[str, Any]]:
    """``items`` (a search's kept offers or rates) as one table; None when there is nothing to
    share (fewer than two) or a table cannot say them exactly (an item that is not a document, a
    field name a table cannot keep: ``_plain``). Rows and record items may be tuples (JSON arrays
    all the same).

    Made with the cyclic collector paused (``handlers.supplier.wire``): a table of a thousand
    offers allocates a few thousand columns, rows and records, none in a cycle, which would start
    some thirty young collections, each walking the search's kept offers again."""
    with collector_paused():
        return _table(items)


def _table(items: List[Any]) -> Optional[Dict[str, Any]]:
    if len(items) < 2 or set(map(type, items)) != {dict}:
        return None
    template = shape_of(items[0])
    fields = fields_of(template)
    if fields is None:
        return None
    columns, regular, whole = _regular(items, template)  # whole: by position, the items not of the first one's shape
    if not regular:
        return None
    return columns_table(fields, columns, regular, whole)


def columns_table(
    fields: List[str],
    columns: Sequence[Optional[Column]],
    regular: int,
    whole: Optional[Dict[int, Any]] = None,
    *,
    derived: Optional[set] = None,
    records: Optional[Dict[int, Tuple[str, ...]]] = None,
) -> Dict[str, Any]:
    """The table of items given as the columns of their leaves (``fields``' order: ``_paths`` of
    their shape), ``regular`` of them, and ``whole`` by position: the items kept whole. What
    :func:`items_table` makes of the items once it has their columns; a search that makes its
    columns itself (``handlers.supplier.columns``) hands them here, for the same table, and may
    say what it made so: ``derived``, the columns that are exactly what ``DERIVED`` reads from
    their source (not compared again), and ``records``, the columns made as records already (each
    item's values in those keys' order), by position. A column of ``derived`` may be None (not made):
    one whose values are lists, never kept as ``same`` (the flight numbers)."""
    same = {i for i, column in enumerate(columns) if column is not None and _same(column)}
    given: List[Column] = [() if column is None else column for column in columns]  # (one not made: never read)
    derived = derived - same if derived is not None else _derivable(fields, given, same)
    kept = [i for i in range(len(fields)) if i not in same and i not in derived]
    made = records or {}
    records = {i: keys for i in kept if (keys := made.get(i) or _record_keys(given[i]))}
    stored = [_as_records(given[i], records[i]) if i in records and i not in made else given[i] for i in kept]
    rows: List[Any] = list(zip(*stored, strict=True)) if stored else [()] * regular
    for n, item in sorted((whole or {}).items()):
        rows.insert(n, item)
    table: Dict[str, Any] = {"fields": list(fields), "same": {fields[i]: given[i][0] for i in sorted(same)}}
    if records:
        table["records"] = {fields[i]: list(keys) for i, keys in records.items()}
    if derived:
        table["derived"] = [fields[i] for i in sorted(derived)]
    table["rows"] = rows
    return table


def _as_records(column: Column, keys: Tuple[str, ...]) -> List[Any]:
    """Each list of alike documents in ``column`` as the lists of their values, in ``keys``' order."""
    if len(keys) == 1:  # one value each, still as a list of it (``zip`` of one makes 1-tuples)
        (key,) = keys
        return [list(zip(map(itemgetter(key), value))) for value in column]
    values = itemgetter(*keys)
    return [list(map(values, value)) for value in column]


def _derivable(fields: List[str], columns: List[Column], same: set) -> set:
    """The columns (``DERIVED``) that every regular row's source field gives exactly, value and type."""
    derivable: set = set()
    if not DERIVED_SOURCES.intersection(fields):
        return derivable
    at = {field: i for i, field in enumerate(fields)}
    for name, (source, derive) in DERIVED.items():
        i = at.get(name)
        if i is None or i in same or source not in at or source in DERIVED:
            continue
        try:
            given = derive(columns[at[source]])
        except (KeyError, IndexError, TypeError):
            continue
        if _exactly(given, list(columns[i])):
            derivable.add(i)
    return derivable


# How a table's fields nest again: each key with the index of its column, or with the keys under it.
Nesting = List[Tuple[str, Any]]


@lru_cache(maxsize=256)
def _nesting(fields: Tuple[str, ...]) -> Nesting:
    root: Dict[str, Any] = {}
    for i, path in enumerate(fields):
        *parents, last = path.split(".")
        at = root
        for part in parents:
            at = at.setdefault(part, {})
        at[last] = i

    def nest(node: Dict[str, Any]) -> Nesting:
        return [(key, value if type(value) is int else nest(value)) for key, value in node.items()]

    return nest(root)


def _build(nesting: Nesting, columns: List[Column], r: int) -> Dict[str, Any]:
    return {key: columns[at][r] if type(at) is int else _build(at, columns, r) for key, at in nesting}


def table_items(table: Dict[str, Any], only: Optional[Sequence[int]] = None) -> List[Any]:
    """The offers (rates) :func:`items_table` made ``table`` of, as they were; ``only``: just
    those at these positions, in this order."""
    fields: List[str] = table["fields"]
    same: Dict[str, Any] = table.get("same") or {}
    records: Dict[str, List[str]] = table.get("records") or {}
    derived: List[str] = table.get("derived") or []
    rows = table["rows"] if only is None else [table["rows"][i] for i in only]
    regular = [row for row in rows if type(row) is not dict]
    n = len(regular)
    kept = [f for f in fields if f not in same and f not in derived]
    by_field: Dict[str, Column] = {f: [same[f]] * n for f in same}
    by_field.update(zip(kept, zip(*regular, strict=True) if kept and n else [()] * len(kept), strict=True))
    for name, keys in records.items():
        by_field[name] = [[dict(zip(keys, entry, strict=True)) for entry in value] for value in by_field[name]]
    for name in derived:
        source, derive = DERIVED[name]
        by_field[name] = derive(by_field[source])
    columns = [by_field[f] for f in fields]
    nesting = _nesting(tuple(fields))
    built = iter([_build(nesting, columns, r) for r in range(n)])
    return [row if type(row) is dict else next(built) for row in rows]


def table_ids(table: Dict[str, Any], key: str) -> List[Any]:
    """Every item's ``key`` (an id: a field of its own, not under another), in order, without
    making the items."""
    rows = table["rows"]
    same = table.get("same") or {}
    if key in same:
        return [row.get(key) if type(row) is dict else same[key] for row in rows]
    kept = [f for f in table["fields"] if f not in same and f not in (table.get("derived") or ())]
    if key not in kept:
        return [row.get(key) if type(row) is dict else None for row in rows]
    at = kept.index(key)
    return [row.get(key) if type(row) is dict else row[at] for row in rows]


def output_items(output: Dict[str, Any], items_key: str) -> List[Any]:
    """A search output's (or a quote entry's) offers (rates) under ``items_key`` as a list, whether
    it keeps them as one (``offers``) or as a table (``offers_table``, as a search makes it when its
    offers are all alike: ``handlers.supplier.columns``)."""
    table = output.get(TABLES[items_key])
    if type(table) is dict:
        return table_items(table)
    return list(output.get(items_key) or [])


def held(output: Dict[str, Any], items_key: str) -> int:
    """How many offers (rates) ``output`` keeps under ``items_key``, as a list or as a table."""
    table = output.get(TABLES[items_key])
    if type(table) is dict:
        return len(table["rows"])
    return len(output.get(items_key) or [])


def with_tables(output: Dict[str, Any]) -> Dict[str, Any]:
    """A search's output (or a TripIntent's quote entry) with its offers (rates) as one table, in
    their place (``offers_table``), when a table says them; otherwise ``output`` itself."""
    for items_key, table_key in TABLES.items():
        items = output.get(items_key)
        table = items_table(items) if type(items) is list and table_key not in output else None
        if table is not None:
            return {table_key if k == items_key else k: table if k == items_key else v for k, v in output.items()}
    return output


def without_tables(output: Dict[str, Any]) -> Dict[str, Any]:
    """``with_tables`` undone: the offers (rates) a list again, in their place; an output without a
    table (stored before tables, or too small for one) is ``output`` itself."""
    if not any(type(output.get(table_key)) is dict for table_key in TABLES.values()):
        return output
    items_of = {table_key: items_key for items_key, table_key in TABLES.items()}
    return {items_of.get(k, k): table_items(v) if k in items_of and type(v) is dict else v for k, v in output.items()}
