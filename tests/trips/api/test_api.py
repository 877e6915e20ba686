import base64

import pytest
import yaml
from django.urls import reverse
from drf_spectacular.validation import validate_schema
from rest_framework.test import APIClient

from tests.factories import trip_make
from trips.models import AuditEvent, ChatMessage
from trips.services.audit import audit_record
from trips.services.chat import chat_message_create


@pytest.fixture
def api():
    return APIClient()


def test_schema_is_served_and_valid(api, traveller):
    api.force_authenticate(traveller)
    response = api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi")
    assert response.status_code == 200
    schema = yaml.safe_load(response.content)
    validate_schema(schema)
    assert {
        "/api/trips/",
        "/api/trips/{id}/messages/",
        "/api/trips/{id}/events/",
        "/api/holds/",
        "/api/approvals/",
    } <= set(schema["paths"])


def test_anonymous_is_refused(api, trip):
    assert api.get("/api/trips/").status_code in (401, 403)


def test_basic_auth_works(api, traveller, trip):
    api.credentials(HTTP_AUTHORIZATION="Basic " + base64.b64encode(b"alice:pw").decode())
    response = api.get("/api/trips/")
    assert response.status_code == 200 and response.json()["results"][0]["id"] == trip.pk


def test_list_shows_only_visible_trips(api, trip, other_traveller, support, globex):
    trip_make(owner=other_traveller, organisation=trip.organisation)
    trip_make(organisation=globex)
    api.force_authenticate(support)
    assert len(api.get("/api/trips/").json()["results"]) == 2
    api.force_authenticate(other_traveller)
    ids = [t["id"] for t in api.get("/api/trips/").json()["results"]]
    assert trip.pk not in ids and len(ids) == 1


def test_someone_elses_trip_is_not_found(api, trip, other_traveller):
    api.force_authenticate(other_traveller)
    assert api.get(f"/api/trips/{trip.pk}/").status_code == 404
    assert api.get(f"/api/trips/{trip.pk}/messages/").status_code == 404
    assert api.get(f"/api/trips/{trip.pk}/events/").status_code == 404


def test_create_trip_for_my_organisation(api, traveller, acme):
    api.force_authenticate(traveller)
    response = api.post("/api/trips/", {"title": "Paris"}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert (body["title"], body["organisation"], body["owner"], body["phase"]) == (
        "Paris",
        acme.slug,
        "alice",
        "intake",
    )
    assert AuditEvent.objects.filter(trip_id=body["id"], type="trip.created").exists()


def test_retrieve_includes_the_intent(api, traveller, trip):
    api.force_authenticate(traveller)
    body = api.get(f"/api/trips/{trip.pk}/").json()
    assert body["intent"]["schema"] == "renglo.trip_intent.v1"


def test_messages_resume_after_seq(api, traveller, trip):
    for text in ("one", "two", "three"):
        chat_message_create(trip_id=trip.pk, message={"role": "assistant", "text": text})
    api.force_authenticate(traveller)
    body = api.get(f"/api/trips/{trip.pk}/messages/?after=1").json()
    assert [m["text"] for m in body["results"]] == ["two", "three"]
    assert api.get(f"/api/trips/{trip.pk}/messages/?after=x").status_code == 400


def test_format_suffixed_messages_and_events(api, traveller, trip):
    chat_message_create(trip_id=trip.pk, message={"role": "assistant", "text": "hello"})
    api.force_authenticate(traveller)
    messages = api.get(f"/api/trips/{trip.pk}/messages.json")
    assert messages.status_code == 200 and [m["text"] for m in messages.json()["results"]] == ["hello"]
    events = api.get(f"/api/trips/{trip.pk}/events.json")
    assert events.status_code == 200 and events.json()["results"][0]["type"] == "trip.created"


@pytest.mark.parametrize("value", ["-1", "1.5", "x", "١", str(2**63)])
def test_id_filters_outside_64_bits_or_not_whole_numbers_are_refused(api, traveller, trip, value):
    api.force_authenticate(traveller)
    response = api.get("/api/holds/", {"trip": value})
    assert response.status_code == 400 and "whole number" in response.json()["trip"]
    assert api.get(f"/api/trips/{trip.pk}/events/", {"after": value}).status_code == 400


def test_the_largest_id_is_a_valid_filter(api, traveller, trip):
    api.force_authenticate(traveller)
    assert api.get("/api/holds/", {"trip": str(2**63 - 1)}).json()["results"] == []


def test_page_size_and_offset_are_capped(api, traveller, trip):
    for n in range(3):
        chat_message_create(trip_id=trip.pk, message={"role": "assistant", "text": f"m{n}"})
    api.force_authenticate(traveller)
    body = api.get(f"/api/trips/{trip.pk}/messages/", {"limit": "9" * 25}).json()
    assert body["count"] == 3 and len(body["results"]) == 3
    body = api.get(f"/api/trips/{trip.pk}/messages/", {"limit": 1, "offset": "9" * 25}).json()
    assert body["results"] == [] and body["previous"] is not None


def test_no_page_is_longer_than_200(api, traveller, trip):
    ChatMessage.objects.bulk_create(
        ChatMessage(trip=trip, seq=n, role="assistant", text=f"m{n}") for n in range(1, 202)
    )
    api.force_authenticate(traveller)
    body = api.get(f"/api/trips/{trip.pk}/messages/", {"limit": 1000}).json()
    assert body["count"] == 201 and len(body["results"]) == 200 and body["next"]


def test_post_message_enqueues_the_turn_after_commit(
    api, traveller, trip, django_capture_on_commit_callbacks, monkeypatch
):
    ran = []

    def turn_run(*, trip_id: int) -> int:
        ran.append(trip_id)
        return ChatMessage.objects.filter(trip_id=trip_id).update(turn_status=ChatMessage.TurnStatus.DONE)

    monkeypatch.setattr("trips.tasks.turns.turn_run", turn_run)
    api.force_authenticate(traveller)
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(f"/api/trips/{trip.pk}/messages/", {"text": "hello", "client_id": "c1"}, format="json")
    assert response.status_code == 202 and response.json()["seq"] == 1
    assert ran == [trip.pk]
    with django_capture_on_commit_callbacks(execute=True):
        again = api.post(f"/api/trips/{trip.pk}/messages/", {"text": "hello", "client_id": "c1"}, format="json")
    assert again.json()["seq"] == 1 and ran == [trip.pk]  # same client_id, turn done: nothing new enqueued
    assert ChatMessage.objects.filter(trip=trip).count() == 1


def test_post_validates_the_body(api, traveller, trip):
    api.force_authenticate(traveller)
    url = f"/api/trips/{trip.pk}/messages/"
    assert api.post(url, {}, format="json").status_code == 400
    assert api.post(url, {"text": "x", "action": {"type": "hold"}}, format="json").status_code == 400
    assert api.post(url, {"action": {"type": "launch_rocket"}}, format="json").status_code == 400
    assert not ChatMessage.objects.filter(trip=trip).exists()


def test_staff_can_read_but_not_write_in_a_trip(api, support, trip):
    api.force_authenticate(support)
    assert api.get(f"/api/trips/{trip.pk}/events/").status_code == 200
    assert api.post(f"/api/trips/{trip.pk}/messages/", {"text": "hi"}, format="json").status_code == 403


def test_events_are_the_audit_trail(api, traveller, trip):
    api.force_authenticate(traveller)
    body = api.get(f"/api/trips/{trip.pk}/events/").json()
    assert [e["type"] for e in body["results"]] == ["trip.created"]


def test_holds_and_approvals_are_scoped(api, traveller, other_traveller, trip):
    api.force_authenticate(other_traveller)
    assert api.get(f"/api/holds/?trip={trip.pk}").json()["results"] == []
    assert api.get("/api/approvals/").status_code == 200
    assert api.get("/api/holds/?trip=abc").status_code == 400


def test_api_reverse_names(db):
    assert reverse("api:trip-list") == "/api/trips/"


def test_the_traveller_s_events_carry_no_staff_internals(api, traveller, support, trip):
    from trips.services.staff import trip_flag

    trip_flag(trip=trip, actor=support, reason="card looks stolen")
    audit_record(trip_id=trip.pk, type="hold.released", actor=f"user:{support.pk}", payload={"hold_id": "h1"})
    api.force_authenticate(traveller)
    events = api.get(f"/api/trips/{trip.pk}/events/").json()["results"]
    assert [e["type"] for e in events] == ["trip.created", "hold.released"]
    assert "stolen" not in str(events) and f"user:{support.pk}" not in str(events)
    assert events[1]["actor"] == "staff" and events[0]["actor"] == f"user:{traveller.pk}"
    api.force_authenticate(support)
    staff_view = api.get(f"/api/trips/{trip.pk}/events/").json()["results"]
    assert "staff.flagged" in [e["type"] for e in staff_view] and "stolen" in str(staff_view)
