"""The scale-out load test: N travellers on real websockets against the whole stack on this machine.

Stack: K uvicorn ASGI workers, one Celery worker with C prefork processes, PostgreSQL (a scratch
database created here and dropped afterwards) and Redis (one numbered database, flushed before and
after: channel layer and broker). Settings travel only through the environment, as in
``scripts/scaleout``.

Each traveller is a closed loop, like a person at the browser who waits for each answer: it
opens one of its trips and runs search → select → hold (a scenario-1-like message with its own
cities, dates, party and nights; then B1, or the next bundle while the policy check blocks the one
it picked, at most three; then the hold, and when the hold asks who is travelling, the names
saved as the chat's card saves them and the hold pressed again), then opens its next trip and starts again, pausing
``think_s`` (± 50 %) before every turn but its very first. Travellers start spread over ``ramp_s``;
from then on all of them are in the loop for ``steady_s`` — the steady window — after which they
send nothing more and the turns in flight finish. A turn is timed from its frame leaving the
client to the trip's ``status`` frame after it (``ws_client``).

Throughput is read over the steady window only: ``served_turns_per_s`` is the turns answered
within it ÷ its length; beside it ``asked_turns_per_s`` (turns sent within it ÷ its length) and
``offered_turns_per_s`` (travellers ÷ mean pause: what they would ask of a server that answers at
once). In a closed loop a slower server is asked less, so served ≈ asked < offered says the stack
kept up only by making travellers wait; the latency figures are of the turns sent in the window.
The whole run's rate (ramp and drain included) is kept as ``whole_run_turns_per_s``: it cannot
reach the offered rate however fast the server is.

Errors are what a traveller would see as the system failing: an ``error`` frame, an error
message or widget, a dropped connection, no answer within 60 s, or a search without bundles.
Business outcomes (every bundle blocked by policy, a hold the supplier refused) are counted
apart under ``outcomes``. What the run cost per turn — SQL statements, commits, CPU — is read
by ``benchmarks.meters``.
"""

from __future__ import annotations

import asyncio
import fcntl
import json
import math
import os
import random
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Awaitable, Callable, Iterator, Optional

import psycopg
import redis
from psycopg import sql

from . import querycount
from .meters import Reading
from .stack import Stack, bin_path, free_port, python_module
from .stats import summary_ms
from .ws_client import TripSocket, Turn

PG_ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres"
REDIS_BASE_URL = "redis://127.0.0.1:6379"
SCRATCH_DB = "tripdesk_bench"
LOCK_FILE = Path(tempfile.gettempdir()) / "tripdesk-bench-load.lock"
MAX_SELECTS = 3
WARMUP_TRAVELLERS = 6
MAX_TRIPS = 12  # trips provisioned per traveller, at most (one per journey)

ROUTES = [
    ("Newark", "Denver"),
    ("Boston", "Chicago"),
    ("Seattle", "San Francisco"),
    ("Atlanta", "Miami"),
    ("Dallas", "Los Angeles"),
    ("New York", "Orlando"),
    ("Chicago", "Las Vegas"),
    ("Washington", "Austin"),
    ("Philadelphia", "Phoenix"),
    ("Houston", "Nashville"),
]
MONTHS = ["January", "February", "March"]


@dataclass(frozen=True)
class Setup:
    """The stack's shape; every field becomes a process count or an environment variable."""

    asgi_workers: int = 2
    celery_concurrency: int = 6  # turns wait on the database most of the time: more processes than cores
    conn_max_age: int = 60  # seconds Django keeps a database connection (DATABASE_URL's conn_max_age)
    synchronous_commit: bool = True  # False: ALTER DATABASE … SET synchronous_commit = off (no fsync wait per commit)
    redis_db: int = 13
    pg_admin_url: str = PG_ADMIN_URL
    database: str = SCRATCH_DB


@dataclass(frozen=True)
class Load:
    travellers: int
    ramp_s: float = 20.0
    think_s: float = 8.0  # mean; each pause is drawn from 0.5×–1.5× this. 200 travellers offer 25 turns/s
    steady_s: float = 60.0  # the window after the ramp in which every traveller is in the loop

    @property
    def offered_turns_per_s(self) -> float:
        """What the travellers would ask of a server answering at once: one turn per pause each."""
        return self.travellers / self.think_s if self.think_s else math.inf

    def trips_each(self) -> int:
        """Trips a traveller needs (one per journey) if every pause were the shortest and every
        answer instant: a journey is at least three turns, each after a pause."""
        shortest_journey_s = 3 * 0.5 * self.think_s
        if shortest_journey_s <= 0:
            return MAX_TRIPS
        return min(MAX_TRIPS, 1 + math.ceil((self.ramp_s + self.steady_s) / shortest_journey_s))


def search_text(i: int) -> str:
    """A scenario-1-like request, different per traveller (route, party, month, day, nights)."""
    origin, destination = ROUTES[i % len(ROUTES)]
    people, nights = 1 + i % 4, 2 + (i // 4) % 4
    month, day = MONTHS[(i // 10) % len(MONTHS)], 1 + (i * 7) % 28
    return f"{people} people going from {origin} to {destination} for {nights} nights on {month} {day}"


def measure(*, loads: list[Load], log_dir: Path, setup: Setup = Setup()) -> dict[str, Any]:
    """Bring the stack up once, run each load on fresh travellers, bring it down; one result per load.

    The processes' logs stay in ``log_dir`` for reading after the run.
    """
    with _exclusive():
        return _measure(loads=loads, log_dir=log_dir, setup=setup)


@contextmanager
def _exclusive() -> Iterator[None]:
    """One load test at a time on this machine: they share the scratch database and Redis database."""
    with open(LOCK_FILE, "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RuntimeError(f"another load test is running (it holds {LOCK_FILE})") from None
        yield


def _measure(*, loads: list[Load], log_dir: Path, setup: Setup) -> dict[str, Any]:
    query_dir = log_dir / "queries"
    query_dir.mkdir(parents=True, exist_ok=True)
    database_url = f"{setup.pg_admin_url.rsplit('/', 1)[0]}/{setup.database}?conn_max_age={setup.conn_max_age}"
    redis_url = f"{REDIS_BASE_URL}/{setup.redis_db}"
    env = {
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "DJANGO_DEBUG": "false",
        "DJANGO_LOG_LEVEL": "WARNING",
        querycount.QUERY_DIR_ENV: str(query_dir),
    }
    _database_recreate(setup)
    _redis_flush(redis_url)
    try:
        with Stack(env=env, log_dir=log_dir) as stack:
            stack.run(*python_module("django", "migrate", "--noinput", "--settings", "tripdesk.settings"))
            wanted = WARMUP_TRAVELLERS + sum(load.travellers for load in loads)
            trips = max(load.trips_each() for load in loads)
            provision = python_module("benchmarks.provision", "--travellers", str(wanted), "--trips", str(trips))
            travellers = json.loads(stack.run(*provision))
            base_url = _start(stack, setup)
            warmup, travellers = travellers[:WARMUP_TRAVELLERS], travellers[WARMUP_TRAVELLERS:]
            asyncio.run(_warm_up(base_url, warmup))
            results = []
            for load in loads:
                batch, travellers = travellers[: load.travellers], travellers[load.travellers :]
                stack.check_alive()
                results.append(_measured(stack, base_url, batch, load, query_dir, setup))
    finally:
        _redis_flush(redis_url)
        _database_drop(setup)
    return {"setup": asdict(setup), "logs": str(log_dir), "results": results}


def _start(stack: Stack, setup: Setup) -> str:
    port = free_port()
    stack.start(
        "uvicorn",
        bin_path("uvicorn"),
        "benchmarks.instrumented:asgi",
        "--factory",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--workers",
        str(setup.asgi_workers),
        "--log-level",
        "warning",
    )
    stack.start(
        "celery",
        bin_path("celery"),
        "-A",
        "benchmarks.instrumented",
        "worker",
        "--pool",
        "prefork",
        "--concurrency",
        str(setup.celery_concurrency),
        "--loglevel",
        "INFO",
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
    )
    stack.wait_http(f"http://127.0.0.1:{port}/signin/")
    _wait_for_log(stack, "celery", "ready.")
    return f"ws://127.0.0.1:{port}"


def _measured(
    stack: Stack, base_url: str, batch: list[dict], load: Load, query_dir: Path, setup: Setup
) -> dict[str, Any]:
    def reading() -> Reading:
        return Reading.take(stack=stack, query_dir=query_dir, admin_url=setup.pg_admin_url, database=setup.database)

    before = reading()
    t0 = time.perf_counter()
    steady_from, steady_to = t0 + load.ramp_s, t0 + load.ramp_s + load.steady_s
    runs = asyncio.run(_run_load(base_url, batch, load, t0=t0, stop_at=steady_to))
    journeys = [journey for run in runs for journey in run]
    turns = [turn for journey in journeys for turn in journey.turns]
    cost = reading().cost_since(before, turns=len(turns))
    ok = [turn for turn in turns if turn.ok]
    ok_steady = [t for t in ok if steady_from <= t.started < steady_to]
    served = [t for t in ok if steady_from <= t.started + t.latency_s <= steady_to]
    asked = [t for t in turns if steady_from <= t.started < steady_to]
    wall = max((t.started + (t.latency_s or 0) for t in turns), default=0) - min((t.started for t in turns), default=0)
    errors = [journey.error for journey in journeys if journey.error]
    return {
        "travellers": load.travellers,
        "ramp_s": load.ramp_s,
        "think_s": load.think_s,
        "steady_s": load.steady_s,
        "journeys": len(journeys),
        "travellers_out_of_trips": sum(1 for run in runs if run and run[-1].outcome != STOPPED),
        "turns": len(turns),
        "turns_ok": len(ok),
        "errors": len(errors),
        "error_kinds": dict(Counter(errors)),
        "outcomes": dict(Counter(journey.outcome for journey in journeys)),
        "served_turns_per_s": round(len(served) / load.steady_s, 2) if load.steady_s else None,
        "asked_turns_per_s": round(len(asked) / load.steady_s, 2) if load.steady_s else None,
        "offered_turns_per_s": round(load.offered_turns_per_s, 2),
        "wall_s": round(wall, 2),
        "whole_run_turns_per_s": round(len(ok) / wall, 2) if wall else None,
        "latency_ms": summary_ms(t.latency_s for t in ok_steady),
        "latency_ms_whole_run": summary_ms(t.latency_s for t in ok),
        # Where a turn's time went: send → ack (the message saved, its turn queued), → the worker's
        # first frame (waiting for a worker, then the turn's first commit), → the status frame.
        "latency_ms_to_ack": summary_ms(t.ack_s for t in ok_steady if t.ack_s is not None),
        "latency_ms_to_first_frame": summary_ms(t.first_frame_s for t in ok_steady if t.first_frame_s is not None),
        "latency_ms_by_kind": {
            kind: summary_ms(t.latency_s for t in ok_steady if t.kind == kind) for kind in ("search", "select", "hold")
        },
        "load_average": round(os.getloadavg()[0], 2),  # the machine is shared: what else ran beside us
        **cost,
    }


STOPPED = "stopped: the run ended"


@dataclass
class Journey:
    turns: list[Turn]
    outcome: str = "unfinished"
    error: Optional[str] = None


class _Stop(Exception):
    """The steady window is over: the traveller sends nothing more."""


async def _warm_up(base_url: str, travellers: list[dict]) -> None:
    """One journey per traveller, all at once, before anything is measured."""
    await asyncio.gather(
        *(
            _journey(base_url, traveller["trip_ids"][0], traveller, index=10_000 + i, pause=_no_pause)
            for i, traveller in enumerate(travellers)
        )
    )


async def _no_pause() -> None:
    return None


async def _run_load(
    base_url: str, travellers: list[dict], load: Load, *, t0: float, stop_at: float
) -> list[list[Journey]]:
    gap = load.ramp_s / max(1, len(travellers))
    return await asyncio.gather(
        *(
            _traveller(base_url, traveller, index=i, start_at=t0 + i * gap, stop_at=stop_at, think_s=load.think_s)
            for i, traveller in enumerate(travellers)
        )
    )


async def _traveller(
    base_url: str, traveller: dict, *, index: int, start_at: float, stop_at: float, think_s: float
) -> list[Journey]:
    """The traveller's journeys, one per trip, back to back, until ``stop_at``."""
    rnd = random.Random(index)
    started = False

    async def pause() -> None:
        """Before every turn but the traveller's first: a pause; none starts after ``stop_at``."""
        nonlocal started
        wait = think_s * rnd.uniform(0.5, 1.5) if started else 0.0
        started = True
        if time.perf_counter() + wait >= stop_at:
            raise _Stop
        await asyncio.sleep(wait)

    await asyncio.sleep(max(0.0, start_at - time.perf_counter()))
    journeys: list[Journey] = []
    for k, trip_id in enumerate(traveller["trip_ids"]):
        journey = await _journey(base_url, trip_id, traveller, index=index * MAX_TRIPS + k, pause=pause)
        journeys.append(journey)
        if journey.outcome == STOPPED:
            break
    return journeys


async def _journey(
    base_url: str, trip_id: int, traveller: dict, *, index: int, pause: Callable[[], Awaitable[None]]
) -> Journey:
    """search → select (the next bundle while policy blocks, at most three) → hold, on one trip.

    ``pause`` runs before each turn (before connecting, for the search); it raises ``_Stop`` when
    the run is over, which ends the journey as ``STOPPED`` (not an error)."""
    journey = Journey(turns=[])

    async def turn(call) -> Turn:
        done = await call
        journey.turns.append(done)
        if done.error:
            journey.error = f"{done.kind}: {done.error}"
        return done

    socket: Optional[TripSocket] = None
    try:
        await pause()
        try:
            socket = await TripSocket.open(base_url=base_url, trip_id=trip_id, session_id=traveller["session_id"])
        except Exception as exc:  # noqa: BLE001 - a refused connection is a measured error
            journey.error = f"connect: {type(exc).__name__}"
            return journey
        search = await turn(socket.say(search_text(index), kind="search"))
        bundles = (search.widget("bundles") or {}).get("bundles") or []
        if journey.error:
            return journey
        if not bundles:
            journey.error = "search: no bundles"
            return journey
        for bundle in bundles[:MAX_SELECTS]:
            await pause()
            selected = await turn(socket.press({"type": "select", "bundle_id": bundle["bundle_id"]}))
            risk = selected.widget("risk")
            if journey.error:
                return journey
            if risk is None:
                journey.error = "select: no risk widget"
                return journey
            if risk.get("ok"):
                break
        else:
            journey.outcome = "every bundle blocked by policy"
            return journey
        await pause()
        held = await turn(socket.press({"type": "hold"}))
        card = held.widget("travellers")
        if card is not None and not journey.error:
            # Nothing is held before everyone is named: save the names as the traveller's card does
            # (its form posted to the trip's travellers page), then press "Hold" again as it does.
            refused = await asyncio.to_thread(_name_everyone, base_url, trip_id, traveller["session_id"], card)
            if refused:
                journey.error = f"travellers: names refused ({refused})"
                return journey
            await pause()
            held = await turn(socket.press({"type": "hold", "bundle_id": card.get("bundle_id")}))
        if not journey.error:
            journey.outcome = "held" if held.widget("holds") else "hold not placed"
        return journey
    except _Stop:
        journey.outcome = STOPPED
        return journey
    finally:
        if socket is not None:
            await socket.close()


CSRF_TOKEN = "loadtestcsrftoken0123456789abcde"  # a client may pick its own (sent as cookie and header)


def _name_everyone(base_url: str, trip_id: int, session_id: str, card: dict) -> Optional[str]:
    """Post one passenger per seat of ``card`` (the hold's travellers widget) to the trip's
    travellers page, as the chat's card does (``Accept: application/json``); None once saved,
    else why not ("HTTP 400")."""
    party = card.get("travelers") or {}
    kinds = ["adult"] * int(party.get("adults") or 0) + ["child"] * int(party.get("children") or 0)
    kinds += ["infant"] * int(party.get("infants") or 0)
    born = {"adult": "1980-03-04", "child": "2016-05-06", "infant": "2026-06-01"}
    form: dict[str, str] = {}
    for i, kind in enumerate(kinds):
        person = {"title": "ms", "gender": "f", "given_name": f"Load{chr(65 + i)}", "family_name": "Traveller"}
        person["born_on"] = born[kind]
        if kind == "infant":
            person["infant_of"] = "0"
        if i == 0:
            person.update(email="load@example.com", phone_number="+442080160508")
        form.update({f"p{i}-{key}": value for key, value in person.items()})
    http = "http" + base_url.removeprefix("ws") if base_url.startswith("ws") else base_url  # ws:// → http://
    request = urllib.request.Request(
        f"{http}/trips/{trip_id}/travellers/",
        data=urllib.parse.urlencode(form).encode(),
        method="POST",
        headers={
            "Accept": "application/json",
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": f"sessionid={session_id}; csrftoken={CSRF_TOKEN}",
            "X-CSRFToken": CSRF_TOKEN,
            "Referer": f"{http}/trips/{trip_id}/",
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return None if answer.status == 200 else f"HTTP {answer.status}"
    except urllib.error.HTTPError as refused:
        return f"HTTP {refused.code}"


def _wait_for_log(stack: Stack, name: str, marker: str, timeout_s: float = 60.0) -> None:
    deadline = time.monotonic() + timeout_s
    while marker not in (stack.log_dir / f"{name}.log").read_text():
        stack.check_alive()
        if time.monotonic() > deadline:
            raise TimeoutError(f"{name} did not log {marker!r} within {timeout_s:.0f} s")
        time.sleep(0.2)


def services_missing(setup: Setup = Setup()) -> str:
    """Why the load test cannot run here ("" when PostgreSQL and Redis both answer on loopback)."""
    try:
        psycopg.connect(setup.pg_admin_url, connect_timeout=3).close()
    except psycopg.Error as exc:
        return f"PostgreSQL is not reachable at {setup.pg_admin_url}: {exc}".strip()
    try:
        redis.Redis.from_url(f"{REDIS_BASE_URL}/{setup.redis_db}", socket_timeout=3).ping()
    except redis.RedisError as exc:
        return f"Redis is not reachable at {REDIS_BASE_URL}: {exc}"
    return ""


def _database_recreate(setup: Setup) -> None:
    _database_drop(setup)
    with psycopg.connect(setup.pg_admin_url, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(setup.database)))
        if not setup.synchronous_commit:
            admin.execute(
                sql.SQL("ALTER DATABASE {} SET synchronous_commit = off").format(sql.Identifier(setup.database))
            )


def _database_drop(setup: Setup) -> None:
    with psycopg.connect(setup.pg_admin_url, autocommit=True) as admin:
        admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(setup.database)))


def _redis_flush(url: str) -> None:
    client = redis.Redis.from_url(url)
    try:
        client.flushdb()
    finally:
        client.close()
