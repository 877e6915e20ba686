"""Integration fixtures: a real ``celery worker`` process on the test database and Redis.

Run by ``.ci/run`` with ``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL`` set; skipped with a
clear reason otherwise, so the default suite never needs them.
"""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/integration/" in str(item.fspath):
            item.add_marker(pytest.mark.integration)


@pytest.fixture(scope="session")
def scale_out(django_db_setup):
    """PostgreSQL and Redis, or a skip that says what is missing."""
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql" or not settings.REDIS_URL:
        pytest.skip("integration tests need DATABASE_URL=postgres://… and REDIS_URL=redis://… (see .ci/run)")
    if settings.CELERY_TASK_ALWAYS_EAGER:
        pytest.fail("REDIS_URL is set but Celery is still eager")


@pytest.fixture(scope="session", autouse=True)
def _stray_connections_closed(django_db_setup, django_db_blocker):
    """Before the test database is dropped, end the sessions the core's tool threads left open.

    Tools run on ``handlers.local_shc``'s worker threads, each with its own connection that
    outlives the test; PostgreSQL refuses to drop a database someone is connected to.
    """
    yield
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        return
    from django.db import connection

    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


@pytest.fixture(scope="session")
def celery_worker_process(scale_out, tmp_path_factory):
    """``celery -A tripdesk worker`` on the test database, stopped at the end of the session."""
    from tripdesk.celery import app

    app.control.purge()  # tasks left by an earlier run point at rows that no longer exist
    db = settings.DATABASES["default"]
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "REDIS_URL": settings.REDIS_URL,
        "CELERY_TASK_ALWAYS_EAGER": "false",
    }
    log = tmp_path_factory.mktemp("celery") / "worker.log"
    with open(log, "wb") as out:
        worker = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "tripdesk",
                "worker",
                "--concurrency",
                "4",
                "--loglevel",
                "INFO",
                "--without-gossip",
                "--without-mingle",
                "-n",
                f"it-{os.getpid()}@%h",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 60
        while not app.control.ping(timeout=1):
            if worker.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the Celery worker did not start:\n{log.read_text()[-4000:]}")
        yield worker
    finally:
        worker.send_signal(signal.SIGTERM)
        try:
            worker.wait(timeout=30)
        except subprocess.TimeoutExpired:
            worker.kill()
        print(f"\nCelery worker log: {log}")


def wait_until(predicate, *, timeout: float = 90.0, what: str = "the condition") -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.2)
