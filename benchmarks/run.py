"""TripDesk's one benchmark command: from one turn in-process to 200 travellers on the full stack.

    python -m benchmarks.run [--quick] [--travellers 50,200] [--only core,host,embedded,load,ranker] [--json OUT]

Prints a readable table, and the whole result as JSON (to OUT with ``--json``, else after the
table). Sections (benchmarks/README.md says what each figure means):

- ``core``: SCENARIOS.md 1 in-process through ``handlers.testing.Harness`` and Reducer+Patcher
  decisions per second (``bench_core``);
- ``host``: the same message through the Django host in-process (CPU against the core's, queries,
  commits and bytes written per turn, and the host turn at 20, 100 and 1,000 flight offers per
  search) (``host``);
- ``embedded``: the same message over the websocket on the embedded default (``embedded``);
- ``load``: N travellers search → select → hold against ASGI and Celery workers, PostgreSQL
  and Redis (``loadtest``); skipped, with the reason, when PostgreSQL or Redis is not running;
- ``ranker``: top 10 bundles from N flight offers × N hotel rates (``bench_ranker``).

``--quick`` runs every section small (a smoke run, not figures to quote).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

from handlers.testing import Harness

from . import bench_core, bench_ranker, embedded, host, loadtest
from .stats import summary_ms

SECTIONS = ("core", "host", "embedded", "load", "ranker")


def core(*, quick: bool) -> dict[str, Any]:
    Harness().say(bench_core.SCENARIO_1)  # warm caches (airport data, regexes) outside the measurement
    timings_ms = bench_core.scenario1_ms(3 if quick else 30)
    decisions = bench_core.decisions_per_second(0.3 if quick else 2.0)
    return {
        "scenario1_ms": summary_ms(t / 1000 for t in timings_ms),
        "decisions_per_second": decisions["per_second"],
        "decisions": decisions["decisions"],
        "after_turns": bench_core.after_turns(10 if quick else 200, 1 if quick else 15),
    }


def host_turn(*, quick: bool) -> dict[str, Any]:
    return host.run_in_subprocess(runs=2 if quick else 10, offers=[20, 100] if quick else [20, 100, 1000])


def embedded_ws(*, quick: bool, logs: Path) -> dict[str, Any]:
    return embedded.measure(runs=3 if quick else 20, log_dir=logs / "embedded")


def load(*, quick: bool, travellers: list[int], options: argparse.Namespace, logs: Path) -> dict[str, Any]:
    missing = loadtest.services_missing()
    if missing:
        return {"skipped": missing}
    setup = loadtest.Setup(
        asgi_workers=options.asgi_workers,
        celery_concurrency=options.celery_concurrency,
        conn_max_age=options.conn_max_age,
        synchronous_commit=not options.async_commit,
    )
    if quick:
        loads = [loadtest.Load(n, ramp_s=0.5, think_s=0.1, steady_s=3) for n in travellers or [3]]
    else:
        loads = [
            loadtest.Load(n, ramp_s=options.ramp, think_s=options.think, steady_s=options.steady) for n in travellers
        ]
    return loadtest.measure(loads=loads, setup=setup, log_dir=logs / "load")


def ranker(*, quick: bool) -> dict[str, Any]:
    sizes = bench_ranker.SIZES[:2] if quick else bench_ranker.SIZES
    rows = [bench_ranker.measure(n, 1 if quick else 5) for n in sizes]
    at_1k = next(row for row in rows if row["flight_offers"] == 1_000)
    return {
        "target_ms_at_1000x1000": bench_ranker.TARGET_MS,
        "meets_target": at_1k["median_ms"] <= bench_ranker.TARGET_MS,
        "results": rows,
    }


def table(report: dict[str, Any]) -> str:
    """The readable summary of a report (every figure is also in the JSON)."""
    lines = [
        f"TripDesk benchmarks — {report['machine']['cpus']} CPUs, Python {report['machine']['python']}"
        f"{' (quick: smoke figures only)' if report['quick'] else ''}"
    ]
    if "core" in report:
        c = report["core"]
        lines += [
            f"core      scenario 1 in-process: median {c['scenario1_ms']['median']} ms, p95 {c['scenario1_ms']['p95']} ms "
            f"(n={c['scenario1_ms']['n']}); Reducer+Patcher {c['decisions_per_second']:,} decisions/s",
            f"          search turn CPU after {c['after_turns']['prior_turns']} turns: "
            f"{c['after_turns']['after_prior_cpu_ms']} ms ÷ fresh trip {c['after_turns']['fresh_cpu_ms']} ms "
            f"; median of {c['after_turns']['runs']} alternating pairs {c['after_turns']['ratio']}",
        ]
    if "host" in report:
        h = report["host"]
        lines += [
            f"host      scenario 1 CPU: host {h['host_cpu_ms']} ms, core {h['core_cpu_ms']} ms; host ÷ core "
            f"median of {h['runs']} alternating pairs {h['ratio']}; "
            f"per turn {h['queries_per_turn']} queries, {h['commits_per_turn']} commits, "
            f"{h['bytes_written_per_turn'] / 1000:,.1f} KB written (SQLite)",
            "          flight offers per search → host turn CPU, KB written: "
            + "; ".join(
                f"{r['flight_offers_per_search']:,} → {r['host_cpu_ms']} ms, {r['bytes_written_per_turn'] / 1000:,.1f} KB"
                for r in h["offers"]
            )
            + (f" (growth {h['offers_cpu_growth']}×)" if h.get("offers_cpu_growth") else ""),
        ]
    if "embedded" in report:
        e = report["embedded"]
        lines += [
            f"embedded  websocket, message → bundles: median {e['to_bundles_ms']['median']} ms, "
            f"p95 {e['to_bundles_ms']['p95']} ms; turn complete p95 {e['turn_complete_ms']['p95']} ms "
            f"(n={e['runs']}, errors {e['errors']})"
        ]
    if "load" in report:
        lines += _load_lines(report["load"])
    if "ranker" in report:
        lines += [
            "ranker    flights × hotels → top 10: "
            + "; ".join(
                f"{r['flight_offers']:,}×{r['hotel_rates']:,} {r['median_ms']} ms" for r in report["ranker"]["results"]
            )
        ]
    return "\n".join(lines)


def _load_lines(section: dict[str, Any]) -> list[str]:
    if "skipped" in section:
        return [f"load      skipped: {section['skipped']}"]
    s = section["setup"]
    lines = [
        f"load      {s['asgi_workers']} ASGI workers, Celery concurrency {s['celery_concurrency']}, "
        f"PostgreSQL + Redis; search → select → hold",
        f"          {'travellers':>10} {'turns':>6} {'errors':>6} {'served/s':>8} {'asked/s':>8} {'offered/s':>9} "
        f"{'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'queries/turn':>12} {'commits/turn':>12} {'writing':>8} "
        f"{'CPU ms/turn':>11} {'load avg':>8}  think/ramp/steady s",
    ]
    for r in section["results"]:
        lat = r["latency_ms"]
        lines.append(
            f"          {r['travellers']:>10} {r['turns']:>6} {r['errors']:>6} {r['served_turns_per_s'] or 0:>8} "
            f"{r['asked_turns_per_s'] or 0:>8} {r['offered_turns_per_s']:>9} "
            f"{lat['median'] or '-':>8} {lat['p95'] or '-':>8} {lat['p99'] or '-':>8} "
            f"{r['queries_per_turn'] or '-':>12} {r['commits_per_turn'] or '-':>12} "
            f"{r.get('write_commits_per_turn') or '-':>8} {r.get('stack_cpu_ms_per_turn') or '-':>11} "
            f"{r.get('load_average', '-'):>8}  {r['think_s']}/{r['ramp_s']}/{r['steady_s']}"
        )
    lines.append(
        "          served/s: turns answered in the steady window ÷ its length; asked/s: turns sent in it; "
        "offered/s: travellers ÷ mean pause; latency: turns sent in the window (benchmarks/README.md)"
    )
    for r in section["results"]:
        split = ", ".join(f"{name} {ms}" for name, ms in (r.get("stack_cpu_ms_per_turn_by_process") or {}).items())
        lines.append(
            f"          {r['travellers']} travellers: stack CPU ms/turn {split or '-'}; whole run "
            f"{r.get('whole_run_turns_per_s')} turns/s, p95 {r['latency_ms_whole_run']['p95']} ms; "
            f"{r['journeys']} journeys {r['outcomes']}"
        )
        if r.get("pg_checkpoints"):  # the cluster is shared: forced checkpoints are others' DROP DATABASE too
            c = r["pg_checkpoints"]
            lines.append(
                f"          {r['travellers']} travellers: PostgreSQL checkpoints begun during the run "
                f"{c['requested']} forced + {c['timed']} timed, WAL {r.get('pg_wal_kb_per_turn')} KB/turn"
            )
    for r in section["results"][-1:]:
        for role, kinds in (r.get("statements_per_turn_by_kind") or {}).items():
            top = ", ".join(f"{kind} {n}" for kind, n in list(kinds.items())[:8])
            lines.append(f"          {role} statements per turn ({r['travellers']} travellers): {top}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="every section small: a smoke run")
    parser.add_argument(
        "--travellers", default=None, help="comma list of concurrent travellers (default 50,200; quick 3)"
    )
    parser.add_argument("--only", default=",".join(SECTIONS), help=f"comma list of sections: {', '.join(SECTIONS)}")
    parser.add_argument("--json", dest="json_out", type=Path, help="write the JSON report here")
    parser.add_argument("--logs", type=Path, help="where the servers' logs go (default: a new temporary directory)")
    parser.add_argument("--asgi-workers", type=int, default=loadtest.Setup.asgi_workers)
    parser.add_argument("--celery-concurrency", type=int, default=loadtest.Setup.celery_concurrency)
    parser.add_argument(
        "--conn-max-age",
        type=int,
        default=loadtest.Setup.conn_max_age,
        help="seconds Django keeps a database connection open in the load test",
    )
    parser.add_argument(
        "--async-commit",
        action="store_true",
        help="load test database with synchronous_commit = off (commits do not wait for fsync)",
    )
    parser.add_argument(
        "--think", type=float, default=loadtest.Load.think_s, help="mean pause between a traveller's turns, s"
    )
    parser.add_argument(
        "--ramp", type=float, default=loadtest.Load.ramp_s, help="travellers start spread over this many s"
    )
    parser.add_argument(
        "--steady",
        type=float,
        default=loadtest.Load.steady_s,
        help="after the ramp, every traveller keeps going this many s: throughput is read over this window",
    )
    options = parser.parse_args(argv)
    # A plain `kill` unwinds like Ctrl-C, so the load test's servers and scratch database are cleaned up.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    sections = [name.strip() for name in options.only.split(",") if name.strip()]
    unknown = set(sections) - set(SECTIONS)
    if unknown:
        parser.error(f"unknown sections: {', '.join(sorted(unknown))}")
    travellers = (
        [int(n) for n in options.travellers.split(",")] if options.travellers else ([] if options.quick else [50, 200])
    )

    logs = options.logs or Path(tempfile.mkdtemp(prefix="tripdesk-bench-"))
    for name in ("embedded", "load"):
        (logs / name).mkdir(parents=True, exist_ok=True)
    runners: dict[str, Callable[[], dict[str, Any]]] = {
        "core": lambda: core(quick=options.quick),
        "host": lambda: host_turn(quick=options.quick),
        "embedded": lambda: embedded_ws(quick=options.quick, logs=logs),
        "load": lambda: load(quick=options.quick, travellers=travellers, options=options, logs=logs),
        "ranker": lambda: ranker(quick=options.quick),
    }
    report: dict[str, Any] = {
        "quick": options.quick,
        "logs": str(logs),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
    }
    for name in sections:
        started = time.perf_counter()
        print(f"… {name}", file=sys.stderr, flush=True)
        report[name] = runners[name]()
        report[name]["seconds"] = round(time.perf_counter() - started, 1)
    print(table(report))
    document = json.dumps(report, indent=2)
    if options.json_out:
        options.json_out.write_text(document + "\n")
    else:
        print(document)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
