"""How many chat websockets one user holds open, capped at ``TRIPDESK["WEBSOCKETS_PER_USER"]``.

On the embedded default (one process, the in-memory channel layer) the count lives in this
process. With the Redis channel layer, any number of ASGI processes serve chats, so the count
lives in Redis: a sorted set per user whose members are the open connections (their channel
names), each with an expiry that the connection pushes forward while it is open. A process
that dies leaves entries that expire on their own within ``TRIPDESK["WEBSOCKET_SLOT_TTL_SECONDS"]`` (60 s); a connection
closed normally removes its entry at once. Adding and counting is one Lua script, so two
processes racing for the last slot cannot both win.
"""

import asyncio
import logging
import weakref
from collections import Counter
from typing import Optional

from django.conf import settings

logger = logging.getLogger(__name__)


def slot_ttl() -> float:
    """Seconds an entry lives unless renewed (every third of it): a dead process's entries lapse after it."""
    return float(settings.TRIPDESK.get("WEBSOCKET_SLOT_TTL_SECONDS", 60))


# Open chat connections per user in this process (the count on the embedded default).
OPEN_BY_USER: Counter = Counter()

# KEYS[1]: the user's set; ARGV: member, cap, ttl (s). Drops lapsed entries, then adds the member
# if the user is under the cap. Redis's own clock, so every process agrees on what has lapsed.
ACQUIRE = """
local now = redis.call('TIME')
local t = tonumber(now[1]) + tonumber(now[2]) / 1000000
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', t)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  return 0
end
redis.call('ZADD', KEYS[1], t + tonumber(ARGV[3]), ARGV[1])
redis.call('EXPIRE', KEYS[1], math.ceil(tonumber(ARGV[3]) * 2))
return 1
"""
# Push one member's expiry forward (only if it is still there).
RENEW = """
local now = redis.call('TIME')
local t = tonumber(now[1]) + tonumber(now[2]) / 1000000
redis.call('ZADD', KEYS[1], 'XX', t + tonumber(ARGV[2]), ARGV[1])
redis.call('EXPIRE', KEYS[1], math.ceil(tonumber(ARGV[2]) * 2))
return 1
"""

_clients: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, object]" = weakref.WeakKeyDictionary()


def shared() -> bool:
    """Whether the count is kept in Redis (a Redis channel layer is configured)."""
    backend = settings.CHANNEL_LAYERS.get("default", {}).get("BACKEND", "")
    return "RedisChannelLayer" in backend and bool(getattr(settings, "REDIS_URL", ""))


def user_key(user_id: int) -> str:
    return f"tripdesk:websockets:user:{user_id}"


def _client():
    """One Redis client per event loop (a client is bound to the loop that made it)."""
    import redis.asyncio as redis

    loop = asyncio.get_running_loop()
    client = _clients.get(loop)
    if client is None:
        client = redis.Redis.from_url(settings.REDIS_URL)
        _clients[loop] = client
    return client


class SocketSlot:
    """One connection's place in its user's count: ``take`` it, ``renew`` it while open, ``give_back`` at close."""

    def __init__(self, user_id: int, member: str):
        self.user_id, self.member = user_id, member
        self.taken = False
        self.in_redis = False
        self.renewer: Optional[asyncio.Task] = None

    async def take(self) -> bool:
        cap = settings.TRIPDESK["WEBSOCKETS_PER_USER"]
        if shared():
            try:
                won = await _client().eval(ACQUIRE, 1, user_key(self.user_id), self.member, cap, slot_ttl())
            except Exception:  # noqa: BLE001 - Redis away: the channel layer fails too; count here meanwhile
                logger.warning("websocket cap: Redis unavailable, counting in this process only")
            else:
                if not won:
                    return False
                self.in_redis = True
                self.renewer = asyncio.create_task(self._renew_forever())
        if not self.in_redis and OPEN_BY_USER[self.user_id] >= cap:
            return False
        OPEN_BY_USER[self.user_id] += 1
        self.taken = True
        return True

    async def _renew_forever(self) -> None:
        while True:
            await asyncio.sleep(slot_ttl() / 3)
            try:
                await _client().eval(RENEW, 1, user_key(self.user_id), self.member, slot_ttl())
            except Exception:  # noqa: BLE001 - try again at the next turn; the entry lapses if Redis stays away
                logger.warning("websocket cap: could not renew a connection's entry in Redis")

    async def give_back(self) -> None:
        if not self.taken:
            return
        self.taken = False
        OPEN_BY_USER[self.user_id] -= 1
        if OPEN_BY_USER[self.user_id] <= 0:
            del OPEN_BY_USER[self.user_id]
        if self.renewer is not None:
            self.renewer.cancel()
        if self.in_redis:
            try:
                await _client().zrem(user_key(self.user_id), self.member)
            except Exception:  # noqa: BLE001 - the entry lapses by itself
                logger.warning("websocket cap: could not remove a closed connection's entry from Redis")
