"""Every changelist and change page opens for a superuser, support staff and an approver."""

import pytest
from django.contrib import admin
from django.urls import reverse

from tests.factories import sign_in, trip_make
from trips.models import AuditEvent, Trip

ROLES = ["superuser", "support", "approver"]


def _registered_models():
    return [model for model in admin.site._registry if model._meta.app_label == "trips"]


@pytest.mark.parametrize("role", ROLES)
def test_every_changelist_opens(role, request, client, populated):
    user = request.getfixturevalue(role)
    sign_in(client, user)
    for model in _registered_models():
        opts = model._meta
        if not user.has_perm(f"trips.view_{opts.model_name}") and not user.is_superuser:
            continue
        response = client.get(reverse(f"admin:trips_{opts.model_name}_changelist"))
        assert response.status_code == 200, (model, response.status_code)


@pytest.mark.parametrize("role", ROLES)
def test_every_change_page_opens(role, request, client, populated):
    user = request.getfixturevalue(role)
    sign_in(client, user)
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
    sign_in(client, support)
    body = client.get(reverse("admin:trips_trip_change", args=[populated.pk])).content.decode()
    assert "renglo.trip_intent.v1" in body
    assert "Hello" in body
    assert "trip.created" in body


def test_staff_see_only_their_organisations_trips(client, support, populated, globex):
    foreign = trip_make(organisation=globex, title="Globex secret trip")
    sign_in(client, support)
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
    sign_in(client, user)
    event = AuditEvent.objects.filter(trip=populated).order_by("seq").first()
    assert client.get(reverse("admin:trips_auditevent_add")).status_code == 403
    assert client.get(reverse("admin:trips_auditevent_delete", args=[event.pk])).status_code == 403
    response = client.post(reverse("admin:trips_auditevent_change", args=[event.pk]), {"type": "tampered"})
    assert response.status_code == 403
    assert AuditEvent.objects.get(pk=event.pk).type == "trip.created"


def test_trip_list_has_no_n_plus_one(client, superuser, acme, django_assert_max_num_queries):
    for n in range(8):
        trip_make(organisation=acme, title=f"trip {n}")
    sign_in(client, superuser)
    with django_assert_max_num_queries(12):
        assert client.get(reverse("admin:trips_trip_changelist")).status_code == 200
    assert Trip.objects.count() == 8
