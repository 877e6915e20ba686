"""The Celery worker prepares what its pool processes share before it forks them."""

from celery.signals import worker_init

import tripdesk.celery  # noqa: F401 - connects the worker's signals
from handlers.extract import places


def test_the_worker_builds_the_core_place_tables_before_its_pool_forks():
    places._index.cache_clear()
    places._fuzzy_names.cache_clear()
    worker_init.send(sender=None)
    assert places._index.cache_info().currsize == 1
    assert places._fuzzy_names.cache_info().currsize == 1
