"""The chat websocket end to end through ``tripdesk.asgi``: protocol, access, bad frames, resume.

Celery runs eagerly and the channel layer is in memory (the embedded default), so a message
really runs the mission core and its answers really arrive through the trip's group.
"""

import asyncio
import json
from unittest import mock

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from tests.factories import trip_make, user_make
from trips.consumers import CloseCode, TripChatConsumer
from trips.models import ChatMessage
from trips.services.chat import chat_message_create
from trips.web.protocol import MAX_TEXT_CHARS

from .conftest import SCENARIO_1, bundles_in, drain, frames_until, is_status, refused_with, socket, turn_frames

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def message_count(trip):
    return ChatMessage.objects.filter(trip=trip).count()


async def test_a_message_is_acknowledged_and_answered_with_bundles(traveller, trip):
    async with socket(traveller, trip.pk) as ws:
        assert ws.connected
        assert is_status(await ws.receive_json_from())  # empty history, then the trip's status
        await ws.send_json_to({"type": "message", "text": SCENARIO_1, "client_id": "scn1"})
        frames = await turn_frames(ws, "scn1")

    messages = [f for f in frames if f["type"] == "message"]
    assert [m["seq"] for m in messages] == list(range(1, len(messages) + 1))  # in order, none missing
    mine = messages[0]
    assert (mine["role"], mine["text"], mine["client_id"]) == ("user", SCENARIO_1, "scn1")
    assert {"type": "ack", "client_id": "scn1", "seq": mine["seq"]} in frames
    assert any(m["kind"] == "progress" for m in messages)
    bundles = next(m for m in messages if bundles_in(m))["widget"]["bundles"]
    assert len(bundles) >= 3
    assert all(b["total"] and b["currency"] and b["flights"] and b["hotels"] for b in bundles)
    assert next(f for f in frames if is_status(f))["phase"] == "presenting"


async def test_a_resent_client_id_is_applied_once(traveller, trip):
    async with socket(traveller, trip.pk) as ws:
        await ws.receive_json_from()
        for _ in range(2):
            await ws.send_json_to({"type": "message", "text": "I'm going to San Francisco", "client_id": "same"})
        frames = await frames_until(ws, is_status)
        frames += await drain(ws)

    acks = [f for f in frames if f["type"] == "ack"]
    assert len(acks) == 2 and acks[0]["seq"] == acks[1]["seq"]
    users = await sync_to_async(list)(
        ChatMessage.objects.filter(trip=trip, role="user").values_list("client_id", flat=True)
    )
    assert users == ["same"]


async def test_resume_sends_exactly_the_missing_messages(traveller, trip):
    async with socket(traveller, trip.pk) as ws:
        await ws.receive_json_from()
        await ws.send_json_to({"type": "message", "text": SCENARIO_1, "client_id": "r1"})
        await turn_frames(ws, "r1")
    total = await sync_to_async(message_count)(trip)
    assert total > 4

    async with socket(traveller, trip.pk, query="?after_seq=3") as ws:
        replay = await frames_until(ws, is_status)
        assert [f["seq"] for f in replay[:-1]] == list(range(4, total + 1))
        await ws.send_json_to({"type": "resume", "after_seq": total - 2})
        again = await frames_until(ws, is_status)
        assert [f["seq"] for f in again[:-1]] == [total - 1, total]
        assert await ws.receive_nothing(timeout=0.3)


async def test_a_client_that_is_up_to_date_gets_only_new_messages(traveller, trip):
    await sync_to_async(chat_message_create)(trip_id=trip.pk, message={"text": "one"})
    await sync_to_async(chat_message_create)(trip_id=trip.pk, message={"text": "two"})
    async with socket(traveller, trip.pk, query="?after_seq=2") as ws:
        assert is_status(await ws.receive_json_from())  # nothing to catch up on
        await sync_to_async(chat_message_create)(trip_id=trip.pk, message={"text": "three"})
        assert [(f["seq"], f["text"]) for f in await drain(ws)] == [(3, "three")]


async def test_a_client_sees_each_message_once_while_another_client_talks(traveller, trip):
    async with socket(traveller, trip.pk) as watcher, socket(traveller, trip.pk) as talker:
        await watcher.receive_json_from()
        await talker.receive_json_from()
        await talker.send_json_to({"type": "message", "text": SCENARIO_1, "client_id": "t1"})
        seen = await frames_until(watcher, bundles_in)
        seen += await frames_until(watcher, is_status)
        seen += await drain(watcher)
    seqs = [f["seq"] for f in seen if f["type"] == "message"]
    assert seqs == list(range(1, max(seqs) + 1))
    assert not any(f["type"] == "ack" for f in seen)  # acks go only to the sender


# --- access ----------------------------------------------------------------------------------


async def test_anonymous_is_refused(trip):
    async with socket(None, trip.pk) as ws:
        assert await refused_with(ws) == CloseCode.NOT_SIGNED_IN


async def test_another_traveller_is_refused(other_traveller, trip):
    async with socket(other_traveller, trip.pk) as ws:
        assert await refused_with(ws) == CloseCode.NO_SUCH_TRIP


async def test_staff_of_another_organisation_are_refused(globex_support, trip):
    async with socket(globex_support, trip.pk) as ws:
        assert await refused_with(ws) == CloseCode.NO_SUCH_TRIP


async def test_an_unknown_trip_is_404(traveller, trip):
    async with socket(traveller, trip.pk + 1000) as ws:
        assert await refused_with(ws) == CloseCode.NO_SUCH_TRIP


async def test_a_foreign_origin_is_refused(traveller, trip):
    async with socket(traveller, trip.pk, origin=b"http://evil.example") as ws:
        assert not ws.connected


async def test_staff_of_the_organisation_read_but_cannot_write(staff, traveller, trip):
    async with socket(traveller, trip.pk) as owner:
        await owner.receive_json_from()
        await owner.send_json_to({"type": "message", "text": "I'm going to San Francisco", "client_id": "o1"})
        await turn_frames(owner, "o1")
    async with socket(staff, trip.pk) as ws:
        assert ws.connected
        history = await frames_until(ws, is_status)
        assert history[0]["client_id"] == "o1"
        await ws.send_json_to({"type": "message", "text": "hello from support", "client_id": "s1"})
        assert await ws.receive_json_from() == {
            "type": "error",
            "code": "read_only",
            "client_id": "s1",
            "message": "Only the traveller can write in this trip's chat.",
        }
    assert not await sync_to_async(ChatMessage.objects.filter(client_id="s1").exists)()


# --- bad frames ------------------------------------------------------------------------------


async def test_bad_frames_get_error_frames_and_the_connection_keeps_working(traveller, trip):
    bad = [
        ("text", "this is not json", "bad_json"),
        ("text", json.dumps({"type": "message", "text": 5, "client_id": "w1"}), "bad_frame"),
        (
            "text",
            json.dumps({"type": "message", "text": "x" * (MAX_TEXT_CHARS + 1), "client_id": "w2"}),
            "text_too_long",
        ),
        ("text", json.dumps({"type": "message", "text": "x" * 1_000_000, "client_id": "w3"}), "frame_too_large"),
        ("text", json.dumps({"type": "teleport"}), "unknown_type"),
        ("bytes", b"\x00\x01binary", "binary_not_supported"),
    ]
    async with socket(traveller, trip.pk) as ws, socket(traveller, trip.pk) as bystander:
        await ws.receive_json_from()
        await bystander.receive_json_from()
        for kind, payload, code in bad:
            if kind == "bytes":
                await ws.send_to(bytes_data=payload)
            else:
                await ws.send_to(text_data=payload)
            error = await ws.receive_json_from()
            assert (error["type"], error["code"]) == ("error", code)
        await ws.send_json_to({"type": "ping"})
        assert await ws.receive_json_from() == {"type": "pong"}
        await ws.send_json_to({"type": "message", "text": "I'm going to San Francisco", "client_id": "ok1"})
        got = await turn_frames(ws, "ok1")
        assert got[0]["client_id"] == "ok1"
        # The other connection on the same trip saw the good message and none of the bad ones.
        seen = await frames_until(bystander, lambda f: f.get("client_id") == "ok1")
        assert [f["type"] for f in seen] == ["message"]
    assert await sync_to_async(message_count)(trip) >= 2


async def test_repeated_oversized_frames_close_the_connection(traveller, trip):
    huge = json.dumps({"type": "message", "text": "x" * 20_000, "client_id": "big"})
    async with socket(traveller, trip.pk) as ws:
        await ws.receive_json_from()
        for _ in range(TripChatConsumer.oversize_close_at):
            await ws.send_to(text_data=huge)
            assert (await ws.receive_json_from())["code"] == "frame_too_large"
        assert (await ws.receive_output())["code"] == CloseCode.FRAME_TOO_LARGE


async def test_a_flood_is_slowed_then_closed_without_harming_other_connections(traveller, trip):
    async with socket(traveller, trip.pk) as flood, socket(traveller, trip.pk) as calm:
        await flood.receive_json_from()
        await calm.receive_json_from()
        for _ in range(TripChatConsumer.rate_limit):
            await flood.send_json_to({"type": "ping"})
            assert (await flood.receive_json_from())["type"] == "pong"
        await flood.send_json_to({"type": "ping"})
        assert (await flood.receive_json_from())["code"] == "rate_limited"
        for _ in range(TripChatConsumer.rate_close_at - TripChatConsumer.rate_limit - 2):
            await flood.send_json_to({"type": "ping"})
            assert (await flood.receive_json_from())["code"] == "rate_limited"
        await flood.send_json_to({"type": "ping"})
        assert (await flood.receive_output())["code"] == CloseCode.TOO_MANY_FRAMES
        await calm.send_json_to({"type": "ping"})
        assert await calm.receive_json_from() == {"type": "pong"}


async def test_a_gap_in_live_frames_is_filled_from_the_database(traveller, trip):
    """A push lost on the way (e.g. a Redis hiccup) is recovered from the next one that arrives."""
    async with socket(traveller, trip.pk) as ws:
        await ws.receive_json_from()
        # Write two messages but deliver only the second frame to the group (the first push is "lost").
        with mock.patch("trips.services.chat.broadcast_on_commit"):
            await sync_to_async(chat_message_create)(trip_id=trip.pk, message={"text": "first"})
        await sync_to_async(chat_message_create)(trip_id=trip.pk, message={"text": "second"})
        frames = [await ws.receive_json_from(), await ws.receive_json_from()]
        assert [(f["seq"], f["text"]) for f in frames] == [(1, "first"), (2, "second")]
        assert await ws.receive_nothing(timeout=0.3)


async def test_an_approval_token_reaches_the_owner_only(staff, traveller, trip):
    token_frame = {"type": "approval_token", "approval_id": 1, "token": "tdk_apv_secret", "currency": "USD"}
    async with socket(traveller, trip.pk) as owner, socket(staff, trip.pk) as watcher:
        await owner.receive_json_from()
        await watcher.receive_json_from()
        await get_channel_layer().group_send(f"trip-{trip.pk}", {"type": "trip.frame", "frame": token_frame})
        assert await owner.receive_json_from() == token_frame
        assert await watcher.receive_nothing(timeout=0.3)


async def test_a_second_trip_is_not_disturbed(traveller, trip, acme):
    other = await sync_to_async(trip_make)(owner=traveller, organisation=acme)
    async with socket(traveller, trip.pk) as first, socket(traveller, other.pk) as second:
        await first.receive_json_from()
        await second.receive_json_from()
        await first.send_json_to({"type": "message", "text": "I'm going to San Francisco", "client_id": "a1"})
        await turn_frames(first, "a1")
        assert await second.receive_nothing(timeout=0.3)


async def test_a_user_outside_every_organisation_is_refused(trip):
    stranger = await sync_to_async(user_make)(username="stranger")
    async with socket(stranger, trip.pk) as ws:
        assert await refused_with(ws) == CloseCode.NO_SUCH_TRIP


# --- the trip's name ---------------------------------------------------------------------------


async def test_status_frames_carry_the_trips_name_once_the_first_search_names_it(staff, traveller, acme):
    """Issue 4: the header and sidebar follow the name the sidebar gives, without a reload."""
    untitled = await sync_to_async(trip_make)(owner=traveller, organisation=acme)
    async with socket(traveller, untitled.pk) as ws, socket(staff, untitled.pk) as watcher:
        assert (await ws.receive_json_from())["title"] == f"New trip #{untitled.pk}"
        await watcher.receive_json_from()
        await ws.send_json_to({"type": "message", "text": SCENARIO_1, "client_id": "n1"})
        frames = await turn_frames(ws, "n1")
        watched = await frames_until(watcher, is_status)
        await ws.send_json_to({"type": "resume", "after_seq": 0})
        resumed = await frames_until(ws, is_status)

    assert [f["title"] for f in frames if is_status(f)][-1] == "EWR → DEN · Jan 30"
    assert watched[-1]["title"] == "EWR → DEN · Jan 30"
    assert resumed[-1]["title"] == "EWR → DEN · Jan 30"  # from the database: the same naming function


async def test_a_trip_with_a_title_keeps_it(traveller, trip):
    async with socket(traveller, trip.pk) as ws:
        assert (await ws.receive_json_from())["title"] == "Denver offsite"
        await ws.send_json_to({"type": "message", "text": SCENARIO_1, "client_id": "t1"})
        frames = await turn_frames(ws, "t1")
    assert [f["title"] for f in frames if is_status(f)] == ["Denver offsite"]


async def test_frames_pushed_together_reach_each_browser_in_order_and_owner_only_ones_only_the_owner(
    staff, traveller, trip
):
    """One commit's frames arrive as one ``trip.frames`` message (``chat.trip_frames_event``)."""
    from trips.services.chat import chat_message_frame, trip_frames_event

    async with socket(traveller, trip.pk) as owner, socket(staff, trip.pk) as watcher:
        await owner.receive_json_from()
        await watcher.receive_json_from()
        with mock.patch("trips.services.chat.broadcast_on_commit"):  # stored, pushed below together
            made = [await sync_to_async(chat_message_create)(trip_id=trip.pk, message={"text": t}) for t in "abc"]
        token_frame = {"type": "approval_token", "approval_id": 1, "token": "tdk_apv_secret", "currency": "USD"}
        frames = [chat_message_frame(made[0]), token_frame, *(chat_message_frame(m) for m in made[1:])]
        await get_channel_layer().group_send(f"trip-{trip.pk}", trip_frames_event(frames))
        seen = [await owner.receive_json_from() for _ in range(4)]
        assert [f.get("text", f["type"]) for f in seen] == ["a", "approval_token", "b", "c"]
        assert [(await watcher.receive_json_from())["text"] for _ in range(3)] == ["a", "b", "c"]
        assert await watcher.receive_nothing(timeout=0.3)


async def test_a_pushed_frame_is_not_held_behind_sync_work_of_the_same_process(traveller, trip):
    """Channels' dispatch ran ``close_old_connections`` on the process's one shared sync thread before
    each message: a frame for this browser waited for any other connection's database call there."""
    import threading

    from trips.services.chat import chat_message_frame, trip_frames_event

    async with socket(traveller, trip.pk) as ws:
        await ws.receive_json_from()
        with mock.patch("trips.services.chat.broadcast_on_commit"):
            made = await sync_to_async(chat_message_create)(trip_id=trip.pk, message={"text": "live"})
        release = threading.Event()
        held = asyncio.ensure_future(sync_to_async(release.wait)())  # the shared sync thread, busy elsewhere
        try:
            await get_channel_layer().group_send(f"trip-{trip.pk}", trip_frames_event([chat_message_frame(made)]))
            assert (await ws.receive_json_from(timeout=2))["text"] == "live"
        finally:
            release.set()
            await held
