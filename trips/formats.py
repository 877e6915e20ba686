"""One way to write money and time for people: the back office and the emails use these.

Money is formatted by locale with its currency ("$2,512.20", "€310.00"); an instant is shown in
the zone it matters in, always with the zone's name ("Wed Dec 2, 9:00 AM EST"), never as ISO.
"""

from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import Any, Optional
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel.numbers import format_currency

from handlers.common.clock import iso, local_time_text

LOCALE = "en_US"


def money_text(amount: Any, currency: Optional[str], *, locale: str = LOCALE) -> str:
    """``amount`` in ``currency`` as people read it; "—" when there is no amount."""
    if amount in (None, ""):
        return "—"
    try:
        value = Decimal(str(amount))
    except InvalidOperation:
        return f"{amount} {currency or ''}".strip()
    if not currency:
        return f"{value:,.2f}"
    return format_currency(value, currency, locale=locale)


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
