"""Approval by policy on the traveller's explicit request (issue 8, item 6): service, REST, websocket.

The organisation's ``rules.auto_approve_below`` is off by default; the held trip's pending
purchase is 1030.00 USD. A grant hands the token to the traveller's page as the approver's
grant does (an ephemeral ``approval_token`` frame); every refusal changes nothing and is audited.
"""

import pytest
from asgiref.sync import sync_to_async
from django.core.exceptions import ValidationError
from rest_framework.test import APIClient

from tests.trips.chat.conftest import frames_until, socket
from tests.trips.commerce.helpers import hold_for
from trips.models import ApprovalRequest, AuditEvent, ChatMessage
from trips.services import tokens
from trips.services.approvals import approval_auto_grant, approval_grant
from trips.services.approvals.requests import approval_widget


def policy_allows_below(organisation, amount):
    organisation.policy["rules"]["auto_approve_below"] = amount
    organisation.save(update_fields=["policy"])


@pytest.fixture
def lenient_trip(trip, acme, clock):
    """A held trip whose organisation approves purchases under 2000.00 on the traveller's request."""
    policy_allows_below(acme, "2000.00")
    hold_for(trip, now=clock())
    return trip


def approval_of(trip) -> ApprovalRequest:
    return ApprovalRequest.objects.get(trip=trip, kind=ApprovalRequest.Kind.PURCHASE)


def refusals(trip) -> list[str]:
    return [e.payload["reason"] for e in AuditEvent.objects.filter(trip=trip, type="approval.auto_refused")]


# --- the service ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_approval_widget_says_whether_the_policy_covers_the_request(lenient_trip, acme):
    pending = approval_of(lenient_trip)
    assert approval_widget(pending)["auto_approvable"] is True
    policy_allows_below(acme, "1030.00")  # strictly below: 1030.00 itself needs an approver
    pending.refresh_from_db()
    assert approval_widget(pending)["auto_approvable"] is False
    stored = ChatMessage.objects.filter(trip=lenient_trip, widget__type="approval").last()
    assert stored.widget["auto_approvable"] is True  # what the page was shown when the request opened


@pytest.mark.django_db
def test_by_default_the_widget_offers_nothing(pending_approval):
    assert approval_widget(pending_approval)["auto_approvable"] is False


@pytest.mark.django_db
def test_a_refusal_changes_nothing_and_is_audited(held_trip, pending_approval, traveller, clock):
    with pytest.raises(Exception, match="needs an approver"):
        approval_auto_grant(trip=held_trip, user=traveller, now=clock())
    pending_approval.refresh_from_db()
    assert pending_approval.status == ApprovalRequest.Status.PENDING and pending_approval.token_hash == ""
    assert refusals(held_trip) == ["Your organisation's policy needs an approver for this purchase."]
    assert not AuditEvent.objects.filter(trip=held_trip, type="approval.granted").exists()


@pytest.mark.django_db
def test_nothing_pending_is_refused_and_audited(lenient_trip, approver, traveller, clock):
    approval_grant(approval=approval_of(lenient_trip), approver=approver, now=clock())
    with pytest.raises(ValidationError, match="no purchase waiting"):
        approval_auto_grant(trip=lenient_trip, user=traveller, now=clock())
    assert refusals(lenient_trip) == ["There is no purchase waiting for approval."]
    assert not approval_of(lenient_trip).auto_approved


@pytest.mark.django_db
def test_dead_holds_are_not_approved_by_policy(lenient_trip, traveller, clock):
    with pytest.raises(ValidationError, match="no longer held"):
        approval_auto_grant(trip=lenient_trip, user=traveller, now=clock.advance(hours=25))
    assert approval_of(lenient_trip).status == ApprovalRequest.Status.PENDING


# --- REST: POST /api/trips/<id>/auto-approve/ ----------------------------------------------------


def auto_approve_over_http(user, trip):
    client = APIClient()
    client.force_authenticate(user)
    return client.post(f"/api/trips/{trip.pk}/auto-approve/")


@pytest.mark.django_db
def test_the_api_grants_under_the_threshold_and_returns_the_token_once(lenient_trip, traveller, frozen):
    response = auto_approve_over_http(traveller, lenient_trip)
    assert response.status_code == 200, response.content
    assert response["Cache-Control"] == "no-store"
    approval = approval_of(lenient_trip)
    assert approval.status == ApprovalRequest.Status.GRANTED and approval.auto_approved
    assert tokens.token_matches(response.data["approval_token"], approval.token_hash)
    assert response.data["approval"]["id"] == approval.pk and "token_hash" not in response.data["approval"]
    event = AuditEvent.objects.get(trip=lenient_trip, type="approval.granted")
    assert event.payload["auto"] is True and event.actor == f"user:{traveller.pk}"
    assert response.data["approval_token"] not in str(list(ChatMessage.objects.values_list("text", "widget")))
    again = auto_approve_over_http(traveller, lenient_trip)  # the same press again: nothing more, no error
    assert again.status_code == 200 and again.data["approval_token"] is None
    assert again.data["approval"]["id"] == approval.pk
    approval.refresh_from_db()
    assert tokens.token_matches(response.data["approval_token"], approval.token_hash)  # the first token still works
    assert AuditEvent.objects.filter(trip=lenient_trip, type="approval.granted").count() == 1
    assert not refusals(lenient_trip)


@pytest.mark.django_db
def test_a_repeated_press_grants_nothing_twice_and_refuses_nothing(lenient_trip, traveller, clock):
    """A double click or a second tab asks again once the request is approved by policy: no second grant, no error."""
    token = approval_auto_grant(trip=lenient_trip, user=traveller, now=clock())
    said = ChatMessage.objects.filter(trip=lenient_trip).count()
    assert approval_auto_grant(trip=lenient_trip, user=traveller, now=clock()) is None
    approval = approval_of(lenient_trip)
    assert approval.status == ApprovalRequest.Status.GRANTED and tokens.token_matches(token, approval.token_hash)
    assert AuditEvent.objects.filter(trip=lenient_trip, type="approval.granted").count() == 1
    assert not refusals(lenient_trip)
    assert ChatMessage.objects.filter(trip=lenient_trip).count() == said  # nothing said twice either


@pytest.mark.django_db
@pytest.mark.parametrize("threshold", [None, "1000.00"], ids=["default-policy", "over-the-threshold"])
def test_the_api_refuses_where_the_policy_needs_an_approver(held_trip, acme, traveller, frozen, threshold):
    if threshold:
        policy_allows_below(acme, threshold)
    response = auto_approve_over_http(traveller, held_trip)
    assert response.status_code == 403
    assert "needs an approver" in response.data["detail"]
    assert approval_of(held_trip).status == ApprovalRequest.Status.PENDING
    assert len(refusals(held_trip)) == 1


@pytest.mark.django_db
def test_the_api_lets_only_the_traveller_ask(lenient_trip, support, approver, other_traveller, frozen):
    assert auto_approve_over_http(support, lenient_trip).status_code == 403
    assert auto_approve_over_http(approver, lenient_trip).status_code == 403  # not even an approver, by policy
    assert auto_approve_over_http(other_traveller, lenient_trip).status_code == 404
    assert APIClient().post(f"/api/trips/{lenient_trip.pk}/auto-approve/").status_code in (401, 403)
    assert approval_of(lenient_trip).status == ApprovalRequest.Status.PENDING
    assert len(refusals(lenient_trip)) == 2  # the two who could see the trip


# --- the websocket action ------------------------------------------------------------------------

AUTO_APPROVE = {"type": "action", "action": {"type": "auto_approve"}, "client_id": "auto1"}


async def frames_until_each(ws, *types: str) -> list[dict]:
    frames: list[dict] = []
    while not set(types) <= {f["type"] for f in frames}:
        frames += await frames_until(ws, lambda f: f["type"] in types)
    return frames


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_socket_grants_under_the_threshold_and_offers_the_page_to_pay(
    support, traveller, lenient_trip, frozen
):
    async with socket(traveller, lenient_trip.pk) as ws, socket(support, lenient_trip.pk) as watcher:
        history = await frames_until(ws, lambda f: f["type"] == "status")
        await frames_until(watcher, lambda f: f["type"] == "status")
        offered = [f["widget"] for f in history if (f.get("widget") or {}).get("type") == "approval"]
        assert offered[-1]["auto_approvable"] is True
        await ws.send_json_to(AUTO_APPROVE)
        frames = await frames_until_each(ws, "status", "ack")  # in either order
        watched = await frames_until(watcher, lambda f: f["type"] == "message")

    approval = await sync_to_async(approval_of)(lenient_trip)
    assert approval.status == ApprovalRequest.Status.GRANTED and approval.token_hash
    offer = next(f for f in frames if f["type"] == "status")["purchase"]
    assert offer["approval_id"] == approval.pk and offer["amount"] == str(approval.amount_ceiling)
    assert "tdk_apv_" not in str(frames + watched), "no token reaches any page: paying re-issues one on the server"
    assert {"type": "ack", "client_id": "auto1", "seq": None} in frames
    granted = next(f for f in frames if f["type"] == "message")
    assert granted["widget"]["status"] == "granted" and granted["widget"]["auto_approvable"] is False
    assert watched[-1]["seq"] == granted["seq"]
    event = await sync_to_async(AuditEvent.objects.get)(trip=lenient_trip, type="approval.granted")
    assert event.payload["auto"] is True and event.actor == f"user:{traveller.pk}"
    stored = await sync_to_async(list)(ChatMessage.objects.values_list("text", "widget", "event"))
    assert "tdk_apv_" not in str(stored)


async def refused_over_the_socket(user, trip) -> dict:
    async with socket(user, trip.pk) as ws:
        await frames_until(ws, lambda f: f["type"] == "status")
        await ws.send_json_to(AUTO_APPROVE)
        refusal = await ws.receive_json_from(timeout=5)
        assert await ws.receive_nothing(timeout=0.3), "no token, no ack"
    approval = await sync_to_async(approval_of)(trip)
    assert approval.status == ApprovalRequest.Status.PENDING and approval.token_hash == ""
    return refusal


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_socket_refuses_over_the_threshold(traveller, held_trip, acme, frozen):
    await sync_to_async(policy_allows_below)(acme, "1000.00")
    refusal = await refused_over_the_socket(traveller, held_trip)
    assert refusal == {
        "type": "error",
        "code": "refused",
        "client_id": "auto1",
        "message": "Your organisation's policy needs an approver for this purchase.",
    }
    assert len(await sync_to_async(refusals)(held_trip)) == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_socket_refuses_under_the_default_policy(traveller, held_trip, frozen):
    refusal = await refused_over_the_socket(traveller, held_trip)
    assert (refusal["code"], refusal["client_id"]) == ("refused", "auto1")
    assert "needs an approver" in refusal["message"]
    assert len(await sync_to_async(refusals)(held_trip)) == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_staff_connection_cannot_ask(support, lenient_trip, frozen):
    refusal = await refused_over_the_socket(support, lenient_trip)
    assert (refusal["code"], refusal["client_id"]) == ("read_only", "auto1")
