"""Real services for the reliability integration tests: PostgreSQL, Redis and Celery workers
this suite may kill. ``scale_out``, ``celery_worker_process`` (the shared worker) and
``wait_until`` are the integration suite's own."""

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from tests.integration.conftest import (  # noqa: F401 - shared fixtures
    _database_quiet_before_flush,
    celery_worker_process,
    scale_out,
    smtp_server,
    wait_until,
)

ROOT = Path(__file__).resolve().parents[3]


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/reliability/integration/" in str(item.fspath):
            item.add_marker(pytest.mark.integration)


def service_env(**extra: str) -> dict:
    """The environment a server or worker needs to use the test database and Redis."""
    db = settings.DATABASES["default"]
    return {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "REDIS_URL": settings.REDIS_URL,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        **extra,
    }


@pytest.fixture
def own_queue(monkeypatch):
    """Route turns to a queue of their own, so only the worker a test starts on it runs them (the
    integration suite's shared worker, if started, keeps listening on the default queue)."""
    from tripdesk.celery import app

    queue = f"reliability-{os.getpid()}"
    monkeypatch.setitem(app.conf, "task_routes", {"trips.tasks.turns.run_turn": {"queue": queue}})
    _routes_changed(app)
    yield queue
    monkeypatch.undo()
    _routes_changed(app)


def _routes_changed(app) -> None:
    app.amqp.flush_routes()
    app.amqp.__dict__.pop("router", None)  # Celery caches the router built from the old routes


def worker_start(*, app: str, log: Path, env: dict, concurrency: int = 2, queue: str = "celery") -> subprocess.Popen:
    """A ``celery worker`` in its own process group (so a test can kill it and its pool)."""
    with open(log, "wb") as out:
        worker = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                app,
                "worker",
                "--pool",
                "prefork",
                "--concurrency",
                str(concurrency),
                "--queues",
                queue,
                "--loglevel",
                "INFO",
                "--without-gossip",
                "--without-mingle",
                "-n",
                f"rel-{os.getpid()}@%h",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    wait_until(
        lambda: worker.poll() is not None or " ready." in log.read_text(errors="replace"),
        timeout=60,
        what="the Celery worker",
    )
    assert worker.poll() is None, log.read_text()[-4000:]
    return worker


def worker_stop(worker: subprocess.Popen) -> None:
    if worker.poll() is None:
        os.killpg(worker.pid, signal.SIGTERM)
        try:
            worker.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(worker.pid, signal.SIGKILL)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def daphne_start(*, env: dict, log: Path) -> tuple[int, subprocess.Popen]:
    """A daphne serving TripDesk on a free port (its own process group); returns (port, process) once it listens."""
    port = free_port()
    with open(log, "wb") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "tripdesk.asgi:application"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        wait_until(lambda: listening(port), timeout=30, what="daphne")
    except BaseException:
        os.killpg(server.pid, signal.SIGKILL)
        raise
    return port, server
