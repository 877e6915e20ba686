"""One way to write money, durations and times for people: chat text, cards, the back office, email.

Money by locale with its currency ("$2,287.84", "€310.00"); durations in words ("4 h",
"4 h 5 min", "45 min"); an instant in the zone it matters in, labelled with that zone
("Thu Nov 26, 9:46 AM EST"), never ISO. The host's ``trips.formats`` re-uses these.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import Any, Dict, Optional
from zoneinfo import ZoneInfo

from babel.numbers import format_currency

from . import geo

LOCALE = "en_US"


def money_text(amount: Any, currency: Optional[str], *, locale: str = LOCALE) -> str:
    """``amount`` in ``currency`` as people read it ("$2,287.84"); "—" when there is no amount."""
    if amount in (None, ""):
        return "—"
    try:
        value = Decimal(str(amount))
    except InvalidOperation:
        return f"{amount} {currency or ''}".strip()
    if not currency:
        return f"{value:,.2f}"
    try:
        return format_currency(value, currency, locale=locale)
    except (ValueError, KeyError):  # an unknown currency code: the figure and the code as given
        return f"{value:,.2f} {currency}"


def duration_text(minutes: Any) -> str:
    """Minutes in words: "4 h", "4 h 5 min", "45 min" ("0 min" for nothing)."""
    try:
        total = max(0, round(float(minutes)))
    except (TypeError, ValueError):
        return str(minutes or "")
    hours, rest = divmod(total, 60)
    if not hours:
        return f"{rest} min"
    return f"{hours} h" + (f" {rest} min" if rest else "")


def stops_text(stops: Any, *, every: str = "nonstop") -> str:
    """Stops in words: "nonstop" (``every``: how none reads), "1 stop", "2 stops"."""
    n = int(stops or 0)
    return every if n == 0 else f"{n} stop" + ("s" if n > 1 else "")


def _moment(value: Optional[str], tz_name: Optional[str]) -> Optional[datetime]:
    """The ISO instant ``value`` in ``tz_name`` (its own offset without one); None if unreadable."""
    if not value:
        return None
    try:
        moment = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        return None
    if tz_name and moment.tzinfo is not None:
        try:
            moment = moment.astimezone(ZoneInfo(tz_name))
        except (KeyError, ValueError):  # an unknown zone: the instant as given
            pass
    return moment


def clock_text(value: Optional[str], tz_name: Optional[str] = None) -> str:
    """A time of day with its zone's abbreviation ("9:46 AM EST"); without ``tz_name``, the
    instant's own offset decides (a flight time stated in its airport's local time)."""
    moment = _moment(value, tz_name)
    if moment is None:
        return str(value or "")
    text = f"{moment:%I:%M %p}".lstrip("0")
    return f"{text} {moment.tzname() or ''}".strip()


def zone_abbreviation(value: Optional[str], tz_name: Optional[str]) -> str:
    """The abbreviation of ``tz_name`` at the instant ``value`` ("EST", "EDT", "CET"); "" if unknown."""
    moment = _moment(value, tz_name)
    return (moment.tzname() or "") if moment is not None and tz_name else ""


def airport_zone(code: Optional[str]) -> Optional[str]:
    """The IANA zone of an airport or metro code, None when unknown."""
    found = geo.place(code)
    return str(found["tz"]) if found and found.get("tz") else None


def airport_clock_text(value: Optional[str], code: Optional[str]) -> str:
    """A flight time at its airport, labelled with the airport's zone ("9:46 AM EST")."""
    return clock_text(value, airport_zone(code))


def flight_zones(summary: Dict[str, Any]) -> Dict[str, str]:
    """The zone abbreviations a flight card labels its times with ({"depart": "EST", "arrive": "MST"})."""
    return {
        "depart": zone_abbreviation(summary.get("depart_at"), airport_zone(summary.get("origin"))),
        "arrive": zone_abbreviation(summary.get("arrive_at"), airport_zone(summary.get("destination"))),
    }


PARTY_WORDS = (("adults", "adult", "adults"), ("children", "child", "children"), ("infants", "infant", "infants"))


def party_text(travelers: Any, *, nobody: str = "") -> str:
    """Who a total covers: "4 adults", "1 adult, 2 children"; ``nobody`` for an empty party."""
    travelers = travelers if isinstance(travelers, dict) else {}
    parts = []
    for key, one, many in PARTY_WORDS:
        n = int(travelers.get(key) or 0)
        if n:
            parts.append(f"{n} {one if n == 1 else many}")
    return ", ".join(parts) or nobody
