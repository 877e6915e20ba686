"""What the Django host adds to a turn: ``python -m benchmarks.host [--runs N] [--offers 20,100,1000]``.

Runs in its own process on a fresh SQLite file with eager Celery and the in-memory channel layer
(the embedded default, without the websocket), so every figure is one process's own work:

- ``core_cpu_ms``: CPU time of SCENARIOS.md 1 through ``handlers.testing.Harness`` (in-memory
  stores), median over ``--runs`` fresh trips;
- ``host_cpu_ms``: CPU time of the same message through the host (``turn_submit``, which runs the
  turn inline: the core plus its Django stores, tool runs, audit, chat messages, frames), median
  over ``--runs`` fresh trips;
- ``ratio``: host ÷ core, the median over ``--runs`` pairs of one core turn and the host turn
  measured right after it (core and host alternate, so a busy spell on a shared machine weighs on
  both sides of a pair instead of on one side of the figure); ``pair_ratios`` lists them and
  ``ratio_of_medians`` is ``host_cpu_ms`` ÷ ``core_cpu_ms``;
- per host turn: ``queries`` (statements sent), ``commits`` (transactions committed, counting a
  write outside any transaction as one) and ``bytes_written`` (the size of the values sent with
  INSERT and UPDATE statements: what the turn stores);
- ``offers``: the host turn at 20, 100 and 1,000 flight offers per search (the sandbox's offers
  padded with priced copies), CPU and bytes written, the sizes taken in turn within each of
  ``--runs`` rounds; ``offers_cpu_growth``: the median over rounds of the largest size's turn ÷
  the smallest's (``offers_growth_of_medians``: the ratio of their medians).

With ``--steps``, each offers row also has ``steps_ms``: the CPU of each step of the turn that
grows with offers (``STEPS``: the function that does it, wrapped with ``time.process_time`` where
the turn calls it; a step's time includes the steps it calls), the median per turn of that size.

Prints one JSON object. ``benchmarks.run`` runs it as the ``host`` section.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import json
import os
import re
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence

from benchmarks import bench_core

WRITES = ("INSERT", "UPDATE")
TABLE_RE = re.compile(r'^\s*(?:INSERT\s+INTO|UPDATE)\s+"?(\w+)"?', re.IGNORECASE)


class Meter:
    """Counts statements, commits and bytes written on every database connection of the process."""

    def __init__(self) -> None:
        self.queries = self.commits = self.bytes_written = 0
        self.by_table: Dict[str, int] = {}

    def reset(self) -> Dict[str, Any]:
        taken = {
            "queries": self.queries,
            "commits": self.commits,
            "bytes_written": self.bytes_written,
            "by_table": dict(self.by_table),
        }
        self.queries = self.commits = self.bytes_written = 0
        self.by_table = {}
        return taken

    def install(self) -> None:
        from django.db import connections
        from django.db.backends.signals import connection_created

        def on_connection(sender: Any, connection: Any, **kwargs: Any) -> None:
            self.wrap(connection)

        connection_created.connect(on_connection, weak=False)
        for alias in connections:
            self.wrap(connections[alias])

    def wrap(self, connection: Any) -> None:
        if getattr(connection, "_bench_meter", None) is self:
            return
        connection._bench_meter = self
        commit = connection.commit

        def counted_commit() -> None:
            self.commits += 1
            commit()

        def counted(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Dict[str, Any]) -> Any:
            self.queries += 1
            write = sql.lstrip().upper().startswith(WRITES)
            if write:
                rows = params if many else [params]
                size = sum(_size(value) for row in rows or [] for value in row or [])
                self.bytes_written += size
                table = TABLE_RE.search(sql)
                name = table.group(1) if table else "?"
                self.by_table[name] = self.by_table.get(name, 0) + size
                if not connection.in_atomic_block:
                    self.commits += 1  # autocommit: the statement is its own transaction
            return execute(sql, params, many, context)

        connection.commit = counted_commit
        connection.execute_wrappers.append(counted)


def _size(value: Any) -> int:
    if value is None:
        return 0
    if isinstance(value, (bytes, bytearray, memoryview)):
        return len(value)
    return len(str(value).encode())


def padded_offers(count: int, responses: Dict[str, str] | None = None) -> Callable[[], None]:
    """Make the sandbox return ``count`` flight offers per search (copies of its own, priced a little higher).

    The copies reach the host as a supplier's response would: as JSON text, decoded inside the
    turn (parsing one large response is the host's work and is measured). Encoding them is the
    supplier's work, not the host's: the text is made once per search (its arguments, day and
    size) and kept (in ``responses``, when given, across paddings), and ``measure`` runs one
    unmeasured turn per size first, so no measured turn pays it.
    """
    from handlers.supplier import sandbox
    from handlers.supplier.wire import decode_json

    original = sandbox.build_flight_offers
    responses = {} if responses is None else responses

    def build(**kwargs: Any) -> List[Dict[str, Any]]:
        offers = original(**kwargs)
        if not offers or len(offers) >= count:
            return offers[:count]
        key = json.dumps({**kwargs, "now": kwargs["now"].date(), "count": count}, sort_keys=True, default=str)
        if key not in responses:
            responses[key] = _padding_text(offers, count - len(offers))
        # Distinct objects, as a supplier's decoded response would be: decoded together, once, as
        # the host decodes a real supplier's response (handlers.supplier.wire, the Duffel client's).
        return offers + decode_json(responses[key])

    sandbox.build_flight_offers = build

    def undo() -> None:
        sandbox.build_flight_offers = original

    return undo


def _padding_text(offers: List[Dict[str, Any]], extra: int) -> str:
    """``extra`` more offers like ``offers`` as one JSON text: each a flight of its own.

    A real supplier's long answer is mostly other flights (other times, other connections), not
    the same flight again at another price, so each copy leaves and arrives at its own time (up to
    about four hours either side of its model, on the same day) under its own flight numbers, and
    costs a little more. Copies that differed in price only would let a desk that keeps one offer
    per flight and terms drop almost all of them, which a real search would not.
    """
    copies = json.loads(json.dumps([offers[i % len(offers)] for i in range(extra)]))
    for i, copy in enumerate(copies):
        copy["offer_id"] = f"{copy['offer_id']}p{i}"
        price = copy.get("price") or {}
        if price.get("total_amount"):
            price["total_amount"] = f"{float(price['total_amount']) + 1 + i % 97:.2f}"
        _moved(copy, round_=i // len(offers) + 1, serial=i)
    return json.dumps(copies)


def _moved(offer: Dict[str, Any], *, round_: int, serial: int) -> None:
    """Shift ``offer``'s flights by ``round_`` × 5 minutes (later on odd rounds, earlier on even),
    staying on its day, and number them afresh (``serial``: the copy's own numbers)."""
    minutes = 5 * ((round_ + 1) // 2) * (1 if round_ % 2 else -1)
    for part in offer.get("slices") or []:
        segments = part.get("segments") or []
        if not segments:
            continue
        first = datetime.fromisoformat(segments[0]["depart_at"])
        if (first + timedelta(minutes=minutes)).date() != first.date():
            minutes = -minutes
        if (first + timedelta(minutes=minutes)).date() != first.date():
            minutes = 0
        for number, segment in enumerate(segments):
            for key in ("depart_at", "arrive_at"):
                segment[key] = (datetime.fromisoformat(segment[key]) + timedelta(minutes=minutes)).isoformat()
            carrier = str(segment.get("marketing_carrier") or "")
            segment["flight_number"] = f"{carrier}{1000 + (serial * 7 + number) % 8999}"


# What a host turn does that grows with the offers a search finds, each step as the function that
# does it where the turn calls it (``module:qualified name``); ``--steps`` times them.
STEPS = (
    "handlers.specialists.flight_quote_search:FlightQuoteSearch.execute",  # a flight search, whole
    "handlers.supplier.sandbox:SandboxCore.search_flights",  # the supplier's response
    "handlers.supplier.wire:decode_json",  # ... decoded (the padding's JSON text)
    "handlers.supplier.sandbox:SandboxCore._publish",  # ... its stock and searches kept
    "handlers.specialists.flight_quote_search:cheapest_of_each_fare",
    "handlers.specialists.flight_quote_search:offer_columns",
    "handlers.supplier.columns:OfferColumns.table",
    "handlers.specialists.trip_option_ranker:TripOptionRanker.execute",  # the ranker, whole
    "handlers.specialists.trip_option_ranker:_flight_leg",  # ... a leg's offers as its columns
    "trips.services.toolruns:redact_json_text",  # the tool runs' text searched for secrets
)


class Steps:
    """CPU per step of a turn (``STEPS``), each step's function wrapped where the turn calls it."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = list(names)
        self.taken: Dict[str, float] = {}

    def install(self) -> None:
        for name in self.names:
            module, qualified = name.split(":")
            owner: Any = importlib.import_module(module)
            *path, attribute = qualified.split(".")
            for part in path:
                owner = getattr(owner, part)
            setattr(owner, attribute, self._timed(name, getattr(owner, attribute)))

    def _timed(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(function)
        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                self.taken[name] = self.taken.get(name, 0.0) + time.process_time() - started

        return timed

    def reset(self) -> Dict[str, float]:
        """The ms each step took since the last reset (0 for a step that did not run)."""
        taken = {name.split(":")[1]: self.taken.get(name, 0.0) * 1000 for name in self.names}
        self.taken = {}
        return taken


def core_cpu_ms(runs: int) -> List[float]:
    return bench_core.scenario1_ms(runs, clock=time.process_time)


class Host:
    """Fresh trips in one organisation (default policy: holds need no approver), one traveller each."""

    def __init__(self, meter: Meter, steps: Optional[Steps] = None) -> None:
        from trips.services.orgs import organisation_create

        self.meter, self.steps = meter, steps
        self.organisation = organisation_create(name="Benchmark Travel", slug="bench-host")
        self.n = 0

    def turn(self) -> Dict[str, Any]:
        """One scenario-1 turn on a new trip: CPU ms and the meter's counts; asserts bundles were shown."""
        from django.contrib.auth import get_user_model

        from trips.models import ChatMessage, Membership, Trip
        from trips.services.orgs import member_add
        from trips.services.trips import trip_create
        from trips.services.turns import turn_submit

        self.n += 1
        user = get_user_model().objects.create(username=f"host{self.n:04d}", email=f"host{self.n:04d}@example.com")
        member_add(user=user, organisation=self.organisation, role=Membership.Role.TRAVELLER)
        created = trip_create(owner=user, organisation=self.organisation, title=f"Benchmark trip {self.n}")
        trip = Trip.objects.select_related("organisation").get(pk=created.pk)
        self.meter.reset()
        if self.steps is not None:
            self.steps.reset()
        started = time.process_time()
        turn_submit(trip=trip, user=user, text=bench_core.SCENARIO_1)
        cpu_ms = (time.process_time() - started) * 1000
        counts = self.meter.reset()
        if self.steps is not None:
            counts["steps"] = self.steps.reset()
        widgets = ChatMessage.objects.filter(trip=trip, widget__type="bundles").count()
        assert widgets == 1, f"scenario 1 must end with bundles on screen (trip {trip.pk})"
        return {"cpu_ms": cpu_ms, **counts}


def _median(rows: List[Dict[str, Any]], key: str) -> float:
    return round(statistics.median(row[key] for row in rows), 1)


def _steps_ms(turns: List[Dict[str, Any]]) -> Dict[str, float]:
    return {name: round(statistics.median(turn["steps"][name] for turn in turns), 1) for name in turns[0]["steps"]}


def measure(*, runs: int, offers: List[int], steps: bool = False) -> Dict[str, Any]:
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)
    # Started as the embedded default's server process is (``runserver`` loads the ASGI
    # application, whose eager Celery runs the turns in it), so it settles as that process does
    # (``tripdesk.settle``: the core's place tables built, what it keeps frozen out of the
    # collector's full collections).
    import tripdesk.asgi  # noqa: F401

    meter = Meter()
    meter.install()
    timed = Steps(STEPS) if steps else None
    if timed is not None:
        timed.install()
    core_cpu_ms(1)  # warm caches (airport data, regexes) outside the measurement
    host = Host(meter, timed)
    host.turn()
    # Interleaved: each host turn is paired with a core turn taken just before it, so a busy spell
    # on the shared machine weighs on both sides of a pair; the ratio is the median of the pairs'.
    core: List[float] = []
    turns: List[Dict[str, Any]] = []
    for _ in range(runs):
        core += core_cpu_ms(1)
        turns.append(host.turn())
    pairs = [turn["cpu_ms"] / ms for ms, turn in zip(core, turns, strict=True) if ms]
    report: Dict[str, Any] = {
        "runs": runs,
        "core_cpu_ms": round(statistics.median(core), 1),
        "host_cpu_ms": _median(turns, "cpu_ms"),
        "ratio": round(statistics.median(pairs), 2) if pairs else None,
        "ratio_of_medians": None,
        "pair_ratios": sorted(round(r, 2) for r in pairs),
        "queries_per_turn": _median(turns, "queries"),
        "commits_per_turn": _median(turns, "commits"),
        "bytes_written_per_turn": _median(turns, "bytes_written"),
        "bytes_written_by_table": turns[len(turns) // 2]["by_table"],
    }
    if report["core_cpu_ms"]:
        report["ratio_of_medians"] = round(report["host_cpu_ms"] / report["core_cpu_ms"], 2)
    # Interleaved too: each round takes one turn of every size back to back, so a busy spell on the
    # shared machine weighs on every size of that round; ``offers_cpu_growth`` is the median of the
    # rounds' largest ÷ smallest (``offers_growth_by_round`` lists them).
    texts: Dict[str, str] = {}
    for count in offers:
        undo = padded_offers(count, texts)
        try:
            host.turn()  # unmeasured: encodes the padding's supplier responses (see padded_offers)
        finally:
            undo()
    by_size: Dict[int, List[Dict[str, Any]]] = {count: [] for count in offers}
    for _ in range(runs):  # every size as many turns: a 1,000-offer turn is ~0.1 s now
        for count in offers:
            undo = padded_offers(count, texts)
            try:
                by_size[count].append(host.turn())
            finally:
                undo()
    rows = [
        {
            "flight_offers_per_search": count,
            "host_cpu_ms": _median(sized, "cpu_ms"),
            "bytes_written_per_turn": _median(sized, "bytes_written"),
            "commits_per_turn": _median(sized, "commits"),
            **({"steps_ms": _steps_ms(sized)} if steps else {}),
        }
        for count, sized in by_size.items()
    ]
    report["offers"] = rows
    if len(offers) > 1:
        smallest, largest = by_size[offers[0]], by_size[offers[-1]]
        growth = sorted(big["cpu_ms"] / small["cpu_ms"] for small, big in zip(smallest, largest, strict=True))
        report["offers_growth_by_round"] = [round(g, 2) for g in growth]
        report["offers_cpu_growth"] = round(statistics.median(growth), 2)
        report["offers_growth_of_medians"] = round(rows[-1]["host_cpu_ms"] / rows[0]["host_cpu_ms"], 2)
    return report


def run_in_subprocess(*, runs: int, offers: List[int], steps: bool = False) -> Dict[str, Any]:
    """Run this benchmark in a fresh process on a scratch SQLite file; returns its report."""
    import subprocess

    root = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory(prefix="tripdesk-bench-host-") as scratch:
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "tripdesk.settings",
            "DATABASE_URL": f"sqlite:///{Path(scratch) / 'db.sqlite3'}",
            "REDIS_URL": "",
            "CELERY_TASK_ALWAYS_EAGER": "true",
            "DJANGO_DEBUG": "false",
            "DJANGO_LOG_LEVEL": "WARNING",
        }
        argv = [sys.executable, "-m", "benchmarks.host", "--inline", "--runs", str(runs)]
        argv += ["--offers", ",".join(map(str, offers)), *(["--steps"] if steps else [])]
        done = subprocess.run(argv, cwd=root, env=env, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"benchmarks.host failed:\n{done.stderr[-4000:]}")
        return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--offers", default="20,100,1000", help="comma list of flight offers per search")
    parser.add_argument("--steps", action="store_true", help="also the CPU of each step that grows with offers")
    parser.add_argument("--inline", action="store_true", help="measure in this process (the environment is set up)")
    options = parser.parse_args()
    offers = [int(n) for n in options.offers.split(",") if n]
    if options.inline:
        print(json.dumps(measure(runs=options.runs, offers=offers, steps=options.steps)))
    else:
        print(json.dumps(run_in_subprocess(runs=options.runs, offers=offers, steps=options.steps)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
