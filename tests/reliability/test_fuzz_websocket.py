"""10,000 hostile frames against the chat consumer, through the real ASGI application (auth,
origin check, routing), in batches over 20 connections: no frame crashes the consumer, every bad
frame gets a plain error frame, none is saved twice, none buys anything, and a well-behaved client
is served between batches and at the end.

The per-connection limits (10 frames in 10 seconds, three oversized frames) are lifted for the
fuzz batches so every frame reaches the parser; a last test keeps them and must see the
documented close codes. Frames go one at a time, each after the server's answer to the last (the
test database is SQLite in memory, whose shared cache refuses a read during another thread's
write). Turns are queued, not run (Celery not eager): the mission core's own fuzzing is
``test_fuzz_core.py``; the last test runs one real turn.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from tests.factories import trip_make
from tests.trips.chat.conftest import SCENARIO_1, bundles_in, frames_until, is_status, session_cookie, turn_frames
from tripdesk.asgi import application
from tripdesk.celery import app as celery_app
from trips.consumers import CloseCode, TripChatConsumer
from trips.models import ChatMessage

from .conftest import FIGURES
from .frames import hostile_frames

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

FRAMES, BATCH = 10_000, 500
ANSWERS = {"pong", "ack", "error", "status"}  # what ends the server's answer to one frame
ERROR_CODES = {
    "binary_not_supported",
    "frame_too_large",
    "bad_json",
    "bad_frame",
    "unknown_type",
    "text_too_long",
    "unknown_action",
    "refused",
    "rate_limited",
}


async def connect(user, trip_id) -> WebsocketCommunicator:
    cookie = await sync_to_async(session_cookie)(user)
    ws = WebsocketCommunicator(
        application,
        f"/ws/trips/{trip_id}/",
        headers=[(b"origin", b"http://testserver"), (b"cookie", cookie)],
    )
    connected, _ = await ws.connect(timeout=10)
    assert connected
    return ws


async def answer(ws, *, until=lambda f: f["type"] in ANSWERS, timeout: float = 20) -> tuple[list[dict], int | None]:
    """Frames up to the first that ``until`` accepts (by default the end of the server's answer to
    one frame), or up to the server closing: then also its close code."""
    frames = []
    while True:
        output = await ws.receive_output(timeout)  # re-raises whatever crashed the consumer
        if output["type"] == "websocket.close":
            return frames, output.get("code")
        frames.append(json.loads(output["text"]))
        if until(frames[-1]):
            return frames, None


async def fuzz_batch(user, trip_id, frames) -> tuple[list[dict], int | None]:
    """Send ``frames`` one after another, each once the last was answered (pong, ack, error or
    status; a purchase or resume in flight may also bring history), stopping if the server closes."""
    ws = await connect(user, trip_id)
    received, code = await answer(ws, until=is_status)
    for text, data in frames:
        if code is not None:
            break
        await ws.send_input({"type": "websocket.receive", **({"text": text} if data is None else {"bytes": data})})
        more, code = await answer(ws)
        received += more
    while code is None and not await ws.receive_nothing(timeout=0.5):
        more, code = await answer(ws, until=lambda f: True)
        received += more
    await ws.disconnect()
    return received, code


async def served(user, trip_id, client_id: str) -> None:
    """A well-behaved client: history and status, a pong, and its message acknowledged."""
    ws = await connect(user, trip_id)
    await frames_until(ws, is_status)
    await ws.send_json_to({"type": "ping"})
    assert await ws.receive_json_from(timeout=10) == {"type": "pong"}
    await ws.send_json_to({"type": "message", "text": "I'm going to San Francisco", "client_id": client_id})
    ack = await frames_until(ws, lambda f: f["type"] == "ack")
    assert ack[-1]["client_id"] == client_id and ack[-1]["seq"] >= 1
    await ws.disconnect()


def saved(trip):
    return list(ChatMessage.objects.filter(trip=trip).order_by("seq").values_list("seq", "role", "client_id"))


@pytest.fixture
def unlimited(monkeypatch):
    """Every frame reaches the parser; turns are queued (broker in memory), not run."""
    monkeypatch.setattr(TripChatConsumer, "rate_limit", 10**9)
    monkeypatch.setattr(TripChatConsumer, "rate_close_at", 10**9)
    monkeypatch.setattr(TripChatConsumer, "oversize_close_at", 10**9)
    monkeypatch.setitem(celery_app.conf, "task_always_eager", False)


async def test_ten_thousand_hostile_frames(traveller, trip, unlimited):
    frames = list(hostile_frames(seed=20261122, count=FRAMES))
    seen, acked = Counter(), set()
    for start in range(0, FRAMES, BATCH):
        received, code = await fuzz_batch(traveller, trip.pk, frames[start : start + BATCH])
        assert code is None, f"batch {start // BATCH} was closed with {code}"
        for frame in received:
            seen[frame["type"] if frame["type"] != "error" else f"error:{frame['code']}"] += 1
            if frame["type"] == "ack":
                acked.add(frame["client_id"])
        await served(traveller, trip.pk, f"good{start}")
    FIGURES["websocket frames fuzzed"] += FRAMES
    FIGURES["websocket server errors"] += seen["error:server_error"]

    assert seen["error:server_error"] == 0, "no frame made the server fail"
    assert {k.split(":", 1)[1] for k in seen if k.startswith("error:")} <= ERROR_CODES
    assert sum(n for k, n in seen.items() if k.startswith("error:")) > FRAMES // 2, "most frames are refused"
    rows = await sync_to_async(saved)(trip)
    assert [seq for seq, _, _ in rows] == list(range(1, len(rows) + 1)), "seq has no gaps or repeats"
    users = Counter(client_id for _, role, client_id in rows if role == "user")
    assert max(users.values()) == 1, "a client_id is saved once"
    assert acked <= set(users) and {f"good{n}" for n in range(0, FRAMES, BATCH)} <= set(users)
    assert not await sync_to_async(trip.bookings.exists)(), "no frame bought anything"


async def test_the_real_limits_close_a_flooding_client_and_others_are_served(traveller, trip):
    frames = [(f'{{"type":"message","text":"{"x" * 17_000}","client_id":"big{n}"}}', None) for n in range(5)]
    _, code = await fuzz_batch(traveller, trip.pk, frames)
    assert code == CloseCode.FRAME_TOO_LARGE
    _, code = await fuzz_batch(traveller, trip.pk, [('{"type":"ping"}', None)] * 40)
    assert code == CloseCode.TOO_MANY_FRAMES
    fresh = await sync_to_async(trip_make)(owner=traveller, organisation=trip.organisation)
    ws = await connect(traveller, fresh.pk)
    await frames_until(ws, is_status)
    await ws.send_json_to({"type": "message", "text": SCENARIO_1, "client_id": "after-flood"})
    frames = await turn_frames(ws, "after-flood")
    await ws.disconnect()
    assert any(bundles_in(f) for f in frames), "a real turn still runs and answers"
