"""What the traveller reads for a trip: its name (title, else route and date) and its phase.

The name rides on the chat's ``status`` frames (``trip_status_titled``), so a trip named by
its first search is renamed in the page's header and sidebar without a reload.

``PHASE_LABELS`` is the one wording of the phases: the page renders it and hands it to the
chat script (its config), which relabels the trip as status frames arrive.
"""

from datetime import date
from typing import Any

from handlers.trip_read import segments_of, stays_of
from handlers.wording import place_label
from trips.models import Phase, Trip
from trips.services.chat import trip_status_frame
from trips.services.intents import implies_rows

PHASE_LABELS: dict[str, str] = {
    Phase.INTAKE: "Planning",
    Phase.QUOTING: "Searching",
    Phase.PRESENTING: "Options ready",
    Phase.SELECTED: "Option selected",
    Phase.AWAITING_HOLD_APPROVAL: "Hold awaiting approval",
    Phase.HELD: "On hold",
    Phase.APPROVED: "Approved",
    Phase.PURCHASED: "Booked",
    Phase.NEEDS_ATTENTION: "Needs attention",
}


def phase_label(phase: str) -> str:
    return PHASE_LABELS.get(phase, phase.replace("_", " ").capitalize())


def _code(place: Any) -> str:
    """An airport by its code; a metro (QSF) by its city's name, never the code."""
    if isinstance(place, dict):
        return place_label(place, compact=True) if place.get("code") or place.get("name") else ""
    return str(place or "")


def _name(place: Any) -> str:
    if isinstance(place, dict):
        return str(place.get("name") or place.get("code") or "")
    return str(place or "")


def _route(segment: dict) -> str:
    """``EWR → DEN`` when both ends are known, else the one end in words ("To San Francisco")."""
    origin, destination = segment.get("origin"), segment.get("destination")
    if origin and destination:
        return f"{_code(origin)} → {_code(destination)}"
    if destination:
        return f"To {_name(destination)}"
    return f"From {_name(origin)}" if origin else ""


def _stay_label(stays: Any) -> str:
    """A trip without flights by its hotel ("Hotel in Austin · Dec 10")."""
    if not (isinstance(stays, list) and stays and isinstance(stays[0], dict)):
        return ""
    first = stays[0]
    where = first.get("location_hint") or _code(first.get("location")) or first.get("location_code")
    if not where:
        return ""
    try:
        when = date.fromisoformat(str(first.get("check_in"))).strftime("%b %-d")
    except ValueError:
        return f"Hotel in {where}"
    return f"Hotel in {where} · {when}"


def itinerary_label(segments: Any, stays: Any = None) -> str:
    """The first segment's route and date ("EWR → DEN · Jan 30"), else the first stay's (a hotel-only
    trip); "" while nothing is known yet.

    Takes the segments and stays as the core reads them and the ``trip_summary`` widget carries
    them, so the chat can rename a trip live from the widget exactly as the sidebar names it.
    """
    if not (isinstance(segments, list) and segments and isinstance(segments[0], dict)):
        return _stay_label(stays)
    first = segments[0]
    route = _route(first)
    try:
        when = date.fromisoformat(str(first.get("depart_date"))).strftime("%b %-d")
    except ValueError:
        when = ""
    if route and when:
        return f"{route} · {when}"
    return route


def trip_label(trip: Trip) -> str:
    """The trip's title if the traveller gave one, else its route and date, else "New trip #N"."""
    if trip.title:
        return trip.title
    intent = trip.intent or {}
    return itinerary_label(segments_of(intent), stays_of(intent)) or f"New trip #{trip.pk}"


def trip_status_titled(trip: Trip) -> dict[str, Any]:
    """The ``status`` frame with the trip's name (``title``): the header and sidebar follow it live.

    A TripIntent that implies no hold, approval or booking rows has no approval to pay with, so
    none is looked for (a chat opened on a trip before anything is held: every new trip's)."""
    return {**trip_status_frame(trip, no_approvals=not implies_rows(trip.intent)), "title": trip_label(trip)}
