"""The notification emails: who is told what, with a link to the right page.

- ``approval.requested``: the organisation's approvers (everyone whose role lets them decide
  it) get the request in words and a link to its decision page;
- ``approval.granted`` / ``approval.denied``: the traveller, with a link to the trip's chat;
- ``booking.confirmed``: the traveller, with the itinerary as an ``.ics`` attachment;
- ``holds.expiring``: the traveller, when the beat task warns that holds are about to lapse;
- ``purchase.reconciled``: the traveller, when a purchase interrupted between the supplier and the
  booking was resumed or undone (``trips.services.purchase_reconcile``).

One message per recipient (addresses are not shared). No token and no card data: emails
say what happened and link to the page where the person acts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import EmailMessage
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from trips.access import DECIDE, roles_with
from trips.formats import money_text, trip_zone, when_text
from trips.models import ApprovalRequest, AuditEvent, Booking, Hold, Trip
from trips.sheets import approval_sheet, person_name

from . import (
    APPROVAL_DENIED,
    APPROVAL_GRANTED,
    APPROVAL_REQUESTED,
    BOOKING_CONFIRMED,
    HOLDS_EXPIRING,
    KINDS,
    PURCHASE_RECONCILED,
)
from .ics import itinerary_ics


@dataclass
class Outgoing:
    """What one notification sends: its messages, the trip it is about and its once-only key."""

    trip_id: int
    key: str
    messages: list[EmailMessage]


def site_url(path: str) -> str:
    """An absolute link for an email (``TRIPDESK_SITE_URL`` + ``path``)."""
    return settings.TRIPDESK_SITE_URL + path


def compose(kind: str, object_id: int) -> Optional[Outgoing]:
    """The emails for ``kind`` about the row ``object_id``; ``None`` when there is nothing to say."""
    if kind not in KINDS:
        raise ValueError(f"unknown notification kind: {kind}")
    if kind == BOOKING_CONFIRMED:
        booking = Booking.objects.select_related("trip__owner", "trip__organisation", "approval").filter(pk=object_id)
        return _booking(booking.first()) if booking.exists() else None
    if kind == PURCHASE_RECONCILED:
        event = AuditEvent.objects.select_related("trip__owner").filter(pk=object_id, type=kind).first()
        return _purchase_reconciled(event) if event else None
    if kind == HOLDS_EXPIRING:
        hold = Hold.objects.select_related("trip__owner", "trip__organisation").filter(pk=object_id).first()
        return _holds_expiring(hold) if hold else None
    if kind == APPROVAL_REQUESTED:
        return _requested(object_id)
    approval = _approval_read(object_id)
    if approval is None:
        return None
    return _decided(approval, granted=kind == APPROVAL_GRANTED)


def _approval_read(approval_id: int) -> Optional[ApprovalRequest]:
    """The request with what its emails say: the trip, its owner and organisation, the decider."""
    return (
        ApprovalRequest.objects.select_related("trip__owner", "trip__organisation", "decided_by")
        .filter(pk=approval_id)
        .first()
    )


def _message(subject: str, template: str, context: dict, to: str) -> EmailMessage:
    body = render_to_string(f"emails/{template}.txt", context)
    return EmailMessage(subject=subject, body=body, to=[to], from_email=settings.DEFAULT_FROM_EMAIL)


def approvers_of(approval: ApprovalRequest) -> list:
    """Members of the request's organisation who may decide it (the decision's own rule), with an email.

    Their role, not this moment's sign-in: they decide after signing in with their second factor.
    One query, whatever the organisation's size: the role is matched in the same membership row
    as the organisation (a role elsewhere grants nothing here).
    """
    return _deciders(organisation_id=approval.organisation_id, traveller_id=approval.trip.owner_id)


def _deciders(*, organisation_id: int, traveller_id: int) -> list:
    """``approvers_of`` from the ids alone: the organisation's deciders but the trip's traveller."""
    in_organisation = Q(memberships__organisation_id=organisation_id)
    deciders = in_organisation & (Q(is_superuser=True) | Q(memberships__role__in=roles_with(DECIDE)))
    return list(
        get_user_model()
        .objects.filter(deciders, is_active=True)
        .exclude(email="")
        .exclude(pk=traveller_id)
        .distinct()
        .order_by("pk")
    )


def _requested(approval_id: int) -> Optional[Outgoing]:
    """The request's emails to its deciders. Who they are is found from the request's ids before
    the request is read with its trip (a read that decodes the trip's TripIntent) and put in
    words: a request nobody may decide (no member with an email decides) costs one small read
    instead; one with deciders pays that small read on top of the joined one."""
    found = (
        ApprovalRequest.objects.filter(pk=approval_id)
        .values_list("status", "organisation_id", "trip_id", "trip__owner_id")
        .first()
    )
    if found is None:
        return None
    status, organisation_id, trip_id, traveller_id = found
    key = f"{APPROVAL_REQUESTED}:{approval_id}"
    if status != ApprovalRequest.Status.PENDING:
        return Outgoing(trip_id, key, [])  # overtaken before it went out: nothing to decide
    approvers = _deciders(organisation_id=organisation_id, traveller_id=traveller_id)
    if not approvers:
        return Outgoing(trip_id, key, [])  # nobody to write to: the request is not put in words
    approval = _approval_read(approval_id)
    if approval is None:
        return None
    sheet = approval_sheet(approval)
    link = site_url(reverse("admin:trips_approvalrequest_change", args=[approval.pk]))
    what = "Purchase" if approval.kind == ApprovalRequest.Kind.PURCHASE else "Holds"
    subject = f"Approval needed: {sheet.traveller} · {sheet.route} · {sheet.total}"
    messages = [
        _message(
            subject,
            "approval_requested",
            {"sheet": sheet, "link": link, "what": what, "approver": person_name(user)},
            user.email,
        )
        for user in approvers
    ]
    return Outgoing(approval.trip_id, key, messages)


def _decided(approval: ApprovalRequest, *, granted: bool) -> Optional[Outgoing]:
    trip = approval.trip
    if not trip.owner.email:
        return Outgoing(trip.pk, f"{APPROVAL_GRANTED if granted else APPROVAL_DENIED}:{approval.pk}", [])
    sheet = approval_sheet(approval)
    context = {
        "sheet": sheet,
        "traveller": person_name(trip.owner),
        "approver": person_name(approval.decided_by) if approval.decided_by else "Your approver",
        "auto": approval.auto_approved,
        "reason": approval.reason,
        "is_purchase": approval.kind == ApprovalRequest.Kind.PURCHASE,
        "until": when_text(approval.expires_at, trip_zone(trip)) if approval.expires_at else "",
        "link": site_url(reverse("web:trip", args=[trip.pk])),
    }
    if granted:
        subject = f"Approved: {sheet.trip_name} · {sheet.total}"
        return Outgoing(
            trip.pk,
            f"{APPROVAL_GRANTED}:{approval.pk}",
            [_message(subject, "approval_granted", context, trip.owner.email)],
        )
    subject = f"Not approved: {sheet.trip_name} · {sheet.total}"
    return Outgoing(
        trip.pk, f"{APPROVAL_DENIED}:{approval.pk}", [_message(subject, "approval_denied", context, trip.owner.email)]
    )


def _booking(booking: Booking) -> Outgoing:
    trip = booking.trip
    key = f"{BOOKING_CONFIRMED}:{booking.pk}"
    if not trip.owner.email:
        return Outgoing(trip.pk, key, [])
    sheet = approval_sheet(booking.approval)
    total = money_text(booking.total, booking.currency)
    context = {
        "sheet": sheet,
        "traveller": person_name(trip.owner),
        "booking": booking,
        "total": total,
        "locators": ", ".join(str(locator) for locator in booking.record_locators or []),
        "link": site_url(reverse("web:trip", args=[trip.pk])),
    }
    message = _message(f"Booked: {sheet.trip_name} · {total}", "booking_confirmed", context, trip.owner.email)
    message.attach(f"tripdesk-{booking.booking_id}.ics", itinerary_ics(booking, stamp=timezone.now()), "text/calendar")
    return Outgoing(trip.pk, key, [message])


def _holds_expiring(hold: Hold) -> Optional[Outgoing]:
    """One email per trip and warning pass: every hold the pass warned about, with its deadline."""
    trip: Trip = hold.trip
    if hold.warned_at is None:
        return None
    key = f"{HOLDS_EXPIRING}:{trip.pk}:{hold.warned_at.isoformat()}"
    if not trip.owner.email:
        return Outgoing(trip.pk, key, [])
    tz = trip_zone(trip)
    holds = Hold.objects.filter(trip=trip, warned_at=hold.warned_at, status=Hold.Status.HELD).order_by(
        "payment_required_by"
    )
    lines = [
        f"{h.item_type.capitalize()} · {money_text(h.amount, h.currency)} · pay by {when_text(h.payment_required_by, tz)}"
        for h in holds
    ]
    if not lines:
        return None
    context = {
        "traveller": person_name(trip.owner),
        "trip_name": _trip_name(trip),
        "lines": lines,
        "link": site_url(reverse("web:trip", args=[trip.pk])),
    }
    subject = f"Your hold ends soon: {_trip_name(trip)}"
    return Outgoing(trip.pk, key, [_message(subject, "holds_expiring", context, trip.owner.email)])


RECONCILED_SUBJECTS = {
    "resumed": "Your purchase is being finished",
    "undone": "Your purchase was undone",
    "needs_attention": "Your purchase needs our travel team",
}


def _purchase_reconciled(event: AuditEvent) -> Outgoing:
    """The traveller, after an interrupted purchase was resumed or undone: what happened, and the chat's link."""
    trip: Trip = event.trip
    key = f"{PURCHASE_RECONCILED}:{event.pk}"
    if not trip.owner.email:
        return Outgoing(trip.pk, key, [])
    outcome = event.payload.get("outcome", "needs_attention")
    context = {
        "traveller": person_name(trip.owner),
        "trip_name": _trip_name(trip),
        "outcome": outcome,
        "voided": len(event.payload.get("voided") or []),
        "link": site_url(reverse("web:trip", args=[trip.pk])),
    }
    subject = f"{RECONCILED_SUBJECTS.get(outcome, RECONCILED_SUBJECTS['needs_attention'])}: {_trip_name(trip)}"
    return Outgoing(trip.pk, key, [_message(subject, "purchase_reconciled", context, trip.owner.email)])


def _trip_name(trip: Trip) -> str:
    from trips.web.labels import trip_label

    return trip_label(trip)
