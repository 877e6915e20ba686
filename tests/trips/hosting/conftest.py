from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from handlers.common.clock import FrozenClock


@pytest.fixture
def frozen(monkeypatch):
    """Turns run at 2026-12-01 09:00 New York (SCENARIOS.md)."""
    clock = FrozenClock(datetime(2026, 12, 1, 9, 0, tzinfo=ZoneInfo("America/New_York")))
    monkeypatch.setattr("trips.hosting.turns.timezone.now", clock)
    return clock
