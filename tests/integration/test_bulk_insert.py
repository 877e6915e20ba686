"""PostgreSQL bulk inserts go as multi-row VALUES (``tripdesk.db.postgresql``) and store JSON exactly."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from trips.models import AuditEvent

TRICKY = {"text": 'a "quoted" \\ back\\slash, {braces}, NULL, ünïcode ✈', "nested": [{"q": '"'}, None, 1.5]}


@pytest.mark.django_db
def test_bulk_create_sends_rows_not_arrays_and_keeps_json_exact(trip):
    if connection.vendor != "postgresql":
        pytest.skip("needs DATABASE_URL=postgres://…")
    rows = [
        AuditEvent(trip=trip, seq=100 + i, type="test.bulk", actor="test", payload={**TRICKY, "i": i}) for i in range(3)
    ]
    with CaptureQueriesContext(connection) as queries:
        AuditEvent.objects.bulk_create(rows)
    (insert,) = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("INSERT")]
    assert "UNNEST" not in insert and insert.count("), (") == 2
    stored = AuditEvent.objects.filter(trip=trip, type="test.bulk").order_by("seq")
    assert [event.payload for event in stored] == [{**TRICKY, "i": i} for i in range(3)]
