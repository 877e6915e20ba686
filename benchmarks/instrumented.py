"""The app's own entry points with the query counter installed (``benchmarks.querycount``).

The load test starts ``uvicorn benchmarks.instrumented:asgi --factory`` and
``celery -A benchmarks.instrumented worker`` instead of ``tripdesk.asgi:application`` and
``-A tripdesk``; without ``TRIPDESK_BENCH_QUERY_DIR`` they are exactly those.
"""

from typing import Any

from celery.signals import worker_init

from tripdesk.celery import app

from .querycount import install

__all__ = ["app", "asgi"]


def asgi():
    """The ASGI application (uvicorn ``--factory``), counting the queries of this worker."""
    install(role="asgi")
    from tripdesk.asgi import application

    return application


@worker_init.connect
def _count_worker_queries(**kwargs: Any) -> None:
    """In the Celery worker's main process, before the pool forks: its children inherit it."""
    install(role="celery")
