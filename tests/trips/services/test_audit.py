import pytest
from django.db import transaction

from trips.models import AppendOnlyError, AuditEvent
from trips.services.audit import audit_event_create, audit_record


def test_audit_seq_is_per_trip_and_gap_free(trip):
    other = type(trip).objects.get(pk=trip.pk)  # same trip: seq continues after trip.created
    for _ in range(3):
        audit_event_create(trip_id=other.pk, type="staff.note", actor="system", payload={})
    assert list(AuditEvent.objects.filter(trip=trip).values_list("seq", flat=True)) == [1, 2, 3, 4]


def test_rolled_back_write_takes_its_seq_with_it(trip):
    with pytest.raises(RuntimeError, match="boom"):
        with transaction.atomic():
            audit_record(trip_id=trip.pk, type="doomed", actor="system")
            raise RuntimeError("boom")
    event = audit_event_create(trip_id=trip.pk, type="kept", actor="system")
    assert event.seq == 2


def test_payload_is_redacted(trip):
    event = audit_event_create(
        trip_id=trip.pk,
        type="x",
        actor="system",
        payload={"approval_token": "tdk_apv_abcdefghijklmnop", "note": "use tdk_apv_abcdefghijklmnop now"},
    )
    event.refresh_from_db()
    assert "tdk_apv_" not in str(event.payload)
    assert event.payload["approval_token"] == "[REDACTED]"


@pytest.mark.django_db(transaction=True)
def test_audit_record_needs_the_callers_transaction(trip):
    with pytest.raises(RuntimeError, match="inside the transaction"):
        audit_record(trip_id=trip.pk, type="x", actor="system")


def test_audit_events_cannot_be_changed_or_deleted(trip):
    event = AuditEvent.objects.get(trip=trip)
    event.type = "tampered"
    with pytest.raises(AppendOnlyError):
        event.save()
    with pytest.raises(AppendOnlyError):
        event.delete()
    with pytest.raises(AppendOnlyError):
        AuditEvent.objects.filter(trip=trip).update(type="tampered")
    with pytest.raises(AppendOnlyError):
        AuditEvent.objects.filter(trip=trip).delete()
    assert AuditEvent.objects.get(trip=trip).type == "trip.created"
