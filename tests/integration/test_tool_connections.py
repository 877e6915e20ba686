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
