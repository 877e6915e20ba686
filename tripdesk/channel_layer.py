"""channels_redis's channel layer, with fewer round trips to Redis per message.

Every commit of a turn pushes its frames to the trip's group (``trips.services.chat``), and the
ASGI process that serves the trip's websocket receives them. channels_redis 4.3 spends four
round trips on each side of that: to send, ZREMRANGEBYSCORE and ZRANGE on the group, a pipeline
trimming each channel's expired messages, then a Lua script that adds the message; to receive, a
Lua script that puts back what an interrupted receive left in flight, BZPOPMIN, ZADD of the
message to the in-flight set, and ZPOPMIN taking it out again. Under load those commands were
about a third of the ASGI processes' CPU (each is a write, a read and a wake-up of redis-py's
asyncio client). Here the same commands run in fewer trips, with the same Redis keys, the same
messages and the same expiry and capacity rules:

- ``group_send``: the group's trim and read in one pipeline, then per Redis host one script
  (sent by its SHA) that trims each channel and adds the message under the capacity: two trips.
- ``receive_single``: the put-back script and BZPOPMIN in one pipeline, one trip. The in-flight
  copy is not written: channels_redis removes it again (ZPOPMIN) as soon as the ZADD answers,
  before the message is even decoded, so it covered only an interruption while waiting for
  that ZADD's answer; an interruption while waiting for BZPOPMIN's answer loses a popped message
  in both. A message can only be lost by a receive cancelled at that instant, which the
  websocket's ``seq`` numbers already cover: a browser that sees a gap fills it from the
  database (``TripChatConsumer.trip_frame``), and one that reconnects resumes from its last ``seq``.
- ``group_add``: ZADD and EXPIRE in one pipeline.

A layer that is not this one (an older process during a deploy) shares the keys: its in-flight
copies are still put back by the first step of every receive here.
"""

from __future__ import annotations

import hashlib
import time
from typing import Any

from channels_redis.core import RedisChannelLayer as ChannelsRedisLayer
from channels_redis.core import logger
from redis.exceptions import NoScriptError

# channels_redis's own script, run before every receive: in-flight copies go back to the queue.
RESTORE_IN_FLIGHT = """
local backed_up = redis.call('ZRANGE', ARGV[2], 0, -1, 'WITHSCORES')
for i = #backed_up, 1, -2 do
    redis.call('ZADD', ARGV[1], backed_up[i], backed_up[i - 1])
end
redis.call('DEL', ARGV[2])
"""

# KEYS: the channels' queues; ARGV: one message per key, one capacity per key, then the time,
# the expiry (s) and the score below which a queued message has expired. channels_redis's group
# script, with the expired messages' trim (its separate pipeline) done first for each key.
GROUP_SEND = """
local over_capacity = 0
local n = #KEYS
local current_time = ARGV[2 * n + 1]
local expiry = ARGV[2 * n + 2]
local expired_before = ARGV[2 * n + 3]
for i = 1, n do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, expired_before)
    if redis.call('ZCOUNT', KEYS[i], '-inf', '+inf') < tonumber(ARGV[i + n]) then
        redis.call('ZADD', KEYS[i], current_time, ARGV[i])
        redis.call('EXPIRE', KEYS[i], expiry)
    else
        over_capacity = over_capacity + 1
    end
end
return over_capacity
"""
GROUP_SEND_SHA = hashlib.sha1(GROUP_SEND.encode()).hexdigest()


class RedisChannelLayer(ChannelsRedisLayer):
    async def group_add(self, group: str, channel: str) -> None:
        assert self.require_valid_group_name(group), "Group name not valid"
        assert self.require_valid_channel_name(channel), "Channel name not valid"
        group_key = self._group_key(group)
        pipe = self.connection(self.consistent_hash(group)).pipeline(transaction=False)
        pipe.zadd(group_key, {channel: time.time()})
        pipe.expire(group_key, self.group_expiry)
        await pipe.execute()

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        assert self.require_valid_group_name(group), "Group name not valid"
        key = self._group_key(group)
        pipe = self.connection(self.consistent_hash(group)).pipeline(transaction=False)
        pipe.zremrangebyscore(key, min=0, max=int(time.time()) - self.group_expiry)
        pipe.zrange(key, 0, -1)
        _, members = await pipe.execute()
        channel_names = [member.decode("utf8") for member in members]
        to_keys, messages, capacities = self._map_channel_keys_to_connection(channel_names, message)
        for index, keys in to_keys.items():
            now = time.time()
            args = [
                *(messages[key] for key in keys),
                *(capacities[key] for key in keys),
                now,
                self.expiry,
                int(now) - int(self.expiry),
            ]
            connection = self.connection(index)
            try:
                over = await connection.evalsha(GROUP_SEND_SHA, len(keys), *keys, *args)
            except NoScriptError:  # a Redis that has not seen it yet (or restarted): send it once
                over = await connection.eval(GROUP_SEND, len(keys), *keys, *args)
            if over > 0:
                logger.info("%s of %s channels over capacity in group %s", over, len(channel_names), group)

    async def receive_single(self, channel: str) -> tuple[Any, dict[str, Any]]:
        assert self.require_valid_channel_name(channel, receive=True), "Channel name invalid"
        if "!" in channel:
            assert channel.endswith("!")
            index = self.consistent_hash(channel)
        else:
            index = next(self._receive_index_generator)
        channel_key = self.prefix + channel
        content = None
        await self.receive_clean_locks.acquire(channel_key)
        try:
            while content is None:
                content = await self._pop(index, channel_key, timeout=self.brpop_timeout)
        finally:
            self.receive_clean_locks.release(channel_key)
        message = self.deserialize(content)
        if "__asgi_channel__" in message:
            channel = message["__asgi_channel__"]
            del message["__asgi_channel__"]
        return channel, message

    async def _pop(self, index: int, channel_key: str, timeout: float) -> Any:
        """Put back in-flight copies, then wait up to ``timeout`` for the oldest message: one trip."""
        pipe = self.connection(index).pipeline(transaction=False)
        pipe.eval(RESTORE_IN_FLIGHT, 0, channel_key, self._backup_channel_name(channel_key))
        pipe.bzpopmin(channel_key, timeout=timeout)
        _, popped = await pipe.execute()
        return None if popped is None else popped[1]
