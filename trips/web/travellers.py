"""Who travels, from the traveller's side: name a trip's passengers, keep a profile and companions,
download or erase one's data. Plain forms (no script), each write through
``trips.services.travellers``; only the trip's owner reaches them."""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Tuple

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from handlers.supplier.passengers import type_for_age
from trips.access import trip_get_for_user
from trips.models import Companion, Phase, TravellerProfile, Trip, TripPassenger
from trips.services.travellers import (
    FIELDS,
    companion_delete,
    companion_save,
    profile_save,
    seats_wanted,
    travel_date,
    traveller_erase,
    traveller_export,
    trip_passengers_set,
)

TEXT_FIELDS = [f for f in FIELDS if f != "loyalty_programmes"]
BEFORE_HOLDS = {
    Phase.INTAKE,
    Phase.QUOTING,
    Phase.PRESENTING,
    Phase.SELECTED,
    Phase.AWAITING_HOLD_APPROVAL,
}
SEAT_LABELS = {"adult": "Adult", "child": "Child (2–17)", "infant": "Lap infant (under 2)"}
LEAD_TEXT = (
    "One entry per seat, names exactly as on each passport or ID. Airlines check the date of birth against "
    "the ticket type. Details go to the airline or hotel only when something is held."
)
# One person's fields, in form order: (name, label, input type, options or None, max length).
# The page's forms (trips/_traveller_fields.html) and the chat's live card (static/trips/js/travellers.js)
# are both drawn from this list.
PERSON_FIELDS: List[Tuple[str, str, str, Optional[List[Tuple[str, str]]], Optional[int]]] = [
    (
        "title",
        "Title",
        "select",
        [("", "—"), ("mr", "Mr"), ("ms", "Ms"), ("mrs", "Mrs"), ("miss", "Miss"), ("dr", "Dr")],
        None,
    ),
    ("given_name", "First name(s), as on the passport", "text", None, 35),
    ("family_name", "Last name, as on the passport", "text", None, 35),
    ("born_on", "Date of birth", "date", None, None),
    ("gender", "Gender on the document", "select", [("", "—"), ("f", "Female"), ("m", "Male")], None),
    ("email", "Email", "email", None, None),
    ("phone_number", "Phone, international", "tel", None, None),
    ("known_traveller_number", "Known traveller number (optional)", "text", None, 32),
]
CONTACT_FIELDS = ("email", "phone_number")


def person_fields(
    prefix: str, values: Optional[Dict[str, Any]], errors: Optional[Dict[str, List[str]]], *, contact: bool
):
    """One person's fields ready to draw: form name, label, input, options, value and errors.

    Contact details are required of the lead traveller only (``contact``); the others say optional.
    """
    values, errors = values or {}, errors or {}
    out = []
    for name, label, kind, options, maxlength in PERSON_FIELDS:
        if name in CONTACT_FIELDS and not contact:
            label += " (optional)"
        value = values.get(name)
        out.append(
            {
                "name": prefix + name,
                "label": label,
                "input": kind,
                "options": options,
                "maxlength": maxlength,
                "placeholder": "+44 20 8016 0508" if name == "phone_number" else "",
                "value": value.isoformat() if hasattr(value, "isoformat") else str(value or ""),
                "errors": list(errors.get(name) or []),
            }
        )
    return out


def _own_trip(request: HttpRequest, trip_id: int) -> Trip:
    try:
        trip = trip_get_for_user(request.user, trip_id)
    except (Trip.DoesNotExist, PermissionDenied):
        raise Http404("No such trip.") from None
    if trip.owner_id != request.user.pk:
        raise Http404("No such trip.")
    return trip


def _values(person) -> Dict[str, Any]:
    if person is None:
        return {}
    out = {f: getattr(person, f) for f in TEXT_FIELDS}
    out["born_on"] = person.born_on.isoformat() if person.born_on else ""
    return out


def _prefill(trip: Trip, user, named: List[TripPassenger]) -> List[Dict[str, Any]]:
    """One entry per seat: the trip's named passengers, else the profile and matching companions."""
    kinds = seats_wanted(trip)
    if len(named) == len(kinds):
        return [{"type": p.passenger_type, "source": p.source, **_values(p)} for p in named]
    day = travel_date(trip)
    pool = list(Companion.objects.filter(owner=user))
    profile = TravellerProfile.objects.filter(user=user).first()
    seats = []
    for i, kind in enumerate(kinds):
        person, source = None, "typed"
        if i == 0 and profile is not None:
            person, source = profile, "profile"
        else:
            for c in pool:
                age = c.age_on(day) if day else None
                if age is not None and type_for_age(age, lap=kind == "infant") == kind:
                    person, source = c, "companion"
                    pool.remove(c)
                    break
        seats.append({"type": kind, "source": source, **_values(person)})
    return seats


def _seats_for_form(seats: List[Dict[str, Any]], errors: Dict[str, List[str]]) -> List[Dict[str, Any]]:
    adults = [i for i, s in enumerate(seats) if s["type"] == "adult"]
    out = []
    for i, seat in enumerate(seats):
        infant_of = seat.get("infant_of")
        if seat["type"] == "infant" and infant_of in (None, ""):
            infant_of = (
                adults[min(sum(1 for s in seats[:i] if s["type"] == "infant"), len(adults) - 1)] if adults else ""
            )
        out.append(
            {
                "index": i,
                "prefix": f"p{i}-",
                "type": seat["type"],
                "label": f"{SEAT_LABELS[seat['type']]} {i + 1}",
                "values": seat,
                "infant_of": str(infant_of),
                "adults": [{"index": a, "label": f"Adult {a + 1}"} for a in adults],
                "lead": i == 0,
                "source": seat.get("source") or "typed",
                "remember": seat.get("source") not in ("profile", "companion"),
                "fields": person_fields(
                    f"p{i}-",
                    seat,
                    {k.split("-", 1)[1]: v for k, v in errors.items() if k.startswith(f"p{i}-")},
                    contact=i == 0,
                ),
            }
        )
    return out


def _posted_seats(request: HttpRequest, kinds: List[str]) -> List[Dict[str, Any]]:
    seats = []
    for i, kind in enumerate(kinds):
        seat: Dict[str, Any] = {"type": kind}
        for field in TEXT_FIELDS + ["source", "infant_of"]:
            seat[field] = request.POST.get(f"p{i}-{field}", "").strip()
        seat["remember"] = request.POST.get(f"p{i}-remember") == "on"
        seats.append(seat)
    return seats


def trip_party_known(trip: Trip) -> bool:
    """The traveller has said who is going (the party has at least one adult)."""
    return int((((trip.intent or {}).get("party") or {}).get("travelers") or {}).get("adults") or 0) > 0


def travellers_context(
    trip: Trip, user, *, seats=None, errors=None, named: Optional[List[TripPassenger]] = None
) -> Dict[str, Any]:
    """``named``: the trip's passengers when the caller has them (just saved), else read here, once."""
    errors = errors or {}
    if named is None:
        named = list(trip.passengers.all())
    return {
        "trip": trip,
        "seats": _seats_for_form(seats if seats is not None else _prefill(trip, user, named), errors),
        "form_errors": errors.get("__all__", []),
        "lead_text": LEAD_TEXT,
        "named": len(named),
        "wanted": len(seats_wanted(trip)),
        # Once something is held or booked the card no longer asks (it opens only before holds).
        "before_holds": trip.phase in BEFORE_HOLDS,
    }


def _card_json(context: Dict[str, Any], *, saved: bool = False, status: int = 200) -> JsonResponse:
    """The travellers card for the chat's live widget: the same seats and fields as the page's form."""
    seats = [
        {k: seat[k] for k in ("index", "type", "label", "lead", "source", "infant_of", "adults", "remember", "fields")}
        for seat in context["seats"]
    ]
    body = {
        "saved": saved,
        "named": context["named"],
        "wanted": context["wanted"],
        "lead_text": context["lead_text"],
        "form_errors": list(context["form_errors"]),
        "seats": seats,
    }
    response = JsonResponse(body, status=status)
    response["Cache-Control"] = "no-store"  # personal details: never kept by a cache
    return response


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


@login_required
def trip_travellers(request: HttpRequest, trip_id: int) -> HttpResponse:
    """Name the trip's travellers: the page's form (HTML, a redirect when saved) or the chat's live
    card (``Accept: application/json``: the card as JSON, the same answer after a save, errors
    with status 400), both through ``trip_passengers_set``."""
    trip = _own_trip(request, trip_id)
    as_json = _wants_json(request)
    if request.method == "POST":
        seats = _posted_seats(request, seats_wanted(trip))
        try:
            saved = trip_passengers_set(trip=trip, actor=request.user, passengers=seats)
        except ValidationError as exc:
            errors = exc.message_dict if hasattr(exc, "error_dict") else {"__all__": exc.messages}
            context = travellers_context(trip, request.user, seats=seats, errors=errors)
            if as_json:
                return _card_json(context, status=400)
            return render(request, "trips/travellers.html", context, status=400)
        if as_json:
            return _card_json(travellers_context(trip, request.user, named=saved), saved=True)
        messages.success(
            request, "Travellers saved. Their details go to the airline or hotel only when something is held."
        )
        return redirect("web:trip", trip_id=trip.pk)
    if as_json:
        return _card_json(travellers_context(trip, request.user))
    return render(request, "trips/travellers.html", travellers_context(trip, request.user))


def _person_from_post(request: HttpRequest, prefix: str = "") -> Dict[str, Any]:
    data: Dict[str, Any] = {f: request.POST.get(prefix + f, "").strip() for f in TEXT_FIELDS}
    airline, number = request.POST.get(prefix + "loyalty_airline", ""), request.POST.get(prefix + "loyalty_number", "")
    data["loyalty_programmes"] = [{"airline_iata_code": airline, "account_number": number}] if number.strip() else []
    data["label"] = request.POST.get(prefix + "label", "")
    return data


@login_required
def my_data(request: HttpRequest) -> HttpResponse:
    profile = TravellerProfile.objects.filter(user=request.user).first()
    errors: Dict[str, List[str]] = {}
    posted: Optional[Dict[str, Any]] = None
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "profile":
                posted = _person_from_post(request)
                profile_save(user=request.user, data=posted)
                messages.success(request, "Your profile is saved.")
            elif action == "companion":
                posted = _person_from_post(request, "c-")
                companion_save(user=request.user, data=posted)
                messages.success(request, "Companion saved.")
            elif action == "delete-companion":
                companion_delete(user=request.user, companion_id=int(request.POST.get("companion_id") or 0))
                messages.success(request, "Companion removed.")
            return redirect("web:my-data")
        except ValidationError as exc:
            errors = exc.message_dict if hasattr(exc, "error_dict") else {"__all__": exc.messages}
    action = request.POST.get("action") if errors else ""
    shown = posted if posted is not None and request.POST.get("action") == "profile" else _values(profile)
    context = {
        "profile_fields": person_fields("", shown, errors if action == "profile" else None, contact=True),
        "companion_fields": person_fields("c-", None, errors if action == "companion" else None, contact=False),
        "loyalty": (profile.loyalty_programmes[0] if profile and profile.loyalty_programmes else {}),
        "companions": Companion.objects.filter(owner=request.user),
        "errors": errors,
        "form_errors": errors.get("__all__", []),
        "action": action,
    }
    return render(request, "trips/my_data.html", context, status=400 if errors else 200)


@login_required
def my_data_export(request: HttpRequest) -> HttpResponse:
    body = json.dumps(traveller_export(user=request.user), indent=2, default=str)
    response = HttpResponse(body, content_type="application/json")
    response["Content-Disposition"] = 'attachment; filename="tripdesk-my-data.json"'
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_POST
def my_data_erase(request: HttpRequest) -> HttpResponse:
    if request.POST.get("confirm") != "erase":
        messages.error(request, "Tick the box to confirm; nothing was erased.")
        return redirect("web:my-data")
    done = traveller_erase(user=request.user)
    text = f"Erased your profile, {done['companions']} companion(s) and {done['trip_passengers']} trip passenger record(s)."
    for kept in done["kept"]:
        text += f" Trip {kept['trip_id']}: {kept['passengers']} passenger record(s) {kept['why']}."
    messages.success(request, text)
    return redirect("web:my-data")
