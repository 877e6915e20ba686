"""The Redis channel layer (``tripdesk.channel_layer``): an idle websocket's queue stays open past
redis-py's default read timeout; group messages reach every member in order, a full channel drops
them as channels_redis does, and a message channels_redis's own layer left in flight is delivered."""

import asyncio
import uuid

import pytest
from channels.layers import get_channel_layer
from django.conf import settings as django_settings

pytestmark = pytest.mark.integration


def test_an_idle_receive_outlives_five_seconds_and_still_delivers(scale_out, db, settings):
    assert "RedisChannelLayer" in settings.CHANNEL_LAYERS["default"]["BACKEND"]

    async def scenario():
        layer = get_channel_layer()
        channel = await layer.new_channel()
        with pytest.raises(asyncio.TimeoutError):  # no redis TimeoutError first: the wait is ours
            await asyncio.wait_for(layer.receive(channel), timeout=6.5)
        await layer.send(channel, {"type": "trip.frame", "frame": {"seq": 1}})
        return await asyncio.wait_for(layer.receive(channel), timeout=5)

    assert asyncio.run(scenario())["frame"] == {"seq": 1}


def _layer():
    """A layer of its own (its own process-local channel prefix), as another ASGI process has."""
    from tripdesk.channel_layer import RedisChannelLayer

    return RedisChannelLayer(hosts=[{"address": django_settings.REDIS_URL, "socket_timeout": None}])


def _name(what: str) -> str:
    """A group or channel name no other test run on this Redis uses."""
    return f"{what}-{uuid.uuid4().hex[:12]}"


def test_a_group_send_reaches_every_member_in_order_in_each_process(scale_out, db, settings):
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == "tripdesk.channel_layer.RedisChannelLayer"

    async def scenario():
        here, there = _layer(), _layer()
        a, b, c = await here.new_channel(), await here.new_channel(), await there.new_channel()
        group = _name("trip")
        for layer, channel in ((here, a), (here, b), (there, c)):
            await layer.group_add(group, channel)
        await here.group_discard(group, b)
        for seq in (1, 2, 3):
            await there.group_send(group, {"type": "trip.frame", "frame": {"seq": seq}})
        got = {
            name: [(await asyncio.wait_for(layer.receive(channel), 5))["frame"]["seq"] for _ in range(3)]
            for name, layer, channel in (("a", here, a), ("c", there, c))
        }
        with pytest.raises(asyncio.TimeoutError):  # left the group before the sends
            await asyncio.wait_for(here.receive(b), timeout=0.5)
        for layer, channel in ((here, a), (there, c)):
            await layer.group_discard(group, channel)
            await layer.close_pools()
        return got

    assert asyncio.run(scenario()) == {"a": [1, 2, 3], "c": [1, 2, 3]}


def test_a_message_left_in_flight_by_channels_redis_is_delivered(scale_out, db, settings):
    """During a deploy an older process may have popped a message into channels_redis's in-flight
    set and been stopped before handling it: the next receive puts it back and delivers it."""
    from channels_redis.core import RedisChannelLayer as ChannelsRedisLayer

    async def scenario():
        ours = _layer()
        theirs = ChannelsRedisLayer(hosts=[{"address": settings.REDIS_URL, "socket_timeout": None}])
        channel = _name("queue")  # a general channel, shared by processes
        await theirs.send(channel, {"type": "trip.frame", "frame": {"seq": 9}})
        key = theirs.prefix + channel
        popped = await theirs._brpop_with_clean(0, key, timeout=1)  # popped and copied in flight, never handled
        assert popped is not None
        message = await asyncio.wait_for(ours.receive(channel), 5)
        await ours.close_pools()
        await theirs.close_pools()
        return message

    assert asyncio.run(scenario())["frame"] == {"seq": 9}


def test_a_full_channel_drops_a_group_message_as_channels_redis_does(scale_out, db, settings):
    async def scenario():
        layer = _layer()
        layer.capacity = 2
        channel, group = await layer.new_channel(), _name("trip")
        await layer.group_add(group, channel)
        for seq in (1, 2, 3):
            await layer.group_send(group, {"type": "trip.frame", "frame": {"seq": seq}})
        got = [(await asyncio.wait_for(layer.receive(channel), 5))["frame"]["seq"] for _ in range(2)]
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(layer.receive(channel), timeout=0.5)
        await layer.group_discard(group, channel)
        await layer.close_pools()
        return got

    assert asyncio.run(scenario()) == [1, 2]
