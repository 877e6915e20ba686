"""Notification emails through a real SMTP server process (aiosmtpd), sent by the real Celery worker.

A trip is quoted, selected and held through the worker; the approver is emailed the request,
grants it, the traveller is emailed the grant, buys, and is emailed the booking with its
itinerary as an ``.ics`` whose events are the booked flights and stay.
"""

import mailbox
from datetime import datetime

import pytest
from django.urls import reverse
from django.utils import timezone
from icalendar import Calendar

from tests.factories import passengers_name
from tests.integration.conftest import SITE_URL, wait_until
from trips.models import ApprovalRequest, Booking, ChatMessage, PaymentMethod
from trips.services.approvals import approval_grant
from trips.services.purchases import purchase_submit
from trips.services.turns import turn_submit

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def _turn(trip, user, **kwargs):
    sent = turn_submit(trip=trip, user=user, **kwargs)
    wait_until(lambda: ChatMessage.objects.get(pk=sent.pk).turn_status == ChatMessage.TurnStatus.DONE, what="a turn")


def _received(maildir, to: str, subject: str) -> list:
    return [
        message
        for message in mailbox.Maildir(str(maildir), create=False)
        if to in str(message["To"]) and _subject(message).startswith(subject)
    ]


def _subject(message) -> str:
    from email.header import decode_header, make_header

    return str(make_header(decode_header(message["Subject"] or ""))).strip()


def _body(message) -> str:
    part = next(p for p in message.walk() if p.get_content_type() == "text/plain")
    return part.get_payload(decode=True).decode()


def _wait_for(maildir, to: str, subject: str):
    wait_until(lambda: _received(maildir, to, subject), timeout=60, what=f"an email to {to}: {subject}")
    [message] = _received(maildir, to, subject)
    return message


def test_emails_reach_approver_and_traveller_through_smtp(
    celery_worker_process, smtp_server, trip, traveller, approver
):
    _, maildir = smtp_server
    traveller.email, approver.email = "alice@acme.test", "ann@acme.test"
    traveller.save(update_fields=["email"])
    approver.save(update_fields=["email"])
    card = PaymentMethod.objects.create(owner=traveller, brand="visa", last4="4242", sandbox_reference="pm_smtp")
    _turn(trip, traveller, text="4 people going from Newark to Denver for 3 nights on January 30")
    _turn(trip, traveller, action={"type": "select", "bundle_id": "B1"})
    passengers_name(trip)  # a hold waits for everyone's name
    _turn(trip, traveller, action={"type": "hold"})
    approval = ApprovalRequest.objects.get(trip=trip, kind="purchase", status="pending")

    asked = _wait_for(maildir, "ann@acme.test", "Approval needed: alice")
    decision_page = SITE_URL + reverse("admin:trips_approvalrequest_change", args=[approval.pk])
    assert decision_page in _body(asked)

    token = approval_grant(approval=approval, approver=approver, reason="Budgeted", now=timezone.now())
    granted = _wait_for(maildir, "alice@acme.test", "Approved:")
    chat = SITE_URL + reverse("web:trip", args=[trip.pk])
    assert chat in _body(granted) and token not in _body(granted)

    purchase_submit(trip=trip, user=traveller, approval_token=token, payment_method_id=str(card.pk))
    booked = _wait_for(maildir, "alice@acme.test", "Booked:")
    booking = Booking.objects.get(trip=trip)
    body = _body(booked)
    assert chat in body and all(locator in body for locator in booking.record_locators)
    for message in (asked, granted, booked):
        raw = message.as_string()
        assert "tdk_apv_" not in raw and "4242" not in raw and "pm_smtp" not in raw

    [attachment] = [part for part in booked.walk() if part.get_content_type() == "text/calendar"]
    assert attachment.get_filename().endswith(".ics")
    events = Calendar.from_ical(attachment.get_payload(decode=True)).walk("VEVENT")
    items = {item["hold_id"]: item["summary"] for item in approval.snapshot["items"]}
    booked_items = [(order["item_type"], items[order["hold_id"]]) for order in booking.orders]
    assert len(events) == len(booked_items)
    by_uid = {str(event["uid"]): event for event in events}
    for order, (kind, summary) in zip(booking.orders, booked_items, strict=True):
        event = by_uid[f"{order['order_id']}@tripdesk"]
        assert order["record_locator"] in str(event["description"])
        if kind == "flight":
            assert event.decoded("dtstart") == datetime.fromisoformat(summary["depart_at"])
            assert event.decoded("dtend") == datetime.fromisoformat(summary["arrive_at"])
            assert f"{summary['origin']} → {summary['destination']}" in str(event["summary"])
        else:
            assert event.decoded("dtstart").isoformat() == summary["check_in"]
            assert event.decoded("dtend").isoformat() == summary["check_out"]
            assert summary["hotel_name"] in str(event["summary"])
