"""Every changelist and change page opens for a superuser, support staff and an approver."""

import pytest
from django.contrib import admin
from django.urls import reverse
from django.utils import timezone

from tests.factories import trip_make
from trips.models import ApprovalRequest, AuditEvent, Trip
from trips.services.approvals import approval_consume
from trips.services.chat import chat_message_create
from trips.services.holds import holds_sync
from trips.services.purchases import payment_method_create
from trips.services.toolruns import toolrun_record

ROLES = ["superuser", "support", "approver"]


HELD = {
    "hold_id": "hld_smoke",
    "item_type": "flight",
    "offer_id": "off_1",
    "segment_id": "seg_1",
    "status": "held",
    "payment_required_by": "2030-01-01T00:00:00+00:00",
    "price_guarantee_expires_at": None,
    "held_total": {"amount": "100.00", "currency": "USD"},
    "idempotency_key": "k1",
    "created_at": "2026-12-01T14:00:00+00:00",
}


@pytest.fixture
def populated(trip, traveller):
    """A trip with a row in every table the back office shows."""
    now = timezone.now()
    chat_message_create(trip_id=trip.pk, message={"role": "assistant", "text": "Hello"})
    toolrun_record(
        trip_id=trip.pk,
        message_id=None,
        call_id="call_1",
        tool="flight_quote_search",
        arguments={"a": 1},
        result={"success": True},
        success=True,
        error=None,
        latency_ms=12,
        attempt=1,
        accounting=[],
    )
    intent = {**trip.intent, "working_memory": {**trip.intent["working_memory"], "holds": [HELD]}}
    holds_sync(trip=trip, trip_intent=intent, now=now)
    approval = ApprovalRequest.objects.get(trip=trip)
    approval_consume(
        approval_id=approval.pk,
        booking={"booking_id": "bk_1", "total": "100.00", "currency": "USD", "record_locators": ["ABC123"]},
        now=now,
    )
    payment_method_create(owner=traveller, brand="visa", last4="4242", label="Sandbox Visa")
    return trip


def _registered_models():
    return [model for model in admin.site._registry if model._meta.app_label == "trips"]


@pytest.mark.parametrize("role", ROLES)
def test_every_changelist_opens(role, request, client, populated):
    user = request.getfixturevalue(role)
    client.force_login(user)
    for model in _registered_models():
        opts = model._meta
        if not user.has_perm(f"trips.view_{opts.model_name}") and not user.is_superuser:
            continue
        response = client.get(reverse(f"admin:trips_{opts.model_name}_changelist"))
        assert response.status_code == 200, (model, response.status_code)


@pytest.mark.parametrize("role", ROLES)
def test_every_change_page_opens(role, request, client, populated):
    user = request.getfixturevalue(role)
    client.force_login(user)
    opened = []
    for model in _registered_models():
        obj = model._default_manager.order_by("pk").first()
        assert obj is not None, f"the fixture left {model.__name__} empty"
        if not user.is_superuser and not user.has_perm(f"trips.view_{model._meta.model_name}"):
            continue
        response = client.get(reverse(f"admin:trips_{model._meta.model_name}_change", args=[obj.pk]))
        assert response.status_code == 200, (model, response.status_code)
        opened.append(model._meta.model_name)
    assert {"trip", "auditevent", "toolrun", "hold", "approvalrequest", "booking"} <= set(opened)


def test_trip_page_shows_intent_chat_and_audit(client, support, populated):
    client.force_login(support)
    body = client.get(reverse("admin:trips_trip_change", args=[populated.pk])).content.decode()
    assert "renglo.trip_intent.v1" in body
    assert "Hello" in body
    assert "trip.created" in body


def test_staff_see_only_their_organisations_trips(client, support, populated, globex):
    foreign = trip_make(organisation=globex, title="Globex secret trip")
    client.force_login(support)
    body = client.get(reverse("admin:trips_trip_changelist")).content.decode()
    assert populated.title in body and foreign.title not in body
    assert client.get(reverse("admin:trips_trip_change", args=[foreign.pk])).status_code == 302  # not found → redirect
    assert (
        client.get(reverse("admin:trips_auditevent_changelist") + f"?trip__id__exact={foreign.pk}").status_code == 200
    )
    event = AuditEvent.objects.get(trip=foreign)
    assert client.get(reverse("admin:trips_auditevent_change", args=[event.pk])).status_code == 302


@pytest.mark.parametrize("role", ROLES)
def test_nobody_can_add_change_or_delete_audit_events(role, request, client, populated):
    user = request.getfixturevalue(role)
    client.force_login(user)
    event = AuditEvent.objects.filter(trip=populated).order_by("seq").first()
    assert client.get(reverse("admin:trips_auditevent_add")).status_code == 403
    assert client.get(reverse("admin:trips_auditevent_delete", args=[event.pk])).status_code == 403
    response = client.post(reverse("admin:trips_auditevent_change", args=[event.pk]), {"type": "tampered"})
    assert response.status_code == 403
    assert AuditEvent.objects.get(pk=event.pk).type == "trip.created"


def test_trip_list_has_no_n_plus_one(client, superuser, acme, django_assert_max_num_queries):
    for n in range(8):
        trip_make(organisation=acme, title=f"trip {n}")
    client.force_login(superuser)
    with django_assert_max_num_queries(12):
        assert client.get(reverse("admin:trips_trip_changelist")).status_code == 200
    assert Trip.objects.count() == 8
