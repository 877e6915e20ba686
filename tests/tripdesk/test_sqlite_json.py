"""SQLite keeps JSON columns as compact text (``tripdesk.db.sqlite3``) and gives back the same values."""

import pytest
from django.db import connection

from trips.models import AuditEvent

TRICKY = {"text": 'a "quoted" \\ back\\slash, {braces}: NULL, ünïcode ✈ → ★', "nested": [{"q": '"'}, None, 1.5]}


@pytest.mark.django_db
def test_json_is_stored_compactly_and_read_back_exactly(trip):
    if connection.vendor != "sqlite":
        pytest.skip("the embedded default's backend")
    AuditEvent.objects.create(trip=trip, seq=100, type="test.json", actor="test", payload=TRICKY)
    AuditEvent.objects.bulk_create(
        [
            AuditEvent(trip=trip, seq=101 + i, type="test.json", actor="test", payload={**TRICKY, "i": i})
            for i in range(2)
        ]
    )
    with connection.cursor() as cursor:
        cursor.execute("SELECT payload FROM trips_auditevent WHERE type = %s ORDER BY seq", ["test.json"])
        texts = [row[0] for row in cursor.fetchall()]
    assert len(texts) == 3
    for text in texts:
        assert '"nested":[{"q":"\\""},null,1.5]' in text, "no space after separators"
        assert "ünïcode ✈ → ★" in text, "non-ASCII as it is, not \\u escapes"
    stored = AuditEvent.objects.filter(trip=trip, type="test.json").order_by("seq")
    assert [event.payload for event in stored] == [TRICKY, {**TRICKY, "i": 0}, {**TRICKY, "i": 1}]
    assert AuditEvent.objects.filter(trip=trip, payload__text=TRICKY["text"]).count() == 3
    assert AuditEvent.objects.filter(trip=trip, payload__nested__0={"q": '"'}).count() == 3
