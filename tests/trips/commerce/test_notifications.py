"""Notification emails: who gets which, the link each carries, the booking's .ics, nothing secret, only after commit."""

import threading
import time
from datetime import timedelta

import pytest
from django.urls import reverse
from icalendar import Calendar

from tests.factories import user_make
from tests.trips.commerce.flow import to_held
from tests.trips.commerce.helpers import hold_for
from trips.models import ApprovalRequest, AuditEvent, Booking, Membership
from trips.services.approvals import approval_auto_grant, approval_deny, approval_grant, approval_token_for_owner
from trips.services.holds import holds_warn_due
from trips.services.notifications import notification_deliver
from trips.services.purchases import purchase_submit

SITE = "https://tripdesk.example.com"


@pytest.fixture(autouse=True)
def _site(settings):
    settings.TRIPDESK_SITE_URL = SITE


@pytest.fixture
def people(traveller, approver, support, globex):
    for user in (traveller, approver, support):
        user.email = f"{user.username}@acme.example"
        user.save(update_fields=["email"])
    outsider = user_make(organisation=globex, role=Membership.Role.APPROVER, username="greg")
    outsider.email = "greg@globex.example"
    outsider.save(update_fields=["email"])
    return traveller, approver


def _texts(mailoutbox) -> str:
    return "\n".join(m.subject + "\n" + m.body for m in mailoutbox)


@pytest.mark.django_db
def test_approvers_of_the_organisation_hear_of_a_new_request_after_commit(
    people, trip, clock, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        hold_for(trip, now=clock())
    assert mailoutbox == [], "nothing is sent before the request commits"
    for callback in callbacks:
        callback()
    approval = ApprovalRequest.objects.get(trip=trip)
    [mail] = mailoutbox
    assert mail.to == ["ann@acme.example"], "the approver only: not support, not another organisation's approver"
    assert mail.subject == "Approval needed: alice · $1,030.00" or mail.subject.startswith("Approval needed: alice")
    assert "$1,030.00" in mail.subject
    link = SITE + reverse("admin:trips_approvalrequest_change", args=[approval.pk])
    assert link in mail.body
    assert "Hotel Teatro" in mail.body and "Decide by: Wed Dec 2, 9:00 AM EST" in mail.body
    assert "Prices guaranteed until: Tue Dec 1, 9:00 PM EST (paid later, the price may rise" in mail.body
    assert "The hotel is non-refundable." in mail.body and "nonrefundable" not in mail.body


@pytest.mark.django_db
def test_a_request_in_an_organisation_without_an_approver_emails_nobody_and_is_not_composed(
    trip, clock, mailoutbox, django_capture_on_commit_callbacks, monkeypatch
):
    """Nobody may decide it (no approver has an email): nothing is sent, the delivery is recorded
    once with no recipients, and the request is not put in words for nobody."""

    def not_wanted(approval):
        raise AssertionError("the approval sheet was composed with nobody to send it to")

    monkeypatch.setattr("trips.notifications.emails.approval_sheet", not_wanted)
    with django_capture_on_commit_callbacks(execute=True):
        hold_for(trip, now=clock())
    approval = ApprovalRequest.objects.get(trip=trip)
    assert mailoutbox == []
    assert notification_deliver(kind="approval.requested", object_id=approval.pk) == 0
    [event] = AuditEvent.objects.filter(type="notification.emailed")
    assert event.payload == {"kind": "approval.requested", "recipients": 0}


@pytest.mark.django_db
def test_a_request_nobody_may_decide_is_answered_without_reading_its_trip(trip, clock, django_assert_num_queries):
    """Its deciders are found from the request's ids: neither the trip's TripIntent nor its
    organisation is read for a request that goes to nobody."""
    from trips.notifications import APPROVAL_REQUESTED
    from trips.notifications.emails import compose

    hold_for(trip, now=clock())
    approval = ApprovalRequest.objects.get(trip=trip)
    with django_assert_num_queries(2) as reads:
        outgoing = compose(APPROVAL_REQUESTED, approval.pk)
    assert outgoing is not None and outgoing.messages == [] and outgoing.trip_id == trip.pk
    assert not any('"intent"' in q["sql"] or "trips_organisation" in q["sql"] for q in reads.captured_queries)


@pytest.mark.django_db
def test_a_second_delivery_sends_nothing(people, trip, clock, mailoutbox, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        hold_for(trip, now=clock())
    approval = ApprovalRequest.objects.get(trip=trip)
    assert len(mailoutbox) == 1
    assert notification_deliver(kind="approval.requested", object_id=approval.pk) == 0
    assert len(mailoutbox) == 1
    [event] = AuditEvent.objects.filter(type="notification.emailed")
    assert event.payload == {"kind": "approval.requested", "recipients": 1}


@pytest.mark.django_db
def test_the_traveller_hears_of_a_grant_and_a_denial_with_a_link_to_the_chat_and_no_token(
    people, trip, other_trip, clock, mailoutbox, django_capture_on_commit_callbacks
):
    traveller, approver = people
    hold_for(trip, now=clock())
    hold_for(other_trip, now=clock(), suffix="2")
    other_trip.owner.email = "bob@acme.example"
    other_trip.owner.save(update_fields=["email"])
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        token = approval_grant(
            approval=ApprovalRequest.objects.get(trip=trip), approver=approver, reason="Budgeted", now=clock()
        )
        approval_deny(
            approval=ApprovalRequest.objects.get(trip=other_trip),
            approver=approver,
            reason="Take the train",
            now=clock(),
        )
    granted, denied = mailoutbox
    assert granted.to == ["alice@acme.example"] and granted.subject == "Approved: Denver offsite · $1,030.00"
    assert SITE + reverse("web:trip", args=[trip.pk]) in granted.body and "ann approved" in granted.body
    assert token not in granted.body and "tdk_apv_" not in _texts(mailoutbox)
    assert denied.to == ["bob@acme.example"] and "Take the train" in denied.body
    assert SITE + reverse("web:trip", args=[other_trip.pk]) in denied.body


@pytest.mark.django_db
def test_holds_about_to_lapse_are_one_email_per_trip(
    people, trip, clock, mailoutbox, django_capture_on_commit_callbacks
):
    hold_for(trip, now=clock())
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert holds_warn_due(now=clock() + timedelta(hours=23, minutes=30), ahead=timedelta(hours=1)) == 2
    [mail] = mailoutbox
    assert mail.to == ["alice@acme.example"] and mail.subject == "Your hold ends soon: Denver offsite"
    assert mail.body.count("pay by Wed Dec 2, 9:00 AM EST") == 2
    assert SITE + reverse("web:trip", args=[trip.pk]) in mail.body


@pytest.mark.django_db(transaction=True)
def test_the_booking_email_carries_the_itinerary_as_ics(people, trip, card, frozen, mailoutbox):
    traveller, approver = people
    approval = to_held(trip, traveller)
    token = approval_grant(approval=approval, approver=approver, reason="ok", now=frozen())
    mailoutbox.clear()
    purchase_submit(trip=trip, user=traveller, approval_token=token, payment_method_id=str(card.pk))
    booking = Booking.objects.get(trip=trip)
    [mail] = mailoutbox
    assert mail.to == [traveller.email] and mail.subject.startswith("Booked: ")
    assert all(locator in mail.body for locator in booking.record_locators)
    assert "4242" not in _texts(mailoutbox) and "visa" not in mail.body.lower() and "tdk_apv_" not in mail.body
    [(name, content, mimetype)] = mail.attachments
    assert name.endswith(".ics") and mimetype == "text/calendar"
    events = Calendar.from_ical(content).walk("VEVENT")
    snapshot = {item["hold_id"]: item["summary"] for item in approval.snapshot["items"]}
    flights = [snapshot[o["hold_id"]] for o in booking.orders if o["item_type"] == "flight"]
    hotels = [snapshot[o["hold_id"]] for o in booking.orders if o["item_type"] == "hotel"]
    assert len(events) == len(flights) + len(hotels) == len(booking.orders)
    starts = sorted(e.decoded("dtstart").isoformat() for e in events if "→" in str(e.get("summary")))
    from datetime import datetime

    assert starts == sorted(datetime.fromisoformat(f["depart_at"]).isoformat() for f in flights)
    [stay] = [e for e in events if str(e.get("summary")).startswith("Stay:")]
    assert stay.decoded("dtstart").isoformat() == hotels[0]["check_in"]
    assert stay.decoded("dtend").isoformat() == hotels[0]["check_out"]


@pytest.mark.django_db
def test_an_automatic_approval_is_emailed_to_the_traveller_and_a_reissue_is_not(
    people, trip, acme, clock, mailoutbox, django_capture_on_commit_callbacks
):
    traveller, _ = people
    acme.policy["rules"]["auto_approve_below"] = "2000.00"
    acme.save(update_fields=["policy"])
    hold_for(trip, now=clock())
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        token = approval_auto_grant(trip=trip, user=traveller, now=clock())
    [mail] = mailoutbox
    assert mail.to == ["alice@acme.example"] and mail.subject == "Approved: Denver offsite · $1,030.00"
    assert "Your company's policy approved, at your request, the purchase of Denver offsite: $1,030.00" in mail.body
    assert "Approved automatically: under $2,000.00" in mail.body and "Their note" not in mail.body
    assert SITE + reverse("web:trip", args=[trip.pk]) in mail.body and token not in mail.body
    approval = ApprovalRequest.objects.get(trip=trip)
    with django_capture_on_commit_callbacks(execute=True):
        fresh = approval_token_for_owner(trip=trip, user=traveller, approval_id=approval.pk, now=clock())
    assert fresh != token and len(mailoutbox) == 1, "paying re-issues the token quietly: no email"


@pytest.mark.django_db(transaction=True)
def test_a_request_overtaken_while_its_email_settles_emails_nobody(people, trip, clock, mailoutbox, settings):
    """The traveller holds one option and, a moment later, another: only the surviving request is emailed."""
    # Long enough that the second hold has committed before the first request's timer fires, even
    # on a loaded machine: a timer writing while this thread writes fails on SQLite's shared
    # in-memory test database ("table is locked"), which is the test's own race, not the product's.
    settings.TRIPDESK = {**settings.TRIPDESK, "APPROVAL_EMAIL_SETTLE_SECONDS": 3.0}
    hold_for(trip, now=clock())
    first = ApprovalRequest.objects.get(trip=trip)
    # The second request settles half a second after the first: two timers firing together would
    # write together, which SQLite's shared in-memory test database refuses in the same way (the
    # faster the second hold, the closer the two timers: seen failing a train).
    settings.TRIPDESK = {**settings.TRIPDESK, "APPROVAL_EMAIL_SETTLE_SECONDS": 3.5}
    hold_for(trip, now=clock(), suffix="2", amounts=("100.00", "200.00"))
    first.refresh_from_db()
    survivor = ApprovalRequest.objects.get(trip=trip, status=ApprovalRequest.Status.PENDING)
    assert first.status == ApprovalRequest.Status.SUPERSEDED and survivor.pk != first.pk
    assert mailoutbox == [], "nothing leaves at commit: the email settles first"
    # Wait for the two settle timers without reading the database meanwhile: on SQLite's shared
    # in-memory test database a read while a timer thread writes fails with "table is locked".
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(isinstance(t, threading.Timer) for t in threading.enumerate()):
        time.sleep(0.05)
    [mail] = mailoutbox
    assert SITE + reverse("admin:trips_approvalrequest_change", args=[survivor.pk]) in mail.body
    assert "$300.00" in mail.subject
    emailed = {e.causation_id: e.payload["recipients"] for e in AuditEvent.objects.filter(type="notification.emailed")}
    assert emailed == {f"approval.requested:{first.pk}": 0, f"approval.requested:{survivor.pk}": 1}


@pytest.mark.django_db
def test_approvers_are_found_by_their_role_in_this_organisation_in_one_query(
    people, trip, clock, globex, django_assert_max_num_queries
):
    """A user who approves for Globex but travels for Acme is not asked to decide Acme's request,
    and finding the deciders costs the same however many travellers the organisation has."""
    from trips.notifications.emails import approvers_of

    hold_for(trip, now=clock())
    approval = ApprovalRequest.objects.get(trip=trip)
    two_hats = user_make(organisation=globex, role=Membership.Role.APPROVER, username="hana")
    two_hats.email = "hana@example.com"
    two_hats.save(update_fields=["email"])
    Membership.objects.create(user=two_hats, organisation=trip.organisation, role=Membership.Role.TRAVELLER)
    for n in range(30):
        member = user_make(organisation=trip.organisation, username=f"t{n}")
        member.email = f"t{n}@acme.example"
        member.save(update_fields=["email"])
    with django_assert_max_num_queries(2):
        deciders = approvers_of(approval)
    assert [u.username for u in deciders] == ["ann"]
