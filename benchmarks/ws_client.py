"""A traveller at the chat websocket (protocol: docs/websocket.md), for the benchmarks.

One ``TripSocket`` per signed-in traveller and trip. A turn is timed from the moment its frame
is sent to the trip's ``status`` frame that follows it: the server sends that frame after the
turn's last message is committed, so by then everything the turn says has been pushed. The
time at which each widget type first arrived is kept too (``widget_s``), so a caller can
report "message → bundles on screen" as well as "turn complete".
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from dataclasses import dataclass, field
from typing import Any, Optional

from websockets.asyncio.client import ClientConnection, connect

TURN_TIMEOUT_S = 60.0


@dataclass
class Turn:
    """What one turn looked like from the browser's side."""

    kind: str
    started: float  # time.perf_counter() when the frame was sent
    latency_s: Optional[float] = None  # send → the turn's status frame
    ack_s: Optional[float] = None  # send → the server's ack (the message saved and its turn queued)
    first_frame_s: Optional[float] = None  # send → the turn's first frame from its worker
    widget_s: dict[str, float] = field(default_factory=dict)  # widget type → seconds after send
    widgets: list[dict[str, Any]] = field(default_factory=list)
    error: Optional[str] = None

    @property
    def ok(self) -> bool:
        return self.error is None and self.latency_s is not None

    def widget(self, kind: str) -> Optional[dict[str, Any]]:
        return next((w for w in self.widgets if w.get("type") == kind), None)


class TripSocket:
    """An open chat socket on one trip; turns run one at a time, as in the browser."""

    def __init__(self, connection: ClientConnection):
        self.connection = connection

    @classmethod
    async def open(cls, *, base_url: str, trip_id: int, session_id: str, timeout_s: float = 30.0) -> TripSocket:
        """Connect with the traveller's session cookie and read up to the connect-time status frame."""
        http_origin = base_url.replace("ws://", "http://", 1)
        connection = await connect(
            f"{base_url}/ws/trips/{trip_id}/",
            additional_headers={"Cookie": f"sessionid={session_id}"},
            origin=http_origin,
            open_timeout=timeout_s,
            max_queue=None,
        )
        socket = cls(connection)
        deadline = time.perf_counter() + timeout_s
        while (await socket._next(deadline)).get("type") != "status":
            pass
        return socket

    async def say(self, text: str, *, kind: str = "message") -> Turn:
        return await self._turn(kind, {"type": "message", "text": text})

    async def press(self, action: dict[str, Any], *, kind: Optional[str] = None) -> Turn:
        return await self._turn(kind or action["type"], {"type": "action", "action": action})

    async def close(self) -> None:
        await self.connection.close()

    async def _turn(self, kind: str, frame: dict[str, Any]) -> Turn:
        """Send one frame; wait for its ack and the turn's status frame (either may come first)."""
        client_id = uuid.uuid4().hex
        turn = Turn(kind=kind, started=time.perf_counter())
        deadline = turn.started + TURN_TIMEOUT_S
        acked = False
        try:
            await self.connection.send(json.dumps({**frame, "client_id": client_id}))
            while not (acked and turn.latency_s is not None):
                data = await self._next(deadline)
                elapsed = time.perf_counter() - turn.started
                if data.get("type") == "ack" and data.get("client_id") == client_id:
                    acked = True
                    turn.ack_s = elapsed
                elif data.get("type") == "error":
                    turn.error = f"error frame: {data.get('code')}"
                    return turn
                elif data.get("type") == "status":
                    turn.latency_s = elapsed
                elif data.get("type") == "message" and data.get("role") == "assistant":
                    if turn.first_frame_s is None:
                        turn.first_frame_s = elapsed
                    self._keep(turn, data, elapsed)
        except TimeoutError:
            turn.error = "timeout"
        except Exception as exc:  # noqa: BLE001 - a dropped connection is a measured error, not a crash
            turn.error = f"{type(exc).__name__}: {exc}"
        return turn

    @staticmethod
    def _keep(turn: Turn, data: dict[str, Any], elapsed: float) -> None:
        widget = data.get("widget") or {}
        if data.get("kind") == "error" or widget.get("type") == "error":
            turn.error = turn.error or f"error message: {widget.get('code') or data.get('text', '')[:80]}"
        if widget.get("type"):
            turn.widgets.append(widget)
            turn.widget_s.setdefault(widget["type"], elapsed)

    async def _next(self, deadline: float) -> dict[str, Any]:
        remaining = deadline - time.perf_counter()
        if remaining <= 0:
            raise TimeoutError
        return json.loads(await asyncio.wait_for(self.connection.recv(), timeout=remaining))
