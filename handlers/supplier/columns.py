"""A search's kept offers made straight into the columns of the table its tool run stores.

A search keeps each offer as :func:`handlers.supplier.summary.compact_offer` makes it, and its tool
run stores them as one table (``handlers.supplier.table``). Made offer by offer, that is three
passes over a supplier's hundreds of offers: a summary each, a compact document each, then the
table, which takes the documents apart again a field at a time. :func:`offer_columns` makes the
table's columns from the supplier's offers directly, a field at a time (mostly ``itemgetter``
chains, in C): every value is read as ``summarize_offer`` and ``compact_offer`` read it, and no
document is made per offer. The search filters and trims the columns (:meth:`OfferColumns.keep`)
and hands them to :func:`~handlers.supplier.table.columns_table`, which makes of them the very
table ``items_table`` would make of the compact offers (``tests/handlers/test_offer_columns.py``).

Only offers that are all alike are made so: when the first one's compact document has another
shape than usual (a summary field that is a document), when the others' conditions or bags are not
of its shape, or when reading any of them fails, there are no columns (None) and the search keeps
its offers one by one, as before, so whatever a supplier sends is kept and refused as it was.
"""

from __future__ import annotations

from datetime import datetime
from itertools import accumulate, chain, compress, repeat
from operator import add, itemgetter, methodcaller, not_, sub
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence, Set, Tuple

from .carriers import BY_CODE
from .summary import _red_eye, compact_offer, summarize_offer
from .table import Column, columns_table, fields_of, shape_of, sub_columns

_at = datetime.fromisoformat
_FIRST, _LAST = itemgetter(0), itemgetter(-1)
_SEGMENTS, _IATA, _DURATION = itemgetter("segments"), itemgetter("iata_code"), itemgetter("duration_minutes")
_TYPE, _BAGS = itemgetter("type"), itemgetter("baggage")
# what ``summarize_offer`` and ``compact_offer`` read with ``get`` (so with the same defaults)
_NAME, _CABIN, _INSTANT, _SEATS = (
    methodcaller("get", "name"),
    methodcaller("get", "cabin"),
    methodcaller("get", "requires_instant_payment"),
    methodcaller("get", "seats_remaining"),
)
_CONDITIONS, _REFUND, _CHANGE, _ALLOWED = (
    methodcaller("get", "conditions", {}),
    methodcaller("get", "refund_before_departure"),
    methodcaller("get", "change_before_departure"),
    methodcaller("get", "allowed"),
)
_HOLDABLE, _MAX_HOLD, _GUARANTEE = (
    itemgetter("holdable"),
    methodcaller("get", "max_hold_minutes"),
    methodcaller("get", "price_guarantee_minutes"),
)
CONNECTION = ("airport", "minutes")  # a summary's connection as a record (as the table keeps it)
LEG = ("flight_number", "origin", "destination", "depart_at", "arrive_at", "duration_minutes")  # ``_legs``' fields
_LEG = itemgetter(*LEG)
_LEG_ORIGIN, _LEG_DESTINATION, _LEG_DEPART, _LEG_ARRIVE = itemgetter(1), itemgetter(2), itemgetter(3), itemgetter(4)
# what every offer has (read as ``summarize_offer`` and ``compact_offer`` read it: a missing one refuses)
_TOP = itemgetter("offer_id", "slices", "owner", "price", "hold_policy", "expires_at")
_PASSENGERS = methodcaller("get", "passengers")
# and what they read of it with ``get`` (conditions, cabin, instant payment, seats left, passengers):
# all of it at once when the offer has every one, as a supplier's offers usually do
_EVERY = itemgetter(
    "offer_id",
    "slices",
    "owner",
    "price",
    "hold_policy",
    "expires_at",
    "conditions",
    "cabin",
    "requires_instant_payment",
    "seats_remaining",
    "passengers",
)
_AMOUNT = itemgetter("total_amount", "currency")
# The summary's fields a table reads from an offer's legs (``handlers.supplier.table.DERIVED``): exactly
# what they are when an offer is one slice, as every offer made columns is.
DERIVED_FROM_LEGS = ("flight_numbers", "origin", "destination", "depart_at", "arrive_at", "stops")
TOP = ("offer_id", "summary", "conditions", "baggage", "legs")  # a compact offer's fields, in order
SUMMARY = (  # ``summarize_offer``'s fields, in order (``_summary_columns`` makes them so)
    "carrier",
    "carrier_name",
    "flight_numbers",
    "origin",
    "destination",
    "depart_at",
    "arrive_at",
    "stops",
    "connections",
    "duration_minutes",
    "total",
    "currency",
    "refundable",
    "red_eye",
    "cabin",
    "expires_at",
    "holdable",
    "max_hold_minutes",
    "price_guarantee_minutes",
    "seats_remaining",
)


class OfferColumns(NamedTuple):
    """Offers as the columns of their compact documents' leaves (``fields``, in order), with the
    supplier's ``offers`` they were read from, in the same order. The flight numbers (a list per
    offer, which the table reads from the legs and no filter reads) are None: made from the legs
    only when read (:meth:`column`)."""

    fields: List[str]
    columns: List[Optional[Column]]
    offers: List[Dict[str, Any]]

    def column(self, field: str) -> Column:
        column = self.columns[self.fields.index(field)]
        if column is None:  # (the flight numbers)
            return _from_legs(field[len("summary.") :], self.columns[-1] or (), list(LEG))
        if field == "summary.connections":  # (kept as records)
            return [[dict(zip(CONNECTION, record, strict=True)) for record in value] for value in column]
        return column

    def keep(self, mask: Sequence[bool]) -> OfferColumns:
        """Only the offers whose ``mask`` is true, in order."""
        if all(mask):
            return self
        return OfferColumns(
            self.fields,
            [None if column is None else list(compress(column, mask)) for column in self.columns],
            list(compress(self.offers, mask)),
        )

    def table(self) -> Optional[Dict[str, Any]]:
        """The table ``items_table`` makes of these offers' compact documents (None for fewer than two)."""
        if len(self.offers) < 2:
            return None
        legs = len(self.fields) - 1
        derived = {self.fields.index(f"summary.{name}") for name in DERIVED_FROM_LEGS}
        records: Dict[int, Tuple[str, ...]] = {legs: LEG}
        connections = self.fields.index("summary.connections")
        if any(self.columns[connections] or ()):  # (none at all: kept as they are, empty lists)
            records[connections] = CONNECTION
        return columns_table(self.fields, self.columns, len(self.offers), derived=derived, records=records)


def offer_columns(offers: List[Dict[str, Any]]) -> Optional[OfferColumns]:
    """``offers`` (a supplier's, at least two) as the columns of their compact documents; None when
    they are not all alike or one cannot be read (see the module's docstring)."""
    if len(offers) < 2:
        return None
    try:
        template = shape_of(compact_offer(offers[0], summarize_offer(offers[0])))
        top = _top_level(offers)  # each offer read once for its documents
        if set(map(len, top[1])) != {1}:
            return None  # (round trips in one offer: their summary reads the first slice only)
        fields = fields_of(template)
        keys, subs = template
        if fields is None or keys != TOP or subs is None or subs[0] is not None or subs[4] is not None:
            return None
        if subs[1] != (SUMMARY, None) or subs[2] is None:
            return None  # (a summary holding a document, or other fields: kept offer by offer)
        ids, all_slices, owners, prices, holds, expiry, rules, cabins, instant, seats, passengers = top
        slices = list(map(_FIRST, all_slices))
        # every flight read once, as the table keeps it (records): the summary reads the legs
        legs = [list(map(_LEG, segs)) for segs in map(_SEGMENTS, slices)]
        refunds = list(map(_REFUND, rules))  # (a rule book that is not a document refuses the columns)
        columns: List[Optional[Column]] = [list(ids)]
        read = _Read(slices, owners, prices, holds, expiry, legs, refunds, cabins, instant, seats, passengers)
        columns += _summary_columns(offers, read)
        conditions = _leaves([refunds, list(map(_CHANGE, rules))], subs[2][1] or (None, None))
        baggage = _baggage(passengers, subs[3])
    except (KeyError, IndexError, TypeError, AttributeError, ValueError):
        return None  # what the offer by offer path reads the same way, and refuses as it did
    if conditions is None or baggage is None:
        return None
    columns += conditions + baggage + [legs]
    return OfferColumns(fields, columns, offers)


def _top_level(offers: List[Dict[str, Any]]) -> List[Sequence[Any]]:
    """Each offer's fields (``_EVERY``'s), a column each: in one pass when every offer has them all,
    else those it must have (``_TOP``: a missing one refuses) and the others as ``get`` reads them.
    A pass over a supplier's thousand offers finds each cold in the cache, so one costs less than
    six (one 1,000-offer response: 1.8 -> 1.3 ms, fastest of 40 on a busy machine)."""
    try:
        return list(zip(*map(_EVERY, offers), strict=True))
    except KeyError:
        top: List[Sequence[Any]] = list(zip(*map(_TOP, offers), strict=True))
        return top + [list(map(read, offers)) for read in (_CONDITIONS, _CABIN, _INSTANT, _SEATS, _PASSENGERS)]


def _leaves(columns: Sequence[Column], subs: Sequence[Any]) -> Optional[List[Column]]:
    """Each column of documents as the columns of its leaves (``subs``: each one's shape, None for
    a column taken whole); None when a document is not of its shape."""
    out, misfits = sub_columns(columns, subs)
    return None if misfits else out


class _Read(NamedTuple):
    """What ``offer_columns`` read of each offer once, for its summary's columns."""

    slices: List[Dict[str, Any]]  # its (one) slice
    owners: Sequence[Dict[str, Any]]
    prices: Sequence[Dict[str, Any]]
    holds: Sequence[Dict[str, Any]]
    expiry: Sequence[Any]
    legs: List[List[Tuple[Any, ...]]]  # its flights, each as ``LEG``'s values
    refunds: List[Any]  # its refund rule
    cabins: Sequence[Any]  # and these as ``get`` reads them: its cabin,
    instant: Sequence[Any]  # whether it must be paid at once,
    seats: Sequence[Any]  # its seats left
    passengers: Sequence[Any]  # and its passengers


def _summary_columns(offers: List[Dict[str, Any]], read: _Read) -> List[Optional[List[Any]]]:
    """``summarize_offer``'s fields (``SUMMARY``), each for every offer (each of one slice), read a
    column at a time (``map`` over C functions; a value's fallback read only for the offers without
    one), the flights' from their legs (``read.legs``); the flight numbers None (made from the legs
    when read: ``OfferColumns``) and the connections as records (``CONNECTION``)."""
    n = len(offers)
    owners, holds, refunds = read.owners, read.holds, read.refunds
    carriers = list(map(_IATA, owners))
    firsts, lasts = list(map(_FIRST, read.legs)), list(map(_LAST, read.legs))
    departs, arrives = list(map(_LEG_DEPART, firsts)), list(map(_LEG_ARRIVE, lasts))
    sizes = list(map(len, read.legs))
    red_eyes, connections = _red_eyes_and_connections(read.legs, sizes, departs, arrives)
    totals, currencies = zip(*map(_AMOUNT, read.prices), strict=True)
    names = list(map(_NAME, owners))
    for i in compress(range(n), map(not_, names)):
        names[i] = getattr(BY_CODE.get(carriers[i]), "name", carriers[i])
    if set(map(type, refunds)) == {dict}:
        refundable = list(map(bool, map(_ALLOWED, refunds)))
    else:
        refundable = [bool((refund or {}).get("allowed")) for refund in refunds]
    cabins = list(read.cabins)
    for i in compress(range(n), map(not_, cabins)):
        cabins[i] = read.passengers[i][0]["cabin"]
    holdable = list(map(bool, map(_HOLDABLE, holds)))
    instant = read.instant
    if any(instant):
        holdable = [may and not paid for may, paid in zip(holdable, instant, strict=True)]
    return [
        carriers,
        names,
        None,  # flight_numbers
        list(map(_LEG_ORIGIN, firsts)),
        list(map(_LEG_DESTINATION, lasts)),
        departs,
        arrives,
        list(map(sub, sizes, repeat(1))),  # stops
        connections,
        list(map(_DURATION, read.slices)),
        list(totals),
        list(currencies),
        refundable,
        red_eyes,
        cabins,
        list(read.expiry),
        holdable,
        list(map(_MAX_HOLD, holds)),
        list(map(_GUARANTEE, holds)),
        list(read.seats),
    ]


def _red_eyes_and_connections(
    legs: List[List[Tuple[Any, ...]]], sizes: List[int], departs: List[str], arrives: List[str]
) -> Tuple[List[bool], List[Any]]:
    """``summarize_offer``'s ``red_eye`` and ``connections`` of each offer (``legs``: its
    flights, as ``LEG``'s values, ``sizes`` of them; ``departs``, ``arrives``: its first departure and last arrival), the
    connections as the table keeps them: records (``CONNECTION``, each a tuple). The flights of all
    offers with connections are read together. Each distinct time is parsed once (a search's
    thousand offers are a few hundred departures and arrivals: every one is parsed, so a time that
    cannot be read refuses the columns as before), each distinct wait reckoned once, and
    ``_red_eye`` asked only of flights that leave late at night (it is False for any other)."""
    connections: List[Any] = [[] for _ in sizes]
    several = [i for i, n in enumerate(sizes) if n > 1]
    flights = list(chain.from_iterable([legs[i] for i in several]))
    leave, land = list(map(_LEG_DEPART, flights)), list(map(_LEG_ARRIVE, flights))
    at = {text: _at(text) for text in {*departs, *arrives, *leave, *land}}
    late = {text for text in {*departs, *leave} if _late(at[text])}
    red_eyes = _red_eyes(departs, arrives, at, late)  # a nonstop's; a connection's below
    flights_late = _red_eyes(leave, land, at, late)
    ends = list(accumulate([sizes[i] for i in several]))
    changes = [True] * len(flights)  # a change of plane after each flight but an offer's last
    for end in ends:
        changes[end - 1] = False
    before = list(compress(range(len(flights)), changes))
    waits = list(zip(map(land.__getitem__, before), map(leave.__getitem__, map(add, before, repeat(1))), strict=True))
    minutes = {wait: int((at[wait[1]] - at[wait[0]]).total_seconds() // 60) for wait in set(waits)}
    records = list(
        zip(map(_LEG_DESTINATION, map(flights.__getitem__, before)), map(minutes.__getitem__, waits), strict=True)
    )
    start = made = 0
    for i, end in zip(several, ends, strict=True):
        red_eyes[i] = any(flights_late[start:end])
        connections[i] = records[made : made + end - start - 1]
        start, made = end, made + end - start - 1
    return red_eyes, connections


def _late(departure: datetime) -> bool:
    """Whether ``_red_eye`` may be true of a flight leaving then (21:00–04:59 local)."""
    return departure.hour >= 21 or departure.hour < 5


def _red_eyes(departs: List[str], arrives: List[str], at: Dict[str, datetime], late: Set[str]) -> List[bool]:
    """``_red_eye`` of each flight (leaving at ``departs``, landing at ``arrives``: times parsed in
    ``at``), asked only of those leaving at a ``late`` time."""
    red_eyes = [False] * len(departs)
    for i in compress(range(len(departs)), map(late.__contains__, departs)):
        red_eyes[i] = _red_eye(at[departs[i]], at[arrives[i]])
    return red_eyes


def _baggage(each: Sequence[Any], shape: Any) -> Optional[List[Column]]:
    """``compact_offer``'s bags (each kind of passenger's first) as the columns of their leaves, for
    offers (``each``: their passengers) whose passengers are the same kinds in the same order (a
    search is for one party); each offer's own (``_bags``) otherwise."""
    passengers = [people or [] for people in each]
    sizes = set(map(len, passengers))
    size = sizes.pop() if len(sizes) == 1 else -1
    kinds = list(map(_TYPE, chain.from_iterable(passengers))) if size > 0 else []
    if size <= 0 or not all(kinds[:size]) or kinds != kinds[:size] * len(passengers):
        return _leaves([[_bags(p) for p in passengers]], [shape])
    flat = list(chain.from_iterable(passengers))
    firsts = {kind: at for at, kind in reversed(list(enumerate(kinds[:size])))}  # each kind's first place
    order = sorted(firsts, key=firsts.__getitem__)
    if shape is None or tuple(order) != shape[0]:
        return _leaves([[_bags(p) for p in passengers]], [shape])
    return _leaves([list(map(_BAGS, flat[firsts[kind] :: size])) for kind in order], shape[1] or [None] * len(order))


def _bags(passengers: List[Dict[str, Any]]) -> Dict[str, Any]:
    bags: Dict[str, Any] = {}
    for passenger in passengers:
        bags.setdefault(passenger.get("type") or "adult", passenger.get("baggage"))
    return bags


class TableSummaries(Sequence[Dict[str, Any]]):
    """The summaries of a search's offers kept as a table (``offers_table``), in order: each made
    a document when first read (``summaries[i]``, from its row alone), and read a field at a time
    (:meth:`column`) without making any. What the ranker reads of a leg of many offers: every
    offer's few fields it scores by, and the summaries of the few it picks; so a column is made
    when first read (a field read from the legs, such as the flight numbers, is made for every
    offer only when read for every offer), and :meth:`keep` picks only the columns read already."""

    def __init__(
        self,
        ids: Sequence[Any],
        keys: List[str],
        read: Callable[[str], Column],
        summary: Callable[[int], Dict[str, Any]],
        records: Any,
    ) -> None:
        """``read(key)``: every offer's ``key``, as stored (records as lists of values);
        ``summary(i)``: the ``i``-th offer's summary, made."""
        self.ids, self.keys, self._read, self._summary, self._records = ids, keys, read, summary, records
        self._columns: Dict[str, Column] = {}

    @classmethod
    def of(cls, table: Dict[str, Any]) -> Optional[TableSummaries]:
        """The summaries of ``table``'s offers; None for a table of another make (an offer kept
        whole, a summary field under another, a field read from another than the legs)."""
        fields: List[str] = table["fields"]
        same: Dict[str, Any] = table.get("same") or {}
        derived = set(table.get("derived") or ())
        records: Dict[str, List[str]] = table.get("records") or {}
        rows = table["rows"]
        names = [f for f in fields if f.startswith("summary.")]
        if any(f.count(".") != 1 for f in names) or "offer_id" not in fields or "offer_id" in derived:
            return None
        if derived - {f"summary.{n}" for n in DERIVED_FROM_LEGS} or (derived and "legs" not in records):
            return None
        if dict in set(map(type, rows)):
            return None
        n = len(rows)
        kept = [f for f in fields if f not in same and f not in derived]
        by_field: Dict[str, Column] = dict(zip(kept, zip(*rows, strict=True) if n else [()] * len(kept), strict=True))
        legs = by_field.get("legs", ())
        legs_keys = records.get("legs", [])

        def read(key: str) -> Column:
            field = f"summary.{key}"
            if field in same:
                return [same[field]] * n
            if field in derived:
                return _from_legs(key, legs, legs_keys)
            return by_field[field]

        def one(field: str) -> Callable[[int], Any]:
            """The ``i``-th offer's ``field``, read from its row alone."""
            if field in same:
                return lambda i: same[field]
            if field in derived:
                return lambda i: _from_legs(field[len("summary.") :], [legs[i]], legs_keys)[0]
            column = by_field[field]
            if field in records:
                entries = records[field]
                return lambda i: [dict(zip(entries, e, strict=True)) for e in column[i]]
            return column.__getitem__

        keys = [f[len("summary.") :] for f in names]
        getters = [one(f) for f in names]
        made: Dict[int, Dict[str, Any]] = {}

        def summary(i: int) -> Dict[str, Any]:
            found = made.get(i)
            if found is None:
                found = made[i] = dict(zip(keys, [get(i) for get in getters], strict=True))
            return found

        ids = by_field["offer_id"] if "offer_id" in by_field else [same["offer_id"]] * n
        return cls(list(ids), keys, read, summary, records)

    def __len__(self) -> int:
        return len(self.ids)

    def __getitem__(self, i: Any) -> Any:
        return self._summary(range(len(self.ids))[i])

    def _column(self, key: str) -> Column:
        column = self._columns.get(key)
        if column is None:
            column = self._columns[key] = self._read(key)
        return column

    def _value(self, key: str, i: int) -> Any:
        value = self._column(key)[i]
        entries = self._records.get(f"summary.{key}")
        return value if entries is None else [dict(zip(entries, e, strict=True)) for e in value]

    def column(self, key: str) -> List[Any]:
        """Every offer's ``key``, as its summary holds it (a field of records, made documents)."""
        if f"summary.{key}" in self._records:
            return [self._value(key, i) for i in range(len(self))]
        return list(self._column(key))

    def connection_minutes(self) -> List[Tuple[Any, ...]]:
        """Each offer's connections' ``minutes``, in order (what a policy's rules read of them)."""
        entries = self._records.get("summary.connections")
        column = self._column("connections")
        if entries is None:
            return [tuple(c["minutes"] for c in value or []) for value in column]
        minutes = itemgetter(entries.index("minutes"))
        return [tuple(map(minutes, value)) if value else () for value in column]  # (most: nonstops)

    def keep(self, at: Sequence[int]) -> TableSummaries:
        """Only the offers at these positions, in this order (itself when that is all of them)."""
        if len(at) == len(self.ids) and list(at) == list(range(len(at))):
            return self
        at = list(at)
        picked = itemgetter(*at) if len(at) > 1 else (lambda column: (column[at[0]],) if at else ())
        kept = TableSummaries(
            list(picked(self.ids)),
            self.keys,
            lambda key: list(picked(self._column(key))),
            lambda i: self._summary(at[i]),
            self._records,
        )
        kept._columns = {key: list(picked(column)) for key, column in self._columns.items()}
        return kept


def _from_legs(name: str, legs: Column, keys: List[str]) -> List[Any]:
    """A summary field (``DERIVED_FROM_LEGS``) read from the legs as records in ``keys``' order: as
    ``handlers.supplier.table.DERIVED`` reads it from the legs as documents."""
    if name == "stops":
        return [len(value) - 1 for value in legs]
    if name == "flight_numbers":
        number = itemgetter(keys.index("flight_number"))
        return [list(map(number, value)) for value in legs]
    end = _FIRST if name in ("origin", "depart_at") else _LAST
    return list(map(itemgetter(keys.index(name)), map(end, legs)))
