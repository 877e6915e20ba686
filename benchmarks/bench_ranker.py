"""Ranker speed: top 10 bundles from N flight offers × N hotel rates (target ≤ 50 ms at N = 1,000).

Offers are synthetic summaries (the ranker reads only ``summary``), generated from a fixed seed
so runs compare. Prints a JSON document and a readable table::

    python benchmarks/bench_ranker.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Dict, List

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from handlers.specialists.trip_option_ranker import rank  # noqa: E402

SIZES = (100, 1_000, 10_000)
TARGET_MS = 50.0


def flight_quote(rnd: random.Random, n: int, segment_id: str) -> Dict[str, Any]:
    offers = []
    for i in range(n):
        stops = rnd.choice((0, 0, 1))
        offers.append(
            {
                "offer_id": f"off_{segment_id}_{i}",
                "summary": {
                    "carrier": rnd.choice(("UA", "AA", "DL", "B6")),
                    "carrier_name": "Carrier",
                    "flight_numbers": ["XX1"],
                    "origin": "EWR",
                    "destination": "DEN",
                    "depart_at": "2027-01-30T08:00:00-05:00",
                    "arrive_at": "2027-01-30T11:00:00-07:00",
                    "stops": stops,
                    "connections": [{"airport": "ORD", "minutes": rnd.randint(40, 300)}] * stops,
                    "duration_minutes": rnd.randint(220, 600),
                    "total": f"{rnd.uniform(150, 900):.2f}",
                    "currency": "USD",
                    "refundable": rnd.random() < 0.3,
                    "red_eye": rnd.random() < 0.1,
                    "cabin": "economy",
                },
            }
        )
    return {"segment_id": segment_id, "offers": offers}


def hotel_quote(rnd: random.Random, n: int) -> Dict[str, Any]:
    rates = []
    for i in range(n):
        rates.append(
            {
                "rate_id": f"rate_{i}",
                "summary": {
                    "hotel_name": f"Hotel {i}",
                    "stars": rnd.randint(1, 5),
                    "board_type": "breakfast",
                    "refundable": rnd.random() < 0.6,
                    "total": f"{rnd.uniform(200, 2500):.2f}",
                    "currency": "USD",
                    "distance_km": round(rnd.uniform(0.2, 9.0), 1),
                    "nightly_avg": "150.00",
                    "nights": 3,
                },
            }
        )
    return {"stay_id": "H1", "rates": rates}


def measure(n: int, repeat: int) -> Dict[str, Any]:
    rnd = random.Random(n)
    flights, hotels = [flight_quote(rnd, n, "S1")], [hotel_quote(rnd, n)]
    times: List[float] = []
    for _ in range(repeat):
        started = time.perf_counter()
        result = rank(flight_quotes=flights, hotel_quotes=hotels, top_k=10)
        times.append((time.perf_counter() - started) * 1000)
    assert len(result["bundles"]) == 10
    return {
        "flight_offers": n,
        "hotel_rates": n,
        "combinations": result["considered"],
        "top_k": 10,
        "median_ms": round(statistics.median(times), 2),
        "min_ms": round(min(times), 2),
        "max_ms": round(max(times), 2),
        "repeat": repeat,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rows = [measure(n, args.repeat) for n in SIZES]
    at_1k = next(r for r in rows if r["flight_offers"] == 1_000)
    report = {
        "benchmark": "trip_option_ranker",
        "target_ms_at_1000x1000": TARGET_MS,
        "meets_target": at_1k["median_ms"] <= TARGET_MS,
        "results": rows,
    }
    print(json.dumps(report, indent=2))
    print()
    print(f"{'flights':>8} × {'hotels':>7}  {'combinations':>14}  {'median ms':>10}  {'min ms':>8}  {'max ms':>8}")
    for r in rows:
        print(
            f"{r['flight_offers']:>8} × {r['hotel_rates']:>7}  {r['combinations']:>14,}  {r['median_ms']:>10.2f}  "
            f"{r['min_ms']:>8.2f}  {r['max_ms']:>8.2f}"
        )
    print(
        f"\n1,000 × 1,000 → top 10: {at_1k['median_ms']:.2f} ms median "
        f"({'meets' if report['meets_target'] else 'MISSES'} the {TARGET_MS:.0f} ms target)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
