"""A per-connection sliding-window counter: how many frames arrived in the last few seconds."""

import time
from collections import deque
from typing import Callable


class SlidingWindow:
    def __init__(self, *, seconds: float, clock: Callable[[], float] = time.monotonic):
        self.seconds = seconds
        self.clock = clock
        self._hits: deque[float] = deque()

    def hit(self) -> int:
        """Record one frame and return how many arrived within the window, this one included."""
        now = self.clock()
        self._hits.append(now)
        while self._hits[0] <= now - self.seconds:
            self._hits.popleft()
        return len(self._hits)
