"""The core's stores (``handlers.common.stores``) on Django models."""

from typing import Any, Dict, List, Optional, Tuple

from django.db import IntegrityError, connection, transaction
from django.db.models import F

from handlers.common.defaults import DEFAULT_DEVELOPER_PROMPT, DEFAULT_SYSTEM_PROMPT
from handlers.tools import args_hash, returned_result, tool_outcome
from trips.models import SupplierState, ToolDefinition, ToolRun, Trip
from trips.services.batch import TurnWrites
from trips.services.intents import implies_rows, trip_intent_save

from .transient import transient_retried


class DjangoTripStore:
    """TripIntent documents in ``Trip.intent``, saved through ``trip_intent_save``.

    The save is versioned (``StaleVersion`` sends the Runner back to a fresh load) and stores,
    in one transaction, the core's audit events, the turn's queued writes (``writes``) and the
    hold, approval and booking rows derived from the document; a transient database error
    retries that transaction. ``trip``: the row the turn already read (its organisation and
    TripIntent): the first ``get`` of that trip returns its document without reading it again.
    """

    def __init__(
        self, *, writes: Optional[TurnWrites] = None, causation_id: str = "", trip: Optional[Trip] = None
    ) -> None:
        self.writes, self.causation_id, self.trip = writes, causation_id, trip
        self._preloaded = trip
        # Per trip: the version last loaded, and whether that document implied no hold, approval
        # or booking rows (a save replacing it with another such document needs not read them).
        self._loaded: Dict[str, tuple[int, bool]] = {}

    def get(self, trip_id: str) -> Optional[Dict[str, Any]]:
        preloaded, self._preloaded = self._preloaded, None
        if preloaded is not None and str(preloaded.pk) == str(trip_id):
            row = {"intent": preloaded.intent, "version": preloaded.version}
        else:
            row = Trip.objects.filter(pk=trip_id).values("intent", "version").first()
        if row is None:
            return None
        if not row["intent"]:
            self._loaded[str(trip_id)] = (row["version"], True)
            return None
        doc = row["intent"]
        doc["version"] = row["version"]
        self._loaded[str(trip_id)] = (row["version"], not implies_rows(doc))
        return doc

    def save(
        self,
        trip_id: str,
        doc: Dict[str, Any],
        expected_version: Optional[int] = None,
        events: Optional[List[Dict[str, Any]]] = None,
    ) -> int:
        trip = self.trip if self.trip is not None and str(self.trip.pk) == str(trip_id) else None
        if trip is None:
            trip = Trip.objects.only("pk", "organisation_id").get(pk=trip_id)

        def save_once() -> int:
            return trip_intent_save(
                trip=trip,
                doc=doc,
                expected_version=expected_version,
                events=events,
                causation_id=self.causation_id,
                writes=self.writes,
                replaces_rows_none=expected_version is not None
                and self._loaded.get(str(trip_id)) == (expected_version, True),
            )

        new_version = save_once() if connection.in_atomic_block else transient_retried(save_once)
        doc["version"] = new_version
        return new_version


class DjangoQuoteStore:
    """A search's offers, read back from the search's own tool run (``handlers.quotes``).

    The run already keeps every offer the search returned, so ``put`` stores nothing again:
    offers are stored once per search. ``get`` finds the newest successful run of that search
    (same segment or stay, same arguments' fingerprint).
    """

    TOOLS = {"flight_quotes": "flight_quote_search", "hotel_quotes": "hotel_quote_search"}

    def put(self, trip_id: str, key: str, items: List[Dict[str, Any]]) -> None:
        return None

    def get(self, trip_id: str, key: str) -> Optional[List[Dict[str, Any]]]:
        kind, _, rest = key.partition(":")
        item_id, _, fingerprint = rest.rpartition(":")
        tool = self.TOOLS.get(kind)
        if tool is None:
            return None
        id_key, items_key = ("segment_id", "offers") if kind == "flight_quotes" else ("stay_id", "rates")
        runs = ToolRun.objects.filter(trip_id=trip_id, tool=tool, status=ToolRun.Status.SUCCEEDED)
        runs = runs.filter(**{f"arguments__{id_key}": item_id}).order_by("-pk")
        for pk, arguments in runs.values_list("pk", "arguments"):
            if args_hash(arguments or {}) == fingerprint:
                stored = ToolRun.objects.values_list("result", flat=True).get(pk=pk)
                success, output = tool_outcome(returned_result(stored))
                return list(output.get(items_key) or []) if success else None
        return None


class DjangoToolStore:
    """The tool registry from ``ToolDefinition`` rows (seeded from ``DEFAULT_TOOLS``).

    Each registry is read once per store: a turn builds one store, so the SHC and the Runner
    share one read. That read is one aggregate (``_registry_stamp``); the rows are read, and their
    entries built, only when it differs from the stamp of the entries the process keeps
    (``_REGISTRY``), so a registry changed by any process (the admin's save, a migration) is
    served from the next turn on.
    """

    def __init__(self) -> None:
        self._tools: Dict[str, List[Dict[str, Any]]] = {}

    def get_tools(self, registry_key: str = "default") -> List[Dict[str, Any]]:
        if registry_key not in self._tools:
            self._tools[registry_key] = _registry_entries(registry_key)
        return [dict(tool) for tool in self._tools[registry_key]]

    def get_system_prompt(self, registry_key: str = "default") -> str:
        return DEFAULT_SYSTEM_PROMPT

    def get_developer_prompt(self, registry_key: str = "default") -> str:
        return DEFAULT_DEVELOPER_PROMPT


RegistryStamp = Tuple[Any, ...]
# Per registry key, the entries last read in this process and the stamp they were read at.
_REGISTRY: Dict[str, Tuple[RegistryStamp, List[Dict[str, Any]]]] = {}


def _registry_stamp(registry_key: str) -> RegistryStamp:
    """What changes whenever the registry's served entries can: its rows, its enabled rows and its
    latest ``updated_at`` (every ``save()`` sets it, as the admin's change form does, and so does
    a bulk ``update()``: ``ToolDefinitionQuerySet``). One aggregate, no rows, in
    plain SQL: the ORM took twenty times as long to build the statement as the database to answer."""
    quote = connection.ops.quote_name
    table = quote(ToolDefinition._meta.db_table)
    enabled, changed, key = quote("enabled"), quote("updated_at"), quote("registry_key")
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT COUNT(*), SUM(CASE WHEN {enabled} THEN 1 ELSE 0 END), MAX({changed}) "
            f"FROM {table} WHERE {key} = %s",
            [registry_key],
        )
        return tuple(cursor.fetchone() or ())


def _registry_entries(registry_key: str) -> List[Dict[str, Any]]:
    """The registry's enabled entries, read again only when its stamp moved. The stamp is taken
    before the rows, so entries kept under a stamp are never older than it."""
    stamp = _registry_stamp(registry_key)
    kept = _REGISTRY.get(registry_key)
    if kept is not None and kept[0] == stamp:
        return kept[1]
    rows = ToolDefinition.objects.filter(registry_key=registry_key, enabled=True)
    entries = [tool.as_core_tool() for tool in rows]
    _REGISTRY[registry_key] = (stamp, entries)
    return entries


class DjangoKeyValueStore:
    """The sandbox supplier's state in ``SupplierState``; counters change in a single UPDATE.

    ``counters_init`` only reads: the counters it found missing are created (at their initial
    value, never over one another writer created meanwhile) by this store's next write, so a
    search stores its stock and its offers in one transaction.

    With ``writes`` (a running turn) ``put_many`` waits for the turn's next transaction (the one
    that stores the search's tool run), and any other write of this store stores it first; ``get``
    sees it meanwhile. A turn that fails before then leaves neither the offers nor their search.
    """

    def __init__(self, *, writes: Optional[TurnWrites] = None) -> None:
        self._counters_due: Dict[str, Optional[int]] = {}  # key → initial counter (None: a mark)
        self.writes = writes
        self._values_due: Dict[str, Dict[str, Any]] = {}

    def _create_counters_due(self) -> None:
        if self._values_due:
            due, self._values_due = self._values_due, {}
            self._values_store(due)
        self._counters_create()

    def _counters_create(self) -> None:
        """The counters (and marks: ``None``, an empty value) found missing since the last write,
        at their initial value, never over a row another writer created meanwhile."""
        if self._counters_due:
            due, self._counters_due = self._counters_due, {}
            SupplierState.objects.bulk_create(
                [SupplierState(key=key, counter=n, value={}) for key, n in due.items()], ignore_conflicts=True
            )

    def atomic(self) -> Any:
        """The sandbox's all-or-nothing writes (an order with its charge): one database transaction."""
        return transaction.atomic()

    def get(self, key: str) -> Optional[Dict[str, Any]]:
        if key in self._values_due:
            return self._values_due[key]
        quote = connection.ops.quote_name
        with connection.cursor() as cursor:  # plain SQL: a search reads several of these per turn
            cursor.execute(
                f"SELECT {quote('value')}, {quote('counter')} FROM {quote(SupplierState._meta.db_table)} "
                f"WHERE {quote('key')} = %s",
                [key],
            )
            row = cursor.fetchone()
        if row is None:
            return None
        value, counter = row
        if counter is not None:
            return {"n": counter}
        return SupplierState._meta.get_field("value").from_db_value(value, None, connection)

    def get_many(self, keys: List[str]) -> Dict[str, Optional[Dict[str, Any]]]:
        """``get`` of several keys in one SELECT (values queued by ``put_many`` seen as ``get`` sees them)."""
        out: Dict[str, Optional[Dict[str, Any]]] = {key: self._values_due.get(key) for key in keys}
        wanted = [key for key in keys if out[key] is None]
        if wanted:
            for key, value, counter in SupplierState.objects.filter(key__in=wanted).values_list(
                "key", "value", "counter"
            ):
                out[key] = {"n": counter} if counter is not None else value
        return out

    def put(self, key: str, value: Dict[str, Any]) -> None:
        with transaction.atomic():
            self._create_counters_due()
            SupplierState.objects.update_or_create(key=key, defaults={"value": value, "counter": None})

    def put_many(self, values: Dict[str, Dict[str, Any]]) -> None:
        """One upsert for a whole search's offers (instead of a statement pair per offer), with the
        counters ``counters_init`` found missing, in one transaction (with ``writes``: the turn's next)."""
        if self.writes is not None:
            if not self._values_due and values:
                self.writes.add(self._due_store)
            self._values_due.update(values)
            return
        with transaction.atomic():
            self._create_counters_due()
            self._values_store(values)

    def _due_store(self) -> None:
        """The queued ``put_many`` values and missing counters (none left if another write stored
        them), in the turn's transaction that runs the queue (``atomic_with``)."""
        self._create_counters_due()

    @staticmethod
    def _values_store(values: Dict[str, Dict[str, Any]]) -> None:
        if values:
            SupplierState.objects.bulk_create(
                [SupplierState(key=key, value=value, counter=None) for key, value in values.items()],
                update_conflicts=True,
                unique_fields=["key"],
                update_fields=["value", "counter", "updated_at"],
            )

    def counters_init(self, initials: Dict[str, int]) -> Dict[str, int]:
        """The counters' current values, a missing one at its initial value (created by the next write)."""
        if not initials:
            return {}
        found = dict(SupplierState.objects.filter(key__in=list(initials)).values_list("key", "counter"))
        self._counters_due.update({key: n for key, n in initials.items() if key not in found})
        return {key: found.get(key, n) for key, n in initials.items()}

    def counter_read(self, key: str, initial: int, *, marks: tuple[str, ...] = ()) -> int:
        """One SELECT of the counter and its marks. A missing counter reads as ``initial``, and
        what is missing is created (the counter at ``initial``, the marks empty) by this store's
        next write, in that write's transaction, as ``counters_init`` does: a hold's counters and
        marks commit with the hold itself, in one transaction. Nothing locks the row: a hold
        checks the stock it reads, and the purchase's ``incr`` with a floor (which creates what
        is due first) is what guards the stock."""
        keys = [*marks, key]
        found = dict(SupplierState.objects.filter(key__in=keys).values_list("key", "counter"))
        self._counters_due.update({k: (initial if k == key else None) for k in keys if k not in found})
        return int(found[key]) if key in found else initial

    def put_if_absent(self, key: str, value: Dict[str, Any]) -> bool:
        """Store ``value`` unless ``key`` exists; the counters due are created in the same
        transaction (a twin that won the race created them with its own value)."""
        if self._values_due:
            due, self._values_due = self._values_due, {}
            self._values_store(due)
        try:
            with transaction.atomic():
                self._counters_create()
                SupplierState.objects.create(key=key, value=value)
        except IntegrityError:
            return False
        return True

    def incr(self, key: str, amount: int, *, floor: Optional[int] = None, initial: int = 0) -> Optional[int]:
        """Add ``amount``; refuse (None) if the counter would drop below ``floor``. Safe across processes."""
        with transaction.atomic():
            self._create_counters_due()
            SupplierState.objects.get_or_create(key=key, defaults={"counter": initial})
            counters = SupplierState.objects.filter(key=key)
            if floor is not None:
                counters = counters.filter(counter__gte=floor - amount)
            if not counters.update(counter=F("counter") + amount):
                return None
            return SupplierState.objects.values_list("counter", flat=True).get(key=key)
