"""Count the SQL statements a Django process sends, for the load test's "queries per turn".

PostgreSQL's ``pg_stat_statements`` would need the server restarted with the library
preloaded, so the count is taken on the client side instead: every database connection a
process opens gets an ``execute_wrapper`` that counts each ``execute``/``executemany`` Django
sends (ORM queries, raw SQL, savepoints, transaction control included — everything that
reaches the server). Each process writes its running total to
``$TRIPDESK_BENCH_QUERY_DIR/<role>-<pid>.count`` once a second; the benchmark sums the
files before and after a run. Nothing happens unless that variable is set.

Beside the total, the query log (``<role>-<pid>.json``): statements by kind (``SELECT
trips_chatmessage``, ``UPDATE trips_trip``, …) and the commits that wrote something (a write
outside a transaction counts as one) — PostgreSQL's ``xact_commit`` also counts every read-only
statement or transaction, which costs no WAL flush.
"""

from __future__ import annotations

import json
import os
import re
import threading
from collections import Counter
from pathlib import Path
from typing import Any, Callable

WRITES = ("INSERT", "UPDATE", "DELETE")
TABLE_RE = re.compile(r'\b(?:FROM|INTO|UPDATE)\s+"?(\w+)"?', re.IGNORECASE)


def statement_kind(sql: str) -> str:
    """``SELECT trips_trip``: the statement's verb and the first table it names."""
    verb = sql.lstrip().split(None, 1)[0].upper() if sql.strip() else "?"
    table = TABLE_RE.search(sql)
    return f"{verb} {table.group(1)}" if table else verb


QUERY_DIR_ENV = "TRIPDESK_BENCH_QUERY_DIR"
FLUSH_EVERY_S = 1.0


class _Counter:
    """A per-process total; the flusher thread is (re)started in each forked child."""

    def __init__(self, directory: Path, role: str):
        self.directory, self.role = directory, role
        self.count = 0
        self.write_commits = 0
        self.kinds: Counter[str] = Counter()
        self.pid = 0
        self.lock = threading.Lock()

    def hit(self, kind: str = "?") -> None:
        with self.lock:
            if self.pid != os.getpid():  # first query in this process (or in a fork of it)
                self.pid, self.count, self.write_commits, self.kinds = os.getpid(), 0, 0, Counter()
                threading.Thread(target=self._flush_forever, name="query-count", daemon=True).start()
            self.count += 1
            self.kinds[kind] += 1

    def wrote(self) -> None:
        with self.lock:
            self.write_commits += 1

    def _flush_forever(self) -> None:
        pid = os.getpid()
        path = self.directory / f"{self.role}-{pid}.count"
        written = -1
        while True:
            if self.count != written:
                written = self.count
                scratch = path.with_suffix(".tmp")
                scratch.write_text(str(written))
                scratch.replace(path)
                with self.lock:
                    log = {"write_commits": self.write_commits, "kinds": dict(self.kinds)}
                scratch.write_text(json.dumps(log))
                scratch.replace(path.with_suffix(".json"))
            threading.Event().wait(FLUSH_EVERY_S)


def install(*, role: str) -> None:
    """Count every statement this process (and its forks) sends, if the benchmark asked for it."""
    directory = os.environ.get(QUERY_DIR_ENV)
    if not directory:
        return
    from django.db.backends.signals import connection_created

    counter = _Counter(Path(directory), role)

    def on_connection(sender: Any, connection: Any, **kwargs: Any) -> None:
        # Fired again each time the same DatabaseWrapper reconnects: wrap it once.
        if getattr(connection, "_bench_counted", False):
            return
        connection._bench_counted = True
        connection._bench_dirty = False
        commit = connection.commit

        def counted_commit() -> None:
            if connection._bench_dirty:
                counter.wrote()
                connection._bench_dirty = False
            commit()

        def counted(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict) -> Any:
            kind = statement_kind(sql)
            counter.hit(kind)
            if kind.startswith(WRITES):
                if connection.in_atomic_block:
                    connection._bench_dirty = True
                else:
                    counter.wrote()  # autocommit: the statement is its own transaction
            return execute(sql, params, many, context)

        connection.commit = counted_commit
        connection.execute_wrappers.append(counted)

    connection_created.connect(on_connection, weak=False)


def logs(directory: Path) -> dict[str, dict[str, Any]]:
    """The query log so far, summed per role: ``{"write_commits": n, "kinds": {kind: n}}``."""
    sums: dict[str, dict[str, Any]] = {}
    for path in directory.glob("*.json"):
        role = path.stem.rsplit("-", 1)[0]
        log = json.loads(path.read_text() or "{}")
        into = sums.setdefault(role, {"write_commits": 0, "kinds": Counter()})
        into["write_commits"] += int(log.get("write_commits") or 0)
        into["kinds"].update(log.get("kinds") or {})
    return sums


def totals(directory: Path) -> dict[str, int]:
    """The statements counted so far, summed per role (``asgi``, ``celery``)."""
    sums: dict[str, int] = {}
    for path in directory.glob("*.count"):
        role = path.stem.rsplit("-", 1)[0]
        sums[role] = sums.get(role, 0) + int(path.read_text() or 0)
    return sums
