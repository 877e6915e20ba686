"""Who travels: profile, companions, a trip's passengers, and a traveller's data export and erasure.

Personal data is written only here and read only by the passenger directory
(``trips.hosting.passengers``) at the supplier call. Audit payloads and chat lines about
passengers carry counts and types, never a name, a date of birth or a phone number.
"""

from __future__ import annotations

import secrets
from datetime import date
from typing import Any, Dict, List, Optional

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from handlers.supplier.passengers import age_on, normalise_phone, party_problems, passenger_problems
from trips.models import Booking, ChatMessage, Companion, Hold, TravellerProfile, Trip, TripPassenger

from .audit import account_audit_record, actor_for, audit_record
from .chat import chat_message_add

FIELDS = TravellerProfile.PERSONAL_FIELDS
KEPT_BECAUSE = (
    "kept: this trip is booked, so the names, dates of birth and contacts on the airline ticket and "
    "hotel booking stay with the booking for as long as the law requires booking records to be kept"
)


KEPT_WHILE_HELD = (
    "kept for now: something is on hold for these travellers and the airline or hotel already has their "
    "names; release the holds (or let them lapse) and erase again"
)


def _clean(data: Dict[str, Any]) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    for name in FIELDS:
        value = data.get(name)
        if isinstance(value, str):
            value = value.strip()
        out[name] = value
    out["title"] = (out.get("title") or "").lower()
    out["gender"] = (out.get("gender") or "").lower()[:1]
    if out.get("phone_number"):
        out["phone_number"] = normalise_phone(out["phone_number"]) or out["phone_number"]
    if isinstance(out.get("born_on"), str) and out["born_on"]:
        try:
            out["born_on"] = date.fromisoformat(out["born_on"])
        except ValueError:
            pass
    out["loyalty_programmes"] = [
        {
            "airline_iata_code": str(p.get("airline_iata_code", "")).upper()[:3],
            "account_number": str(p.get("account_number", ""))[:32],
        }
        for p in out.get("loyalty_programmes") or []
        if isinstance(p, dict) and p.get("account_number")
    ]
    return out


def _stored(values: Dict[str, Any]) -> Dict[str, Any]:
    """Blanks as the columns keep them: '' for text, None for the date, [] for programmes."""
    out = {k: ("" if v is None else v) for k, v in values.items()}
    out["born_on"] = values.get("born_on") or None
    out["loyalty_programmes"] = values.get("loyalty_programmes") or []
    return out


def _check(values: Dict[str, Any], *, kind: Optional[str], travel_date: Optional[date], contact: bool) -> None:
    born = values.get("born_on")
    problems = passenger_problems(
        {**values, "type": kind, "born_on": born.isoformat() if isinstance(born, date) else born},
        travel_date=travel_date,
        contact_required=contact,
    )
    if problems:
        raise ValidationError(problems)


# -- profile and companions ---------------------------------------------------------------------


def _changed(person, values: Dict[str, Any]) -> List[str]:
    """The names of the fields ``values`` changes on ``person`` (all of them for a new one)."""
    return sorted(name for name, value in values.items() if person is None or getattr(person, name) != value)


def profile_save(*, user, data: Dict[str, Any]) -> TravellerProfile:
    """Create or update the traveller's own profile (contact details required: it is the lead).

    Audited as ``profile.saved`` with the names of the fields that changed, never their values.
    """
    cleaned = _clean(data)
    _check(cleaned, kind=None, travel_date=None, contact=True)
    values = _stored(cleaned)
    with transaction.atomic(durable=True):
        before = TravellerProfile.objects.select_for_update().filter(user=user).first()
        changed = _changed(before, values)
        profile, created = TravellerProfile.objects.update_or_create(user=user, defaults=values)
        account_audit_record(
            user=user,
            type="profile.saved",
            actor=actor_for(user),
            payload={"created": created, "fields_changed": changed},
        )
    return profile


def companion_save(*, user, data: Dict[str, Any], companion: Optional[Companion] = None) -> Companion:
    """Save a new companion of ``user`` or change one of theirs; audited like the profile."""
    cleaned = _clean(data)
    _check(cleaned, kind=None, travel_date=None, contact=False)
    values = _stored(cleaned)
    if companion is not None and companion.owner_id != user.pk:
        raise ValidationError("That companion belongs to someone else.")
    label = str(data.get("label") or "").strip()[:64]
    with transaction.atomic(durable=True):
        return _companion_write(user=user, values=values, label=label, companion=companion)


def _companion_write(*, user, values: Dict[str, Any], label: str = "", companion: Optional[Companion] = None):
    """The write and its ``companion.saved`` event, inside the caller's transaction."""
    changed, created = _changed(companion, {**values, "label": label}), companion is None
    if companion is None:
        companion = Companion.objects.create(owner=user, label=label, **values)
    else:
        for name, value in values.items():
            setattr(companion, name, value)
        companion.label = label
        companion.save()
    account_audit_record(
        user=user,
        type="companion.saved",
        actor=actor_for(user),
        payload={"companion_id": companion.pk, "created": created, "fields_changed": changed},
    )
    return companion


def companion_delete(*, user, companion_id: int) -> None:
    """Remove one of ``user``'s companions (someone else's is left alone); audited when one goes."""
    with transaction.atomic(durable=True):
        deleted = Companion.objects.filter(owner=user, pk=companion_id).delete()[0]
        if deleted:
            account_audit_record(
                user=user, type="companion.deleted", actor=actor_for(user), payload={"companion_id": companion_id}
            )


# -- a trip's passengers ------------------------------------------------------------------------


def travel_date(trip: Trip) -> Optional[date]:
    """The first day of travel: the first flight, else the first check-in."""
    itinerary = (trip.intent or {}).get("itinerary") or {}
    days = [s.get("depart_date") for s in itinerary.get("segments") or []]
    days += [(itinerary.get("lodging") or {}).get("check_in")]
    days += [s.get("check_in") for s in (itinerary.get("lodging") or {}).get("stays") or []]
    found = sorted(d for d in days if isinstance(d, str) and d)
    try:
        return date.fromisoformat(found[0][:10]) if found else None
    except ValueError:
        return None


def trip_party(trip: Trip) -> Dict[str, Any]:
    party = (trip.intent or {}).get("party") or {}
    travelers = party.get("travelers") or {}
    return {
        "adults": int(travelers.get("adults") or 1),
        "children": int(travelers.get("children") or 0),
        "infants": int(travelers.get("infants") or 0),
        "child_ages": list(party.get("child_ages") or []),
    }


def seats_wanted(trip: Trip) -> List[str]:
    """One type per seat or lap, in the order the form shows them."""
    party = trip_party(trip)
    return ["adult"] * party["adults"] + ["child"] * party["children"] + ["infant"] * party["infants"]


def passengers_missing(trip: Trip) -> bool:
    return trip.passengers.count() != len(seats_wanted(trip))


def trip_passengers_set(*, trip: Trip, actor, passengers: List[Dict[str, Any]]) -> List[TripPassenger]:
    """Name everyone travelling on ``trip`` (replacing an earlier list), checked as suppliers check.

    ``passengers``: one dict per seat with ``type`` (adult|child|infant), the personal fields,
    ``infant_of`` (the index of a lap infant's adult) and optionally ``remember`` (save a new
    person as a companion of the trip's owner). Refused, changing nothing, when a problem is
    found or something is already held or booked (airlines do not rename a held seat).
    """
    day = travel_date(trip)
    cleaned, problems = [], {}
    for i, raw in enumerate(passengers):
        values = _clean(raw)
        kind = raw.get("type")
        try:
            _check(values, kind=kind, travel_date=day, contact=(i == 0))
        except ValidationError as exc:
            problems.update({f"p{i}-{field}": msgs for field, msgs in exc.message_dict.items()})
        cleaned.append((kind, values, raw))
    refs = [f"pax_{secrets.token_hex(5)}" for _ in passengers]
    as_refs = []
    for i, (kind, values, raw) in enumerate(cleaned):
        ref = {"passenger_id": refs[i], "type": kind}
        if kind == "child" and day and isinstance(values.get("born_on"), date):
            ref["age"] = age_on(values["born_on"], day)
        if kind == "infant":
            adult = raw.get("infant_of")
            ref["infant_of"] = refs[int(adult)] if str(adult).isdigit() and int(adult) < len(refs) else None
        as_refs.append(ref)
    party = party_problems(as_refs, trip_party(trip))
    if party:
        problems["__all__"] = party
    if problems:
        raise ValidationError(problems)
    with transaction.atomic(durable=True):
        # The lock only: the TripIntent the caller read says who travels; nothing here reads it again.
        trip = Trip.objects.select_for_update().only("pk", "owner_id", "organisation_id").get(pk=trip.pk)
        if (
            Hold.objects.filter(trip=trip, status__in=[Hold.Status.HELD, Hold.Status.PURCHASED]).exists()
            or trip.bookings.exists()
        ):
            raise ValidationError(
                "Something is already held or booked for these travellers; release it before renaming anyone."
            )
        TripPassenger.objects.filter(trip=trip).delete()
        rows = [
            TripPassenger(
                trip=trip,
                ref=ref["passenger_id"],
                passenger_type=kind,
                infant_of=ref.get("infant_of") or "",
                position=i,
                source=str(raw.get("source") or "typed")[:16],
                **_stored(values),
            )
            for i, ((kind, values, raw), ref) in enumerate(zip(cleaned, as_refs, strict=True))
        ]
        rows = TripPassenger.objects.bulk_create(rows)  # one INSERT for the whole party
        for _kind, values, raw in cleaned:
            if raw.get("remember") and raw.get("source") not in ("profile", "companion"):
                _companion_write(user=trip.owner, values=_stored(values))
        counts = {k: sum(1 for r in rows if r.passenger_type == k) for k in ("adult", "child", "infant")}
        seqs = Trip.objects.counters_next(
            trip_id=trip.pk, by={"last_message_seq": 1, "last_event_seq": 1}, touch=timezone.now()
        )
        audit_record(
            trip_id=trip.pk,
            seq=seqs["last_event_seq"],
            type="passengers.named",
            actor=actor_for(actor),
            payload={"count": len(rows), "types": counts},
        )
        words = ", ".join(
            f"{n} {label if n == 1 else plural}"
            for n, label, plural in (
                (counts["adult"], "adult", "adults"),
                (counts["child"], "child", "children"),
                (counts["infant"], "lap infant", "lap infants"),
            )
            if n
        )
        chat_message_add(
            trip_id=trip.pk,
            seq=seqs["last_message_seq"],
            role=ChatMessage.Role.ASSISTANT,
            kind=ChatMessage.Kind.STATUS,
            text=f"Travellers named: {words}. Their details go to the airline or hotel only when something is held.",
        )
    return rows


# -- export and erasure -------------------------------------------------------------------------


def _person(obj) -> Dict[str, Any]:
    return obj.details()


def traveller_export(*, user) -> Dict[str, Any]:
    """Everything TripDesk keeps about ``user`` as a traveller, in one JSON-ready document."""
    profile = TravellerProfile.objects.filter(user=user).first()
    trips = []
    for trip in Trip.objects.filter(owner=user).prefetch_related("passengers", "bookings").order_by("pk"):
        trips.append(
            {
                "trip_id": trip.pk,
                "title": trip.title,
                "passengers": [{"type": p.passenger_type, **_person(p)} for p in trip.passengers.all()],
                "bookings": [
                    {"booking_id": b.booking_id, "record_locators": b.record_locators, "status": b.status}
                    for b in trip.bookings.all()
                ],
            }
        )
    return {
        "exported_at": timezone.now().isoformat(),
        "account": {"username": user.get_username(), "email": user.email},
        "profile": _person(profile) if profile else None,
        "companions": [{"label": c.label, **_person(c)} for c in Companion.objects.filter(owner=user)],
        "trips": trips,
        "payment_methods": [{"brand": m.brand, "last4": m.last4} for m in user.payment_methods.all()],
    }


def traveller_erase(*, user) -> Dict[str, Any]:
    """Erase ``user``'s traveller data: profile, companions and the passengers of unbooked trips.

    A booked trip keeps its passengers (and says why): the ticket and the booking records the law
    requires carry them. So does a trip with something on hold, until the holds end: paying for
    it needs the names. Returns what was erased and what was kept.
    """
    with transaction.atomic(durable=True):
        had_profile = TravellerProfile.objects.filter(user=user).delete()[0] > 0
        companions = Companion.objects.filter(owner=user).delete()[0]
        account_audit_record(
            user=user,
            type="traveller.data_erased",
            actor=actor_for(user),
            payload={"profile": had_profile, "companions": companions},
        )
        booked = set(Booking.objects.filter(trip__owner=user).values_list("trip_id", flat=True))
        # Held for them: the supplier has the names already, and paying needs them (a purchase must
        # not go ahead with nobody named). Kept until the holds are released or lapse.
        held = set(Hold.objects.filter(trip__owner=user, status=Hold.Status.HELD).values_list("trip_id", flat=True))
        erased, kept = 0, []
        for trip in Trip.objects.filter(owner=user, passengers__isnull=False).distinct():
            count = TripPassenger.objects.filter(trip=trip).count()
            if trip.pk in booked:
                kept.append({"trip_id": trip.pk, "passengers": count, "why": KEPT_BECAUSE})
                reason = "kept_for_booking"
            elif trip.pk in held:
                kept.append({"trip_id": trip.pk, "passengers": count, "why": KEPT_WHILE_HELD})
                reason = "kept_while_held"
            else:
                TripPassenger.objects.filter(trip=trip).delete()
                erased += count
                reason = "erased"
            audit_record(
                trip_id=trip.pk,
                type="traveller.data_erased",
                actor=actor_for(user),
                payload={"passengers": count, "outcome": reason},
            )
    return {"profile": had_profile, "companions": companions, "trip_passengers": erased, "kept": kept}
