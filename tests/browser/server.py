"""The ASGI app the browser tests serve with daphne: TripDesk itself, optionally with slow searches.

``TRIPDESK_TEST_SEARCH_DELAY`` (seconds) makes each sandbox flight and hotel search take that
long, so a test can reload the page while a search is really running (scenario 15); such searches
are then treated as a remote supplier's, whose "Searching…" line shows before the answer.
"""

import functools
import os
import time

from tripdesk.asgi import application  # noqa: F401 - what daphne serves

DELAY = float(os.environ.get("TRIPDESK_TEST_SEARCH_DELAY") or 0)


def _slowed(method):
    @functools.wraps(method)
    def slow(*args, **kwargs):
        time.sleep(DELAY)
        return method(*args, **kwargs)

    return slow


if DELAY:
    from handlers.supplier.sandbox import SandboxSupplier

    SandboxSupplier.search_flights = _slowed(SandboxSupplier.search_flights)
    SandboxSupplier.search_hotels = _slowed(SandboxSupplier.search_hotels)

    import trips.hosting.turns

    # A search that takes a while is shown while it runs (its start committed alone), as a
    # remote supplier's is; the instant sandbox's start rides on its result.
    trips.hosting.turns.supplier_is_remote = lambda: True
