"""The REST API fuzzed from its own OpenAPI schema (``/api/schema/``) with schemathesis, as a
signed-in traveller: whatever the parameters and bodies, no request gets a 5xx.

Half the generated ids are swapped for the traveller's real trip (and its hold and approval), so
the fuzz reaches the code behind a found object, not only the 404 in front of it. Turns are
queued, not run (Celery not eager): writes are fuzzed up to the service, the core has its own fuzz.
"""

from __future__ import annotations

import base64
from datetime import UTC, datetime
from itertools import count

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from tests.trips.commerce.helpers import hold_for
from tripdesk.celery import app as celery_app
from tripdesk.wsgi import application
from trips.models import ApprovalRequest, Hold

from .conftest import FIGURES

pytestmark = pytest.mark.django_db
NOW = datetime(2026, 12, 1, 14, 0, tzinfo=UTC)
_calls = count(1)
HUGE = "9" * 25  # beyond 64 bits: once reached the database (500) as a filter or a slice bound


schema = schemathesis.openapi.from_wsgi("/api/schema/", application)  # the schema view needs no database


@pytest.fixture
def signed_in(db, traveller, trip, monkeypatch):
    """Basic-auth headers for the traveller, and the ids of their trip's objects."""
    monkeypatch.setitem(celery_app.conf, "task_always_eager", False)
    hold_for(trip, now=NOW)
    token = base64.b64encode(b"alice:pw").decode()
    real = {
        "/api/trips/": trip.pk,
        "/api/holds/": Hold.objects.filter(trip=trip).first().pk,
        "/api/approvals/": ApprovalRequest.objects.get(trip=trip).pk,
    }
    return {"Authorization": f"Basic {token}"}, real


@schema.parametrize()
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_request_gets_a_server_error(case, signed_in):
    headers, real = signed_in
    n = next(_calls)
    if n % 2 and "id" in (case.path_parameters or {}):
        case.path_parameters["id"] = next(pk for prefix, pk in real.items() if case.path.startswith(prefix))
    response = case.call(headers=headers)
    FIGURES["api calls fuzzed"] += 1
    FIGURES["api 5xx"] += response.status_code >= 500
    assert response.status_code < 500, f"{case.method} {case.formatted_path}: {response.status_code}"


@pytest.mark.parametrize("path", ["/api/holds/", "/api/approvals/"])
def test_an_out_of_range_trip_filter_is_refused(path, signed_in, client):
    headers, _ = signed_in
    client.raise_request_exception = False
    assert client.get(path, {"trip": HUGE}, HTTP_AUTHORIZATION=headers["Authorization"]).status_code == 400


@pytest.mark.parametrize("param", ["limit", "offset"])
@pytest.mark.parametrize("path", ["/api/trips/", "/api/holds/", "/api/approvals/"])
def test_an_out_of_range_page_size_is_not_a_server_error(path, param, signed_in, client):
    headers, _ = signed_in
    client.raise_request_exception = False
    assert client.get(path, {param: HUGE}, HTTP_AUTHORIZATION=headers["Authorization"]).status_code < 500


@pytest.mark.parametrize("action", ["messages", "events"])
def test_an_out_of_range_resume_point_is_refused(action, signed_in, client):
    headers, real = signed_in
    client.raise_request_exception = False
    path = f"/api/trips/{real['/api/trips/']}/{action}/"
    assert client.get(path, {"after": HUGE}, HTTP_AUTHORIZATION=headers["Authorization"]).status_code == 400
