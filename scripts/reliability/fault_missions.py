"""Print what 200 booking missions under 10–50 % supplier faults did and left behind.

    python scripts/reliability/fault_missions.py [--missions 200] [--seed 7]

The missions and their audit live in ``tests/reliability/missions.py`` (the default suite runs
a smaller batch of the same); this prints the figures. Exit status 1 when any invariant broke:
a crash, an unexplained failure, an orphan hold, a double charge or booking, money that moved
for nothing.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.reliability.missions import run_missions  # noqa: E402

BROKEN = ("crashes", "unexplained", "orphan_holds", "double_charges", "double_bookings", "money_mismatches")
FINDINGS = ("left_running", "stale_holds", "holds_lost_on_retry")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--missions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    started = time.perf_counter()
    fig = run_missions(args.missions, seed=args.seed)
    print(f"missions run:        {fig.missions} ({fig.booked} booked) in {time.perf_counter() - started:.1f} s")
    print(f"tool calls:          {fig.tool_calls}")
    print(f"faults injected:     {sum(fig.faults_injected.values())} {dict(fig.faults_injected.most_common())}")
    print(f"failures seen:       {sum(fig.failures.values())} {dict(fig.failures.most_common())}")
    print(f"supplier holds:      {sum(fig.holds.values())} {dict(fig.holds.most_common())}")
    print(f"charges:             {fig.charges}")
    for name in BROKEN + FINDINGS:
        items = getattr(fig, name)
        print(f"{name.replace('_', ' ') + ':':<21}{len(items)}" + "".join(f"\n    {i}" for i in items[:5]))
    return 1 if any(getattr(fig, name) for name in BROKEN) else 0


if __name__ == "__main__":
    sys.exit(main())
