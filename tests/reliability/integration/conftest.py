"""Real services for the reliability integration tests: PostgreSQL, Redis and Celery workers
this suite may kill. ``scale_out`` and ``wait_until`` are the integration suite's own."""
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from tests.integration.conftest import scale_out, wait_until  # noqa: F401 - fixtures and helper shared

ROOT = Path(__file__).resolve().parents[3]


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/reliability/integration/" in str(item.fspath):
            item.add_marker(pytest.mark.integration)


def service_env(**extra: str) -> dict:
    """The environment a server or worker needs to use the test database and Redis."""
    db = settings.DATABASES["default"]
    return {**os.environ, "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
            "REDIS_URL": settings.REDIS_URL, "CELERY_TASK_ALWAYS_EAGER": "false", **extra}


def worker_start(*, app: str, log: Path, env: dict, concurrency: int = 2) -> subprocess.Popen:
    """A ``celery worker`` in its own process group (so a test can kill it and its pool)."""
    from tripdesk.celery import app as celery_app

    with open(log, "wb") as out:
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", app, "worker", "--pool", "prefork", "--concurrency",
             str(concurrency), "--loglevel", "INFO", "--without-gossip", "--without-mingle", "-n", f"rel-{os.getpid()}@%h"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    def answers() -> bool:
        with celery_app.connection_for_write(env["REDIS_URL"]) as broker:
            return bool(celery_app.control.ping(timeout=1, connection=broker))

    wait_until(lambda: worker.poll() is not None or answers(), timeout=60, what="the Celery worker")
    assert worker.poll() is None, log.read_text()[-4000:]
    return worker


def worker_stop(worker: subprocess.Popen) -> None:
    if worker.poll() is None:
        os.killpg(worker.pid, signal.SIGTERM)
        try:
            worker.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(worker.pid, signal.SIGKILL)
