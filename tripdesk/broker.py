"""The Celery broker's Redis transport: kombu's, surviving a Redis restart with a task in flight.

With celery/kombu 5.7, a worker that loses Redis while it runs a task closes the broken connection
(``collect()`` first, which detaches the transport from its client) and then its channel, whose
close restores the unacknowledged messages through a new client built from that client: ``None``
by then, so ``AttributeError: 'NoneType' object has no attribute 'hostname'``, which is not a
connection error, escapes, and the worker's consumer stops for good ("Unrecoverable error"): every
turn sent afterwards waited forever (tests/reliability/integration/test_redis_restart.py).

Nothing is lost by not restoring them through a closed connection: Redis keeps each unacknowledged
message in kombu's unacked hash until it is acknowledged, and hands it out again after the
visibility timeout (``CELERY_BROKER_TRANSPORT_OPTIONS``); the beat's turn sweep sends a lost turn
again sooner, and a turn delivered twice runs once. Used when Redis is the broker
(``CELERY_BROKER_TRANSPORT`` in settings).
"""

from __future__ import annotations

import logging
from typing import Any

from kombu.transport import redis

logger = logging.getLogger(__name__)


class QoS(redis.QoS):
    def restore_unacked(self, client: Any = None) -> Any:
        if client is None and self.channel.connection.client is None:
            logger.warning(
                "broker connection closed: %d unacknowledged message(s) left in Redis for redelivery",
                len(self._delivered),
            )
            self._delivered.clear()
            return None
        return super().restore_unacked(client)


class Channel(redis.Channel):
    QoS = QoS


class Transport(redis.Transport):
    Channel = Channel
