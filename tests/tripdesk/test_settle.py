"""A server process settles in: what it keeps is loaded, then frozen out of the garbage collector's
full collections (``tripdesk.settle``), in the ASGI application and in the Celery worker."""

import gc

import pytest
from celery.signals import worker_init

import tripdesk.celery  # noqa: F401 - connects the worker's signals
from handlers.extract import places
from tripdesk.settle import process_settled

from .fresh import printed_by_fresh_process


@pytest.fixture
def thawed_after():
    """The collector as it was: a test that freezes this process thaws it again (unless it was frozen)."""
    frozen = gc.get_freeze_count()
    yield
    if not frozen:
        gc.unfreeze()


def _tracked_ids() -> set:
    return {id(o) for o in gc.get_objects()}


def test_what_the_process_holds_is_out_of_the_collectors_generations(thawed_after):
    kept = {"held": ["for", "the", "process's", "life"]}
    gc.collect()
    assert id(kept) in _tracked_ids()
    before = len(gc.get_objects())
    process_settled(runs_turns=False)
    assert gc.is_tracked(kept)  # still an object the collector knows, in no generation it walks
    assert id(kept) not in _tracked_ids()
    assert gc.get_freeze_count() >= before
    assert len(gc.get_objects()) < before // 20


def test_a_process_that_runs_turns_builds_the_core_place_tables_first(thawed_after):
    places._index.cache_clear()
    process_settled(runs_turns=False)
    assert places._index.cache_info().currsize == 0
    process_settled(runs_turns=True)
    assert places._index.cache_info().currsize == 1
    assert id(places._index()) not in _tracked_ids()  # built, then frozen


def test_the_celery_worker_settles_before_its_pool_forks(thawed_after):
    places._index.cache_clear()
    places._fuzzy_names.cache_clear()
    worker_init.send(sender=None)
    assert places._index.cache_info().currsize == 1
    assert places._fuzzy_names.cache_info().currsize == 1
    assert gc.get_freeze_count() > 0
    assert id(places._index()) not in _tracked_ids()


def _asgi_process(eager: str) -> dict:
    """Load the ASGI application in a fresh interpreter (as runserver, daphne or uvicorn does)."""
    code = (
        "import gc, json; import tripdesk.asgi; from handlers.extract import places;"
        "print(json.dumps({'frozen': gc.get_freeze_count(), 'walked': len(gc.get_objects()),"
        "'tables': places._index.cache_info().currsize}))"
    )
    return printed_by_fresh_process(code, {"CELERY_TASK_ALWAYS_EAGER": eager})


def test_the_asgi_application_settles_its_process():
    embedded = _asgi_process("true")  # turns run in this process: the place tables too
    assert embedded["tables"] == 1
    assert embedded["frozen"] > 100_000 and embedded["walked"] < embedded["frozen"] // 20
    served = _asgi_process("false")  # turns run in the Celery workers
    assert served["tables"] == 0
    assert served["frozen"] > 50_000 and served["walked"] < served["frozen"] // 20
