"""Count the SQL statements a Django process sends, for the load test's "queries per turn".

PostgreSQL's ``pg_stat_statements`` would need the server restarted with the library
preloaded, so the count is taken on the client side instead: every database connection a
process opens gets an ``execute_wrapper`` that counts each ``execute``/``executemany`` Django
sends (ORM queries, raw SQL, savepoints, transaction control included — everything that
reaches the server). Each process writes its running total to
``$TRIPDESK_BENCH_QUERY_DIR/<role>-<pid>.count`` once a second; the benchmark sums the
files before and after a run. Nothing happens unless that variable is set.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any, Callable

QUERY_DIR_ENV = "TRIPDESK_BENCH_QUERY_DIR"
FLUSH_EVERY_S = 1.0


class _Counter:
    """A per-process total; the flusher thread is (re)started in each forked child."""

    def __init__(self, directory: Path, role: str):
        self.directory, self.role = directory, role
        self.count = 0
        self.pid = 0
        self.lock = threading.Lock()

    def hit(self) -> None:
        with self.lock:
            if self.pid != os.getpid():  # first query in this process (or in a fork of it)
                self.pid, self.count = os.getpid(), 0
                threading.Thread(target=self._flush_forever, name="query-count", daemon=True).start()
            self.count += 1

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
            threading.Event().wait(FLUSH_EVERY_S)


def install(*, role: str) -> None:
    """Count every statement this process (and its forks) sends, if the benchmark asked for it."""
    directory = os.environ.get(QUERY_DIR_ENV)
    if not directory:
        return
    from django.db.backends.signals import connection_created

    counter = _Counter(Path(directory), role)

    def counted(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict) -> Any:
        counter.hit()
        return execute(sql, params, many, context)

    def on_connection(sender: Any, connection: Any, **kwargs: Any) -> None:
        # Fired again each time the same DatabaseWrapper reconnects: wrap it once.
        if counted not in connection.execute_wrappers:
            connection.execute_wrappers.append(counted)

    connection_created.connect(on_connection, weak=False)


def totals(directory: Path) -> dict[str, int]:
    """The statements counted so far, summed per role (``asgi``, ``celery``)."""
    sums: dict[str, int] = {}
    for path in directory.glob("*.count"):
        role = path.stem.rsplit("-", 1)[0]
        sums[role] = sums.get(role, 0) + int(path.read_text() or 0)
    return sums
