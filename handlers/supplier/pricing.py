"""Demand factors shared by flight fares and hotel rates: season, weekday, booking lead time."""

from __future__ import annotations

from datetime import date

# Northern-hemisphere peaks: the holidays and the summer holidays.
_PEAK_DAYS = ((12, 15), (1, 5))


def season_factor(day: date) -> float:
    start, end = _PEAK_DAYS
    if (day.month, day.day) >= start or (day.month, day.day) <= end:
        return 1.25
    if day.month in (6, 7, 8):
        return 1.2
    if day.month in (1, 2, 11):
        return 0.9
    return 1.0


def flight_weekday_factor(day: date) -> float:
    """Fridays and Sundays are busiest; Tuesdays and Wednesdays cheapest."""
    return {0: 1.0, 1: 0.92, 2: 0.93, 3: 1.0, 4: 1.12, 5: 0.97, 6: 1.1}[day.weekday()]


def hotel_night_factor(night: date) -> float:
    """Friday and Saturday nights cost more in this sandbox (leisure demand)."""
    return 1.15 if night.weekday() in (4, 5) else 1.0


def advance_factor(days_ahead: int) -> float:
    """Late bookings pay more; very early ones pay slightly more than the sweet spot."""
    if days_ahead < 3:
        return 1.6
    if days_ahead < 7:
        return 1.4
    if days_ahead < 14:
        return 1.2
    if days_ahead < 21:
        return 1.08
    if days_ahead > 180:
        return 1.05
    return 1.0
