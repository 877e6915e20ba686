"""Every statement of one host turn, on the database ``DATABASE_URL`` names:
``python -m benchmarks.turnsql [--runs N] [--log]``.

``benchmarks.host`` gives the per-turn totals on a scratch SQLite file; this one runs the same
scenario-1 turn (``benchmarks.host.Host``: ``turn_submit`` with eager Celery) on the configured
database, PostgreSQL included, and prints per turn the statements by kind (``SELECT trips_trip``,
``UPDATE trips_trip`` …), the commits, and the reads sent outside any transaction. ``--log``
prints the turn's statements in order, each with the transaction it ran in (``T3``, ``-`` for
autocommit), so the turn can be read statement by statement.

It migrates the database it is given and adds a benchmark organisation and users to it: point
it at a scratch database (``DATABASE_URL=postgres://postgres@127.0.0.1:5432/tripdesk_<name>``).
Prints one JSON object (the last turn's figures, and the medians over ``--runs``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import traceback
from collections import Counter
from typing import Any, Callable, Dict, List

from benchmarks.host import Host, Meter
from benchmarks.querycount import statement_kind


class StatementLog(Meter):
    """``benchmarks.host.Meter`` that also keeps each statement's kind and transaction."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: List[str] = []
        self.kinds: Counter[str] = Counter()
        self.outside = 0
        self.transaction = 0

    def reset(self) -> Dict[str, Any]:
        taken = super().reset()
        taken.update(kinds=dict(self.kinds), reads_outside_transactions=self.outside, log=self.lines)
        self.lines, self.kinds, self.outside = [], Counter(), 0
        return taken

    def wrap(self, connection: Any) -> None:
        if getattr(connection, "_bench_meter", None) is self:
            return
        super().wrap(connection)

        def logged(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Dict[str, Any]) -> Any:
            kind = statement_kind(sql)
            self.kinds[kind] += 1
            if connection.in_atomic_block:
                if not getattr(connection, "_bench_open", False):
                    connection._bench_open = True
                    self.transaction += 1
                where = f"T{self.transaction}"
            else:
                where = "-"
                if not kind.startswith(("INSERT", "UPDATE", "DELETE")):
                    self.outside += 1
            self.lines.append(f"{where:>4} {kind:<32} {_caller()}")
            return execute(sql, params, many, context)

        commit, rollback = connection.commit, connection.rollback

        def committed() -> None:
            connection._bench_open = False
            commit()

        def rolled_back() -> None:
            connection._bench_open = False
            rollback()

        connection.commit, connection.rollback = committed, rolled_back
        connection.execute_wrappers.append(logged)


def _caller() -> str:
    """The innermost ``trips`` function on the stack: which service sent the statement."""
    for frame in reversed(traceback.extract_stack(limit=60)):
        if "/trips/" in frame.filename and "/trips/models" not in frame.filename:
            path = frame.filename.split("/trips/", 1)[1]
            return f"trips/{path}:{frame.lineno} {frame.name}"
    return ""


def measure(*, runs: int) -> Dict[str, Any]:
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)
    from django.db import connection

    meter = StatementLog()
    meter.install()
    host = Host(meter)
    from django.contrib.auth import get_user_model

    host.n = get_user_model().objects.count()  # a database used before keeps its earlier travellers
    host.turn()  # warm-up: the first turn of the process reads what later turns find cached
    turns = [host.turn() for _ in range(runs)]
    last = turns[-1]
    return {
        "database": connection.vendor,
        "runs": runs,
        "queries_per_turn": statistics.median(turn["queries"] for turn in turns),
        "commits_per_turn": statistics.median(turn["commits"] for turn in turns),
        "reads_outside_transactions": statistics.median(turn["reads_outside_transactions"] for turn in turns),
        "kinds": dict(sorted(last["kinds"].items(), key=lambda item: -item[1])),
        "log": last["log"],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--log", action="store_true", help="print the last turn's statements in order")
    options = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tripdesk.settings")
    os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "true")
    report = measure(runs=options.runs)
    log = report.pop("log")
    if options.log:
        print("\n".join(log))
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
