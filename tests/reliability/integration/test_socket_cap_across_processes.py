"""The per-user websocket cap holds across ASGI processes: two daphne servers on one Redis share
one count, and the places of a server killed with its connections open lapse on their own."""

import asyncio
import json
import os
import signal

import pytest
from django.test import Client
from websockets.asyncio.client import connect

from tests.factories import sign_in, trip_make
from trips.consumers import CloseCode

from .conftest import daphne_start, service_env

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

CAP, TTL = 2, 3.0


@pytest.fixture
def two_servers(scale_out, tmp_path):
    """Two daphne processes on the suite's PostgreSQL and Redis, capped at CAP chats per user."""
    env = service_env(TRIPDESK_WEBSOCKETS_PER_USER=str(CAP), TRIPDESK_WEBSOCKET_SLOT_TTL_SECONDS=str(TTL))
    servers = {}
    try:
        for name in ("a", "b"):
            servers[name] = daphne_start(env=env, log=tmp_path / f"daphne-{name}.log")
        yield servers
    finally:
        for _, process in servers.values():
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
                process.wait(timeout=20)


async def opened(port: int, trip_id: int, cookie: str):
    """A connection and its first frame (a message or status: served) or close code (refused)."""
    ws = await connect(
        f"ws://127.0.0.1:{port}/ws/trips/{trip_id}/",
        origin=f"http://127.0.0.1:{port}",
        additional_headers={"Cookie": cookie},
        open_timeout=10,
    )
    try:
        return ws, json.loads(await asyncio.wait_for(ws.recv(), timeout=10))["type"]
    except Exception:  # noqa: BLE001 - closed by the server: its code says why
        await ws.wait_closed()
        return ws, ws.close_code


def test_one_count_for_every_process_and_dead_processes_give_their_places_back(two_servers, traveller, acme):
    trip = trip_make(owner=traveller, organisation=acme)
    client = Client()
    sign_in(client, traveller)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    (port_a, server_a), (port_b, _) = two_servers["a"], two_servers["b"]

    async def scenario():
        held = [await opened(port_a, trip.pk, cookie) for _ in range(CAP)]
        assert all(first in {"message", "status"} for _, first in held), held
        _, refused = await opened(port_b, trip.pk, cookie)
        assert refused == CloseCode.TOO_MANY_CONNECTIONS, "the other process counts server A's chats"
        await held[0][0].close()
        await asyncio.sleep(0.5)
        freed, first = await opened(port_b, trip.pk, cookie)
        assert first in {"message", "status"}, "a closed chat gives its place back at once"
        # Server A dies with its chat still open: no one removes its place; it lapses after TTL.
        os.killpg(server_a.pid, signal.SIGKILL)
        server_a.wait(timeout=10)
        _, refused = await opened(port_b, trip.pk, cookie)
        assert refused == CloseCode.TOO_MANY_CONNECTIONS
        await asyncio.sleep(TTL + 1)
        _, first = await opened(port_b, trip.pk, cookie)
        assert first in {"message", "status"}, "the dead process's place lapsed"
        await freed.close()

    asyncio.run(scenario())
