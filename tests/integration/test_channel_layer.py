"""The Redis channel layer keeps an idle websocket's queue open past redis-py's default read timeout."""

import asyncio

import pytest
from channels.layers import get_channel_layer

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
