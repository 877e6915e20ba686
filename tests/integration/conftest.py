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
SITE_URL = "https://tripdesk.test"  # what the worker's emails link to


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/integration/" in str(item.fspath):
            item.add_marker(pytest.mark.integration)


def _on_postgres() -> bool:
    from django.db import connection

    return connection.vendor == "postgresql"


@pytest.fixture(scope="session")
def scale_out(django_db_setup):
    """PostgreSQL and Redis, or a skip that says what is missing."""
    if not _on_postgres() or not settings.REDIS_URL:
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
    if not _on_postgres():
        return
    from django.db import connection

    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


@pytest.fixture(autouse=True)
def _database_quiet_before_flush(request):
    """Let the worker finish what a test left running before the database is flushed.

    A test ends when its assertion holds, but the Celery worker may still be inside a turn's last
    transaction (a follow-up, a lease release, an email's audit row). pytest-django's TRUNCATE
    then meets those row locks and PostgreSQL kills one side as a deadlock. This fixture sets up
    after the database fixture, so it tears down first: it waits for the other sessions on the
    test database to go idle, and ends any still busy after 30 s.
    """
    marker = request.node.get_closest_marker("django_db")
    transactional = marker is not None and marker.kwargs.get("transaction")
    postgres = _on_postgres()
    if not (transactional and postgres):
        yield
        return
    request.getfixturevalue("transactional_db")
    yield
    _worker_drained()
    from django.db import connection

    busy = (
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        " AND backend_type = 'client backend' AND state IN ('active', 'idle in transaction')"
    )
    deadline = time.monotonic() + 30
    with connection.cursor() as cursor:
        while True:
            cursor.execute(busy)
            pids = [row[0] for row in cursor.fetchall()]
            if not pids:
                return
            if time.monotonic() > deadline:
                cursor.execute("SELECT pg_terminate_backend(pid) FROM unnest(%s::int[]) AS pid", [pids])
                return
            time.sleep(0.2)


def _worker_drained(timeout: float = 30.0) -> None:
    """Wait until no Celery worker holds a task: running, reserved, or waiting for its countdown.

    A delayed task (an approval email waits a few seconds to settle) fires after the test's
    assertions hold; if it starts its transaction while pytest-django truncates, PostgreSQL
    kills one side as a deadlock and every later test meets the rows left behind.
    """
    from tripdesk.celery import app

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        inspect = app.control.inspect(timeout=0.5)
        held = [inspect.active(), inspect.reserved(), inspect.scheduled()]
        if all(not any(tasks for tasks in (replies or {}).values()) for replies in held):
            return
        time.sleep(0.2)


@pytest.fixture(scope="session")
def smtp_server(scale_out, tmp_path_factory):
    """A real SMTP server process (``python -m aiosmtpd``) that files every message it receives in a Maildir.

    Yields ``(port, maildir)``; the Celery worker sends its notification emails here.
    """
    import socket

    maildir = tmp_path_factory.mktemp("smtp") / "Maildir"
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "aiosmtpd",
            "-n",
            "-l",
            f"127.0.0.1:{port}",
            "-c",
            "aiosmtpd.handlers.Mailbox",
            str(maildir),
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    pytest.fail("the SMTP server (aiosmtpd) did not start")
                time.sleep(0.1)
        yield port, maildir
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()


@pytest.fixture(scope="session")
def celery_worker_process(scale_out, smtp_server, tmp_path_factory):
    """``celery -A tripdesk worker`` on the test database, stopped at the end of the session.

    It sends email through ``smtp_server`` (links in them point at ``TRIPDESK_SITE_URL``).
    """
    from tripdesk.celery import app

    app.control.purge()  # tasks left by an earlier run point at rows that no longer exist
    db = settings.DATABASES["default"]
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "REDIS_URL": settings.REDIS_URL,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(smtp_server[0]),
        "TRIPDESK_SITE_URL": SITE_URL,
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


def held_and_granted(trip, traveller, approver, *, quote: str) -> tuple[int, object, str]:
    """Quote, select B1 and hold through the worker, then grant: (live holds, the approval, its token)."""
    from django.utils import timezone

    from tests.factories import passengers_name
    from trips.models import ApprovalRequest, ChatMessage, Hold
    from trips.services.approvals import approval_grant
    from trips.services.turns import turn_submit

    for sent in ({"text": quote}, {"action": {"type": "select", "bundle_id": "B1"}}, {"action": {"type": "hold"}}):
        if "action" in sent and sent["action"]["type"] == "hold":
            passengers_name(trip)  # a hold waits for everyone's name
        message = turn_submit(trip=trip, user=traveller, **sent)
        wait_until(lambda: ChatMessage.objects.get(pk=message.pk).turn_status == "done", what="a turn")  # noqa: B023
    holds = Hold.objects.filter(trip=trip, status=Hold.Status.HELD).count()
    assert holds >= 2, "a multi-item purchase"
    approval = ApprovalRequest.objects.get(trip=trip, kind="purchase", status="pending")
    return holds, approval, approval_grant(approval=approval, approver=approver, now=timezone.now())
