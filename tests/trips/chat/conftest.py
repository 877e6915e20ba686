"""Websocket helpers: a signed-in communicator on the real ASGI application (auth, origin check, routing)."""

import asyncio
from contextlib import asynccontextmanager

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from tests.factories import sign_in
from tripdesk.asgi import application

SCENARIO_1 = "4 people going from Newark to Denver for 3 nights on January 30"


def session_cookie(user) -> bytes:
    client = Client()
    sign_in(client, user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


@asynccontextmanager
async def socket(user, trip_id, *, query: str = "", origin: bytes = b"http://testserver"):
    """A connected (or refused) communicator; always disconnected at the end."""
    headers = [(b"origin", origin)]
    if user is not None:
        headers.append((b"cookie", await sync_to_async(session_cookie)(user)))
    communicator = WebsocketCommunicator(application, f"/ws/trips/{trip_id}/{query}", headers=headers)
    connected, _ = await communicator.connect(timeout=5)
    communicator.connected = connected
    try:
        yield communicator
    finally:
        await communicator.disconnect()


async def refused_with(communicator) -> int:
    """The close code of a connection the server accepted only to refuse (so browsers see the code)."""
    assert communicator.connected, "the handshake itself was rejected"
    output = await communicator.receive_output(timeout=5)
    assert output["type"] == "websocket.close", output
    return output["code"]


async def frames_until(communicator, predicate, *, timeout: float = 20.0) -> list[dict]:
    """Every frame received up to and including the first one ``predicate`` accepts."""
    received = []
    async with asyncio.timeout(timeout):
        while True:
            frame = await communicator.receive_json_from(timeout=timeout)
            received.append(frame)
            if predicate(frame):
                return received


async def turn_frames(communicator, client_id: str) -> list[dict]:
    """Frames until the turn is over: its ack arrived and the trip's status was reported after it began."""
    received = []
    acked = status = False
    async with asyncio.timeout(20):
        while not (acked and status):
            frame = await communicator.receive_json_from(timeout=20)
            received.append(frame)
            acked = acked or (frame["type"] == "ack" and frame["client_id"] == client_id)
            status = status or (frame["type"] == "status" and any(f.get("client_id") == client_id for f in received))
    return received


async def drain(communicator, *, quiet: float = 0.3) -> list[dict]:
    """Frames until the socket stays quiet for ``quiet`` seconds."""
    received = []
    while not await communicator.receive_nothing(timeout=quiet):
        received.append(await communicator.receive_json_from())
    return received


def is_status(frame) -> bool:
    return frame["type"] == "status"


def bundles_in(frame) -> bool:
    return frame["type"] == "message" and (frame.get("widget") or {}).get("type") == "bundles"


@pytest.fixture
def staff(support):
    return support
