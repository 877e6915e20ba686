"""Approval requests: the server's snapshot, who may decide, and what a decision leaves behind."""

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from tests.factories import user_make
from trips.models import ApprovalRequest, AuditEvent, ChatMessage, Membership
from trips.services import tokens
from trips.services.approvals import approval_auto_grant, approval_deny, approval_grant, approval_revoke


def test_new_holds_open_one_purchase_request_with_the_servers_snapshot(pending_approval, held_trip, clock):
    snap = pending_approval.snapshot
    assert pending_approval.kind == ApprovalRequest.Kind.PURCHASE
    assert pending_approval.organisation_id == held_trip.organisation_id
    assert [i["hold_id"] for i in snap["items"]] == ["hld_f1", "hld_h1"]
    assert snap["total"] == "1030.00" and snap["currency"] == "USD"
    assert snap["earliest_deadline"] == (clock() + timedelta(hours=24)).isoformat()
    assert snap["policy_findings"]["warnings"][0]["code"] == "nonrefundable"
    assert pending_approval.hold_ids == ["hld_f1", "hld_h1"]
    assert pending_approval.expires_at == clock() + timedelta(hours=24)
    assert pending_approval.token_hash == ""
    assert AuditEvent.objects.filter(trip=held_trip, type="approval.requested").count() == 1
    assert ChatMessage.objects.filter(trip=held_trip, widget__type="approval").exists()


def test_grant_returns_the_token_once_and_stores_only_its_hash(pending_approval, approver, clock, held_trip):
    token = approval_grant(approval=pending_approval, approver=approver, reason="ok", now=clock())
    pending_approval.refresh_from_db()
    assert pending_approval.status == ApprovalRequest.Status.GRANTED
    assert pending_approval.decided_by == approver
    assert tokens.token_matches(token, pending_approval.token_hash)
    granted = AuditEvent.objects.get(trip=held_trip, type="approval.granted")
    assert granted.actor == f"staff:{approver.pk}" and granted.payload["amount_ceiling"] == "1030.00"
    assert "Approved" in ChatMessage.objects.filter(trip=held_trip).last().text
    assert token not in str(list(ChatMessage.objects.values_list("text", "widget")))
    assert token not in str(list(AuditEvent.objects.values_list("payload", flat=True)))


def test_a_grant_offers_the_purchase_to_the_page_without_any_token(
    pending_approval, approver, clock, held_trip, django_capture_on_commit_callbacks, monkeypatch
):
    """Issue 12: the page learns it may pay from a status frame; no token travels to any browser."""
    monkeypatch.setattr("django.utils.timezone.now", clock)
    sent = []
    monkeypatch.setattr("trips.services.chat._frames_send_now", sent.extend)
    with django_capture_on_commit_callbacks(execute=True):
        token = approval_grant(approval=pending_approval, approver=approver, reason="ok", now=clock())
    assert token not in str(sent)
    assert all(trip_id == held_trip.pk for trip_id, _ in sent)
    offer = [frame for _, frame in sent if frame["type"] == "status"][-1]["purchase"]
    assert offer["approval_id"] == pending_approval.pk
    assert (offer["amount"], offer["currency"]) == ("1030.00", "USD")
    # Neither summary says it is refundable: unknown counts as non-refundable, what the traveller could lose.
    assert [item["refundable"] for item in offer["items"]] == [False, False]


def test_a_denial_takes_the_purchase_off_the_page(
    granted, approver, clock, held_trip, django_capture_on_commit_callbacks, monkeypatch
):
    approval, _ = granted
    monkeypatch.setattr("django.utils.timezone.now", clock)
    sent = []
    monkeypatch.setattr("trips.services.chat._frames_send_now", lambda frames: sent.extend(f for _, f in frames))
    with django_capture_on_commit_callbacks(execute=True):
        approval_revoke(approval=approval, actor=approver, reason="Over budget after all", now=clock())
    assert [frame["purchase"] for frame in sent if frame["type"] == "status"] == [None]


def test_reissuing_revokes_the_previous_token(pending_approval, approver, clock, held_trip):
    first = approval_grant(approval=pending_approval, approver=approver, now=clock())
    second = approval_grant(approval=pending_approval, approver=approver, now=clock())
    pending_approval.refresh_from_db()
    assert first != second
    assert tokens.token_matches(second, pending_approval.token_hash)
    assert not tokens.token_matches(first, pending_approval.token_hash)
    assert AuditEvent.objects.filter(trip=held_trip, type="approval.reissued").count() == 1


def test_travellers_and_support_cannot_grant(pending_approval, traveller, support, clock):
    for user in (traveller, support):
        with pytest.raises(PermissionDenied):
            approval_grant(approval=pending_approval, approver=user, now=clock())
    pending_approval.refresh_from_db()
    assert pending_approval.status == ApprovalRequest.Status.PENDING


def test_an_approver_of_another_organisation_cannot_grant_or_deny(pending_approval, globex_approver, clock):
    with pytest.raises(PermissionDenied, match="another organisation"):
        approval_grant(approval=pending_approval, approver=globex_approver, now=clock())
    with pytest.raises(PermissionDenied):
        approval_deny(approval=pending_approval, approver=globex_approver, reason="no", now=clock())
    pending_approval.refresh_from_db()
    assert pending_approval.status == ApprovalRequest.Status.PENDING and pending_approval.token_hash == ""


def test_an_approver_cannot_approve_their_own_trip(acme, clock):
    from tests.factories import trip_make
    from tests.trips.commerce.helpers import hold_for

    boss = user_make(organisation=acme, role=Membership.Role.APPROVER, username="boss")
    trip = trip_make(owner=boss, organisation=acme)
    hold_for(trip, now=clock())
    with pytest.raises(PermissionDenied, match="own trips"):
        approval_grant(approval=ApprovalRequest.objects.get(trip=trip), approver=boss, now=clock())


def test_a_superuser_may_decide_for_any_organisation(pending_approval, superuser, clock):
    assert approval_grant(approval=pending_approval, approver=superuser, now=clock())


def test_deny_needs_a_reason_and_tells_the_traveller(pending_approval, approver, clock, held_trip):
    with pytest.raises(ValidationError):
        approval_deny(approval=pending_approval, approver=approver, reason="  ", now=clock())
    approval_deny(approval=pending_approval, approver=approver, reason="Over the team budget", now=clock())
    pending_approval.refresh_from_db()
    assert pending_approval.status == ApprovalRequest.Status.DENIED
    assert ChatMessage.objects.filter(trip=held_trip).last().text.endswith("Over the team budget")
    assert AuditEvent.objects.get(trip=held_trip, type="approval.denied").payload["reason"] == "Over the team budget"
    with pytest.raises(ValidationError):
        approval_grant(approval=pending_approval, approver=approver, now=clock())


def test_revoke_closes_a_granted_request(granted, approver, clock, held_trip):
    approval, _ = granted
    approval_revoke(approval=approval, actor=approver, reason="Trip cancelled by manager", now=clock())
    approval.refresh_from_db()
    assert approval.status == ApprovalRequest.Status.REVOKED
    assert AuditEvent.objects.filter(trip=held_trip, type="approval.revoked").exists()


def test_grant_refuses_once_a_hold_has_passed_its_deadline(pending_approval, approver, clock):
    with pytest.raises(ValidationError, match="deadline"):
        approval_grant(approval=pending_approval, approver=approver, now=clock.advance(hours=25))
    pending_approval.refresh_from_db()
    assert pending_approval.status == ApprovalRequest.Status.EXPIRED and pending_approval.token_hash == ""


def test_auto_approval_is_off_by_default(pending_approval, traveller, held_trip, clock):
    with pytest.raises(PermissionDenied):
        approval_auto_grant(trip=held_trip, user=traveller, now=clock())
    pending_approval.refresh_from_db()
    assert pending_approval.status == ApprovalRequest.Status.PENDING


def test_auto_approval_below_the_policy_threshold_on_the_travellers_request(
    pending_approval, traveller, other_traveller, held_trip, clock
):
    policy = held_trip.organisation.policy
    policy["rules"]["auto_approve_below"] = "1000.00"
    held_trip.organisation.save(update_fields=["policy"])
    with pytest.raises(PermissionDenied):  # 1030.00 is not under 1000.00
        approval_auto_grant(trip=held_trip, user=traveller, now=clock())
    policy["rules"]["auto_approve_below"] = "2000.00"
    held_trip.organisation.save(update_fields=["policy"])
    with pytest.raises(PermissionDenied):
        approval_auto_grant(trip=held_trip, user=other_traveller, now=clock())
    token = approval_auto_grant(trip=held_trip, user=traveller, now=clock())
    pending_approval.refresh_from_db()
    assert pending_approval.auto_approved and tokens.token_matches(token, pending_approval.token_hash)
    event = AuditEvent.objects.get(trip=held_trip, type="approval.granted")
    assert event.payload["auto"] is True and event.actor == f"user:{traveller.pk}"
