"""One way to write money and time for people: the back office and the emails use these (the
core's own ``handlers.common.formats``, so chat text, cards, admin and email read alike).

Money is formatted by locale with its currency ("$2,512.20", "€310.00"); an instant is shown in
the zone it matters in, always with the zone's name ("Wed Dec 2, 9:00 AM EST"), never as ISO.
"""

from datetime import datetime
from typing import Any, Optional
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from handlers.common.clock import iso, local_time_text
from handlers.common.formats import LOCALE, duration_text, money_text

__all__ = ["LOCALE", "duration_text", "money_text", "trip_zone", "when_text", "zone_name"]


def when_text(value: Optional[datetime | str], tz_name: Optional[str]) -> str:
    """An instant in ``tz_name``, labelled with the zone ("Wed Dec 2, 9:00 AM EST"); "—" for none."""
    if not value:
        return "—"
    text = value if isinstance(value, str) else iso(value)
    return local_time_text(text, zone_name(tz_name))


def zone_name(tz_name: Optional[str]) -> str:
    """A zone name Python knows, else UTC."""
    try:
        ZoneInfo(tz_name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return "UTC"
    return tz_name or "UTC"


def trip_zone(trip: Any) -> str:
    """The zone the traveller reads deadlines in: the trip's, else its organisation's."""
    return zone_name(((trip.intent or {}).get("request") or {}).get("timezone") or trip.organisation.timezone)
