"""What the back office's trip page reads out: the "at a glance" block and the TripIntent.

Support staff open a trip to answer "where is it, and what went wrong" quickly. The glance
answers from the trip's own rows (holds, approvals, bookings) and its document, with times in
the trip's timezone. The TripIntent is shown in its own order (``schema`` first, ``audit``
last) with the long parts folded: quotes and bundles as one line per offer, the whole offers
staying on the tool runs' pages.
"""

from datetime import UTC, datetime
from typing import Any, Callable, Iterable, Optional

from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from handlers.common.clock import day_text, iso, local_time_text
from handlers.common.formats import airport_clock_text, party_text
from handlers.common.intent import new_trip_intent
from handlers.common.shape import trip_details
from handlers.quotes import ITEMS, bundle_summaries, found, with_bundle_summaries
from handlers.trip_read import segments_of, stays_of
from trips.formats import money_text
from trips.models import Trip
from trips.sheets import passengers_in_words
from trips.web.labels import phase_label

from .base import pretty_json

# The document's natural order, from the core's own empty TripIntent.
INTENT_KEYS = tuple(new_trip_intent("", datetime.fromtimestamp(0, UTC)))
OPEN_SECTIONS = {"request", "status", "party"}  # the rest folded: the glance above says the gist


def trip_timezone(trip: Trip) -> str:
    return ((trip.intent or {}).get("request") or {}).get("timezone") or trip.organisation.timezone


def _code(place: Any) -> str:
    return str((place or {}).get("code") or (place or {}).get("name") or "?") if isinstance(place, dict) else "?"


def _travellers(travelers: dict) -> str:
    return party_text(travelers, nobody="not known yet")


def _selected(wm: dict) -> Optional[str]:
    bundle_id = (wm.get("selected") or {}).get("bundle_id")
    if not bundle_id:
        return None
    bundle = next((b for b in wm.get("ranked_bundles") or [] if b.get("bundle_id") == bundle_id), None)
    return f"{bundle_id} · {money_text(bundle['total'], bundle['currency'])}" if bundle else bundle_id


def trip_glance(trip: Trip) -> dict[str, Any]:
    """The template context of the glance block (``admin/trips/trip/glance.html``)."""
    intent = trip.intent or {}
    wm = intent.get("working_memory") or {}
    itinerary = intent.get("itinerary") or {}
    tz = trip_timezone(trip)
    approval = trip.approval_requests.order_by("-created_at").first()
    error = wm.get("last_error") or {}
    return {
        "timezone": tz,
        "phase": phase_label(trip.phase),
        "state": trip.get_state_display(),
        "flights": [
            f"{_code(s.get('origin'))} → {_code(s.get('destination'))} · {day_text(s.get('depart_date'))}"
            for s in segments_of(intent)
        ],
        "stays": [
            f"{s.get('location_hint') or s.get('location_code')} · {day_text(s.get('check_in'))} → {day_text(s.get('check_out'))}"
            for s in stays_of(intent)
        ],
        "no_flights": "none: hotel only" if itinerary.get("flights_needed") is False else "not known yet",
        "travellers": _travellers((intent.get("party") or {}).get("travelers") or {}),
        "named": passengers_in_words(trip) if (intent.get("party") or {}).get("travelers") else ([], ""),
        "details": trip_details(intent),
        "selected": _selected(wm),
        "holds": [
            {
                "hold": hold,
                "amount": money_text(hold.amount, hold.currency),
                "deadline": local_time_text(iso(hold.payment_required_by), tz),
            }
            for hold in trip.holds.order_by("payment_required_by")
        ],
        "approval": approval,
        "approval_url": reverse("admin:trips_approvalrequest_change", args=[approval.pk]) if approval else "",
        "approval_amount": money_text(approval.amount_ceiling, approval.currency) if approval else "",
        "approval_expires": local_time_text(iso(approval.expires_at), tz) if approval and approval.expires_at else "",
        "bookings": [
            {"booking": booking, "total": money_text(booking.total, booking.currency)}
            for booking in trip.bookings.order_by("created_at")
        ],
        "last_error": " · ".join(str(error[k]) for k in ("tool", "code", "message") if error.get(k)),
        "flagged": _flag_reason(trip) if trip.flagged else "",
    }


def _flag_reason(trip: Trip) -> str:
    """Why the trip is flagged: the latest flag's reason (a staff member's, or the system's own)."""
    flag = trip.events.filter(type__in=("trip.flagged", "staff.flagged")).order_by("-seq").first()
    return (flag.payload.get("reason") if flag else "") or "Flagged for attention."


def flight_line(offer: dict) -> str:
    s = offer.get("summary") or {}
    stops = "nonstop" if not s.get("stops") else f"{s['stops']} stop(s)"
    return (
        f"{offer.get('offer_id')} · {s.get('carrier_name')} {', '.join(s.get('flight_numbers') or [])} · "
        f"{s.get('origin')} → {s.get('destination')} {day_text(str(s.get('depart_at', ''))[:10])} "
        f"{airport_clock_text(s.get('depart_at'), s.get('origin'))} · {stops} · "
        f"{money_text(s.get('total'), s.get('currency'))}{' · refundable' if s.get('refundable') else ''}"
    )


def hotel_line(rate: dict) -> str:
    s = rate.get("summary") or {}
    return (
        f"{rate.get('rate_id')} · {s.get('hotel_name')} {s.get('stars')}★ · {str(s.get('board_type') or '').replace('_', ' ')} · "
        f"{money_text(s.get('total'), s.get('currency'))}{' · refundable' if s.get('refundable') else ''}"
    )


def _bundle_line(bundle: dict) -> str:
    items = [(f.get("summary") or {}).get("carrier_name") for f in bundle.get("flights") or []]
    items += [(h.get("summary") or {}).get("hotel_name") for h in bundle.get("hotels") or []]
    return f"{bundle.get('bundle_id')} · {money_text(bundle.get('total'), bundle.get('currency'))} · " + " + ".join(
        str(item) for item in items
    )


def _lines(lines: Iterable[str]) -> SafeString:
    return format_html(
        '<ul class="tripdesk-lines">{}</ul>', format_html_join("", "<li>{}</li>", ((line,) for line in lines))
    )


def _quotes(quotes: list, *, kind: str, key: str, items: str, line: Callable[[dict], str]) -> tuple[str, SafeString]:
    """Each search with how many it found (``count``: the document keeps only the offers something
    names, the rest stay on the search's tool run) and the ones kept, one line each."""
    count = sum(found(q, kind) for q in quotes)
    body = format_html_join(
        "",
        "<p><strong>{}</strong> · {} {} found, {} kept in the trip · searched {}</p>{}",
        (
            (
                q.get(key),
                found(q, kind),
                items,
                len(q.get(items) or []),
                q.get("searched_at"),
                _lines(map(line, q.get(items) or [])),
            )
            for q in quotes
        ),
    )
    return f"{len(quotes)} search(es), {count} {items} found", body


def _with_summaries(wm: dict) -> dict:
    """The working memory with each kept offer's summary (a bundle on screen carries it)."""
    summaries = bundle_summaries(wm)
    kinds = [kind for kind in ITEMS if isinstance(wm.get(kind), list)]
    return {**wm, **{kind: with_bundle_summaries(kind, wm[kind], summaries) for kind in kinds}}


def _memory_section(key: str, value: Any) -> tuple[str, SafeString]:
    """A working-memory entry's one-line digest and its body."""
    if key == "flight_quotes" and value:
        return _quotes(value, kind=key, key="segment_id", items="offers", line=flight_line)
    if key == "hotel_quotes" and value:
        return _quotes(value, kind=key, key="stay_id", items="rates", line=hotel_line)
    if key == "ranked_bundles" and value:
        return f"{len(value)} bundle(s)", _lines(map(_bundle_line, value))
    digest = f"{len(value)} item(s)" if isinstance(value, list) else ("empty" if value in (None, {}) else "")
    return digest, pretty_json(value, sort_keys=False)


def _details(key: str, digest: str, body: SafeString, *, open_: bool = False) -> SafeString:
    return format_html(
        '<details class="tripdesk-section"{}><summary><strong>{}</strong> <span class="help">{}</span></summary>{}</details>',
        " open" if open_ else "",
        key,
        digest,
        body,
    )


def intent_html(intent: dict) -> SafeString:
    """The TripIntent in its own key order; ``working_memory``, ``policy`` and ``audit`` folded."""
    keys = [key for key in INTENT_KEYS if key in intent] + [key for key in intent if key not in INTENT_KEYS]
    parts = []
    for key in keys:
        value = intent[key]
        if key == "working_memory" and isinstance(value, dict):
            value = _with_summaries(value)
            sections = format_html_join("", "{}", ((_details(k, *_memory_section(k, v)),) for k, v in value.items()))
            parts.append(_details(key, "quotes, bundles, risk, holds, bookings", sections))
        elif key == "audit" and isinstance(value, dict):
            parts.append(
                _details(key, f"{len(value.get('events') or [])} core event(s)", pretty_json(value, sort_keys=False))
            )
        elif isinstance(value, (dict, list)):
            parts.append(_details(key, "", pretty_json(value, sort_keys=False), open_=key in OPEN_SECTIONS))
        else:
            parts.append(format_html("<div><strong>{}</strong>: {}</div>", key, value))
    return format_html_join("", "{}", ((part,) for part in parts))
