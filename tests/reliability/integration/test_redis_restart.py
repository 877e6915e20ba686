"""Redis restarted mid-conversation: a real websocket client against daphne (Redis channel layer,
a Celery worker on the same Redis) reconnects, resumes and sees every message once.

The suite starts its own ``redis-server`` on a free port (append-only file on, as a production
Redis would keep its queue) so restarting it disturbs nothing else on the machine.
"""

import asyncio
import os
import signal
import subprocess

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from tests.factories import sign_in
from tests.integration.conftest import wait_until
from trips.models import ChatMessage

from .conftest import daphne_start, free_port, service_env, worker_start, worker_stop
from .resuming_client import ResumingClient

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

SCENARIO = "2 adults from Boston to Miami, out March 11 back March 16"


class RedisServer:
    def __init__(self, directory) -> None:
        self.port, self.directory, self.process = free_port(), directory, None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "yes",
                "--appendfsync",
                "always",
                "--dir",
                str(self.directory),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        wait_until(
            lambda: (
                subprocess.run(
                    ["redis-cli", "-p", str(self.port), "ping"], capture_output=True, text=True
                ).stdout.strip()
                == "PONG"
            ),
            timeout=20,
            what="redis-server",
        )

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=20)


@pytest.fixture
def stack(scale_out, tmp_path):
    """Our own Redis, daphne and a Celery worker on it (whose flight search can be made to pause);
    yields (redis, daphne's port, the worker's marks directory)."""
    redis = RedisServer(tmp_path)
    redis.start()
    marks = tmp_path / "marks"
    marks.mkdir()
    env = service_env(REDIS_URL=f"redis://127.0.0.1:{redis.port}/0", TRIPDESK_MIDTOOL_DIR=str(marks))
    worker = worker_start(app="tests.reliability.integration.midtool_worker", log=tmp_path / "worker.log", env=env)
    port, server = daphne_start(env=env, log=tmp_path / "daphne.log")
    try:
        yield redis, port, marks
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=20)
        worker_stop(worker)
        if redis.process.poll() is None:
            redis.stop()
        print(f"\nlogs: {tmp_path}")


def session_cookie(user) -> str:
    client = Client()
    sign_in(client, user)
    return f"sessionid={client.cookies['sessionid'].value}"


def answered(client_id: str):
    """The turn started by ``client_id`` has shown bundles and the trip's status came after them."""

    def check(c: ResumingClient) -> bool:
        mine = [s for s, m in c.messages.items() if m.get("client_id") == client_id]
        bundles = [
            s
            for s, m in c.messages.items()
            if mine and s > mine[0] and (m.get("widget") or {}).get("type") == "bundles"
        ]
        return bool(bundles) and any(st["after_seq"] >= bundles[0] for st in c.statuses)

    return check


async def restart(redis: RedisServer, *clients: ResumingClient, down_seconds: float, meanwhile=None) -> None:
    """Stop Redis, wait (doing ``meanwhile``), start it again; return once every client is back."""
    before = [c.connections for c in clients]
    await asyncio.to_thread(redis.stop)
    if meanwhile is not None:
        await meanwhile
    await asyncio.sleep(down_seconds)
    await asyncio.to_thread(redis.start)
    for c, n in zip(clients, before, strict=True):
        await c.until(lambda c, n=n: c.connections > n, timeout=30)


async def test_clients_resume_across_redis_restarts_with_nothing_lost_or_doubled(stack, trip, traveller):
    """Three restarts: between turns, with a message sent while Redis is down, and in the middle
    of a turn (while the worker is inside the flight search)."""
    redis, port, marks = stack
    cookie = await database_sync_to_async(session_cookie)(traveller)
    url, origin = f"ws://127.0.0.1:{port}/ws/trips/{trip.pk}/", f"http://127.0.0.1:{port}"
    async with (
        ResumingClient(url, cookie=cookie, origin=origin) as client,
        ResumingClient(url, cookie=cookie, origin=origin) as watcher,
    ):
        await client.send({"type": "message", "text": SCENARIO, "client_id": "first"})
        await client.until(answered("first"), timeout=60)
        await restart(redis, client, watcher, down_seconds=1)

        while_down = client.send({"type": "message", "text": "actually we are 3 adults", "client_id": "while-down"})
        await restart(redis, client, watcher, down_seconds=1, meanwhile=while_down)
        await client.until(answered("while-down"), timeout=90)

        (marks / "block-once").write_text("6")
        await client.send({"type": "message", "text": "actually we are 4 adults", "client_id": "mid-turn"})
        await asyncio.to_thread(wait_until, lambda: (marks / "in-tool").exists(), timeout=60, what="the search")
        await restart(redis, client, watcher, down_seconds=2)
        await client.until(answered("mid-turn"), timeout=90)
        await watcher.until(lambda w: w.after_seq >= client.after_seq, timeout=30)

    rows = await database_sync_to_async(list)(
        ChatMessage.objects.filter(trip=trip).order_by("seq").values_list("seq", "client_id")
    )
    seqs = [seq for seq, _ in rows]
    assert seqs == list(range(1, len(seqs) + 1))
    assert [cid for _, cid in rows if cid] == ["first", "while-down", "mid-turn"], "each message saved once"
    for c in (client, watcher):
        assert c.delivered == seqs, "every message reached the browser once, in order"
        assert c.connections >= 4, "each restart dropped the connection and the client came back"
    assert not client.unacked
    worker_log = (marks.parent / "worker.log").read_text(errors="replace")
    assert "Unrecoverable error" not in worker_log, "the worker kept consuming through every restart"
