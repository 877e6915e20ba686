"""A server process settling in: what it keeps for its life is loaded, then left out of the
garbage collector's full collections.

A server process holds about 300,000 objects that live as long as it does: Django's apps, models,
URL routes and admin, the libraries, and (where turns run) the core's place tables (airports,
towns, the fuzzy names: a third of them). Python's cyclic collector walks every one of them on
each full collection, which comes about every five host turns at 1,000 flight offers per search
(the turns' survivors pile up until they are a quarter of the old objects): ≈ 150 ms of CPU each
on the benchmark machine, a tenth of a turn's CPU on average, spent finding nothing. Frozen
(``gc.freeze``: moved to a permanent generation no collection looks at), a full collection walks
only what the turns left, ≈ 1 ms (``benchmarks/README.md``, "Offers per search, fourth session").

What is frozen is never collected: call this once, when the process has loaded what it keeps,
not while it holds a request's or a turn's objects. The young collections are left as they are
(raising their threshold tenfold halved their CPU but made the turns slower, measured).

Where it runs: ``tripdesk.asgi`` (the ASGI application: ``runserver``, daphne, each uvicorn
worker) and the Celery worker's ``worker_init`` (``tripdesk.celery``: in the main process before
the pool forks, so every pool process inherits the frozen objects and their pages stay shared,
the use ``gc.freeze``'s documentation gives).
"""

from __future__ import annotations

import gc
from importlib import import_module


def process_settled(*, runs_turns: bool) -> None:
    """Load what this process keeps for its life, then freeze it. ``runs_turns``: the process runs
    the core's turns (a Celery worker; the ASGI server when Celery is eager, the embedded
    default), so the core's place tables are built now rather than on its first message."""
    from django.conf import settings

    import_module(settings.ROOT_URLCONF)  # the URL routes, with the views they import
    if runs_turns:
        from handlers.extract.places import tables_build

        tables_build()
    gc.collect()
    gc.freeze()
