"""Audited staff actions: an intermediate page asks for a reason; the action runs through a service."""

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.urls import reverse
from django.utils import timezone

from tests.factories import sign_in, trip_make
from trips.models import ApprovalRequest, AuditEvent, ChatMessage, ToolRun, Trip
from trips.services.approvals import approval_request_create
from trips.services.toolruns import toolrun_record

CHANGELIST = "admin:trips_trip_changelist"


def _action(client, action, trips, reason=None):
    data = {"action": action, ACTION_CHECKBOX_NAME: [t.pk for t in trips]}
    if reason is not None:
        data.update(apply="1", reason=reason)
    return client.post(reverse(CHANGELIST), data)


def test_flag_asks_for_a_reason_first(client, support, trip):
    sign_in(client, support)
    page = _action(client, "flag_for_attention", [trip])
    assert page.status_code == 200 and b'name="reason"' in page.content
    assert not Trip.objects.get(pk=trip.pk).flagged
    assert _action(client, "flag_for_attention", [trip], reason="   ").status_code == 200  # blank: asked again
    assert not Trip.objects.get(pk=trip.pk).flagged


def test_flag_with_a_reason_is_audited(client, support, trip):
    sign_in(client, support)
    response = _action(client, "flag_for_attention", [trip], reason="traveller called, unhappy")
    assert response.status_code == 302
    assert Trip.objects.get(pk=trip.pk).flagged
    event = AuditEvent.objects.get(trip=trip, type="staff.flagged")
    assert event.payload == {"reason": "traveller called, unhappy"} and event.actor == f"staff:{support.pk}"


def test_support_cannot_flag_another_organisations_trip(client, support, globex):
    foreign = trip_make(organisation=globex)
    sign_in(client, support)
    _action(client, "flag_for_attention", [foreign], reason="x")
    assert not Trip.objects.get(pk=foreign.pk).flagged


def test_retry_reruns_the_turn_with_user_retry(client, support, trip, django_capture_on_commit_callbacks, monkeypatch):
    ran = []
    monkeypatch.setattr("trips.tasks.turns.turn_run", lambda *, trip_id: ran.append(trip_id) or 1)
    toolrun_record(
        trip_id=trip.pk,
        message_id=None,
        call_id="call_1",
        tool="flight_quote_search",
        arguments={},
        result={},
        success=False,
        error={"code": "timeout", "message": "slow", "retryable": True},
        latency_ms=15000,
        attempt=1,
        accounting=[],
    )
    sign_in(client, support)
    with django_capture_on_commit_callbacks(execute=True):
        _action(client, "retry_failed_tool", [trip], reason="supplier is back")
    message = ChatMessage.objects.get(trip=trip, role="system")
    assert message.event == {"type": "USER_RETRY", "data": {}}
    assert message.turn_status == ChatMessage.TurnStatus.QUEUED
    assert ran == [trip.pk]
    assert AuditEvent.objects.get(trip=trip, type="staff.tool_retried").payload["reason"] == "supplier is back"


def test_retry_without_a_failed_run_changes_nothing(client, support, trip):
    sign_in(client, support)
    _action(client, "retry_failed_tool", [trip], reason="why not")
    assert not ChatMessage.objects.filter(trip=trip).exists()
    assert not ToolRun.objects.exists()


@pytest.mark.parametrize("role", ["support", "superuser"])
def test_staff_actions_are_offered_to_support(role, request, client, trip):
    sign_in(client, request.getfixturevalue(role))
    body = client.get(reverse(CHANGELIST)).content.decode()
    for action in ("flag_for_attention", "retry_failed_tool", "release_holds"):
        assert f'value="{action}"' in body


def test_approvers_do_not_get_support_actions(client, approver, trip):
    sign_in(client, approver)
    body = client.get(reverse(CHANGELIST)).content.decode()
    assert 'value="flag_for_attention"' not in body
    _action(client, "flag_for_attention", [trip], reason="sneaky")
    assert not Trip.objects.get(pk=trip.pk).flagged


def test_support_does_not_see_approver_actions(client, support, approver, trip):
    intent = trip.intent
    intent["working_memory"]["holds"] = [
        {
            "hold_id": "hld_1",
            "item_type": "flight",
            "offer_id": "off_1",
            "segment_id": "seg_1",
            "status": "held",
            "payment_required_by": "2030-01-01T00:00:00+00:00",
            "held_total": {"amount": "100.00", "currency": "USD"},
        }
    ]
    approval_request_create(trip=trip, kind=ApprovalRequest.Kind.PURCHASE, trip_intent=intent, now=timezone.now())
    approval = ApprovalRequest.objects.get(trip=trip)
    url = reverse("admin:trips_approvalrequest_change", args=[approval.pk])
    sign_in(client, support)
    support_page = client.get(url).content.decode()
    sign_in(client, approver)
    approver_page = client.get(url).content.decode()
    for decision in ("grant", "deny"):
        assert f'value="{decision}"' not in support_page
        assert f'value="{decision}"' in approver_page
