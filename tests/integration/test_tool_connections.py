"""Tool threads keep their PostgreSQL connection between calls, and replace one the server dropped."""

import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection, connections

from tests.integration.conftest import wait_until
from trips.hosting.factory import with_thread_connection

pytestmark = pytest.mark.integration


def _backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def _running(pid: int) -> bool:
    with connection.cursor() as cursor:
        # Inside the test's transaction PostgreSQL keeps the first snapshot of pg_stat_activity.
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [pid])
        return cursor.fetchone()[0] == 1


@pytest.fixture
def kept_connections():
    """A deployment's ``conn_max_age=60``: connections outlive one call."""
    settings = connections.settings["default"]
    before = settings["CONN_MAX_AGE"]
    settings["CONN_MAX_AGE"] = 60
    yield
    settings["CONN_MAX_AGE"] = before


def test_a_tool_thread_reuses_its_connection_and_survives_a_terminated_backend(scale_out, db, kept_connections):
    with ThreadPoolExecutor(max_workers=1) as tool_thread:

        def call() -> int:
            return tool_thread.submit(with_thread_connection, _backend_pid).result()

        try:
            first = call()
            assert call() == first, "the second tool call starts no new PostgreSQL backend"
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_terminate_backend(%s)", [first])
            wait_until(lambda: not _running(first), timeout=10, what="the backend to end")
            time.sleep(0.5)  # its process has exited and closed the socket: the server is gone, as after a restart
            replaced = call()  # no error: the dropped connection is noticed before the call and replaced
            assert replaced != first
            assert call() == replaced
        finally:
            tool_thread.submit(connections.close_all).result()


def _as_a_task(fixup, run):
    """``run`` between the signals a Celery worker sends around a task (Celery's Django fixup first)."""
    from celery.signals import task_postrun, task_prerun

    from trips.tasks import turns_sweep as task  # any task: its request outside a run is not eager

    fixup.on_task_prerun(sender=task)
    task_prerun.send(sender=task, task_id="t", task=task, args=(), kwargs={})
    try:
        return run()
    finally:
        fixup.on_task_postrun(sender=task)
        task_postrun.send(sender=task, task_id="t", task=task, args=(), kwargs={}, retval=None, state="SUCCESS")


def test_a_celery_worker_keeps_its_connection_between_tasks_and_replaces_a_dropped_one(scale_out, db, kept_connections):
    """Celery's Django fixup closed the connection around every task (a new backend per turn);
    the worker now keeps it while ``CONN_MAX_AGE`` allows, and replaces one the server dropped."""
    from celery.fixups.django import DjangoWorkerFixup

    from tripdesk.celery import app

    fixup = DjangoWorkerFixup(app)
    with ThreadPoolExecutor(max_workers=1) as worker:

        def task() -> int:
            return worker.submit(_as_a_task, fixup, _backend_pid).result()

        try:
            first = task()
            assert task() == first, "the second task starts no new PostgreSQL backend"
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_terminate_backend(%s)", [first])
            wait_until(lambda: not _running(first), timeout=10, what="the backend to end")
            time.sleep(0.5)
            replaced = task()  # no error: the dropped connection is noticed before the task and replaced
            assert replaced != first
            assert task() == replaced
            connections.settings["default"]["CONN_MAX_AGE"] = 0  # Django's default: closed after each task
            worker.submit(connections.close_all).result()
            assert task() != task()
        finally:
            worker.submit(connections.close_all).result()
