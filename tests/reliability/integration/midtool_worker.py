"""The project's Celery app, with a flight search that blocks once so a test can kill the worker mid-tool.

``celery -A tests.reliability.integration.midtool_worker worker``: the first search after the
file ``<TRIPDESK_MIDTOOL_DIR>/block-once`` appears writes the pool process's id to
``in-tool`` and sleeps (for the number of seconds in the file, if any, then searches); every
other search runs as usual. Nothing else differs from ``tripdesk.celery``: same settings, same
tasks, same acknowledgement rules.
"""

import os
import time
from pathlib import Path

from handlers.supplier.sandbox import SandboxSupplier
from tripdesk.celery import app

__all__ = ["app"]

MARKS = Path(os.environ["TRIPDESK_MIDTOOL_DIR"])
_search_flights = SandboxSupplier.search_flights


def _search_flights_blocking_once(self, *args, **kwargs):
    flag = MARKS / "block-once"
    try:
        seconds = float(flag.read_text() or 600)  # 600: the test kills this process long before
        flag.unlink()
    except FileNotFoundError:
        return _search_flights(self, *args, **kwargs)
    (MARKS / "in-tool").write_text(str(os.getpid()))
    time.sleep(seconds)
    return _search_flights(self, *args, **kwargs)


SandboxSupplier.search_flights = _search_flights_blocking_once
