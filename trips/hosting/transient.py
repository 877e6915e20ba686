"""Transient database errors: which ones are worth retrying, and retrying one step on its own.

A serialization failure or deadlock (PostgreSQL) or a busy file (SQLite) says nothing about
the work: the same transaction, run again, succeeds. Retrying a single durable step in place
keeps the steps before it from running twice (a turn's completion must not re-run its core).
"""

import time
from typing import Callable, TypeVar

from django.db import DatabaseError, OperationalError, close_old_connections

# PostgreSQL: serialization_failure, deadlock_detected, lock_not_available; SQLite: "database is locked".
TRANSIENT_SQLSTATES = {"40001", "40P01", "55P03"}

T = TypeVar("T")


def is_transient(exc: DatabaseError) -> bool:
    cause = exc.__cause__
    sqlstate = getattr(cause, "sqlstate", None) or getattr(cause, "pgcode", None)
    return sqlstate in TRANSIENT_SQLSTATES or (isinstance(exc, OperationalError) and "locked" in str(exc))


def transient_retried(
    step: Callable[[], T], *, attempts: int = 4, pause: float = 0.1, sleep: Callable[[float], None] = time.sleep
) -> T:
    """Run ``step`` (one durable transaction), again after a transient error, up to ``attempts`` times.

    The pause doubles each time. Any other error, or the last attempt's, goes to the caller.
    """
    for attempt in range(1, attempts + 1):
        try:
            return step()
        except DatabaseError as exc:
            if attempt == attempts or not is_transient(exc):
                raise
            close_old_connections()  # a connection the error left unusable is replaced, not reused
            sleep(pause * 2 ** (attempt - 1))
    raise AssertionError("unreachable: the last attempt returns or raises")
