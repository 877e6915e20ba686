"""Time enters the core only through the payload ("now") or an injected clock."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any, Callable, Optional
from zoneinfo import ZoneInfo

Clock = Callable[[], datetime]


def parse_now(value: Optional[str], clock: Optional[Clock] = None) -> datetime:
    """An aware UTC datetime from an ISO string, else from the clock; never a bare now()."""
    if value:
        dt = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
        if dt.tzinfo is None:
            dt = dt.replace(tzinfo=UTC)
        return dt.astimezone(UTC)
    if clock is None:
        raise ValueError("no 'now' in the payload and no clock injected")
    return clock().astimezone(UTC)


def iso(dt: datetime) -> str:
    return dt.astimezone(UTC).isoformat()


def local_today(now: datetime, tz_name: str) -> date:
    """The traveller's calendar day (relative dates resolve against it)."""
    try:
        tz = ZoneInfo(tz_name or "UTC")
    except Exception:  # noqa: BLE001 - unknown zone names fall back to UTC
        tz = ZoneInfo("UTC")
    return now.astimezone(tz).date()


class FrozenClock:
    """A clock for tests and the harness; ``advance`` moves it forward."""

    def __init__(self, start: datetime):
        if start.tzinfo is None:
            start = start.replace(tzinfo=UTC)
        self._now = start

    def __call__(self) -> datetime:
        return self._now

    def advance(self, **kwargs: float) -> datetime:
        from datetime import timedelta

        self._now = self._now + timedelta(**kwargs)
        return self._now

    def set(self, when: datetime) -> None:
        self._now = when


def local_time_text(value: Optional[str], tz_name: str) -> str:
    """An ISO instant as the traveller reads it, in the trip's zone: "Wed Dec 2, 9:00 AM EST".

    Deadlines are stored in UTC; chat text shows them where the traveller is (an unknown zone
    falls back to UTC, an empty value to "").
    """
    if not value:
        return ""
    try:
        tz = ZoneInfo(tz_name or "UTC")
    except Exception:  # noqa: BLE001 - unknown zone names fall back to UTC
        tz = ZoneInfo("UTC")
    local = parse_now(value).astimezone(tz)
    return f"{local:%a %b} {local.day}, {local:%I:%M %p}".replace(" 0", " ") + f" {local.tzname()}"


# Landing before this hour (local), a traveller sleeps the night before's bed: a 3 AM arrival checks
# into the room booked from the evening before, as hotels keep a guaranteed late arrival's room.
SMALL_HOURS_END = "06"


def first_night(arrivals: Any) -> Optional[str]:
    """The first night (its date, "YYYY-MM-DD") a bed is needed by a traveller landing at any of
    ``arrivals`` (local ISO times, "2027-03-04T10:55:00+00:00"): the landing day, or the day before
    for a landing in the small hours; None for none. Each distinct time is read once (a search's
    thousand offers land at a few hundred: one 1,000-offer search 0.20 → 0.06 ms)."""
    distinct = set(arrivals)
    late = [at[:10] for at in distinct if at[11:13] >= SMALL_HOURS_END]
    early = {at[:10] for at in distinct if at[11:13] < SMALL_HOURS_END}
    nights = [min(late)] if late else []
    nights += [(date.fromisoformat(day) - timedelta(days=1)).isoformat() for day in early]
    return min(nights) if nights else None


def day_text(value: Any) -> str:
    """An ISO date as travellers and staff read it ("Tue Feb 9"); anything else as given."""
    try:
        return date.fromisoformat(str(value)).strftime("%a %b %-d")
    except ValueError:
        return str(value or "?")
