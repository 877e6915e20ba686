"""How long the offline extractor takes per message (prints figures; no assertions).

python -m handlers.evals.extract_speed [--repeat 200]
"""

from __future__ import annotations

import argparse
import statistics
import time
from datetime import date

from handlers.extract import extract_fields, fields_to_patch

MESSAGES = {
    "one message trip": "4 people going from Newark to Denver for 3 nights on January 30",
    "bare answer": "Los Angeles",
    "relative date": "the 11th",
    "one way": "one way JFK to LAX on March 3, just me, no hotel",
    "multi-city": "New York to London Feb 10, London to Paris Feb 14, Paris back to New York Feb 18, "
    "2 adults, hotels in London and Paris",
    "preferences": "business class on Delta, nonstop, under $3000, refundable hotel only, 4 star near the convention center",
    "1 MB of junk": "lorem ipsum " * 90_000,
}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m handlers.evals.extract_speed")
    parser.add_argument("--repeat", type=int, default=200)
    opts = parser.parse_args(argv)
    today = date(2026, 12, 1)
    extract_fields(text="warm up the place index", today=today)
    for label, text in MESSAGES.items():
        runs = []
        for _ in range(opts.repeat if len(text) < 10_000 else max(1, opts.repeat // 20)):
            start = time.perf_counter()
            fields, _ = extract_fields(text=text, today=today)
            fields_to_patch(fields, None, today)
            runs.append((time.perf_counter() - start) * 1000)
        print(f"{label:18s} median {statistics.median(runs):6.2f} ms  max {max(runs):6.2f} ms  ({len(runs)} runs)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
