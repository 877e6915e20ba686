"""How long the offline extractor takes per message (prints figures; no assertions).

python -m handlers.evals.extract_speed [--repeat 20]

Two measures: the cost per message over every traveller line of the phrasing evaluation
(``phrasings.jsonl``: realistic messages, typos, accents, long run-ons): each message is run
``--repeat`` times and its median kept (the machine is shared: a single run can be pre-empted),
then p50/p95/max over messages; and the median of a few fixed messages including a 1 MB paste.
Times are the thread's CPU time, so other work on a shared machine does not inflate them.
"""

from __future__ import annotations

import argparse
import statistics
import time
from datetime import date

from handlers.extract import extract_fields, fields_to_patch

from .phrasings import CASES, load_cases

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


def _once(text: str, today: date) -> float:
    """CPU milliseconds for one message (CPU time: another process taking the core does not count)."""
    start = time.thread_time()
    fields, _ = extract_fields(text=text, today=today)
    fields_to_patch(fields, None, today)
    return (time.thread_time() - start) * 1000


def _percentile(values, q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m handlers.evals.extract_speed")
    parser.add_argument("--repeat", type=int, default=20)
    opts = parser.parse_args(argv)
    today = date(2026, 12, 1)
    extract_fields(text="warm up the place index from Boston to Denver", today=today)
    lines = [t for case in load_cases(CASES) for t in case["turns"] if isinstance(t, str)]
    per_message = [statistics.median(_once(text, today) for _ in range(opts.repeat)) for text in lines]
    print(
        f"phrasing messages  p50 {_percentile(per_message, 0.5):6.2f} ms  p95 {_percentile(per_message, 0.95):6.2f} ms  "
        f"max {max(per_message):6.2f} ms  (median of {opts.repeat} runs for each of {len(lines)} messages)"
    )
    for label, text in MESSAGES.items():
        fixed = [_once(text, today) for _ in range(opts.repeat if len(text) < 10_000 else 3)]
        print(f"{label:18s} median {statistics.median(fixed):6.2f} ms  max {max(fixed):6.2f} ms  ({len(fixed)} runs)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
