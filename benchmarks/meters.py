"""What a load run cost: SQL statements, commits, and the CPU of the stack and of the machine.

``Reading.take`` reads every meter at one moment; ``Reading.cost_since`` turns two readings into
the figures the load test reports per run. CPU comes from Linux's ``/proc`` (elsewhere those
figures are ``None``); statements from ``benchmarks.querycount``; commits from
``pg_stat_database``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

import psycopg

from . import querycount
from .stack import Stack


@dataclass(frozen=True)
class Reading:
    statements: dict[str, int]  # per role: asgi, celery
    logs: dict[str, dict[str, Any]]  # per role: write commits and statements by kind
    commits: int
    cluster: dict[str, int]  # PostgreSQL's whole cluster: checkpoints begun, WAL position (bytes)
    machine_ticks: list[int]  # /proc/stat: user, nice, system, idle, iowait, …
    stack_cpu_s: float
    stack_cpu_by_process_s: dict[str, float]  # uvicorn, celery
    client_cpu_s: float

    @classmethod
    def take(cls, *, stack: Stack, query_dir: Path, admin_url: str, database: str) -> Reading:
        time.sleep(2.5 * querycount.FLUSH_EVERY_S)  # let every process write its latest count
        cpu = stack.cpu_seconds_by_name()
        return cls(
            statements=querycount.totals(query_dir),
            logs=querycount.logs(query_dir),
            commits=_commits(admin_url, database),
            cluster=_cluster(admin_url),
            machine_ticks=_machine_ticks(),
            stack_cpu_s=sum(cpu.values()),
            stack_cpu_by_process_s=cpu,
            client_cpu_s=time.process_time(),
        )

    def cost_since(self, before: Reading, *, turns: int) -> dict[str, Any]:
        statements = {
            role: self.statements.get(role, 0) - before.statements.get(role, 0)
            for role in sorted(set(self.statements) | set(before.statements))
        }
        stack_cpu = self.stack_cpu_s - before.stack_cpu_s
        return {
            "machine_cpu_busy_percent": _busy_percent(before.machine_ticks, self.machine_ticks),
            "stack_cpu_s": round(stack_cpu, 2),
            "stack_cpu_ms_per_turn": _per(1000 * stack_cpu, turns),
            "stack_cpu_ms_per_turn_by_process": {
                name: _per(1000 * (spent - before.stack_cpu_by_process_s.get(name, 0.0)), turns)
                for name, spent in sorted(self.stack_cpu_by_process_s.items())
            },
            "client_cpu_s": round(self.client_cpu_s - before.client_cpu_s, 2),
            "queries": statements,
            "queries_per_turn": _per(sum(statements.values()), turns),
            "commits_per_turn": _per(self.commits - before.commits, turns),
            "write_commits_per_turn": _per(
                sum(log["write_commits"] for log in self.logs.values())
                - sum(log["write_commits"] for log in before.logs.values()),
                turns,
            ),
            "statements_per_turn_by_kind": _by_kind(self.logs, before.logs, turns),
            # The cluster is shared: any DROP DATABASE on it (a test suite's test database, the end
            # of another load run) forces a checkpoint, after which every page first written again
            # goes to the WAL whole. These say what a run shared its disk with, not what it cost.
            "pg_checkpoints": {k: self.cluster[k] - before.cluster[k] for k in ("requested", "timed")}
            if self.cluster and before.cluster
            else None,
            "pg_wal_kb_per_turn": _per((self.cluster["wal_bytes"] - before.cluster["wal_bytes"]) / 1024, turns)
            if self.cluster and before.cluster
            else None,
        }


def _by_kind(after: dict[str, dict[str, Any]], before: dict[str, dict[str, Any]], turns: int) -> dict[str, Any]:
    """Per role, the statements of each kind per turn, most frequent first (the query log)."""
    out: dict[str, Any] = {}
    for role, log in sorted(after.items()):
        earlier = (before.get(role) or {}).get("kinds") or {}
        spent = {kind: n - earlier.get(kind, 0) for kind, n in log["kinds"].items()}
        ranked = sorted(((k, n) for k, n in spent.items() if n > 0), key=lambda kv: -kv[1])
        out[role] = {kind: _per(n, turns) for kind, n in ranked}
    return out


def _per(total: float, turns: int) -> Optional[float]:
    return round(total / turns, 1) if turns else None


def _commits(admin_url: str, database: str) -> int:
    """Transactions committed in ``database`` so far, by every process: each waited for its WAL flush."""
    with psycopg.connect(admin_url, autocommit=True) as admin:
        row = admin.execute("SELECT xact_commit FROM pg_stat_database WHERE datname = %s", [database]).fetchone()
    return int(row[0]) if row else 0


def _cluster(admin_url: str) -> dict[str, int]:
    """Checkpoints the cluster began (requested: forced, e.g. by DROP DATABASE; timed) and its WAL
    position; empty when the server does not say (``pg_stat_bgwriter`` moved in PostgreSQL 17)."""
    try:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            requested, timed = admin.execute(
                "SELECT checkpoints_req, checkpoints_timed FROM pg_stat_bgwriter"
            ).fetchone()
            wal = admin.execute("SELECT pg_current_wal_lsn() - '0/0'::pg_lsn").fetchone()[0]
    except psycopg.Error:
        return {}
    return {"requested": int(requested), "timed": int(timed), "wal_bytes": int(wal)}


def _machine_ticks() -> list[int]:
    try:
        return [int(n) for n in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except OSError:
        return []


def _busy_percent(before: list[int], after: list[int]) -> Optional[float]:
    """How busy the machine's CPUs were between two readings (everything but idle and iowait)."""
    spent = [b - a for a, b in zip(before, after, strict=True)] if before and after else []
    if not sum(spent):
        return None
    return round(100 * (1 - (spent[3] + spent[4]) / sum(spent)), 1)
