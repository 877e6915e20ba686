"""A websocket client that behaves like the chat page (docs/websocket.md): it reconnects after any
drop with ``after_seq`` = the highest seq it holds, resends every frame not yet acknowledged (same
``client_id``, so the server saves it once) and records every message frame delivered to it, in
order, so a lost or doubled message shows.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, Callable, Dict, List, Optional

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

RECONNECT_PAUSE = 0.5


class ResumingClient:
    def __init__(self, url: str, *, cookie: str, origin: str) -> None:
        self.url, self.cookie, self.origin = url, cookie, origin
        self.delivered: List[int] = []  # the seq of every message frame received, doubles included
        self.messages: Dict[int, Dict[str, Any]] = {}
        self.statuses: List[Dict[str, Any]] = []
        self.unacked: Dict[str, Dict[str, Any]] = {}
        self.connections = 0
        self._ws: Optional[ClientConnection] = None
        self._task: Optional[asyncio.Task] = None
        self._changed = asyncio.Event()

    @property
    def after_seq(self) -> int:
        return max(self.messages, default=0)

    async def __aenter__(self) -> ResumingClient:
        self._task = asyncio.create_task(self._stay_connected())
        return self

    async def __aexit__(self, *exc: Any) -> None:
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)

    async def send(self, frame: Dict[str, Any]) -> None:
        """Send now if connected; either way keep it until its ack (a reconnect resends it)."""
        self.unacked[frame["client_id"]] = frame
        if self._ws is not None:
            try:
                await self._ws.send(json.dumps(frame))
            except WebSocketException:
                pass  # the reconnect resends it

    async def until(self, predicate: Callable[[ResumingClient], bool], *, timeout: float) -> None:
        async with asyncio.timeout(timeout):
            while not predicate(self):
                self._changed.clear()
                await self._changed.wait()

    async def _stay_connected(self) -> None:
        while True:
            try:
                async with connect(
                    f"{self.url}?after_seq={self.after_seq}",
                    origin=self.origin,
                    additional_headers={"Cookie": self.cookie},
                    open_timeout=5,
                ) as ws:
                    self._ws, self.connections = ws, self.connections + 1
                    for frame in list(self.unacked.values()):
                        await ws.send(json.dumps(frame))
                    async for raw in ws:
                        self._receive(json.loads(raw))
            except (TimeoutError, OSError, WebSocketException):
                pass
            self._ws = None
            self._notify()
            await asyncio.sleep(RECONNECT_PAUSE)

    def _receive(self, frame: Dict[str, Any]) -> None:
        if frame["type"] == "message":
            self.delivered.append(frame["seq"])
            self.messages[frame["seq"]] = frame
        elif frame["type"] == "status":
            self.statuses.append({**frame, "after_seq": self.after_seq})
        elif frame["type"] == "ack":
            self.unacked.pop(frame["client_id"], None)
        elif frame["type"] == "error" and frame.get("code") == "server_error" and frame.get("client_id"):
            asyncio.get_running_loop().call_later(
                1.0,
                lambda: (
                    asyncio.ensure_future(self.send(self.unacked[frame["client_id"]]))
                    if frame["client_id"] in self.unacked
                    else None
                ),
            )
        self._notify()

    def _notify(self) -> None:
        self._changed.set()
