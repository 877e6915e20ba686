"""Replaying a trip: its recorded turns through the core again, tools answered from ToolRun rows.

Every turn left a ``turn.started`` audit event with exactly what the core was given (event,
``now``, organisation) and every tool call a ToolRun row with its result. Feeding those back
through a fresh Runner over an in-memory store must rebuild the stored TripIntent; any
difference means something changed the trip outside a recorded turn, or the core is not
deterministic. Known limits: an LLM follow-up answer (the optional read-only agent) is not
recorded, and a turn cut short by the wall-time limit stops elsewhere when replayed.
"""

import copy
import json
from collections import defaultdict, deque
from dataclasses import dataclass, field
from typing import Any, Deque, Dict, List

from django.conf import settings

from handlers.common.host import bind_host
from handlers.common.stores import InMemoryTripStore
from handlers.common.types import fail
from handlers.quotes import summaries_once
from handlers.runner import Runner
from handlers.tools import returned_result, with_bundle_summaries
from trips.models import AuditEvent, ToolRun, Trip

from .stores import DjangoToolStore


@dataclass
class ReplayResult:
    turns: int
    tool_calls: int
    replayed: Dict[str, Any]
    stored: Dict[str, Any]
    differences: List[str] = field(default_factory=list)

    @property
    def matches(self) -> bool:
        return not self.differences


class _SilentAGU:
    """The replay shows nothing to anyone."""

    def print_chat(self, trip_id: str, message: Dict[str, Any]) -> None:
        return None


class RecordedSHC:
    """Answers each tool call of a turn with the next recorded result of that turn."""

    def __init__(self, runs: Deque[ToolRun]):
        self.runs = runs
        self.calls = 0

    def handler_call(self, portfolio: str, org: Dict[str, Any], tool: str, handler: str, args: Dict[str, Any]):
        if not self.runs:
            return fail(args, "not_recorded", f"No recorded result for {tool}.")
        run = self.runs.popleft()
        if run.tool != tool:
            return fail(args, "not_recorded", f"Recorded {run.tool}, but the replay called {tool}.")
        self.calls += 1
        # A search's record keeps its offers as a table; the ranker's names its bundles' offers,
        # whose summaries are in what it ranked.
        return with_bundle_summaries(tool, copy.deepcopy(returned_result(run.result)), args)


def _plain(doc: Any) -> Any:
    """As stored in a JSON column: the live run saved through JSON, the replay kept Python objects."""
    return json.loads(json.dumps(doc, default=str))


def differences(replayed: Any, stored: Any, path: str = "") -> List[str]:
    """Paths where two JSON documents differ (``a.b[2].c: replayed != stored``)."""
    if isinstance(replayed, dict) and isinstance(stored, dict):
        found: List[str] = []
        for key in sorted(set(replayed) | set(stored), key=str):
            where = f"{path}.{key}" if path else str(key)
            if key not in stored:
                found.append(f"{where}: only in the replay")
            elif key not in replayed:
                found.append(f"{where}: only in the stored trip")
            else:
                found.extend(differences(replayed[key], stored[key], where))
        return found
    if isinstance(replayed, list) and isinstance(stored, list) and len(replayed) == len(stored):
        return [
            d for i, (a, b) in enumerate(zip(replayed, stored, strict=True)) for d in differences(a, b, f"{path}[{i}]")
        ]
    if replayed != stored:
        return [
            f"{path}: replay {json.dumps(replayed, default=str)[:200]} != stored {json.dumps(stored, default=str)[:200]}"
        ]
    return []


def trip_replay(*, trip: Trip) -> ReplayResult:
    events = AuditEvent.objects.filter(trip=trip, type__in=["trip.created", "turn.started"]).order_by("seq")
    runs_by_message: Dict[Any, Deque[ToolRun]] = defaultdict(deque)
    for run in ToolRun.objects.filter(trip=trip).order_by("pk"):
        runs_by_message[run.message_id].append(run)
    store = InMemoryTripStore()
    # The live limits, except wall time: replayed tools answer at once (a turn the clock cut short
    # cannot be replayed exactly, and the differences say so).
    runner = Runner(
        trip_store=store,
        tool_store=DjangoToolStore(),
        limits={**settings.TRIPDESK["RUNNER_LIMITS"], "max_wall_seconds": float("inf")},
    )
    turns = tool_calls = 0
    for event in events:
        if event.type == "trip.created":
            store.save(str(trip.pk), copy.deepcopy(event.payload["intent"]))
            continue
        payload = {key: event.payload[key] for key in ("trip_id", "portfolio", "org", "event", "now", "actor")}
        shc = RecordedSHC(runs_by_message[event.payload["message_id"]])
        with bind_host(agu=_SilentAGU(), shc=shc):
            runner.run(payload)
        turns += 1
        tool_calls += shc.calls
    replayed = _plain(store.get(str(trip.pk)) or {})
    if replayed:
        replayed["version"] -= 1  # seeding the store counted a save that trip_create did not
    stored = _plain(Trip.objects.values_list("intent", flat=True).get(pk=trip.pk))
    if isinstance(stored, dict) and stored.get("audit"):
        # Documents saved before the trail moved to the audit table carried it inside; the core
        # now drops it on load, so only what the turns decide is compared.
        stored["audit"] = {"events": []}
    if isinstance(stored, dict):
        # Documents saved before kept their bundles' offers' summaries twice and the ranker's
        # score_breakdown; the core now keeps each once, so they are compared in that shape.
        stored = summaries_once(stored)
    return ReplayResult(turns, tool_calls, replayed, stored, differences(replayed, stored))
