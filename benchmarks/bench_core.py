"""Mission-core speed: ``python benchmarks/bench_core.py [--runs 20]``.

Prints one JSON object and a readable line:
- ``scenario1_median_ms``: one message → bundles on screen (SCENARIOS.md 1) in-process through
  the harness (sandbox supplier, offline extractor, in-memory stores), median over ``--runs``;
- ``decisions_per_second``: Reducer passes plus Patcher merges on a presented trip, per second;
- ``after_turns``: CPU of the same search turn ("make it 3 people", a new search) on a trip with
  one prior selection and on one with ``--prior`` (200) prior turns (selections alternating
  between two bundles, each with its policy check and audit events), ``--long-runs`` pairs
  measured alternately; ``ratio`` = the median of the pairs' long ÷ fresh: a trip's history must
  not make its turns dearer.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from handlers.patcher import apply_patch  # noqa: E402
from handlers.reducer import Reducer  # noqa: E402
from handlers.testing import Harness  # noqa: E402

SCENARIO_1 = "4 people going from Newark to Denver for 3 nights on January 30"
SEARCH_AGAIN = "make it 3 people"


def scenario1_ms(runs: int, clock=time.perf_counter) -> list:
    """Scenario 1 on ``runs`` fresh trips, each timed with ``clock`` (``time.process_time`` for CPU)."""
    timings = []
    for _ in range(runs):
        h = Harness()
        started = clock()
        turn = h.say(SCENARIO_1)
        timings.append((clock() - started) * 1000)
        assert h.widgets("bundles", turn=turn), "scenario 1 must end with bundles on screen"
    return timings


def search_after_turns_ms(prior: int, clock=time.process_time) -> float:
    """CPU ms of one search turn (``SEARCH_AGAIN``) on a scenario-1 trip after ``prior`` selections.

    What the harness itself keeps of earlier turns (its chat log, its in-memory stores) is moved
    out of the garbage collector's sight first (``gc.freeze``, in both cases): a host keeps none of
    it in memory, and rescanning it would be charged to the turn.
    """
    h = Harness()
    h.say(SCENARIO_1)
    for i in range(prior):
        h.select("B1" if i % 2 == 0 else "B2")
    gc.collect()
    gc.freeze()
    try:
        started = clock()
        turn = h.say(SEARCH_AGAIN)
        elapsed = (clock() - started) * 1000
    finally:
        gc.unfreeze()
    assert h.widgets("bundles", turn=turn), "the search after the selections must end with bundles on screen"
    return elapsed


def after_turns(prior: int, runs: int) -> dict:
    """``runs`` pairs of a fresh trip's search turn and a long trip's, measured alternately (fresh,
    long, fresh, long…) so a busy spell on a shared machine weighs on both sides of a pair;
    ``ratio`` is the median of the pairs' long ÷ fresh (``pair_ratios``), the ms the medians of each side."""
    fresh: list = []
    long: list = []
    for _ in range(runs):
        fresh.append(search_after_turns_ms(1))
        long.append(search_after_turns_ms(prior))
    pairs = [b / a for a, b in zip(fresh, long, strict=True) if a]
    return {
        "prior_turns": prior,
        "runs": runs,
        "fresh_cpu_ms": round(statistics.median(fresh), 1),
        "after_prior_cpu_ms": round(statistics.median(long), 1),
        "ratio": round(statistics.median(pairs), 2) if pairs else None,
        "pair_ratios": sorted(round(r, 2) for r in pairs),
    }


def decisions_per_second(seconds: float) -> dict:
    h = Harness()
    h.say(SCENARIO_1)
    trip, now = h.intent(), h.audit_events()[-1]["at"]
    reducer = Reducer()
    events = [
        {"type": "USER_SELECTED_BUNDLE", "data": {"bundle_id": "B2"}},
        {"type": "USER_REQUEST_HOLD", "data": {}},
        {"type": "INTENT_READY", "data": {}},
    ]
    patches = [
        {"preferences": {"hotel": {"min_stars": 4}}},
        {"party": {"travelers": {"adults": 5}}},
        {"constraints": {"budget_total": "5000"}},
    ]
    n, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        for event, patch in zip(events, patches, strict=True):
            assert reducer.run({"trip_intent": trip, "event": event, "now": now})["success"]
            apply_patch(trip, patch)
            n += 2
    elapsed = time.perf_counter() - started
    return {"decisions": n, "seconds": round(elapsed, 3), "per_second": round(n / elapsed, 1)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--prior", type=int, default=200, help="prior turns for the long-trip measurement")
    parser.add_argument("--long-runs", type=int, default=15)
    options = parser.parse_args()
    Harness().say(SCENARIO_1)  # warm caches (airport data, regexes) outside the measurement
    timings = scenario1_ms(options.runs)
    decisions = decisions_per_second(options.seconds)
    long = after_turns(options.prior, options.long_runs)
    result = {
        "scenario1_runs": options.runs,
        "scenario1_median_ms": round(statistics.median(timings), 1),
        "scenario1_p90_ms": round(sorted(timings)[int(0.9 * (len(timings) - 1))], 1),
        "decisions_per_second": decisions["per_second"],
        "decisions": decisions["decisions"],
        "after_turns": long,
    }
    print(json.dumps(result))
    print(
        f"scenario 1 (message → bundles): median {result['scenario1_median_ms']} ms over {options.runs} runs; "
        f"Reducer+Patcher: {result['decisions_per_second']:,} decisions/s; a search turn after "
        f"{long['prior_turns']} turns: {long['after_prior_cpu_ms']} ms CPU against {long['fresh_cpu_ms']} ms "
        f"on a fresh trip ({long['ratio']}×)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
