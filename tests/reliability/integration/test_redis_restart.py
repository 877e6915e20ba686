"""Redis restarted mid-conversation: a real websocket client against daphne (Redis channel layer,
a Celery worker on the same Redis) reconnects, resumes and sees every message once.

The suite starts its own ``redis-server`` on a free port (append-only file on, as a production
Redis would keep its queue) so restarting it disturbs nothing else on the machine.
"""
import asyncio
import os
import signal
import socket
import subprocess
import sys
import time

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from tests.integration.conftest import wait_until
from trips.models import ChatMessage

from .conftest import ROOT, service_env, worker_start, worker_stop
from .resuming_client import ResumingClient

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

SCENARIO = "2 adults from Boston to Miami, out March 11 back March 16"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RedisServer:
    def __init__(self, directory) -> None:
        self.port, self.directory, self.process = free_port(), directory, None

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "yes",
             "--appendfsync", "always", "--dir", str(self.directory)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        wait_until(lambda: subprocess.run(["redis-cli", "-p", str(self.port), "ping"], capture_output=True,
                                          text=True).stdout.strip() == "PONG", timeout=20, what="redis-server")

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=20)


@pytest.fixture
def stack(scale_out, tmp_path):
    """Our own Redis, a Celery worker and daphne on it; yields (redis, websocket base url)."""
    redis = RedisServer(tmp_path)
    redis.start()
    env = service_env(REDIS_URL=f"redis://127.0.0.1:{redis.port}/0")
    worker = worker_start(app="tripdesk", log=tmp_path / "worker.log", env=env)
    port = free_port()
    with open(tmp_path / "daphne.log", "wb") as log:
        server = subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                                   "tripdesk.asgi:application"], cwd=ROOT, env=env, stdout=log,
                                  stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_until(lambda: _listening(port), timeout=30, what="daphne")
        yield redis, port
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=20)
        worker_stop(worker)
        if redis.process.poll() is None:
            redis.stop()
        print(f"\nlogs: {tmp_path}")


def _listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


def answered(client_id: str):
    """The turn started by ``client_id`` has shown bundles and the trip's status came after them."""
    def check(c: ResumingClient) -> bool:
        mine = [s for s, m in c.messages.items() if m.get("client_id") == client_id]
        bundles = [s for s, m in c.messages.items() if mine and s > mine[0] and (m.get("widget") or {}).get("type") == "bundles"]
        return bool(bundles) and any(st["after_seq"] >= bundles[0] for st in c.statuses)
    return check


async def test_clients_resume_across_a_redis_restart_with_nothing_lost_or_doubled(stack, trip, traveller):
    redis, port = stack
    cookie = await sync_to_async(session_cookie)(traveller)
    url = f"ws://127.0.0.1:{port}/ws/trips/{trip.pk}/"
    async with ResumingClient(url, cookie=cookie, origin=f"http://127.0.0.1:{port}") as client, \
            ResumingClient(url, cookie=cookie, origin=f"http://127.0.0.1:{port}") as watcher:
        await client.send({"type": "message", "text": SCENARIO, "client_id": "before-restart"})
        await client.until(answered("before-restart"), timeout=60)

        await asyncio.to_thread(redis.stop)
        await client.send({"type": "message", "text": "actually we are 3 adults", "client_id": "during-restart"})
        await asyncio.sleep(1)
        await asyncio.to_thread(redis.start)

        await client.until(answered("during-restart"), timeout=90)
        await watcher.until(lambda w: w.after_seq >= client.after_seq, timeout=30)

    rows = await sync_to_async(list)(ChatMessage.objects.filter(trip=trip).order_by("seq").values_list("seq", "client_id"))
    seqs = [seq for seq, _ in rows]
    assert seqs == list(range(1, len(seqs) + 1))
    assert [cid for _, cid in rows if cid] == ["before-restart", "during-restart"], "each message saved once"
    for c in (client, watcher):
        assert c.delivered == seqs, "every message reached the browser once, in order"
        assert c.connections >= 2, "the restart dropped the connection and the client came back"
    assert not client.unacked
