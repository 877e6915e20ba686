"""A booking as an iCalendar file (RFC 5545, built with ``icalendar``): one event per flight and stay.

Flights are timed events in their airports' own zones (the departure's zone for the whole
event; ``DTEND`` carries the arrival instant); a hotel stay is an all-day event from check-in
to check-out. Each event's UID is the supplier order's id, so a calendar that imports the file
again updates the events instead of doubling them. No payment data goes in.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Optional
from zoneinfo import ZoneInfo

from icalendar import Calendar, Event

from handlers.common.geo import place
from trips.models import Booking

PRODID = "-//TripDesk//Itinerary//EN"


def itinerary_ics(booking: Booking, *, stamp: datetime) -> bytes:
    """The booking's itinerary: its flights and stays as events, matched to the orders by hold."""
    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", f"TripDesk trip {', '.join(booking.record_locators or []) or booking.trip_id}")
    items = {item.get("hold_id"): item for item in (booking.approval.snapshot or {}).get("items") or []}
    for order in booking.orders or []:
        item = items.get(order.get("hold_id")) or {}
        summary = item.get("summary") if isinstance(item.get("summary"), dict) else {}
        event = _hotel(summary) if order.get("item_type") == "hotel" else _flight(summary)
        if event is None:
            continue
        event.add("uid", f"{order.get('order_id') or order.get('hold_id')}@tripdesk")
        event.add("dtstamp", stamp)
        locator = order.get("record_locator")
        if locator:
            event.add("description", f"Booking reference {locator} · booked with TripDesk")
        calendar.add_component(event)
    return calendar.to_ical()


def _flight(summary: dict) -> Optional[Event]:
    depart, arrive = _instant(summary.get("depart_at")), _instant(summary.get("arrive_at"))
    if depart is None:
        return None
    origin, destination = summary.get("origin"), summary.get("destination")
    event = Event()
    carrier = summary.get("carrier_name") or summary.get("carrier") or "Flight"
    numbers = ", ".join(summary.get("flight_numbers") or [])
    event.add("summary", f"{carrier} {numbers} {origin} → {destination}".replace("  ", " ").strip())
    event.add("dtstart", depart.astimezone(_zone(origin) or depart.tzinfo))
    if arrive is not None:
        event.add("dtend", arrive.astimezone(_zone(destination) or arrive.tzinfo))
    where = place(origin) if origin else None
    event.add("location", f"{where['name']} ({origin})" if where else str(origin or ""))
    return event


def _hotel(summary: dict) -> Optional[Event]:
    check_in, check_out = _date(summary.get("check_in")), _date(summary.get("check_out"))
    if check_in is None or check_out is None:
        return None
    event = Event()
    event.add("summary", f"Stay: {summary.get('hotel_name') or 'Hotel'}")
    event.add("dtstart", check_in)
    event.add("dtend", check_out)
    event.add("location", str(summary.get("hotel_name") or ""))
    event.add("transp", "TRANSPARENT")  # a stay does not make the traveller busy all day
    return event


def _zone(code: Optional[str]) -> Optional[ZoneInfo]:
    where = place(code) if code else None
    return ZoneInfo(where["tz"]) if where and where.get("tz") else None


def _instant(value) -> Optional[datetime]:
    try:
        moment = datetime.fromisoformat(str(value))
    except ValueError:
        return None
    return moment if moment.tzinfo else None


def _date(value) -> Optional[date]:
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        return None
