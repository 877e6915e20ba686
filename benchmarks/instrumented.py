"""The app's own entry points with the query counter installed (``benchmarks.querycount``).

The load test starts ``uvicorn benchmarks.instrumented:asgi --factory`` and
``celery -A benchmarks.instrumented worker`` instead of ``tripdesk.asgi:application`` and
``-A tripdesk``; without ``TRIPDESK_BENCH_QUERY_DIR`` they are exactly those.
"""

from typing import Any

from celery.signals import worker_init, worker_process_init, worker_process_shutdown, worker_ready

from tripdesk.celery import app

from . import profiling
from .querycount import install

__all__ = ["app", "asgi"]


def asgi():
    """The ASGI application (uvicorn ``--factory``), counting the queries of this worker."""
    install(role="asgi")
    from tripdesk.asgi import application

    profiling.start(role="asgi")

    return application


@worker_init.connect
def _count_worker_queries(**kwargs: Any) -> None:
    """In the Celery worker's main process, before the pool forks: its children inherit it."""
    install(role="celery")


@worker_process_init.connect
def _profile_pool_process(**kwargs: Any) -> None:
    """Each pool process profiles itself, if the benchmark asked for it (``benchmarks.profiling``)."""
    profiling.start(role="celery")


@worker_process_shutdown.connect
def _profile_dump(**kwargs: Any) -> None:
    profiling.stop()


@worker_ready.connect
def _profile_main_process(**kwargs: Any) -> None:
    """The worker's main process (it reads the broker and feeds the pool), once the pool has forked."""
    profiling.start(role="celerymain")
