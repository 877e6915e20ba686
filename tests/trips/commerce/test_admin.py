"""The approver queue in the admin: scoped, permission-gated, reasons asked, the token shown once."""

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.urls import reverse

from tests.factories import trip_make
from tests.trips.commerce.helpers import RecordingSupplier, hold_for
from trips.models import ApprovalRequest, AuditEvent, ChatMessage, Hold
from trips.services import tokens

QUEUE = reverse("admin:trips_approvalrequest_changelist")


def act(client, action, approval, **data):
    return client.post(QUEUE, {"action": action, ACTION_CHECKBOX_NAME: [approval.pk], **data})


@pytest.fixture
def globex_request(globex, clock):
    trip = trip_make(organisation=globex, title="Globex secret trip")
    hold_for(trip, now=clock(), suffix="g")
    return ApprovalRequest.objects.get(trip=trip)


def test_the_queue_shows_only_the_approvers_organisation(client, approver, pending_approval, globex_request):
    client.force_login(approver)
    page = client.get(QUEUE + "?status__exact=pending&kind__exact=purchase").content.decode()
    assert f">{pending_approval}<" in page and "Globex secret trip" not in page
    other = reverse("admin:trips_approvalrequest_change", args=[globex_request.pk])
    assert client.get(other).status_code == 302  # not found in their queryset: back to the admin index
    assert act(client, "grant", globex_request, apply="1").status_code == 302
    globex_request.refresh_from_db()
    assert globex_request.status == "pending"


def test_the_snapshot_is_shown_read_only(client, approver, pending_approval):
    client.force_login(approver)
    page = client.get(reverse("admin:trips_approvalrequest_change", args=[pending_approval.pk])).content.decode()
    assert "Total 1030.00 USD" in page and "Hotel Teatro" in page and "nonrefundable" in page
    assert 'name="snapshot"' not in page, "no editable snapshot field"
    assert "token_hash" not in page


def test_grant_asks_for_a_reason_then_shows_the_token_once(client, approver, pending_approval):
    client.force_login(approver)
    ask = act(client, "grant", pending_approval)
    assert ask.status_code == 200 and 'name="reason"' in ask.content.decode()
    pending_approval.refresh_from_db()
    assert pending_approval.status == "pending", "nothing happens before the reason page is applied"

    shown = act(client, "grant", pending_approval, apply="1", reason="Budget line 42")
    body = shown.content.decode()
    token = body.split('class="approval-token">')[1].split("<")[0]
    pending_approval.refresh_from_db()
    assert pending_approval.status == "granted" and tokens.token_matches(token, pending_approval.token_hash)
    assert "no-store" in shown["Cache-Control"]
    again = client.get(reverse("admin:trips_approvalrequest_change", args=[pending_approval.pk]))
    assert token not in again.content.decode()
    assert AuditEvent.objects.get(type="approval.granted").payload["reason"] == "Budget line 42"


def test_deny_needs_a_reason(client, approver, pending_approval):
    client.force_login(approver)
    blank = act(client, "deny", pending_approval, apply="1", reason="")
    assert blank.status_code == 200 and "This field is required" in blank.content.decode()
    done = act(client, "deny", pending_approval, apply="1", reason="Use the train")
    assert done.status_code == 302
    pending_approval.refresh_from_db()
    assert (pending_approval.status, pending_approval.reason) == ("denied", "Use the train")


def test_support_staff_can_read_the_queue_but_not_decide(client, support, pending_approval):
    client.force_login(support)
    page = client.get(QUEUE).content.decode()
    assert str(pending_approval) in page and 'value="grant"' not in page
    act(client, "grant", pending_approval, apply="1", reason="sneaky")
    pending_approval.refresh_from_db()
    assert pending_approval.status == "pending"


def test_holds_and_bookings_are_read_only(client, support, held_trip):
    client.force_login(support)
    for name in ("hold", "booking", "approvalrequest"):
        assert client.get(reverse(f"admin:trips_{name}_changelist")).status_code == 200
    hold = Hold.objects.first()
    page = client.get(reverse("admin:trips_hold_change", args=[hold.pk])).content.decode()
    assert hold.hold_id in page and 'name="status"' not in page
    assert client.get(reverse("admin:trips_hold_add")).status_code == 403


def test_cards_show_brand_and_last_digits_never_the_provider_reference(client, support, superuser, card):
    client.force_login(support)
    assert client.get(reverse("admin:trips_paymentmethod_changelist")).status_code == 403
    client.force_login(superuser)
    page = client.get(reverse("admin:trips_paymentmethod_change", args=[card.pk])).content.decode()
    assert "4242" in page and card.sandbox_reference not in page


def test_support_releases_a_hold_from_the_admin_with_a_reason(client, support, held_trip, monkeypatch):
    supplier = RecordingSupplier()
    monkeypatch.setattr("trips.admin.commerce.tool_deps", lambda clock: type("Deps", (), {"supplier": supplier}))
    hold = Hold.objects.get(hold_id="hld_f1")
    client.force_login(support)
    changelist = reverse("admin:trips_hold_changelist")
    ask = client.post(changelist, {"action": "release", ACTION_CHECKBOX_NAME: [hold.pk]})
    assert ask.status_code == 200 and 'name="reason"' in ask.content.decode()
    client.post(changelist, {"action": "release", ACTION_CHECKBOX_NAME: [hold.pk], "apply": "1", "reason": "Dup"})
    hold.refresh_from_db()
    assert hold.status == Hold.Status.RELEASED and supplier.released == ["hld_f1"]
    assert AuditEvent.objects.get(type="hold.released").payload["reason"] == "Dup"


def test_releasing_a_trips_holds_together_tells_the_traveller_once(client, support, held_trip, monkeypatch):
    supplier = RecordingSupplier()
    monkeypatch.setattr("trips.admin.commerce.tool_deps", lambda clock: type("Deps", (), {"supplier": supplier}))
    holds = list(Hold.objects.filter(trip=held_trip))
    assert len(holds) == 2
    client.force_login(support)
    changelist = reverse("admin:trips_hold_changelist")
    ids = [h.pk for h in holds]
    client.post(changelist, {"action": "release", ACTION_CHECKBOX_NAME: ids, "apply": "1", "reason": "Trip off"})
    assert sorted(supplier.released) == sorted(h.hold_id for h in holds)
    [system] = ChatMessage.objects.filter(trip=held_trip, event__type="HOLDS_CHANGED")
    assert sorted(system.event["data"]["hold_ids"]) == sorted(h.hold_id for h in holds)
